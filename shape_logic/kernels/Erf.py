"""Erf: the error function, by the Chebyshev fit of erfc in Numerical Recipes (6.2),
fractional error below 1.2e-7 everywhere: vectorized, no SciPy."""
import numpy as np

from .families import UnaryFloat

_COEFFS = (-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807,
           -1.13520398, 1.48851587, -0.82215223, 0.17087277)


def erf(x: np.ndarray) -> np.ndarray:
    z = np.abs(x.astype(np.float64))
    t = 1.0 / (1.0 + 0.5 * z)
    poly = np.zeros_like(t)
    for c in reversed(_COEFFS):  # Horner over the ten coefficients
        poly = poly * t + c
    erfc = t * np.exp(-z * z + poly)
    return (np.sign(x) * (1.0 - erfc)).astype(x.dtype, copy=False)


class Erf(UnaryFloat):
    fn = staticmethod(erf)
