"""SparseToDenseMatMul (com.microsoft): Y = alpha * A' @ B' with A a sparse matrix (here: its
dense equivalent, [M, K]; A' its transpose when transA is nonzero) and B a dense matrix
(B' its transpose when transB is nonzero). As onnxruntime's kernel: matrices only, one
element type for A, B and Y (float32, float64, int32, int64, uint32, uint64), and alpha
scales float32 products only (each product a * alpha * b); integer products wrap."""
import numpy as np

from .base import Kernel

_TYPES = (np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)


class SparseToDenseMatMul(Kernel):
    domains = ("com.microsoft",)
    attrs = {"transA": 0, "transB": 0, "alpha": 1.0}
    n_inputs = (2, 2)

    def run(self, a, b, *, transA, transB, alpha):
        if a.dtype != b.dtype or a.dtype not in _TYPES:
            raise self.fail(f"takes A and B of one type among float32, float64, int32, "
                            f"int64, uint32, uint64, not {a.dtype} and {b.dtype}")
        if a.ndim != 2 or b.ndim != 2:
            raise self.fail(f"takes matrices, not shapes {list(a.shape)} and {list(b.shape)}")
        a2 = a.T if transA else a
        b2 = b.T if transB else b
        if a2.shape[1] != b2.shape[0]:
            raise self.fail(f"A' {list(a2.shape)} and B' {list(b2.shape)} do not share their "
                            "inner axis")
        if a.dtype == np.float32:
            return (a2 * np.float32(alpha)) @ b2
        with np.errstate(over="ignore"):
            return a2 @ b2
