"""QuantizeLinear: y = saturate(round(x / scale) + zero_point), the scale and zero point per
tensor, per axis or per block (kernels/quant.py); y has the zero point's type, else
`output_dtype`'s, else uint8."""
import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype
from .quant import laid_out, quantize


class QuantizeLinear(Kernel):
    attrs = {"axis": 1, "block_size": 0, "output_dtype": 0, "saturate": 1, "precision": 0}
    n_inputs = (2, 3)
    domains = ("", "com.microsoft")  # (onnxruntime's: opset 19's without blocks)
    widens_small_floats = False  # bfloat16 x and scales are divided as they are

    def run(self, x, scale, zero=None, axis=1, block_size=0, output_dtype=0, saturate=1,
            precision=0):
        try:
            dtype = zero.dtype if zero is not None else \
                numpy_dtype(output_dtype, self.op) if output_dtype else np.dtype(np.uint8)
            if zero is not None and output_dtype and numpy_dtype(output_dtype, self.op) != dtype:
                raise ValueError(f"output_dtype {output_dtype} is not the zero point's "
                                 f"type {dtype}")
            work = numpy_dtype(precision, self.op) if precision else None
        except ValueError as e:
            raise self.fail(str(e)) from None
        s = laid_out(self, scale, x.shape, axis, block_size)
        z = laid_out(self, zero, x.shape, axis, block_size)
        # in `precision`'s type where given, else in the inputs' own (as onnx's reference:
        # float16 x and scale divide in float16, which rounds before the quantizing does)
        with np.errstate(divide="ignore", invalid="ignore"):
            q = x.astype(work) / s.astype(work) if work is not None else x / s
        q = np.asarray(q)
        if q.dtype.kind != "f":  # bfloat16 (ml_dtypes) rounds as float32 from here
            q = q.astype(np.float32)
        return quantize(self, q, z, dtype, saturate)
