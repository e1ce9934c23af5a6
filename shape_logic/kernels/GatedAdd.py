"""GatedAdd (com.microsoft): output = X + round(Y * g) per row, g the gate (..., 1) itself,
or with gate_weight (K, 1) g = round(sigmoid(round(gate . gate_weight))) of a gate (..., K)
(and the sum rounded); each step in float32, rounded to X's type, as onnxruntime documents.
(onnxruntime's CPU kernel has no gate_weight mode: that one is written from the doc only.)"""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel
from .dtypes import NARROW_FLOATS


class GatedAdd(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (3, 4)
    widens_small_floats = False

    def run(self, x, y, gate, gate_weight=None):
        t = x.dtype
        ins = [a for a in (x, y, gate, gate_weight) if a is not None]
        if t.name not in NARROW_FLOATS or any(a.dtype != t for a in ins):
            raise self.fail(f"takes one float type, not {[a.dtype.name for a in ins]}")
        if x.ndim == 0 or x.shape[-1] == 0:
            raise self.fail(f"X {list(x.shape)} needs a last axis of one or more elements")
        if y.shape != x.shape:
            raise self.fail(f"Y {list(y.shape)} must have X's shape {list(x.shape)}")
        if gate.ndim != x.ndim or gate.shape[:-1] != x.shape[:-1]:
            raise self.fail(f"gate {list(gate.shape)} must have X's leading axes")
        f32 = np.float32
        if gate_weight is None:
            if gate.shape[-1] != 1:
                raise self.fail(f"gate {list(gate.shape)} must have a last axis of 1")
            g = gate.astype(f32)
        else:
            if gate_weight.shape != (gate.shape[-1], 1):
                raise self.fail(f"gate_weight {list(gate_weight.shape)} must be "
                                f"[{gate.shape[-1]}, 1]")
            p = (gate.astype(f32) @ gate_weight.astype(f32)).astype(t).astype(f32)
            g = sigmoid(p).astype(t).astype(f32)
        prod = (y.astype(f32) * g).astype(t)
        return (x.astype(f32) + prod.astype(f32)).astype(t)
