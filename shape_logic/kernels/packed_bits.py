"""Weights packed a few bits to a byte, as onnxruntime's block-quantized contrib ops store
them (MatMulNBits, GatherBlockQuantized): each byte holds 8 / bits values, the first in its
lowest bits."""
from __future__ import annotations

import numpy as np


def unpack_bits(packed: np.ndarray, bits: int) -> np.ndarray:
    """uint8 [..., nbytes] -> uint8 [..., nbytes * 8 / bits], low-order bits first (bits is
    2, 4 or 8)."""
    packed = np.asarray(packed, np.uint8)
    if bits == 8:
        return packed
    per_byte = 8 // bits
    shifts = np.arange(0, 8, bits, dtype=np.uint8)
    values = (packed[..., None] >> shifts) & np.uint8((1 << bits) - 1)
    return values.reshape(packed.shape[:-1] + (packed.shape[-1] * per_byte,))
