"""MultiHeadAttention (com.microsoft), for 3-D query, key and value: optional bias over
[q | k | v], key padding mask [B, L], attention bias, past key/value [B, N, P, H]
prepended; returns Y [B, S, D_v] and the present key and value."""
import numpy as np

from .base import Kernel


class MultiHeadAttention(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_heads": None, "scale": 0.0, "mask_filter_value": -10000.0,
             "unidirectional": 0}
    n_inputs = (3, 10)

    def run(self, q, k, v, bias=None, key_padding_mask=None, attention_bias=None,
            past_key=None, past_value=None, *rest, num_heads=None, scale=0.0,
            mask_filter_value=-10000.0, unidirectional=0):
        if num_heads is None:
            raise self.fail("attribute 'num_heads' is required")
        if q.ndim != 3 or k.ndim != 3 or v.ndim != 3:
            raise self.fail("only 3-D query, key and value are supported")
        if bias is not None:
            dq, dk = q.shape[-1], k.shape[-1]
            q, k, v = q + bias[:dq], k + bias[dq:dq + dk], v + bias[dq + dk:]
        b, s, _ = q.shape

        def heads(t):
            return t.reshape(b, t.shape[1], num_heads, -1).transpose(0, 2, 1, 3)

        q, k, v = heads(q), heads(k), heads(v)
        if past_key is not None:
            k = np.concatenate([past_key, k], axis=2)
            v = np.concatenate([past_value, v], axis=2)
        scores = (q @ k.transpose(0, 1, 3, 2)) * (scale or 1 / np.sqrt(q.shape[-1]))
        if attention_bias is not None:
            scores = scores + attention_bias
        if key_padding_mask is not None and key_padding_mask.ndim == 2:
            scores = scores + np.where(key_padding_mask[:, None, None, :] == 0,
                                       mask_filter_value, 0)
        scores = scores - scores.max(axis=-1, keepdims=True)
        p = np.exp(scores)
        p = p / p.sum(axis=-1, keepdims=True)
        y = (p @ v).transpose(0, 2, 1, 3).reshape(b, s, -1)
        return y.astype(q.dtype), k.astype(q.dtype), v.astype(q.dtype)
