"""FlexAttention (ai.onnx.preview): softmax(Q K^T * scale) V over rank-4 heads, with the
scores and then the probabilities handed to the optional bodies score_mod and prob_mod
(rules/FlexAttention.lp). Keys and values serve Hq / Hkv query heads each (grouped-query
attention). As onnx's reference does it: Q and K are each scaled by sqrt(scale) in their
own type, the product is cast to the softmax precision, in which the softmax, the bodies
and the product with V run; the result has V's type. Bodies run on this package's
executor (kernels/bodies.py)."""
import numpy as np

from ..graph import NUMPY_DTYPES
from .base import Kernel
from .bodies import Body

# softmax_precision: the TensorProto codes of the types it may name
_PRECISION = {1: "f32", 10: "f16", 11: "f64", 16: "bf16"}


class FlexAttention(Kernel):
    domains = ("ai.onnx.preview",)
    attrs = {"scale": None, "score_mod": None, "prob_mod": None, "softmax_precision": None}
    n_inputs = (3, 3)

    def setup(self, score_mod, prob_mod, softmax_precision, **_):
        self.mods = {key: Body(self, body) for key, body in
                     (("score_mod", score_mod), ("prob_mod", prob_mod)) if body is not None}
        for key, body in self.mods.items():
            if len(body.params) != 1 or len(body.results) != 1:
                raise self.fail(f"{key} takes one tensor and gives one, not "
                                f"{len(body.params)} and {len(body.results)}")
        if softmax_precision is not None and softmax_precision not in _PRECISION:
            raise self.fail(f"softmax_precision {softmax_precision} is not a float type")
        self.outer_names = list(dict.fromkeys(n for b in self.mods.values() for n in b.outer))
        self.outer_values = {}

    def run(self, q, k, v, scale, score_mod, prob_mod, softmax_precision):
        for name, t in (("Q", q), ("K", k), ("V", v)):
            if t.ndim != 4:
                raise self.fail(f"{name} must have rank 4, not {list(t.shape)}")
        b, hq, length, e = q.shape
        if k.shape[0] != b or v.shape[0] != b or k.shape[3] != e or v.shape[1:3] != k.shape[1:3]:
            raise self.fail(f"Q {list(q.shape)}, K {list(k.shape)} and V {list(v.shape)} "
                            "do not fit [B, Hq, L, E], [B, Hkv, S, E], [B, Hkv, S, Ev]")
        hkv = k.shape[1]
        if hq != hkv:  # grouped-query attention: each key/value head serves a group
            if hkv == 0 or hq % hkv:
                raise self.fail(f"{hq} query heads are not a multiple of {hkv} key/value heads")
            k, v = np.repeat(k, hq // hkv, axis=1), np.repeat(v, hq // hkv, axis=1)
        compute = self._precision(q.dtype, softmax_precision)
        root = np.asarray(np.sqrt(np.float32(1 / np.sqrt(e) if scale is None else scale)),
                          dtype=q.dtype)
        scores = np.matmul(q * root, np.swapaxes(k * root, -1, -2)).astype(compute)
        scores = self._modify("score_mod", scores)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = self._modify("prob_mod", scores / scores.sum(axis=-1, keepdims=True))
        return np.matmul(probs, v.astype(compute)).astype(v.dtype)

    @staticmethod
    def _precision(dtype, code):
        """The softmax precision: the named type, else double for double, else float."""
        if code is not None:
            return np.dtype(NUMPY_DTYPES[_PRECISION[code]])
        return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)

    def _modify(self, key, t):
        """t through body `key` if the node has it: a tensor of t's shape and type back
        (onnx's reference casts another type; the operator's definition forbids it, as
        the rule does)."""
        if key not in self.mods:
            return t
        out = np.asarray(self.mods[key](t, outer=self.outer_values)[0])
        if out.shape != t.shape or out.dtype != t.dtype:
            raise self.fail(f"{key} gives {out.dtype} {list(out.shape)} for {t.dtype} "
                            f"{list(t.shape)}: it must keep the shape and element type")
        return out
