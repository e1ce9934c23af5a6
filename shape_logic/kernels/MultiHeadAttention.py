"""MultiHeadAttention (com.microsoft): query [B, S, D] with key and value [B, L, D] and
[B, L, D_v], or in heads [B, N, L, H] (BNSH); packed KV [B, L, N, 2, H]; packed QKV [B, S,
N, 3, H]. Optional bias over [q | k | v] (3-D keys), a key padding mask ([B] lengths,
[B, total] or [B, S, total] 0/1), an attention bias, past key/value [B, N, P, H]
prepended, unidirectional = 1 masking the future (self-attention only: with other key
lengths onnxruntime's alignment is neither onnx's nor documented, so it is refused).
Returns Y [B, S, N * H_v] and the present key and value. The buffer-sharing input
past_sequence_length and beam search's cache_indirection are refused."""
import numpy as np

from .attention import attend
from .base import Kernel


class MultiHeadAttention(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_heads": None, "scale": 0.0, "mask_filter_value": -10000.0,
             "unidirectional": 0}
    n_inputs = (1, 10)

    def run(self, q, k=None, v=None, bias=None, key_padding_mask=None, attention_bias=None,
            past_key=None, past_value=None, past_len=None, cache_indirection=None,
            num_heads=None, scale=0.0, mask_filter_value=-10000.0, unidirectional=0):
        if num_heads is None:
            raise self.fail("attribute 'num_heads' is required")
        if past_len is not None or cache_indirection is not None:
            raise self.fail("past_sequence_length and cache_indirection are not supported")
        q, k, v = self._heads(q, k, v, bias, num_heads)  # each [B, N, length, head size]
        b, _, s, _ = q.shape
        if unidirectional and k.shape[2] != s:
            raise self.fail(f"unidirectional is supported for self-attention (key length "
                            f"{k.shape[2]} == query length {s}) only")
        if past_key is not None:
            k = np.concatenate([past_key, k], axis=2)
            v = np.concatenate([past_value, v], axis=2)
        keep = None if key_padding_mask is None else \
            self._key_mask(np.asarray(key_padding_mask), b, s, k.shape[2])
        y = attend(q, k, v, scale, attention_bias, keep, unidirectional, mask_filter_value)
        y = y.transpose(0, 2, 1, 3).reshape(b, s, -1)
        dtype = q.dtype
        return y.astype(dtype), k.astype(dtype), v.astype(dtype)

    def _heads(self, q, k, v, bias, n):
        """Q, K and V split into heads, [B, N, length, head size], by the input form."""
        if q.ndim == 5:  # packed QKV [B, S, N, 3, H]
            if k is not None or v is not None:
                raise self.fail("packed QKV (5-D query) takes no key or value")
            q, k, v = (q[:, :, :, j].transpose(0, 2, 1, 3) for j in range(3))
            if bias is not None:
                q, k, v = (t + c.reshape(1, n, 1, -1)
                           for t, c in zip((q, k, v), np.split(bias, 3)))
            return q, k, v
        if q.ndim != 3 or k is None:
            raise self.fail(f"a {q.ndim}-D query needs a key (3-D, 4-D or packed 5-D)")
        if k.ndim == 5:  # packed KV [B, L, N, 2, H]
            if v is not None or bias is not None:
                raise self.fail("packed KV (5-D key) takes no value and no bias")
            return self._split(q, n), k[:, :, :, 0].transpose(0, 2, 1, 3), \
                k[:, :, :, 1].transpose(0, 2, 1, 3)
        if v is None or v.ndim != k.ndim or k.ndim not in (3, 4):
            raise self.fail(f"key and value must both be 3-D or 4-D, got {k.ndim}-D and "
                            f"{None if v is None else v.ndim}")
        if k.ndim == 4:  # already in heads (BNSH)
            if bias is not None:
                raise self.fail("no bias with 4-D key and value")
            return self._split(q, n), k, v
        if bias is not None:
            dq, dk = q.shape[-1], k.shape[-1]
            q, k, v = q + bias[:dq], k + bias[dq:dq + dk], v + bias[dq + dk:]
        return self._split(q, n), self._split(k, n), self._split(v, n)

    @staticmethod
    def _split(t, n):
        return t.reshape(t.shape[0], t.shape[1], n, -1).transpose(0, 2, 1, 3)

    def _key_mask(self, mask, b, s, total):
        """0/1 over the keys, broadcastable to [B, N, S, total]."""
        if mask.shape == (b,):
            return (np.arange(total)[None, :] < mask[:, None])[:, None, None, :]
        if mask.shape == (b, total):
            return mask[:, None, None, :]
        if mask.shape == (b, s, total):
            return mask[:, None, :, :]
        raise self.fail(f"a key_padding_mask of shape {list(mask.shape)} is not supported "
                        f"(B = {b}, S = {s}, total length {total})")
