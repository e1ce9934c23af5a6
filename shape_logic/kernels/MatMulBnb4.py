"""MatMulBnb4 (com.microsoft): A times a weight W [N, K] quantized the bitsandbytes way
(QLoRA's FP4 or NF4). W, flattened row-major, is cut into blocks of block_size values; B
holds each value's 4-bit code, two a byte (the first in the high nibble), absmax one scale
a block: w = table[code] * absmax[block]. With transB (default 1) Y = A @ W^T, A [.., K]
-> Y [.., N]; with transB 0 Y = A @ W, A [.., N] -> Y [.., K]. B and absmax need at least
the elements that takes, whatever their shapes; more are not read.

Computed in float32. onnxruntime's CPU kernel multiplies by W^T whatever transB says
(with transB 0 its results are not A @ W) and takes block sizes 16 to 256 only; this
kernel follows the documented formula in both."""
import numpy as np

from .base import REQUIRED, Kernel

# the values of the 16 codes, as bitsandbytes (and onnxruntime) tabulate them
FP4 = np.array([0.0, 5.208333333e-03, 0.66666667, 1.0, 0.33333333, 0.5, 0.16666667, 0.25,
                -0.0, -5.208333333e-03, -0.66666667, -1.0, -0.33333333, -0.5, -0.16666667,
                -0.25], np.float32)
NF4 = np.array([-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453,
                -0.28444138169288635, -0.18477343022823334, -0.09105003625154495, 0.0,
                0.07958029955625534, 0.16093020141124725, 0.24611230194568634,
                0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
                0.7229568362236023, 1.0], np.float32)


class MatMulBnb4(Kernel):
    domains = ("com.microsoft",)
    attrs = {"K": REQUIRED, "N": REQUIRED, "block_size": REQUIRED, "quant_type": REQUIRED,
             "transB": 1, "training_mode": 0}
    n_inputs = (3, 3)

    def setup(self, K, N, block_size, quant_type, **_):
        if K < 1 or N < 1:
            raise self.fail(f"K = {K} and N = {N} must be positive")
        if block_size < 16 or block_size & (block_size - 1):
            raise self.fail(f"block_size = {block_size} is not a power of two >= 16")
        if quant_type not in (0, 1):
            raise self.fail(f"quant_type = {quant_type} is neither 0 (FP4) nor 1 (NF4)")

    def run(self, a, b, absmax, *, K, N, block_size, quant_type, transB, **_):
        if a.dtype.kind != "f":
            raise self.fail(f"needs a floating-point A, got {a.dtype}")
        inner = K if transB else N
        if a.ndim == 0 or a.shape[-1] != inner:
            raise self.fail(f"A of shape {list(a.shape)} does not end in "
                            f"{'K' if transB else 'N'} = {inner}")
        count = N * K
        need_b, need_scales = (count + 1) // 2, -(-count // block_size)
        if b.size < need_b:
            raise self.fail(f"B holds {b.size} elements, the weight needs {need_b}")
        if absmax.size < need_scales:
            raise self.fail(f"absmax holds {absmax.size} elements, the weight needs "
                            f"{need_scales}")
        packed = b.reshape(-1)[:need_b]
        codes = np.stack([packed >> 4, packed & 15], axis=-1).reshape(-1)[:count]
        scales = absmax.reshape(-1)[:need_scales].astype(np.float32)
        w = (NF4 if quant_type else FP4)[codes] * np.repeat(scales, block_size)[:count]
        w = w.reshape(N, K)
        y = a.astype(np.float32) @ (w.T if transB else w)
        return y.astype(a.dtype)
