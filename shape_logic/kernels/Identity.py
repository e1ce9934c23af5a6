"""Identity: y = x (the same array: kernels never write into their inputs; an empty
optional, None, stays None)."""
from .base import Kernel


class Identity(Kernel):
    optional_inputs = frozenset({0})  # an empty optional (None) is copied too

    def run(self, x):
        return x
