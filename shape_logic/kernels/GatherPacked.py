"""GatherPacked (com.microsoft): rows of a GGML block-packed table [vocab, row_bytes], an
index out of 0..vocab - 1 reading row 0, dequantized in float32 and rounded once to
output_dtype. Decoded here: F32, F16, BF16 and the 32-element blocks Q4_0, Q5_0, Q8_0 and
IQ4_NL (a float16 scale d, then the codes, all little-endian); onnxruntime's K-quant and
IQ2/IQ3/IQ4_XS formats are not (this kernel fails on them)."""
import numpy as np

from ..graph import NUMPY_DTYPES
from .base import REQUIRED, Kernel

# GGML type id -> (elements, bytes) per block (rules/GatherPacked.lp's table)
FORMATS = {0: (1, 4), 1: (1, 2), 30: (1, 2), 2: (32, 18), 6: (32, 22), 8: (32, 34),
           13: (256, 176), 14: (256, 210), 16: (256, 66), 17: (256, 74), 18: (256, 98),
           20: (32, 18), 22: (256, 82), 23: (256, 136)}
OUTPUTS = {1: np.dtype(np.float32), 10: np.dtype(np.float16), 16: np.dtype(NUMPY_DTYPES["bf16"])}
IQ4_NL = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113],
                  np.float32)


def _nibbles(qs):
    """[.., 16] bytes -> [.., 32] codes: the low nibbles, then the high ones."""
    return np.concatenate([qs & 0xF, qs >> 4], axis=-1).astype(np.int32)


def decode(blocks: np.ndarray, fmt: int) -> np.ndarray:
    """uint8 [n, bytes] blocks of format fmt -> float32 [n, elements]."""
    if fmt == 0:
        return blocks.copy().view("<f4")
    if fmt == 1:
        return blocks.copy().view("<f2").astype(np.float32)
    if fmt == 30:  # bfloat16: the high half of a float32
        return (blocks.copy().view("<u2").astype(np.uint32) << 16).view(np.float32)
    d = blocks[:, :2].copy().view("<f2").astype(np.float32)  # [n, 1]
    if fmt == 8:
        return d * blocks[:, 2:].view(np.int8).astype(np.float32)
    if fmt == 2:
        return d * (_nibbles(blocks[:, 2:]) - 8)
    if fmt == 20:
        return d * IQ4_NL[_nibbles(blocks[:, 2:])]
    # Q5_0: 32 high bits (little-endian) above the 4-bit codes
    qh = blocks[:, 2:6].copy().view("<u4")  # [n, 1]
    high = (qh >> np.arange(32, dtype=np.uint32)) & 1
    return d * ((_nibbles(blocks[:, 6:]) | (high.astype(np.int32) << 4)) - 16)


class GatherPacked(Kernel):
    domains = ("com.microsoft",)
    attrs = {"packed_type": REQUIRED, "K": REQUIRED, "output_dtype": 16}
    n_inputs = (2, 2)

    def setup(self, packed_type, K, output_dtype):
        if packed_type not in FORMATS or output_dtype not in OUTPUTS or K <= 0 or \
                K % FORMATS[packed_type][0]:
            raise self.fail(f"packed_type {packed_type}, K {K} (a positive multiple of the "
                            f"format's block) or output_dtype {output_dtype} is not one it takes")
        if packed_type not in (0, 1, 30, 2, 6, 8, 20):
            raise self.fail(f"this kernel does not decode GGML type {packed_type}")

    def run(self, data, indices, *, packed_type, K, output_dtype):
        elems, nbytes = FORMATS[packed_type]
        row_bytes = K // elems * nbytes
        if data.dtype != np.uint8 or data.ndim != 2 or data.shape[1] != row_bytes:
            raise self.fail(f"data {data.dtype} {list(data.shape)} must be uint8 "
                            f"[vocab, {row_bytes}]")
        if indices.dtype not in (np.int32, np.int64):
            raise self.fail(f"takes int32 or int64 indices, not {indices.dtype}")
        vocab = data.shape[0]
        if vocab == 0 and indices.size:
            raise self.fail("a nonempty gather needs a nonempty table")
        idx = indices.astype(np.int64).reshape(-1)
        idx = np.where((idx < 0) | (idx >= vocab), 0, idx)
        rows = data[idx] if idx.size else np.zeros((0, row_bytes), np.uint8)
        values = decode(rows.reshape(-1, nbytes), packed_type).reshape(idx.size, K)
        return values.astype(OUTPUTS[output_dtype]).reshape(*indices.shape, K)
