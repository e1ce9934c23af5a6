"""MatMulInteger: MatMul of 8-bit integer tensors less their zero points (a's per tensor
or per row, b's per tensor or per column), accumulated exactly into int32."""
import numpy as np

from .ConvInteger import check_8bit
from .base import Kernel


class MatMulInteger(Kernel):
    n_inputs = (2, 4)

    def run(self, a, b, a_zero=None, b_zero=None):
        check_8bit(self, a, b)
        a32, b32 = a.astype(np.int32), b.astype(np.int32)
        if a_zero is not None:
            a32 = a32 - rows(self, a_zero, a)
        if b_zero is not None:
            b32 = b32 - np.asarray(b_zero, np.int32)  # per column: along b's last axis
        try:
            return np.matmul(a32, b32)
        except ValueError:
            raise self.fail(f"shapes {list(a.shape)} and {list(b.shape)} do not multiply") \
                from None


def rows(kernel: Kernel, v, a: np.ndarray) -> np.ndarray:
    """A scale or zero point of a, per tensor (one element) or per row (a vector of a's
    second-to-last axis), broadcastable against a."""
    v = np.asarray(v)
    if v.size == 1:
        return v.reshape(())
    if v.ndim != 1 or a.ndim < 2 or v.shape[0] != a.shape[-2]:
        raise kernel.fail(f"a scale or zero point of shape {list(v.shape)} is neither per "
                          f"tensor nor per row of {list(a.shape)}")
    return v.reshape(-1, 1)
