"""VarlenCausalConvWithState (com.microsoft): a causal depthwise 1-D convolution over packed
sequences, token-major. Sequence b holds tokens cu[b]..cu[b + 1] of input [T, C]; before
its first token come the (k - 1) * dilation samples of initial_state[b] [C, L]; output
token t of channel c is sum_j w[c, 0, j] * x[t - (k - 1 - j) * dilation] (plus the bias,
through SiLU when asked), and final_state[b] the last L samples. state_update [B,
capacity, C] holds each sequence's first min(capture_count[b], capacity, length) tokens,
zeros after. Computed in float32, rounded once (bfloat16 arrives as float32: base.py)."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel

ACTIVATIONS = ("none", "silu", "swish")


class VarlenCausalConvWithState(Kernel):
    domains = ("com.microsoft",)
    attrs = {"activation": "none", "dilation": 1, "state_update_capacity": 0,
             "delta_offset": 0, "group_size": 1}
    n_inputs = (5, 8)
    optional_inputs = frozenset({3})

    def setup(self, activation, dilation, state_update_capacity, **_):
        if isinstance(activation, bytes):
            activation = activation.decode()
        if activation not in ACTIVATIONS:
            raise self.fail(f"activation {activation!r} is none of {', '.join(ACTIVATIONS)}")
        if dilation < 1 or not 0 <= state_update_capacity <= 8:
            raise self.fail(f"dilation {dilation} must be >= 1, state_update_capacity "
                            f"{state_update_capacity} in 0..8")
        self.activation = activation

    def run(self, x, w, cu, bias, state, count=None, delta=None, mask=None, *, dilation,
            state_update_capacity, **_):
        cap = state_update_capacity
        if x.dtype not in (np.float16, np.float32) or cu.dtype != np.int32:
            raise self.fail(f"takes float32, float16 or bfloat16 with int32 offsets, got "
                            f"{x.dtype}, {cu.dtype}")
        if delta is not None or mask is not None:
            raise self.fail("the dynamic mode (kernel_delta, previous_mask) is CUDA's only")
        if (count is not None) != (cap > 0):
            raise self.fail("capture_count is given exactly when state_update_capacity > 0")
        if x.ndim != 2 or cu.ndim != 1 or cu.size < 2:
            raise self.fail(f"input {list(x.shape)} must be [T, C], offsets "
                            f"{list(cu.shape)} [B + 1] with B >= 1")
        (total, c), b = x.shape, cu.size - 1
        if w.shape != (c, 1, w.shape[-1]) or w.shape[-1] < 1 or c < 1 or total < b:
            raise self.fail(f"weight {list(w.shape)} must be [{c}, 1, k >= 1], C >= 1 and "
                            f"T {total} >= B {b}")
        k = w.shape[2]
        length = (k - 1) * dilation
        if state.shape != (b, c, length) or (bias is not None and bias.shape != (c,)) or (
                count is not None and count.shape != (b,)):
            raise self.fail(f"initial_state {list(state.shape)} must be {[b, c, length]}, "
                            f"the bias [{c}], capture_count [{b}]")
        if cu[0] != 0 or cu[-1] != total or np.any(np.diff(cu) < 0):
            raise self.fail(f"offsets {cu.tolist()} must rise from 0 to {total}")
        y = np.empty((total, c), np.float32)
        final = np.empty((b, c, length), x.dtype)
        update = np.zeros((b, cap, c), x.dtype)
        taps = w[:, 0, :].astype(np.float32).T  # [k, C]
        for i in range(b):
            lo, hi = int(cu[i]), int(cu[i + 1])
            seq = np.concatenate([state[i].T, x[lo:hi]]).astype(np.float32)  # [L + n, C]
            for t in range(hi - lo):
                rows = length + t - (k - 1 - np.arange(k)) * dilation
                y[lo + t] = np.sum(seq[rows] * taps, axis=0)
            final[i] = seq[len(seq) - length:].T
            if cap:
                m = max(0, min(int(count[i]), cap, hi - lo))
                update[i, :m] = x[lo:lo + m]
        if bias is not None:
            y += bias.astype(np.float32)
        if self.activation != "none":  # SiLU (Swish): y * sigmoid(y)
            y *= sigmoid(y)
        return y.astype(x.dtype), final, update
