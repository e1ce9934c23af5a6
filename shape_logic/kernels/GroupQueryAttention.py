"""GroupQueryAttention (com.microsoft), as onnxruntime's CPU kernel computes it: causal
attention of num_heads query heads over kv_num_heads key/value heads (each serving
num_heads / kv_num_heads query heads), query [B, S, N*H] (or packed QKV [B, S, (N +
2*N_kv)*H] with key and value absent), a BNSH past buffer [B, N_kv, P, H].

Batch b holds seqlens_k[b] + 1 tokens in all; the new ones start at 0 on the first prompt
(S == total_sequence_length) and at seqlens_k[b] + 1 - S otherwise. The present buffers
are [B, N_kv, max(P, total_sequence_length), H]: the past up to where the new tokens start,
then the new keys and values, zeros after. Optional: rotary embedding of Q and K
(do_rotary, with the caches), softcap, scale, and a local window: the query at position p
sees the keys j with 0 <= p - j < local_window_size (the current token included, as
onnxruntime has done since its PR #25927; before, one key more). Quantized caches, query
norms, attention bias, head sinks, position ids and output_qk are refused, not guessed."""
import numpy as np

from .base import Kernel
from .RotaryEmbedding import RotaryEmbedding

UNSUPPORTED_INPUTS = {9: "position_ids", 10: "attention_bias", 11: "head_sink",
                      12: "k_scale", 13: "v_scale", 14: "q_norm_weight", 15: "k_norm_weight",
                      16: "query_seqlens"}


class GroupQueryAttention(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_heads": None, "kv_num_heads": None, "scale": 0.0, "softcap": 0.0,
             "local_window_size": -1, "do_rotary": 0, "rotary_interleaved": 0,
             "smooth_softmax": 0, "qk_output": 0, "causal": 1, "sliding_window_cache": 0,
             "kv_cache_bit_width": 0, "k_quant_type": "NONE", "v_quant_type": "NONE",
             "qk_norm_epsilon": 1e-6, "q_norm_epsilon": None, "k_norm_epsilon": None}
    n_inputs = (1, 17)  # key, value and the past are optional before the required 5 and 6

    def run(self, query, key=None, value=None, past_key=None, past_value=None, seqlens_k=None,
            total_len=None, cos=None, sin=None, *rest, num_heads=None, kv_num_heads=None,
            scale=0.0, softcap=0.0, local_window_size=-1, do_rotary=0, rotary_interleaved=0,
            **other):
        self._refuse(rest, other)
        if seqlens_k is None or total_len is None:
            raise self.fail("inputs 5 (seqlens_k) and 6 (total_sequence_length) are required")
        if (key is None) != (value is None) or (past_key is None) != (past_value is None):
            raise self.fail("key and value, and past_key and past_value, come in pairs")
        if not num_heads or not kv_num_heads or num_heads % kv_num_heads:
            raise self.fail(f"num_heads ({num_heads}) must be a positive multiple of "
                            f"kv_num_heads ({kv_num_heads})")
        b, s, d = query.shape
        if key is None:  # packed QKV: N query heads, then N_kv key heads, N_kv value heads
            h = d // (num_heads + 2 * kv_num_heads)
            q, k, v = np.split(query, [num_heads * h, (num_heads + kv_num_heads) * h], -1)
        else:
            h = d // num_heads
            q, k, v = query, key, value
        total = int(np.asarray(total_len).reshape(-1)[0])
        ends = np.asarray(seqlens_k, np.int64).reshape(-1) + 1  # tokens per batch entry
        first = s == total  # the first prompt: the new tokens start at 0
        starts = np.zeros(b, np.int64) if first else ends - s
        if do_rotary:
            q, k = self._rotary(q, k, cos, sin, starts, num_heads, kv_num_heads,
                                rotary_interleaved)
        q = q.reshape(b, s, num_heads, h).transpose(0, 2, 1, 3)
        k = k.reshape(b, s, kv_num_heads, h).transpose(0, 2, 1, 3)
        v = v.reshape(b, s, kv_num_heads, h).transpose(0, 2, 1, 3)
        past_len = 0 if past_key is None else past_key.shape[2]
        length = max(total, past_len)
        present_k = np.zeros((b, kv_num_heads, length, h), np.float32)
        present_v = np.zeros_like(present_k)
        for i in range(b):
            p = int(starts[i])
            if p < 0 or p + s > length:
                raise self.fail(f"batch {i}: new tokens at {p}..{p + s} do not fit a present "
                                f"buffer of {length}")
            if p:
                if past_key is None or p > past_len:
                    raise self.fail(f"batch {i}: {p} past tokens, the past holds {past_len}")
                present_k[i, :, :p] = past_key[i, :, :p]
                present_v[i, :, :p] = past_value[i, :, :p]
            present_k[i, :, p:p + s] = k[i]
            present_v[i, :, p:p + s] = v[i]
        group = num_heads // kv_num_heads
        keys = np.repeat(present_k, group, axis=1)  # [B, N, L, H]
        values = np.repeat(present_v, group, axis=1)
        scores = (q.astype(np.float32) @ keys.transpose(0, 1, 3, 2)) * (scale or 1 / np.sqrt(h))
        if softcap > 0:
            scores = softcap * np.tanh(scores / softcap)
        scores = np.where(self._visible(starts, s, length, local_window_size), scores, -np.inf)
        scores = scores - scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores)
        probs = probs / probs.sum(axis=-1, keepdims=True)
        y = (probs @ values).transpose(0, 2, 1, 3).reshape(b, s, num_heads * h)
        dtype = query.dtype
        return y.astype(dtype), present_k.astype(dtype), present_v.astype(dtype)

    def _refuse(self, rest, other):
        for k, a in enumerate(rest, start=9):
            if a is not None:
                raise self.fail(f"input {k} ({UNSUPPORTED_INPUTS[k]}) is not supported")
        plain = {"smooth_softmax": 0, "qk_output": 0, "causal": 1, "sliding_window_cache": 0,
                 "kv_cache_bit_width": 0, "k_quant_type": "NONE", "v_quant_type": "NONE"}
        for name, default in plain.items():
            if other.get(name, default) != default:
                raise self.fail(f"{name} = {other[name]!r} is not supported")

    @staticmethod
    def _visible(starts, s, length, window):
        """[B, 1, S, L]: query row r of batch b sees keys up to its own position, and with
        a local window only the last window + 1 of them."""
        pos = starts[:, None] + np.arange(s)[None, :]  # [B, S] absolute positions
        col = np.arange(length)[None, None, :]
        seen = col <= pos[:, :, None]
        if window > 0:
            seen &= col > pos[:, :, None] - window
        return seen[:, None, :, :]

    def _rotary(self, q, k, cos, sin, starts, num_heads, kv_num_heads, interleaved):
        if cos is None or sin is None:
            raise self.fail("do_rotary needs cos_cache and sin_cache")
        s = q.shape[1]
        pos = starts[:, None] + np.arange(s)[None, :]
        out = []
        for x, heads in ((q, num_heads), (k, kv_num_heads)):
            rot = RotaryEmbedding({"interleaved": interleaved, "num_heads": heads},
                                  domain="com.microsoft")
            out.append(rot(x, pos, cos, sin)[0])
        return out
