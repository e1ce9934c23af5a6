"""Attention. ONNX's (opset 23: Q, K, V, attn_mask?, past_key?, past_value?) is onnx's
reference implementation (GQA, causal, softcap, windows, qk_matmul_output modes);
com.microsoft's - a node giving `num_heads` - is self-attention with packed QKV weights,
the mask_index as a [B, T] 0/1 key mask, unidirectional = 1 masking the future, and
past/present [2, B, N, P, H]."""
import numpy as np

from .attention import attend
from .base import Kernel


class Attention(Kernel):
    domains = ("", "com.microsoft")
    attrs = {"num_heads": None, "qkv_hidden_sizes": None, "unidirectional": 0, "scale": None,
             "mask_filter_value": -10000.0, "do_rotary": 0, "past_present_share_buffer": 0,
             "rotary_embedding_dim": 0,
             # ONNX's
             "is_causal": 0, "q_num_heads": None, "kv_num_heads": None,
             "softmax_precision": None, "softcap": 0.0, "qk_matmul_output_mode": 0,
             "left_window_size": None, "right_window_size": None}
    n_inputs = (2, 7)

    def run(self, x, w, bias=None, mask=None, past=None, attention_bias=None,
            past_len=None, num_heads=None, qkv_hidden_sizes=None, unidirectional=0,
            scale=None, mask_filter_value=-10000.0, **onnx_attrs):
        if num_heads is None:  # ONNX's Attention
            return self._onnx(x, w, bias, mask, past, attention_bias, past_len, scale,
                              onnx_attrs)
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
        keep = None if mask is None else self._key_mask(mask, b, s, k.shape[2])
        y = attend(q, k, v, scale, attention_bias, keep, unidirectional, mask_filter_value)
        y = y.transpose(0, 2, 1, 3).reshape(b, s, -1).astype(x.dtype)
        return y, np.stack([k, v]).astype(x.dtype)

    def _key_mask(self, mask, b, s, total):
        """The mask_index as 0/1 over the keys, broadcastable to [B, N, S, T]: a raw mask
        [B, T] or [B, S, T], the lengths [B] (right padding) or the ends and starts [2B]
        (left padding)."""
        keys = np.arange(total)
        if mask.ndim == 2:
            return mask[:, None, None, :]
        if mask.ndim == 3:
            return mask[:, None, :, :]
        if mask.shape == (b,):
            return (keys[None, :] < mask[:, None])[:, None, None, :]
        if mask.shape == (2 * b,):
            end, start = mask[:b, None], mask[b:, None]
            return ((keys[None, :] < end) & (keys[None, :] >= start))[:, None, None, :]
        raise self.fail(f"a mask_index of shape {list(mask.shape)} is not supported")

    def _onnx(self, q, k, v, mask, past_key, past_value, nonpad, scale, attrs):
        from onnx.reference.ops.op_attention import _compute_attention

        if v is None:
            raise self.fail("ONNX's Attention takes Q, K and V")
        keep = ("is_causal", "q_num_heads", "kv_num_heads", "softmax_precision", "softcap",
                "qk_matmul_output_mode", "left_window_size", "right_window_size")
        kw = {key: attrs[key] for key in keep if attrs.get(key) is not None}
        if self.opset < 24:
            kw.pop("left_window_size", None)
            kw.pop("right_window_size", None)
        out = _compute_attention(q, k, v, mask, past_key, past_value, nonpad, scale=scale,
                                 _validate_attention25=self.opset >= 25, **kw)
        return tuple(out)
