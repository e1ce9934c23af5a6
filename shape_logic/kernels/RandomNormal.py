"""RandomNormal: draws from N(mean, scale^2) in the `shape` attribute's shape, of type
`dtype` (float32 by default); seeded by `seed` where given (kernels/random.py)."""
import numpy as np

from .base import REQUIRED, Kernel
from .random import float_out, generator, out_dtype


class RandomNormal(Kernel):
    attrs = {"dtype": 1, "mean": 0.0, "scale": 1.0, "seed": None, "shape": REQUIRED}
    n_inputs = (0, 0)
    widens_small_floats = False

    def run(self, dtype, mean, scale, seed, shape):
        dt = float_out(self, out_dtype(self, dtype))
        draws = generator(seed).normal(mean, scale, [int(d) for d in shape])
        return np.asarray(draws).astype(dt)
