"""DecoderMaskedMultiHeadAttention (com.microsoft), as onnxruntime's CPU kernel computes it:
one decoding step (query [B, 1, D], num_heads heads of size E = D / num_heads).

Self-attention (past key and value given, past_present_share_buffer = 1): the buffers [B,
N, M, E] hold P = past_sequence_length filled positions; the new key and value (plus their
parts of `bias`) are written at position P of the presents (the past otherwise), and the
query attends to positions 0..P. With beam search (cache_indirection [B / beams, beams, M])
row b * beams + j reads position t < P of the cache from row b * beams +
cache_indirection[b, j, t], and an attention_bias of B rows is read at row b (as
onnxruntime's CPU kernel does). Cross attention (no past): key and value are the cache
itself, read in heads [B, N, L, E] (a 3-D key's memory as it lies, as onnxruntime does);
only the query takes its bias. Packed QKV [B, 1, 3 * D] splits in thirds (onnxruntime's
CUDA kernel: its CPU kernel refuses it). Scores are scaled (1 / sqrt(E) unless `scale`),
plus attention_bias, plus mask_filter_value where mask_index [B, T] is 0; qk (output 3)
returns them before the softmax, in float32. Refused, not guessed: 5-D packing, a value
head size other than the key's, self-attention over more than one new key, and an
attention_bias [B, 1, 1, T] with beams (onnxruntime reads it out of bounds)."""
import numpy as np

from .attention import attend
from .base import Kernel


class DecoderMaskedMultiHeadAttention(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_heads": None, "scale": 0.0, "mask_filter_value": -10000.0,
             "past_present_share_buffer": 0, "output_qk": 0}
    n_inputs = (1, 11)
    small_float_outputs = (0, 1, 2)  # qk is float32 (CUDA's; the CPU's where declared so)

    def run(self, q, k=None, v=None, mask=None, attention_bias=None, past_key=None,
            past_value=None, past_len=None, beam_width=None, cache_indirection=None,
            bias=None, num_heads=None, scale=0.0, mask_filter_value=-10000.0,
            past_present_share_buffer=0, output_qk=0):
        if not num_heads or num_heads < 1:
            raise self.fail("attribute 'num_heads' is required and positive")
        if q.ndim != 3 or q.shape[1] != 1:
            raise self.fail(f"the query must be [B, 1, D] (one token), not {list(q.shape)}")
        if (k is None) != (v is None) or (past_key is None) != (past_value is None):
            raise self.fail("key and value, and past_key and past_value, come in pairs")
        cached = past_key is not None
        if cached != bool(past_present_share_buffer):
            raise self.fail("a past key and value need past_present_share_buffer = 1, and "
                            "it needs them")
        b = q.shape[0]
        self._beams(beam_width, cache_indirection, b, past_key)
        d = q.shape[2] // 3 if k is None else q.shape[2]
        if d % num_heads:
            raise self.fail(f"the hidden size {d} is no multiple of {num_heads} heads")
        e = d // num_heads
        if k is None:  # packed QKV: [q | k | v] along the last axis
            if not cached:
                raise self.fail("packed QKV needs the past key and value")
            q, k, v = q[..., :d], q[..., d:2 * d], q[..., 2 * d:3 * d]
        if v.shape[-1] * (v.shape[1] if v.ndim == 4 else 1) != d:
            raise self.fail("a value hidden size other than the query's is not supported")
        if bias is not None:
            q = q + bias[:d]
        qh = q.reshape(b, num_heads, 1, e)
        if cached:
            keys, values, presents = self._cache(k, v, bias, past_key, past_value, past_len,
                                                 d, e, cache_indirection)
        else:
            if attention_bias is not None:
                raise self.fail("attention_bias is not supported in cross attention")
            # the cache as it lies in memory, in heads [B, N, L, E]
            keys, values, presents = k.reshape(b, num_heads, -1, e), \
                v.reshape(b, num_heads, -1, e), (None, None)
        total = keys.shape[2]
        attention_bias = self._bias(attention_bias, b, num_heads, total, cache_indirection)
        keep = None
        if mask is not None:
            if mask.shape != (b, total):
                raise self.fail(f"mask_index must be [B, T] = [{b}, {total}], not "
                                f"{list(mask.shape)}")
            keep = np.asarray(mask)[:, None, None, :]
        y = attend(qh, keys, values, scale, attention_bias, keep, 0, mask_filter_value)
        y = y.transpose(0, 2, 1, 3).reshape(b, 1, d).astype(q.dtype)
        qk = None
        if self.n_outputs > 3 and output_qk:
            qk = (qh @ keys.transpose(0, 1, 3, 2)) * (scale or 1 / np.sqrt(e))
            if attention_bias is not None:
                qk = qk + attention_bias
            if keep is not None:
                qk = qk + np.where(keep == 0, mask_filter_value, 0)
            qk = qk.astype(np.float32)
        return y, presents[0], presents[1], qk

    def _cache(self, k, v, bias, past_key, past_value, past_len, d, e, indirection):
        """The keys and values attended to ([B, N, P + 1, E] each) and the presents."""
        b, n, m, _ = past_key.shape
        if k.ndim == 3 and k.shape[1] != 1 or k.ndim == 4 and k.shape[2] != 1:
            raise self.fail("self-attention takes one new key and value")
        if bias is not None:
            if k.ndim == 4:
                raise self.fail("a bias with keys in heads is not supported")
            k, v = k + bias[d:2 * d], v + bias[2 * d:]
        if past_len is None or np.size(past_len) != 1:
            raise self.fail("past_sequence_length (one element) is required with a past")
        p = int(np.asarray(past_len).reshape(-1)[0])
        if not 0 <= p < m:
            raise self.fail(f"past_sequence_length {p} does not fit a buffer of {m}")
        present_k, present_v = past_key.copy(), past_value.copy()
        present_k[:, :, p] = k.reshape(b, n, e)
        present_v[:, :, p] = v.reshape(b, n, e)
        keys, values = present_k[:, :, :p + 1].copy(), present_v[:, :, :p + 1].copy()
        if indirection is not None:  # beam search: each row's past from its beam's row
            ind = np.asarray(indirection)
            beams = ind.shape[1]
            rows = np.arange(b)
            src = (rows // beams * beams)[:, None] + ind.reshape(b, -1)[:, :p]  # [B, P]
            keys[:, :, :p] = past_key[src, :, np.arange(p)].transpose(0, 2, 1, 3)
            values[:, :, :p] = past_value[src, :, np.arange(p)].transpose(0, 2, 1, 3)
        return keys, values, (present_k, present_v)

    def _beams(self, width, indirection, b, past_key):
        """cache_indirection [B / beams, beams, M] (M: the buffer's, with a past); beams
        beyond 1 need it."""
        width = None if width is None else int(np.asarray(width).reshape(-1)[0])
        if indirection is None:
            if width is not None and width > 1:
                raise self.fail("beam_width beyond 1 needs cache_indirection")
            return
        shape = np.shape(indirection)
        if len(shape) != 3 or shape[0] * shape[1] != b or \
                width is not None and width != shape[1] or \
                past_key is not None and shape[2] != past_key.shape[2]:
            raise self.fail(f"cache_indirection must be [B / beams, beams, M], not {list(shape)}")

    def _bias(self, bias, b, n, total, indirection):
        """attention_bias [B or 1, N or 1, 1, T]; with beams, row b * beams + j reads row b
        (onnxruntime's CPU kernel)."""
        if bias is None:
            return None
        if bias.ndim != 4 or bias.shape[0] not in (1, b) or bias.shape[1] not in (1, n) or \
                bias.shape[2:] != (1, total):
            raise self.fail(f"attention_bias must be [B or 1, N or 1, 1, {total}], not "
                            f"{list(bias.shape)}")
        if indirection is not None and bias.shape[0] == b:
            if bias.shape[1] != n:  # (read there at [b, N, 1, T]'s offsets: out of bounds)
                raise self.fail("an attention_bias [B, 1, 1, T] with cache_indirection is "
                                "not supported")
            bias = bias[np.arange(b) // np.shape(indirection)[1]]
        return bias
