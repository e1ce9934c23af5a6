"""Attention (com.microsoft): self-attention with packed QKV weights; the mask_index as a
[B, T] 0/1 key mask; unidirectional = 1 masks the future; past/present [2, B, N, P, H]."""
import numpy as np

from .base import Kernel


class Attention(Kernel):
    attrs = {"num_heads": None, "qkv_hidden_sizes": None, "unidirectional": 0, "scale": 0.0,
             "mask_filter_value": -10000.0, "do_rotary": 0, "past_present_share_buffer": 0,
             "rotary_embedding_dim": 0}
    n_inputs = (2, 7)

    def run(self, x, w, bias=None, mask=None, past=None, attention_bias=None,
            past_len=None, num_heads=None, qkv_hidden_sizes=None, unidirectional=0,
            scale=0.0, mask_filter_value=-10000.0, **_):
        if num_heads is None:
            raise self.fail("attribute 'num_heads' is required")
        b, s, _ = x.shape
        sizes = qkv_hidden_sizes or [w.shape[1] // 3] * 3
        qkv = x @ w + (0 if bias is None else bias)
        q, k, v = np.split(qkv, np.cumsum(sizes)[:2], axis=-1)

        def heads(t):
            return t.reshape(b, s, num_heads, -1).transpose(0, 2, 1, 3)

        q, k, v = heads(q), heads(k), heads(v)
        if past is not None:
            k = np.concatenate([past[0], k], axis=2)
            v = np.concatenate([past[1], v], axis=2)
        total = k.shape[2]
        factor = scale or 1 / np.sqrt(q.shape[-1])
        scores = (q @ k.transpose(0, 1, 3, 2)) * factor
        if attention_bias is not None:
            scores = scores + attention_bias
        if mask is not None and mask.ndim == 2:
            scores = scores + np.where(mask[:, None, None, :] == 0, mask_filter_value, 0)
        if unidirectional:
            future = np.triu(np.ones((s, total), bool), k=total - s + 1)
            scores = np.where(future, mask_filter_value, scores)
        scores = scores - scores.max(axis=-1, keepdims=True)
        p = np.exp(scores)
        p = p / p.sum(axis=-1, keepdims=True)
        y = (p @ v).transpose(0, 2, 1, 3).reshape(b, s, -1).astype(x.dtype)
        return y, np.stack([k, v]).astype(x.dtype)
