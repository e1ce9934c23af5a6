"""NhwcMaxPool (com.microsoft, onnxruntime's NHWC layout transformer's MaxPool of 8-bit
integers): the maximum over each window of x [N, D1, .., Dk, C], channels last, into
y [N, O1, .., Ok, C]. The windows are sized and placed as onnxruntime's PoolAttributes
does it (ort_windows, which MaxpoolWithMask shares): SAME pads for the undilated kernel,
sizes divided with truncation toward zero, ceil_mode also under VALID."""
import numpy as np

from .base import REQUIRED, Kernel
from .pooling import max_pool

AUTO_PADS = ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER")


def trunc_div(a: int, b: int) -> int:
    """C++'s integer division (toward zero), b > 0."""
    q = abs(a) // b
    return q if a >= 0 else -q


def ort_output_size(n, stride, kernel, begin, end, dilation, ceil_mode) -> int:
    """PoolAttributes::ComputeOutputSize: the window count, its ceil in float32."""
    num = n + begin + end - dilation * (kernel - 1) - 1
    if ceil_mode != 1:
        return trunc_div(num, stride) + 1
    out = int(np.ceil(np.float32(num) / np.float32(stride))) + 1
    return out - 1 if (out - 1) * stride >= n + begin else out


def ort_windows(k: Kernel, x_sizes, kernel, strides, dilations, pads, auto_pad,
                ceil_mode=0):
    """(kernel, strides, dilations, begin pads, out sizes) of the spatial sizes x_sizes as
    onnxruntime's PoolAttributes (its constructor's checks, ComputeSizePadDilations):
    a begin pad may be negative (SAME with a kernel below the stride)."""
    nd = len(x_sizes)
    kernel = list(kernel)
    strides = list(strides or [1] * nd)
    dilations = list(dilations or [1] * nd)
    pads = list(pads or [0] * (2 * nd))
    if len(kernel) != nd:
        raise k.fail(f"kernel_shape {kernel} does not have {nd} spatial axes")
    if len(strides) != nd or len(dilations) != nd or len(pads) != 2 * nd:
        raise k.fail(f"strides {strides}, dilations {dilations} or pads {pads} do not fit "
                     f"{nd} spatial axes")
    if min(kernel + strides + dilations) <= 0 or min(pads) < 0:
        raise k.fail(f"kernel_shape {kernel}, strides {strides} and dilations {dilations} "
                     f"must be positive, pads {pads} not negative")
    if any(p >= kk for p, kk in zip(pads, kernel + kernel)):
        raise k.fail(f"pads {pads} must be below the kernel sizes {kernel}")
    if auto_pad not in AUTO_PADS:
        raise k.fail(f"unknown auto_pad {auto_pad!r}")
    begin, out = [], []
    for i, (n, kk, s, d) in enumerate(zip(x_sizes, kernel, strides, dilations)):
        b, e = pads[i], pads[nd + i]
        if auto_pad == "VALID":
            b = e = 0
        elif auto_pad.startswith("SAME"):
            need = ((n + s - 1) // s - 1) * s + kk - n  # (the undilated kernel's)
            b = trunc_div(need + (auto_pad == "SAME_LOWER"), 2)
            e = need - b
        o = ort_output_size(n, s, kk, b, e, d, ceil_mode)
        if o < 0:
            raise k.fail(f"the output size on spatial axis {i} is negative ({o}): input "
                         f"{n}, kernel {kk}, stride {s}, dilation {d}, pads {b}, {e}")
        begin.append(b)
        out.append(o)
    return kernel, strides, dilations, begin, out


def ort_max_pool(x, kernel, strides, dilations, begin, out) -> np.ndarray:
    """MaxPool's windows over x [N, C, ...] (pooling.max_pool), a negative begin pad (the
    windows start inside the input) by cutting the input's first elements off."""
    cut = tuple(slice(max(-b, 0), None) for b in begin)
    x = x[(slice(None), slice(None)) + cut]
    begin = [max(b, 0) for b in begin]
    if x.shape[0] == 0 or 0 in out:
        return np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
    return max_pool(x, kernel, strides, dilations, begin, [0] * len(out), out, False, 0)


class NhwcMaxPool(Kernel):
    domains = ("com.microsoft",)
    attrs = {"auto_pad": "NOTSET", "ceil_mode": 0, "dilations": None,
             "kernel_shape": REQUIRED, "pads": None, "strides": None}

    def run(self, x, auto_pad="NOTSET", ceil_mode=0, dilations=None, kernel_shape=None,
            pads=None, strides=None):
        if x.dtype not in (np.int8, np.uint8):
            raise self.fail(f"x must be int8 or uint8, not {x.dtype}")
        if x.ndim < 3:
            raise self.fail(f"x of shape {list(x.shape)} has no spatial axes")
        if x.size == 0 and x.shape[0] != 0:
            raise self.fail(f"x of shape {list(x.shape)} is empty, and only its batch may be")
        geo = ort_windows(self, x.shape[1:-1], kernel_shape, strides, dilations, pads,
                          auto_pad, ceil_mode)
        kernel, strides, dilations, begin, out = geo
        y = ort_max_pool(np.moveaxis(x, -1, 1), kernel, strides, dilations, begin, out)
        return np.ascontiguousarray(np.moveaxis(y, 1, -1))
