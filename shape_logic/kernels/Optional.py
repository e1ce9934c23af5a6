"""Optional: an optional holding its input, or (without one) an empty optional: None."""
from .base import Kernel


class Optional(Kernel):
    attrs = {"type": None}
    n_inputs = (0, 1)

    def run(self, x=None, type=None):
        if x is None and type is None:
            raise self.fail("an empty optional needs the 'type' attribute")
        return x
