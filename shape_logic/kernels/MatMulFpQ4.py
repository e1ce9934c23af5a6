"""MatMulFpQ4 (com.microsoft): A (float32) times a weight W [K, N] quantized to 4 bits and
packed by MLAS (MlasQ4GemmPackB) into the blob B; B_shape holds K and N. For each column n,
then each block of 32 rows of that column, B holds a blob: a float32 scale, with
blk_quant_type 1 (any value but 0) a uint8 zero point, then 16 bytes whose byte l holds the
code of row l (low nibble) and of row l + 16 (high nibble). A value is
(code - 8) * scale (blk_quant_type 0) or (code - zero point) * scale. Y = A @ W as numpy's
matmul (A [.., K], no scalar), computed in float32."""
import numpy as np

from .base import Kernel


class MatMulFpQ4(Kernel):
    domains = ("com.microsoft",)
    attrs = {"blk_quant_type": 1}
    n_inputs = (3, 3)

    def run(self, a, b, b_shape, *, blk_quant_type):
        if a.dtype != np.float32 or b.dtype != np.uint8 or b_shape.dtype != np.int64:
            raise self.fail(f"takes float32 A, uint8 B and int64 B_shape, not {a.dtype}, "
                            f"{b.dtype} and {b_shape.dtype}")
        if b.ndim != 1 or b_shape.shape != (2,):
            raise self.fail(f"takes a 1-D B and B_shape [2], not {list(b.shape)} and "
                            f"{list(b_shape.shape)}")
        k, n = (int(v) for v in b_shape)
        if k < 1 or n < 1:
            raise self.fail(f"K = {k} and N = {n} must be at least 1")
        if a.ndim == 0 or a.shape[-1] != k:
            raise self.fail(f"A of shape {list(a.shape)} does not end in K = {k}")
        zp = blk_quant_type != 0
        size = 20 + zp
        blocks = -(-k // 32)
        if b.size != n * blocks * size:
            raise self.fail(f"B holds {b.size} bytes, the weight packs into "
                            f"{n * blocks * size}")
        blobs = b.reshape(n, blocks, size)
        scales = blobs[:, :, :4].copy().view(np.float32)[:, :, 0]
        zero = blobs[:, :, 4].astype(np.float32) if zp else np.full((n, blocks), 8, np.float32)
        data = blobs[:, :, size - 16:]
        codes = np.concatenate([data & 15, data >> 4], axis=-1).astype(np.float32)
        w = (codes - zero[:, :, None]) * scales[:, :, None]  # [N, blocks, 32]
        w = w.reshape(n, blocks * 32)[:, :k].T  # [K, N]
        return np.matmul(a, w.astype(np.float32)).astype(np.float32)
