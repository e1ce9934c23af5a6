"""Identity: y = x (the same array: kernels never write into their inputs)."""
from .base import Kernel


class Identity(Kernel):
    def run(self, x):
        return x
