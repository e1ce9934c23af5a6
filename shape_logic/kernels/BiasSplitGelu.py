"""BiasSplitGelu (com.microsoft): x + bias ([N, S, D] + [D]) split in halves along the last
axis, y = left * gelu(right) (gelu with erf), [N, S, D / 2]. (onnxruntime runs it on CUDA
only.)"""
import numpy as np

from .Erf import erf
from .base import Kernel


class BiasSplitGelu(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (2, 2)

    def run(self, x, bias):
        if x.ndim != 3 or bias.shape != x.shape[-1:] or x.shape[-1] % 2:
            raise self.fail(f"x {list(x.shape)} must be [N, S, D] with D even, bias "
                            f"{list(bias.shape)} [D]")
        left, right = np.split(x.astype(np.float32) + bias.astype(np.float32), 2, axis=-1)
        gelu = 0.5 * right * (1 + erf(right / np.float32(np.sqrt(2))))
        return (left * gelu).astype(x.dtype)
