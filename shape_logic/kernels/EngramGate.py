"""EngramGate (com.microsoft): DeepSeek's Engram gate, as onnxruntime computes it in float32
per (token, hyper-connection) row: d = sum(RMSNorm(key) * key_norm_scale * RMSNorm(query) *
query_norm_scale) / sqrt(H), gate = sigmoid(sign(d) * sqrt(max(|d|, 1e-6))), output = gate *
value rounded to the input type; gated_value_normed multiplies the rounded output by the
inverse RMS of the unrounded one and by conv_norm_scale."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel


class EngramGate(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-5}
    n_inputs = (5, 6)
    widens_small_floats = False

    def run(self, key, query, value, key_scale, query_scale, conv_scale=None, *, epsilon):
        t = key.dtype
        if t not in (np.float16, np.float32) or any(
                a is not None and a.dtype != t for a in (query, value, key_scale, query_scale,
                                                         conv_scale)):
            raise self.fail(f"takes one type, float32 or float16, not {key.dtype}")
        if key.ndim != 4 or query.shape != key.shape or value.ndim != 3:
            raise self.fail(f"key {list(key.shape)} and query {list(query.shape)} must be one "
                            f"[B, S, G, H], value {list(value.shape)} [B, S, H]")
        b, s, g, h = key.shape
        if value.shape != (b, s, h) or any(
                a is not None and a.shape != (g, h) for a in (key_scale, query_scale, conv_scale)):
            raise self.fail(f"value must be {[b, s, h]}, the scales {[g, h]}")
        if self.n_outputs > 1 and conv_scale is None:
            raise self.fail("the gated_value_normed output needs conv_norm_scale")
        eps = np.float32(epsilon)

        def inv_rms(x):
            return 1 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)

        k, q = key.astype(np.float32), query.astype(np.float32)
        dot = np.sum(k * inv_rms(k) * key_scale.astype(np.float32) * q * inv_rms(q) *
                     query_scale.astype(np.float32), axis=-1) / np.sqrt(np.float32(h))
        gate = sigmoid(np.sign(dot) * np.sqrt(np.maximum(np.abs(dot), np.float32(1e-6))))
        gated = gate[..., None] * value.astype(np.float32)[:, :, None, :]  # [B, S, G, H]
        out = gated.astype(t)
        if self.n_outputs < 2:
            return out
        normed = out.astype(np.float32) * inv_rms(gated) * conv_scale.astype(np.float32)
        return out, normed.astype(t)
