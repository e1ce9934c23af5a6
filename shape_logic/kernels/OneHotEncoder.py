"""OneHotEncoder (ai.onnx.ml 1): each element of X becomes a row of K floats, 1 at its
category's position among cats_strings or cats_int64s (K of them), else 0; Y is X's
shape followed by K (rules/OneHotEncoder.lp). Numbers are truncated to integers and
looked up among cats_int64s; an element that is no category gives zeros, or with zeros=0
fails. As onnxruntime: strings never match integer categories, nor numbers string ones."""
import numpy as np

from .base import Kernel
from .ml_scores import text

_TYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.int64, np.int32))


class OneHotEncoder(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"cats_int64s": None, "cats_strings": None, "zeros": 1}
    n_inputs = (1, 1)

    def setup(self, cats_int64s, cats_strings, zeros):
        if bool(cats_int64s) == bool(cats_strings):
            raise self.fail("exactly one of cats_int64s and cats_strings must be given")
        self.strings = bool(cats_strings)
        cats = [text(c) for c in cats_strings] if self.strings else [int(c) for c in cats_int64s]
        self.index = {c: k for k, c in reversed(list(enumerate(cats)))}  # the first of equals
        self.k = len(cats)

    def run(self, x, zeros, **_):
        if x.dtype.kind in "OUS":
            keys = [text(v) for v in x.reshape(-1)] if self.strings else None
        elif x.dtype in _TYPES:
            keys = None if self.strings else x.reshape(-1).astype(np.int64).tolist()
        else:
            raise self.fail(f"X must be string, int64, int32, float or double, not {x.dtype}")
        where = np.full(x.size, -1, np.int64)
        if keys is not None:
            where = np.array([self.index.get(v, -1) for v in keys], np.int64).reshape(-1)
        if not zeros and (where < 0).any():
            raise self.fail("an element is no category, and zeros is 0")
        y = np.zeros((x.size, self.k), np.float32)
        hit = where >= 0
        y[np.nonzero(hit)[0], where[hit]] = 1
        return y.reshape(x.shape + (self.k,))
