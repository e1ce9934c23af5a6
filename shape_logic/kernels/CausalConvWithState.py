"""CausalConvWithState (opset 27; com.microsoft): a causal depthwise 1-D convolution with a
carried state.

The past state (zeros without one) is put before the input along time, every output
position is the dot product of its channel's k taps, `dilation` apart, with the positions
ending at it (a strided window view of the padded sequence, one einsum), plus the bias,
through SiLU when asked; the present state is the last (k - 1) * dilation positions of the
padded sequence. float16 is computed in float32 and rounded once (bfloat16 arrives as
float32: base.py). com.microsoft's channels_last = 1 takes input [B, L, d_1, ..., d_n]
(C = d_1 * ... * d_n) and states [B, E, d_1, ..., d_n]; onnxruntime's CPU kernel runs ndim 1
without a state window or the extended (CUDA) options only, and so does this one.

An empty input (length 0) gives an empty output and the past state as the present one,
as onnx's reference and onnxruntime's com.microsoft kernel do; onnxruntime's function body
for ONNX's (Concat, Conv, Slice) fails there.
"""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel

ACTIVATIONS = ("none", "silu", "swish")
# com.microsoft's attributes beyond ONNX's, with their defaults
MS_ATTRS = {"ndim": 1, "dilation": 1, "channels_last": 0, "state_window": 0,
            "state_length": 0, "state_channels_last": -1, "input_channels": 0,
            "input_channel_offset": 0, "state_update_capacity": 0}
EXTENDED = ("state_length", "state_channels_last", "input_channels", "input_channel_offset",
            "state_update_capacity")


class CausalConvWithState(Kernel):
    domains = ("", "com.microsoft")
    attrs = {"activation": "none", **MS_ATTRS}
    n_inputs = (2, 4)

    def setup(self, activation, **ms):
        if isinstance(activation, bytes):
            activation = activation.decode()
        if activation not in ACTIVATIONS:
            raise self.fail(f"activation must be one of {', '.join(ACTIVATIONS)}, "
                            f"got {activation!r}")
        self.activation = activation
        changed = sorted(k for k, v in ms.items() if v != MS_ATTRS[k])
        if not self.domain:
            if changed:
                raise self.fail(f"ONNX's has no attribute {', '.join(changed)}")
            return
        if ms["ndim"] not in (1, 2, 3) or ms["dilation"] < 1 or \
                ms["channels_last"] not in (0, 1) or not 0 <= ms["state_window"] <= 8:
            raise self.fail(f"ndim {ms['ndim']} must be 1..3, dilation {ms['dilation']} >= 1, "
                            f"channels_last {ms['channels_last']} 0 or 1, state_window "
                            f"{ms['state_window']} in 0..8")
        if ms["ndim"] != 1 or ms["state_window"] or self.n_outputs > 2 or \
                any(k in changed for k in EXTENDED):
            raise self.fail("the CPU kernel runs ndim 1 without a state window or the "
                            "extended options (CUDA's) only")

    def run(self, x, w, bias=None, past=None, *, dilation, channels_last, **_):
        if x.dtype not in (np.float16, np.float32):  # (bfloat16 arrives as float32)
            raise self.fail(f"takes float32, float16 or bfloat16, got {x.dtype}")
        if channels_last and x.ndim < 3:
            raise self.fail(f"a channels-last input {list(x.shape)} needs rank 3 or more")
        lead, trailing = x.shape[:2], x.shape[2:]
        if channels_last:  # [B, L, d..] as [B, C, L]
            x = x.reshape(*lead, -1).transpose(0, 2, 1)
        if x.ndim != 3 or w.ndim != 3 or w.shape[:2] != (x.shape[1], 1) or w.shape[2] < 1:
            raise self.fail(f"input {list(x.shape)} and weight {list(w.shape)} do not fit "
                            "(need input [B, C, L] and weight [C, 1, k], k >= 1)")
        batch, channels, length = x.shape
        carry = (w.shape[2] - 1) * dilation
        want = (batch, channels, carry)
        if channels_last:  # [B, E, d..]
            want = (batch, carry, *trailing)
        if past is None:
            past = np.zeros((batch, channels, carry), x.dtype)
        elif past.shape != want:
            raise self.fail(f"past_state {list(past.shape)} must be {list(want)}")
        elif channels_last:
            past = past.reshape(batch, carry, channels).transpose(0, 2, 1)
        if bias is not None and bias.shape != (channels,):
            raise self.fail(f"bias {list(bias.shape)} must be [{channels}]")
        padded = np.concatenate([past, x], axis=2)  # [B, C, E + L]
        present = padded[:, :, length:].copy()
        if length == 0:
            y = np.empty_like(x)
        else:
            # [B, C, L, k]: the k positions, `dilation` apart, each output position sees
            windows = np.lib.stride_tricks.sliding_window_view(padded, carry + 1, axis=2)
            y = np.einsum("bclk,ck->bcl", windows[..., ::dilation], w[:, 0, :],
                          dtype=np.float32)
            if bias is not None:
                y += bias.astype(np.float32)[:, None]
            if self.activation != "none":  # SiLU (Swish): y * sigmoid(y)
                y *= sigmoid(y)
            y = y.astype(x.dtype)
        if channels_last:
            y = y.transpose(0, 2, 1).reshape(*lead, *trailing)
            present = present.transpose(0, 2, 1).reshape(want)
        return y, present
