"""QGemm (com.microsoft, QOperator quantization's Gemm): acc = C + (A' - a_zero_point)
(B' - b_zero_point) in integers (A' = A or its transpose, B' likewise; C int32, broadcast
to [M, N]), then acc * alpha * a_scale * b_scale (b's per tensor or per column), divided
by y_scale when given; with y_zero_point, rounded half to even, shifted and saturated into
its type (onnxruntime's: A's), else float32."""
import numpy as np

from .ConvInteger import check_8bit
from .base import Kernel
from .quant import quantize


class QGemm(Kernel):
    domains = ("com.microsoft",)
    attrs = {"alpha": 1.0, "transA": 0, "transB": 0}
    n_inputs = (6, 9)

    def run(self, a, a_scale, a_zero, b, b_scale, b_zero, c=None, y_scale=None, y_zero=None,
            *, alpha, transA, transB):
        if a.ndim != 2 or b.ndim != 2:
            raise self.fail(f"A and B must be 2-D, got {list(a.shape)} and {list(b.shape)}")
        check_8bit(self, a, b)
        a2, b2 = (a.T if transA else a), (b.T if transB else b)
        if a2.shape[1] != b2.shape[0]:
            raise self.fail(f"A' {list(a2.shape)} and B' {list(b2.shape)} do not multiply")
        n = b2.shape[1]
        for name, v, sizes in (("a_scale", a_scale, (1,)), ("a_zero_point", a_zero, (1,)),
                               ("b_scale", b_scale, (1, n)), ("b_zero_point", b_zero, (1, n)),
                               ("y_scale", y_scale, (1,)), ("y_zero_point", y_zero, (1,))):
            if v is not None and (np.ndim(v) > 1 or np.size(v) not in sizes):
                raise self.fail(f"{name} of shape {list(np.shape(v))} is neither per tensor "
                                f"nor per column")
        acc = (a2.astype(np.int64) - np.int64(np.asarray(a_zero).reshape(()))) @ \
            (b2.astype(np.int64) - np.asarray(b_zero).astype(np.int64).reshape(-1))
        if c is not None:
            try:
                acc = acc + np.broadcast_to(c.astype(np.int64), acc.shape)
            except ValueError:
                raise self.fail(f"C {list(c.shape)} does not broadcast to "
                                f"{list(acc.shape)}") from None
        # the factor in float32, as onnxruntime computes it
        scale = np.float32(alpha) * np.float32(np.asarray(a_scale).reshape(())) * \
            np.asarray(b_scale, np.float32).reshape(-1)
        if y_scale is not None:
            scale = scale / np.float32(np.asarray(y_scale).reshape(()))
        y = acc.astype(np.float32) * scale.astype(np.float32)
        if y_zero is None:
            return y.astype(np.float32)
        return quantize(self, y, np.asarray(y_zero).reshape(()), y_zero.dtype)
