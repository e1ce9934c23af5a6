"""RandomNormalLike: draws from N(mean, scale^2) in the input's shape, of type `dtype`, the
input's when not given; seeded by `seed` where given (kernels/random.py)."""
import numpy as np

from .base import Kernel
from .random import float_out, generator, out_dtype


class RandomNormalLike(Kernel):
    attrs = {"dtype": None, "mean": 0.0, "scale": 1.0, "seed": None}
    widens_small_floats = False

    def run(self, x, dtype, mean, scale, seed):
        dt = float_out(self, out_dtype(self, dtype, x.dtype))
        return np.asarray(generator(seed).normal(mean, scale, x.shape)).astype(dt)
