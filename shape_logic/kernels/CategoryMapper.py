"""CategoryMapper (ai.onnx.ml 1): strings to int64 and back through the parallel lists
cats_strings and cats_int64s: a string X gives int64 (default_int64 where it is no
category), an int64 X strings (default_string); Y has X's shape
(rules/CategoryMapper.lp)."""
import numpy as np

from .base import Kernel
from .ml_scores import text


class CategoryMapper(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"cats_int64s": None, "cats_strings": None, "default_int64": -1,
             "default_string": "_Unused"}
    n_inputs = (1, 1)

    def setup(self, cats_int64s, cats_strings, **_):
        ints, strings = list(cats_int64s or []), [text(s) for s in cats_strings or []]
        if not ints or len(ints) != len(strings):
            raise self.fail("cats_int64s and cats_strings must be given, of one length")
        # (a key given twice: the first pairing, as a map built in order keeps)
        self.to_int = {s: int(i) for s, i in reversed(list(zip(strings, ints)))}
        self.to_str = {int(i): s for s, i in reversed(list(zip(strings, ints)))}

    def run(self, x, default_int64, default_string, **_):
        if x.dtype.kind in "OUS":
            out = [self.to_int.get(text(v), default_int64) for v in x.reshape(-1)]
            return np.array(out, np.int64).reshape(x.shape)
        if x.dtype == np.int64:
            out = [self.to_str.get(int(v), text(default_string)) for v in x.reshape(-1)]
            return np.array(out, dtype=object).reshape(x.shape)
        raise self.fail(f"X must be string or int64, not {x.dtype}")
