"""CDist (com.microsoft): the (squared) euclidean distance between each row of A [M, K] and
each row of B [N, K], C [M, N]; as onnxruntime, the sum of the squared differences."""
import numpy as np

from .base import Kernel

# rows of A per block: a block's differences hold at most this many elements
_BLOCK_ELEMENTS = 1 << 22


class CDist(Kernel):
    domains = ("com.microsoft",)
    attrs = {"metric": "sqeuclidean"}
    n_inputs = (2, 2)

    def setup(self, metric):
        if isinstance(metric, bytes):
            metric = metric.decode()
        if metric not in ("sqeuclidean", "euclidean"):
            raise self.fail(f"metric {metric!r} is not implemented (onnxruntime computes "
                            "sqeuclidean and euclidean only)")
        self.metric = metric

    def run(self, a, b, *, metric):
        if a.dtype not in (np.float32, np.float64) or b.dtype != a.dtype:
            raise self.fail(f"takes two float32 or two float64 matrices, not {a.dtype} and "
                            f"{b.dtype}")
        if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[1] == 0:
            raise self.fail(f"takes matrices [M, K] and [N, K] with K >= 1, not "
                            f"{list(a.shape)} and {list(b.shape)}")
        m, n, k = a.shape[0], b.shape[0], a.shape[1]
        out = np.empty((m, n), a.dtype)
        step = max(1, _BLOCK_ELEMENTS // max(1, n * k))
        for i in range(0, m, step):
            d = a[i:i + step, None, :] - b[None, :, :]
            out[i:i + step] = np.einsum("ijk,ijk->ij", d, d)
        return np.sqrt(out) if self.metric == "euclidean" else out
