"""CausalConvWithState (opset 27): a causal depthwise 1-D convolution with a carried state.

The past state (zeros without one) is put before the input along time, every output
position is the dot product of its channel's k taps with the k positions ending at it (a
strided window view of the padded sequence, one einsum), plus the bias, through SiLU when
asked; the present state is the last k - 1 positions of the padded sequence. float16 is
computed in float32 and rounded once (bfloat16 arrives as float32: base.py).

An empty input (length 0) gives an empty output and the past state as the present one,
as onnx's reference does; onnxruntime's function body (Concat, Conv, Slice) fails there.
"""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel

ACTIVATIONS = ("none", "silu", "swish")


class CausalConvWithState(Kernel):
    attrs = {"activation": "none"}
    n_inputs = (2, 4)

    def run(self, x, w, bias=None, past=None, *, activation="none"):
        if activation not in ACTIVATIONS:
            raise self.fail(f"activation must be one of {', '.join(ACTIVATIONS)}, "
                            f"got {activation!r}")
        if x.dtype not in (np.float16, np.float32):  # (bfloat16 arrives as float32)
            raise self.fail(f"takes float32, float16 or bfloat16, got {x.dtype}")
        if x.ndim != 3 or w.ndim != 3 or w.shape[:2] != (x.shape[1], 1) or w.shape[2] < 1:
            raise self.fail(f"input {list(x.shape)} and weight {list(w.shape)} do not fit "
                            "(need input [B, C, L] and weight [C, 1, k], k >= 1)")
        batch, channels, length = x.shape
        carry = w.shape[2] - 1
        if past is None:
            past = np.zeros((batch, channels, carry), x.dtype)
        elif past.shape != (batch, channels, carry):
            raise self.fail(f"past_state {list(past.shape)} must be "
                            f"{[batch, channels, carry]}")
        if bias is not None and bias.shape != (channels,):
            raise self.fail(f"bias {list(bias.shape)} must be [{channels}]")
        padded = np.concatenate([past, x], axis=2)  # [B, C, k - 1 + L]
        present = padded[:, :, length:].copy()
        if length == 0:
            return np.empty_like(x), present
        # [B, C, L, k]: the k positions each output position sees
        windows = np.lib.stride_tricks.sliding_window_view(padded, carry + 1, axis=2)
        y = np.einsum("bclk,ck->bcl", windows, w[:, 0, :], dtype=np.float32)
        if bias is not None:
            y += bias.astype(np.float32)[:, None]
        if activation != "none":  # SiLU (Swish): y * sigmoid(y)
            y *= sigmoid(y)
        return y.astype(x.dtype), present
