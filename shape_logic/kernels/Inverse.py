"""Inverse (com.microsoft): the inverse of each square matrix over the last two axes."""
import numpy as np

from .base import Kernel


class Inverse(Kernel):
    domains = ("com.microsoft",)

    def run(self, x):
        if x.dtype not in (np.float16, np.float32, np.float64):
            raise self.fail(f"takes float16, float32 or float64, not {x.dtype}")
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise self.fail(f"input {list(x.shape)} is no stack of square matrices")
        # (LAPACK has no float16: onnxruntime inverts those in half precision, we in float32)
        a = x.astype(np.float32) if x.dtype == np.float16 else x
        try:
            y = np.linalg.inv(a)
        except np.linalg.LinAlgError:
            # a singular matrix: onnxruntime's LU divides by a zero pivot (inf and nan, no
            # error); each such matrix is all nan here, the others inverted
            flat = a.reshape((-1,) + a.shape[-2:])
            y = np.empty_like(flat)
            for k, m in enumerate(flat):
                try:
                    y[k] = np.linalg.inv(m)
                except np.linalg.LinAlgError:
                    y[k] = np.nan
            y = y.reshape(a.shape)
        return y.astype(x.dtype)
