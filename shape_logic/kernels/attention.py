"""Scaled dot-product attention over heads, as onnxruntime's Attention and
MultiHeadAttention (com.microsoft) compute it: scores scaled by 1/sqrt(head size) unless
`scale` is given, an additive attention bias, masked keys and (unidirectional) future
keys set to `mask_filter_value` before the softmax."""
import numpy as np


def attend(q, k, v, scale, attention_bias, keep, unidirectional, mask_filter_value):
    """softmax(q k^T * scale + bias, masked) v, for q [B, N, S, H], k and v [B, N, T, H]:
    `keep` is 0/1 over the keys broadcastable to [B, N, S, T] (None: every key)."""
    s, total = q.shape[2], k.shape[2]
    scores = (q @ k.transpose(0, 1, 3, 2)) * (scale or 1 / np.sqrt(q.shape[-1]))
    if attention_bias is not None:
        scores = scores + attention_bias
    if keep is not None:
        scores = scores + np.where(keep == 0, mask_filter_value, 0)
    if unidirectional:
        future = np.triu(np.ones((s, total), bool), k=total - s + 1)
        scores = np.where(future, mask_filter_value, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    return (p / p.sum(axis=-1, keepdims=True)) @ v
