"""SampleOp (com.microsoft): onnxruntime's sample echo operator, Y = X (float32 and float16:
onnxruntime's only kernels)."""
import numpy as np

from .base import Kernel


class SampleOp(Kernel):
    domains = ("com.microsoft",)
    widens_small_floats = False

    def run(self, x):
        if x.dtype not in (np.float16, np.float32):
            raise self.fail(f"onnxruntime runs it on float32 and float16 only, not {x.dtype}")
        return x.copy()
