"""MatMulNBits (com.microsoft): A [.., K] times a weight [K, N] quantized block-wise along K
to `bits` bits (2, 4 or 8). B [N, k_blocks, blob] uint8 holds each column's blocks of
block_size values, packed low bits first; the weight is (q - zero_point) * scale per block,
with scales [N, k_blocks] (or flat) of A's type and zero points packed like B ([N,
ceil(k_blocks * bits / 8)] uint8) or unpacked ([N, k_blocks], a float type), by default
2^(bits - 1). g_idx (deprecated) gives each of the K rows its block; bias [N] is added.
A B with a 0 dim stands for an omitted projection: Y is zeros (plus the bias).

Computed in float32 whatever accuracy_level asks (onnxruntime may quantize A to int8 for
level 4: its results then differ by that rounding). onnxruntime's CPU kernel reads the
zero points wrong with g_idx (packed ones are ignored; 2-bit ones too) and has no 8-bit
weights with float zero points; this kernel follows the documented formula in both.
Prepacked weights (an execution provider's layout) are refused."""
import numpy as np

from .base import REQUIRED, Kernel
from .packed_bits import unpack_bits


class MatMulNBits(Kernel):
    domains = ("com.microsoft",)
    attrs = {"K": REQUIRED, "N": REQUIRED, "bits": 4, "block_size": REQUIRED,
             "accuracy_level": 0, "weight_prepacked": 0}
    n_inputs = (3, 6)

    def setup(self, K, N, bits, block_size, weight_prepacked, **_):
        if bits not in (2, 4, 8):
            raise self.fail(f"bits = {bits} is not supported (2, 4 or 8)")
        if block_size < 16 or block_size & (block_size - 1):
            raise self.fail(f"block_size = {block_size} is not a power of two >= 16")
        if weight_prepacked:
            raise self.fail(f"weight_prepacked = {weight_prepacked} (an execution provider's "
                            "layout) is not supported")
        if K < 0 or N < 0:
            raise self.fail(f"K = {K} and N = {N} must not be negative")
        self.k_blocks = -(-K // block_size)
        self.packed = (N, self.k_blocks, block_size * bits // 8)

    def run(self, a, b, scales, zero_points=None, g_idx=None, bias=None, *, K, N, bits,
            block_size, **_):
        if a.ndim == 0 or a.shape[-1] != K:
            raise self.fail(f"A of shape {list(a.shape)} does not end in K = {K}")
        if bias is not None and bias.shape != (N,):
            raise self.fail(f"bias of shape {list(bias.shape)} is not [N] = [{N}]")
        y = np.zeros(a.shape[:-1] + (N,), np.float32)
        if not self._empty(b):
            y = a.astype(np.float32) @ self._weight(b, scales, zero_points, g_idx).T
        if bias is not None:
            y = y + bias.astype(np.float32)
        return y.astype(a.dtype)

    def _empty(self, b) -> bool:
        """B is the packed weight, or (a 0 dim, the others 0 or as packed) an omitted one."""
        if b.ndim == 3 and all(d in (0, p) for d, p in zip(b.shape, self.packed)):
            if 0 in b.shape:
                return True
            if b.shape == self.packed:
                return False
        raise self.fail(f"B of shape {list(b.shape)} is not the packed weight "
                        f"{list(self.packed)} (nor one with 0 dims, an omitted one)")

    def _weight(self, b, scales, zero_points, g_idx) -> np.ndarray:
        """The dequantized weight, [N, K] float32."""
        n, k_blocks, _ = self.packed
        k, bits, block = self.kw["K"], self.kw["bits"], self.kw["block_size"]
        q = unpack_bits(b, bits).reshape(n, k_blocks * block)[:, :k].astype(np.float32)
        scale = self._per_block(scales, k_blocks, "scales").astype(np.float32)
        if zero_points is None:
            zero = np.full((n, k_blocks), 2 ** (bits - 1), np.float32)
        elif zero_points.dtype == np.uint8:
            cols = -(-k_blocks * bits // 8)
            packed = self._per_block(zero_points, cols, "zero_points")
            zero = unpack_bits(packed, bits)[:, :k_blocks].astype(np.float32)
        else:
            zero = self._per_block(zero_points, k_blocks, "zero_points").astype(np.float32)
        rows = np.arange(k) // block if g_idx is None else self._groups(g_idx, k_blocks)
        return (q - zero[:, rows]) * scale[:, rows]

    def _per_block(self, value, cols, name) -> np.ndarray:
        n = self.kw["N"]
        if value.shape not in ((n, cols), (n * cols,)):
            raise self.fail(f"{name} of shape {list(value.shape)} is not [{n}, {cols}] "
                            f"(or [{n * cols}])")
        return value.reshape(n, cols)

    def _groups(self, g_idx, k_blocks) -> np.ndarray:
        k, block = self.kw["K"], self.kw["block_size"]
        if g_idx.shape not in ((k,), (k_blocks * block,)):
            raise self.fail(f"g_idx of shape {list(g_idx.shape)} is not [{k}] "
                            f"(or [{k_blocks * block}])")
        groups = g_idx.astype(np.int64)[:k]
        if groups.size and (groups.min() < 0 or groups.max() >= k_blocks):
            raise self.fail(f"g_idx values in [{groups.min()}, {groups.max()}] are not blocks "
                            f"of [0, {k_blocks})")
        return groups
