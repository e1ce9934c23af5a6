"""Gemm: y = alpha * A' B' + beta * C, A' = A or A^T (transA), B' likewise; C optional
(required before opset 11) and broadcast to [M, N]. A large product is split over
the intra-op threads by columns (split_products.py)."""
import numpy as np

from .base import Kernel
from .split_products import matmul_parts


class Gemm(Kernel):
    attrs = {"alpha": 1.0, "beta": 1.0, "transA": 0, "transB": 0}
    legacy = ("broadcast",)
    n_inputs = (2, 3)

    def run(self, a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
        if a.ndim != 2 or b.ndim != 2:
            raise self.fail(f"A and B must be 2-D, got {list(a.shape)} and {list(b.shape)}")
        a = a.T if transA else a
        b = b.T if transB else b
        if a.shape[1] != b.shape[0]:
            raise self.fail(f"A' {list(a.shape)} and B' {list(b.shape)} do not multiply")
        y = matmul_parts(a, b)  # (on the intra-op threads when large)
        if alpha != 1.0:
            y = y * y.dtype.type(alpha)
        if c is not None and beta != 0.0:
            try:
                np.broadcast_shapes(c.shape, y.shape)
            except ValueError:
                raise self.fail(f"C {list(c.shape)} does not broadcast to {list(y.shape)}") \
                    from None
            y = y + (c if beta == 1.0 else c * c.dtype.type(beta))
        return y.astype(a.dtype, copy=False)
