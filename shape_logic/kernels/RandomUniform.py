"""RandomUniform: draws from [low, high) in the `shape` attribute's shape, of type `dtype`
(float32 by default); seeded by `seed` where given (kernels/random.py)."""
import numpy as np

from .base import REQUIRED, Kernel
from .random import float_out, generator, out_dtype


class RandomUniform(Kernel):
    attrs = {"dtype": 1, "high": 1.0, "low": 0.0, "seed": None, "shape": REQUIRED}
    n_inputs = (0, 0)
    widens_small_floats = False

    def run(self, dtype, high, low, seed, shape):
        dt = float_out(self, out_dtype(self, dtype))
        draws = generator(seed).uniform(low, high, [int(d) for d in shape])
        return np.asarray(draws).astype(dt)
