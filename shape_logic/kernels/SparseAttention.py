"""SparseAttention (com.microsoft, phi-3-small's), as onnxruntime's CPU kernel computes it:
causal attention of num_heads query heads over kv_num_heads key/value heads (each serving
num_heads / kv_num_heads of them), with a block-sparse layout.

query [B, S, N * H] with key and value [B, S, N_kv * H], or packed QKV [B, S, (N + 2 *
N_kv) * H]; past key and value [B, N_kv, M, H], a buffer the presents share (they are the
past with the new keys and values written in). Batch b holds key_total_sequence_lengths[b]
tokens; the new ones start at 0 on the prompt (S == total_sequence_length) and at
key_total_sequence_lengths[b] - S otherwise. Optional rotary embedding of the query and
the new keys (do_rotary, cos/sin caches [positions, rotary dim / 2]: the first rotary dim
features of each head, halves or interleaved pairs) at those positions.

The layouts (block_row_indices [L, blocks + 1], block_col_indices [L, nnz]: the CSR of L
block masks, the head h using layout h % L): a query at position p sees the keys j <= p;
where its block row lists fewer blocks than a full lower triangle has (and the layout as a
whole is sparser than one), only the keys of the listed column blocks.

Refused, not guessed: lengths below the query's, beyond the buffer, or on the prompt other
than S (onnxruntime's CPU kernel then reads past its buffers). Where onnxruntime's CPU
kernel errs, this one computes what the operator means: a batch entry of another length
than total_sequence_length (onnxruntime reads its probabilities at the wrong offsets), a
one-token prompt of several batch entries rotated (it reads position ids past its one)."""
import numpy as np

from .base import Kernel
from .RotaryEmbedding import RotaryEmbedding


class SparseAttention(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_heads": None, "kv_num_heads": None, "sparse_block_size": None,
             "scale": 0.0, "do_rotary": 0, "rotary_interleaved": 0}
    n_inputs = (9, 11)
    optional_inputs = frozenset({1, 2})  # key and value, absent for packed QKV

    def run(self, query, key, value, past_key, past_value, row_indices, col_indices,
            total_len, total_key_lengths, cos=None, sin=None, num_heads=None,
            kv_num_heads=None, sparse_block_size=None, scale=0.0, do_rotary=0,
            rotary_interleaved=0):
        n, n_kv, block = num_heads, kv_num_heads, sparse_block_size
        if not n or not n_kv or n % n_kv or not block or block < 1:
            raise self.fail(f"num_heads ({n}) must be a positive multiple of kv_num_heads "
                            f"({n_kv}), sparse_block_size ({block}) positive")
        if (key is None) != (value is None):
            raise self.fail("key and value come together (both absent: packed QKV)")
        b, s, d = query.shape
        if key is None:
            h = d // (n + 2 * n_kv)
            q, k, v = np.split(query, [n * h, (n + n_kv) * h], axis=-1)
        else:
            h, (q, k, v) = d // n, (query, key, value)
        total = int(np.asarray(total_len).reshape(-1)[0])
        lengths = np.asarray(total_key_lengths, np.int64).reshape(-1)
        m = past_key.shape[2]
        prompt = s == total
        if (lengths < s).any() or (lengths > m).any() or prompt and (lengths != s).any():
            raise self.fail(f"key_total_sequence_lengths {lengths.tolist()} must lie in "
                            f"[{s}, {m}] ({s} on the prompt)")
        starts = np.zeros(b, np.int64) if prompt else lengths - s
        pos = starts[:, None] + np.arange(s)[None, :]  # [B, S]: the new tokens' positions
        if do_rotary:
            if cos is None or sin is None:
                raise self.fail("do_rotary needs cos_cache and sin_cache")
            q, k = (RotaryEmbedding({"interleaved": rotary_interleaved, "num_heads": heads},
                                    domain="com.microsoft")(x, pos, cos, sin)[0]
                    for x, heads in ((q, n), (k, n_kv)))
        present_k, present_v = past_key.copy(), past_value.copy()
        for i in range(b):
            rows = slice(starts[i], starts[i] + s)
            present_k[i, :, rows] = k[i].reshape(s, n_kv, h).transpose(1, 0, 2)
            present_v[i, :, rows] = v[i].reshape(s, n_kv, h).transpose(1, 0, 2)
        group = n // n_kv
        qh = q.reshape(b, s, n, h).transpose(0, 2, 1, 3).astype(np.float32)
        keys = np.repeat(present_k, group, axis=1).astype(np.float32)  # [B, N, M, H]
        values = np.repeat(present_v, group, axis=1).astype(np.float32)
        scores = (qh @ keys.transpose(0, 1, 3, 2)) * (scale or 1 / np.sqrt(h))
        causal = np.arange(m)[None, None, None, :] <= pos[:, None, :, None]  # [B, 1, S, M]
        listed = self._listed(pos, m, n, block, np.asarray(row_indices),
                              np.asarray(col_indices))
        # (a key its layout leaves out gets float's lowest, as onnxruntime's: a row leaving
        # out every key it sees would weigh them alike)
        scores = np.where(listed, scores, np.finfo(np.float32).min)
        scores = np.where(causal, scores, -np.inf)
        probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = probs / probs.sum(axis=-1, keepdims=True)
        y = (probs @ values).transpose(0, 2, 1, 3).reshape(b, s, n * h)
        return y.astype(query.dtype), present_k, present_v

    @staticmethod
    def _listed(pos, m, n, block, rows, cols):
        """[B, N, S, M]: the keys the layout of each head lists for each query."""
        layouts, width = rows.shape
        full = width * (width - 1) // 2  # a lower triangle's blocks
        seen = np.ones((pos.shape[0], n, pos.shape[1], m), bool)
        for head in range(n):
            lay = head % layouts
            if rows[lay, -1] >= full:  # a dense layout: causal only
                continue
            allowed = np.zeros((width - 1, m), bool)  # per block row: the keys it lists
            for r in range(width - 1):
                listed = cols[lay, rows[lay, r]:rows[lay, r + 1]]
                if len(listed) == r + 1:  # a full row: causal only
                    allowed[r] = True
                for c in listed:
                    allowed[r, c * block:(c + 1) * block] = True
            seen[:, head] &= allowed[pos // block]
        return seen
