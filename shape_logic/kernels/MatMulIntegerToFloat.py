"""MatMulIntegerToFloat (com.microsoft): (a - a_zero_point) @ (b - b_zero_point), exact in
int32, times a_scale * b_scale (+ bias), of the scales' float type. As onnxruntime: a's zero
point per tensor, b's per tensor or along b's last axis; the two scales' product broadcasts
along the output."""
import numpy as np

from .base import Kernel
from .ConvInteger import check_8bit


def rescaled(kernel: Kernel, acc, b, scale, bias, dtype) -> np.ndarray:
    """The int32 product acc times `scale` (broadcast along it) plus bias (one value per
    column of b), as `dtype`."""
    try:
        y = acc.astype(np.float64) * np.asarray(scale, np.float64)
    except ValueError:
        y = None
    if y is None or y.shape != acc.shape:
        raise kernel.fail(f"a scale of shape {list(np.shape(scale))} does not broadcast along "
                          f"the output {list(acc.shape)}")
    if bias is not None:
        if b.ndim < 2 or bias.size != b.shape[-1]:
            raise kernel.fail(f"bias of shape {list(bias.shape)} is not one value per column "
                              f"of b {list(b.shape)}")
        y = y + bias.reshape(-1)
    return y.astype(dtype)


def integer_product(kernel: Kernel, a, b, a_zero, b_zero) -> np.ndarray:
    check_8bit(kernel, a, b)
    a32, b32 = a.astype(np.int32), b.astype(np.int32)
    if a_zero is not None:
        if a_zero.size != 1:
            raise kernel.fail(f"a_zero_point of shape {list(a_zero.shape)} is not per tensor")
        a32 = a32 - a_zero.astype(np.int32).reshape(())
    if b_zero is not None:
        if b_zero.size not in (1, b.shape[-1]):
            raise kernel.fail(f"b_zero_point of shape {list(b_zero.shape)} is neither per "
                              f"tensor nor per column of b {list(b.shape)}")
        b32 = b32 - b_zero.astype(np.int32).reshape(-1)
    if a.ndim == 0 or b.ndim == 0:
        raise kernel.fail("operands must not be scalars")
    try:
        return np.matmul(a32, b32)
    except ValueError:
        raise kernel.fail(f"shapes {list(a.shape)} and {list(b.shape)} do not multiply") \
            from None


class MatMulIntegerToFloat(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (4, 7)

    def run(self, a, b, a_scale, b_scale, a_zero=None, b_zero=None, bias=None):
        acc = integer_product(self, a, b, a_zero, b_zero)
        try:
            scale = np.asarray(a_scale, np.float64) * np.asarray(b_scale, np.float64)
        except ValueError:
            raise self.fail(f"a_scale {list(a_scale.shape)} and b_scale "
                            f"{list(b_scale.shape)} do not broadcast") from None
        return rescaled(self, acc, b, scale, bias, a_scale.dtype)
