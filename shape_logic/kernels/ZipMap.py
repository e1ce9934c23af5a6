"""ZipMap (ai.onnx.ml 1): each row of X [N, C] float32 (or [C]: one row) as a dict
{label: score} of the C class labels, a sequence of N dicts (rules/ZipMap.lp). As
onnxruntime's Python API returns them: keys int (classlabels_int64s) or str
(classlabels_strings), values Python floats (the float32 scores), in the labels' sorted
order (a std::map); a label given twice keeps its last column's score."""
import numpy as np

from .base import Kernel, Seq
from .ml_scores import text


class ZipMap(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"classlabels_int64s": None, "classlabels_strings": None}
    n_inputs = (1, 1)

    def setup(self, classlabels_int64s, classlabels_strings):
        ints, strings = list(classlabels_int64s or []), list(classlabels_strings or [])
        if bool(ints) == bool(strings):  # (an empty list is none, as onnxruntime takes it)
            raise self.fail("exactly one of classlabels_int64s and classlabels_strings must "
                            "be given (non-empty)")
        self.labels = [int(v) for v in ints] if ints else [text(s) for s in strings]

    def run(self, x, **_):
        if x.dtype != np.float32:
            raise self.fail(f"X must be float32, not {x.dtype}")
        if x.ndim not in (1, 2):
            raise self.fail(f"X must have rank 1 or 2, not {x.ndim}")
        rows = x.reshape(1, -1) if x.ndim == 1 else x
        if rows.shape[1] != len(self.labels):
            raise self.fail(f"X has {rows.shape[1]} classes (its last axis) for "
                            f"{len(self.labels)} labels")
        order = sorted(set(self.labels))
        # the column of each label: its last (a later duplicate overwrites the map's entry)
        column = {label: k for k, label in enumerate(self.labels)}
        picks = [column[label] for label in order]
        return Seq(dict(zip(order, row)) for row in rows[:, picks].tolist())
