"""MurmurHash3 (com.microsoft): the 32-bit MurmurHash3 (x86_32) of each element - its
little-endian bytes, a string's UTF-8 bytes - with `seed`; uint32 hashes when positive is 1,
the same bits as int32 otherwise."""
import numpy as np

from .base import Kernel

_C1, _C2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)
_NUMERIC = (np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64)


def _rotl(k, r):
    return (k << np.uint32(r)) | (k >> np.uint32(32 - r))


def _mix_block(h, k):
    """One 4-byte block k (uint32 arrays) into the running hashes h."""
    k = _rotl(k * _C1, 15) * _C2
    return _rotl(h ^ k, 13) * np.uint32(5) + np.uint32(0xE6546B64)


def _finish(h, length):
    h = h ^ np.uint32(length)
    h = (h ^ (h >> np.uint32(16))) * np.uint32(0x85EBCA6B)
    h = (h ^ (h >> np.uint32(13))) * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def murmur3_32(data: bytes, seed: int) -> int:
    """The hash of one byte string (as a Python int)."""
    n = len(data) // 4
    blocks = np.frombuffer(data[:4 * n], "<u4").astype(np.uint32)
    h = np.full(1, seed, np.uint32)
    for k in blocks:
        h = _mix_block(h, np.full(1, k, np.uint32))
    tail = data[4 * n:]
    if tail:
        k = np.full(1, int.from_bytes(tail, "little"), np.uint32)
        h = h ^ (_rotl(k * _C1, 15) * _C2)
    return int(_finish(h, len(data))[0])


class MurmurHash3(Kernel):
    domains = ("com.microsoft",)
    attrs = {"positive": 1, "seed": 0}

    def run(self, x, *, positive, seed):
        seed = int(seed) & 0xFFFFFFFF
        flat = x.reshape(-1)
        if x.dtype.kind in "OUS":
            out = np.array([murmur3_32(v.encode() if isinstance(v, str) else bytes(v), seed)
                            for v in flat.tolist()], np.uint32)
        elif x.dtype.type in _NUMERIC:
            # each element is whole 4-byte blocks: one (4 bytes) or two (8 bytes), no tail
            blocks = np.ascontiguousarray(flat.astype(x.dtype.newbyteorder("<"))).view("<u4")
            blocks = blocks.reshape(flat.size, x.dtype.itemsize // 4).astype(np.uint32)
            out = np.full(flat.size, seed, np.uint32)
            for j in range(blocks.shape[1]):
                out = _mix_block(out, blocks[:, j])
            out = _finish(out, x.dtype.itemsize)
        else:
            raise self.fail(f"hashes int32, uint32, int64, uint64, float, double or string "
                            f"tensors, not {x.dtype}")
        out = out.reshape(x.shape)
        return out if positive == 1 else out.view(np.int32)
