"""Bernoulli: 1 with probability x, else 0, elementwise; of type `dtype`, x's when not
given; seeded by `seed` where given (kernels/random.py)."""
import numpy as np

from .base import Kernel
from .random import generator, out_dtype


class Bernoulli(Kernel):
    attrs = {"dtype": None, "seed": None}
    widens_small_floats = False

    def run(self, x, dtype, seed):
        p = np.asarray(x, np.float64)
        if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
            raise self.fail(f"needs probabilities of a float type, got {x.dtype}")
        dt = out_dtype(self, dtype, x.dtype)
        return (generator(seed).random(x.shape) < p).astype(dt)
