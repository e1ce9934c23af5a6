"""FeatureVectorizer (ai.onnx.ml 1): the inputs' features side by side, Y [N, sum of
inputdimensions] (float): input k ([N, ...], a 1-D one a single row) gives its first
inputdimensions[k] values of each row (its trailing axes flattened, as onnxruntime),
padded with zeros (rules/FeatureVectorizer.lp)."""
import numpy as np

from .base import Kernel

_TYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.int64, np.int32))


class FeatureVectorizer(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"inputdimensions": None}
    n_inputs = (1, None)

    def run(self, *xs, inputdimensions):
        dims = [int(d) for d in inputdimensions or []]
        if len(dims) != len(xs) or any(d < 0 for d in dims):
            raise self.fail(f"inputdimensions {dims} must give each of the {len(xs)} inputs "
                            "a count")
        if any(x.dtype not in _TYPES or x.ndim == 0 for x in xs) or \
                len({x.dtype for x in xs}) > 1:
            raise self.fail("the inputs must be of one type (int32, int64, float, double), "
                            "each with an axis")
        rows = [x.reshape(1, -1) if x.ndim == 1 else x.reshape(len(x), -1) for x in xs]
        n = len(rows[0])
        if any(len(r) != n for r in rows):
            raise self.fail("the inputs' batch sizes differ")
        y = np.zeros((n, sum(dims)), np.float32)
        at = 0
        for r, d in zip(rows, dims):
            take = min(d, r.shape[1])
            y[:, at:at + take] = r[:, :take]
            at += d
        return y
