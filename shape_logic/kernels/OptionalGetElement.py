"""OptionalGetElement: the element of an optional (a tensor or a sequence as it is); an
empty optional (None) has none to give."""
from .base import Kernel


class OptionalGetElement(Kernel):
    optional_inputs = frozenset({0})

    def run(self, x):
        if x is None:
            raise self.fail("the optional is empty")
        return x
