"""RandomUniformLike: draws from [low, high) in the input's shape, of type `dtype`, the
input's when not given; seeded by `seed` where given (kernels/random.py)."""
import numpy as np

from .base import Kernel
from .random import float_out, generator, out_dtype


class RandomUniformLike(Kernel):
    attrs = {"dtype": None, "high": 1.0, "low": 0.0, "seed": None}
    widens_small_floats = False

    def run(self, x, dtype, high, low, seed):
        dt = float_out(self, out_dtype(self, dtype, x.dtype))
        return np.asarray(generator(seed).uniform(low, high, x.shape)).astype(dt)
