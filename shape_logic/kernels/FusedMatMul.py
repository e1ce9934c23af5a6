"""FusedMatMul (com.microsoft): alpha * matmul(A', B'). A' is A with transBatchA moving its
first axis to just before the last ([d0, d1, .., dn-2, dn-1] -> [d1, .., dn-2, d0, dn-1]),
then transA swapping the last two axes (a vector is as it is); B' likewise. As onnxruntime,
transBatchA or transBatchB need operands of one rank, 3 or more."""
import numpy as np

from .base import Kernel


class FusedMatMul(Kernel):
    domains = ("com.microsoft",)
    attrs = {"alpha": 1.0, "transA": 0, "transB": 0, "transBatchA": 0, "transBatchB": 0}
    n_inputs = (2, 2)

    def run(self, a, b, *, alpha, transA, transB, transBatchA, transBatchB):
        if a.ndim == 0 or b.ndim == 0:
            raise self.fail(f"operands must not be scalars: {list(a.shape)} @ {list(b.shape)}")
        if (transBatchA or transBatchB) and (a.ndim != b.ndim or a.ndim < 3):
            raise self.fail(f"transBatchA and transBatchB need operands of one rank, 3 or "
                            f"more: {list(a.shape)}, {list(b.shape)}")
        a2, b2 = self._operand(a, transBatchA, transA), self._operand(b, transBatchB, transB)
        try:
            y = np.matmul(a2, b2)
        except ValueError:
            raise self.fail(f"shapes {list(a2.shape)} and {list(b2.shape)} (transposed) do "
                            "not multiply") from None
        return (y * np.asarray(alpha, y.dtype)).astype(a.dtype) if alpha != 1 else y

    @staticmethod
    def _operand(x, trans_batch, trans):
        if trans_batch:
            x = np.moveaxis(x, 0, -2)
        if trans and x.ndim >= 2:
            x = np.swapaxes(x, -1, -2)
        return x
