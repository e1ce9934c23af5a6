"""RotaryEmbedding: rotate pairs of each head's first rotary_embedding_dim features by the
cached cos/sin of their position (halves, or interleaved pairs). The input order is
com.microsoft's (X, position_ids, cos, sin) for a node of that domain - the kernel is
built with domain="com.microsoft" - and ONNX's (X, cos, sin, position_ids?) otherwise."""
import numpy as np

from .base import Kernel


class RotaryEmbedding(Kernel):
    attrs = {"interleaved": 0, "num_heads": 0, "rotary_embedding_dim": 0, "scale": 1.0,
             "is_packed_batching": 0}
    n_inputs = (3, 4)
    domains = ("", "com.microsoft")

    def setup(self, **_):
        self.microsoft = self.domain == "com.microsoft"  # the input order

    def run(self, x, a, b, c=None, interleaved=0, num_heads=0, rotary_embedding_dim=0,
            **_):
        if self.microsoft:
            pos, cos_cache, sin_cache = a, b, c
        else:
            cos_cache, sin_cache, pos = a, b, c
        if x.ndim == 4:  # [B, N, S, H] -> [B, S, N, H]
            x4 = x.transpose(0, 2, 1, 3)
        else:
            heads = num_heads or x.shape[-1] // (2 * cos_cache.shape[-1])
            x4 = x.reshape(x.shape[0], x.shape[1], heads, -1)
        bsz, seq = x4.shape[:2]
        if pos is None:
            cos, sin = cos_cache, sin_cache  # [B, S, rot/2]
        else:
            pos = np.asarray(pos, np.int64)
            if pos.size == 1 and pos.ndim <= 1:  # an offset
                pos = np.broadcast_to(pos.reshape(-1)[0] + np.arange(seq), (bsz, seq))
            cos, sin = cos_cache[pos], sin_cache[pos]
        cos, sin = cos[:, :, None, :], sin[:, :, None, :]
        rot = rotary_embedding_dim or 2 * cos.shape[-1]
        part, rest = x4[..., :rot], x4[..., rot:]
        if interleaved:
            x1, x2 = part[..., 0::2], part[..., 1::2]
            out = np.empty_like(part)
            out[..., 0::2] = x1 * cos - x2 * sin
            out[..., 1::2] = x2 * cos + x1 * sin
        else:
            x1, x2 = part[..., : rot // 2], part[..., rot // 2:]
            out = np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
        y = np.concatenate([out, rest], axis=-1).astype(x.dtype)
        return y.transpose(0, 2, 1, 3) if x.ndim == 4 else y.reshape(x.shape)
