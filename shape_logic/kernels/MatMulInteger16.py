"""MatMulInteger16 (com.microsoft): numpy matmul of int16 or uint16 tensors (each its own),
accumulated into int32, wrapping around on overflow as onnxruntime's kernel does. The
result is int32 for any operand types (onnxruntime's type inference)."""
import numpy as np

from .base import Kernel


class MatMulInteger16(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (2, 2)

    def run(self, a, b):
        for x in (a, b):
            if x.dtype not in (np.int16, np.uint16):
                raise self.fail(f"needs int16 or uint16 operands, got {x.dtype}")
        if a.ndim == 0 or b.ndim == 0:
            raise self.fail(f"operands must not be scalars: {list(a.shape)} @ {list(b.shape)}")
        try:
            y = np.matmul(a.astype(np.int64), b.astype(np.int64))
        except ValueError:
            raise self.fail(f"shapes {list(a.shape)} and {list(b.shape)} do not multiply") \
                from None
        return y.astype(np.int32)  # (the low 32 bits: int32's wrap-around)
