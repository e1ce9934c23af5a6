"""MRotaryEmbedding (com.microsoft): M-RoPE. Each token's cos/sin vector of H entries (H the
sum of mrope_section) is gathered from the caches by three position streams - temporal,
height, width - in contiguous sections (mrope_layout 0) or interleaved (1: T everywhere,
then H at 1, 4, 7, .. of the first 3 section[1] entries, W at 2, 5, .. of the first
3 section[2]); then RotaryEmbedding's rotation applies with that vector."""
import numpy as np

from .RotaryEmbedding import RotaryEmbedding
from .base import REQUIRED, Kernel
from .dtypes import NARROW_FLOATS


class MRotaryEmbedding(Kernel):
    domains = ("com.microsoft",)
    attrs = {"mrope_section": REQUIRED, "num_heads": 0, "rotary_embedding_dim": 0,
             "interleaved": 0, "mrope_layout": 0, "is_packed_batching": 0, "scale": 1.0}
    n_inputs = (4, 4)

    def run(self, x, pos, cos_cache, sin_cache, *, mrope_section, num_heads,
            rotary_embedding_dim, interleaved, mrope_layout, **_):
        sec = [int(v) for v in mrope_section]
        if len(sec) != 3 or min(sec) < 0:
            raise self.fail(f"mrope_section must be 3 non-negative integers, not {sec}")
        if mrope_layout not in (0, 1):
            raise self.fail(f"mrope_layout must be 0 or 1, not {mrope_layout}")
        if x.dtype.name not in NARROW_FLOATS or not x.dtype == cos_cache.dtype == sin_cache.dtype:
            raise self.fail(f"takes one float type, not {x.dtype}, {cos_cache.dtype}, "
                            f"{sin_cache.dtype}")
        if x.ndim not in (3, 4):
            raise self.fail(f"X must be 3-D or 4-D, not of rank {x.ndim}")
        if (x.ndim == 3 or rotary_embedding_dim) and num_heads <= 0:
            raise self.fail("num_heads must be positive")
        if x.ndim == 3 and x.shape[2] % num_heads:
            raise self.fail(f"hidden size {x.shape[2]} is no multiple of num_heads")
        bsz, seq = x.shape[0], x.shape[x.ndim - 2]
        head = x.shape[3] if x.ndim == 4 else x.shape[2] // num_heads
        half = sum(sec)
        rot = rotary_embedding_dim or head
        if rot != 2 * half or rot > head:
            raise self.fail(f"rotary dim {rot} must be 2 * sum(mrope_section) and <= {head}")
        if (cos_cache.ndim != 2 or cos_cache.shape != sin_cache.shape
                or cos_cache.shape[1] != half):
            raise self.fail(f"caches of shape {list(cos_cache.shape)}, "
                            f"{list(sin_cache.shape)}: [positions, {half}] both")
        if pos.dtype != np.int64 or pos.shape != (3, bsz, seq):
            raise self.fail(f"position_ids {list(pos.shape)} must be [3, {bsz}, {seq}]")
        if pos.size and (pos.min() < 0 or pos.max() >= cos_cache.shape[0]):
            raise self.fail("position_ids out of the caches' range")
        # which stream (0 T, 1 H, 2 W) fills each of the H entries
        if mrope_layout == 0:
            stream = np.repeat([0, 1, 2], sec)
        else:
            stream = np.zeros(half, np.int64)
            stream[1:3 * sec[1]:3] = 1
            stream[2:3 * sec[2]:3] = 2
        cos = _gather(cos_cache, pos, stream)
        sin = _gather(sin_cache, pos, stream)
        rope = RotaryEmbedding({"interleaved": interleaved, "num_heads": num_heads,
                                "rotary_embedding_dim": rot}, domain="")
        return rope(x, cos, sin)[0]


def _gather(cache, pos, stream):
    """[B, S, H]: entry j of token (b, s) is cache[pos[stream[j], b, s], j]."""
    idx = pos[stream]  # [H, B, S]
    return np.moveaxis(cache[idx, np.arange(len(stream))[:, None, None]], 0, -1)
