"""DequantizeLinear: y = (x - zero_point) * scale, the scale and zero point per tensor, per
axis or per block (kernels/quant.py); y has the scale's type (float32 before opset 19), or
`output_dtype`'s; com.microsoft's is the scale's type at any opset."""
import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype
from .quant import laid_out


class DequantizeLinear(Kernel):
    attrs = {"axis": 1, "block_size": 0, "output_dtype": 0}
    n_inputs = (2, 3)
    domains = ("", "com.microsoft")  # (onnxruntime's: opset 19's without blocks)
    widens_small_floats = False  # float8 x, bfloat16 scales: their types decide y's

    def run(self, x, scale, zero=None, axis=1, block_size=0, output_dtype=0):
        try:
            out = numpy_dtype(output_dtype, self.op) if output_dtype else \
                scale.dtype if self.opset >= 19 or self.domain else np.dtype(np.float32)
        except ValueError as e:
            raise self.fail(str(e)) from None
        if zero is not None and zero.dtype != x.dtype:
            raise self.fail(f"the zero point's type {zero.dtype} is not x's {x.dtype}")
        dx = x.astype(np.float32)
        z = laid_out(self, zero, x.shape, axis, block_size)
        if z is not None:
            dx = dx - z.astype(np.float32)
        y = dx * laid_out(self, scale, x.shape, axis, block_size).astype(np.float32)
        return y.astype(out)
