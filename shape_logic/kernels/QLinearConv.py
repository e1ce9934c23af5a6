"""QLinearConv: Conv on quantized tensors. The integer convolution of x and w less their
zero points (ConvInteger's), plus the int32 bias, is rescaled by x_scale * w_scale /
y_scale (w's per tensor or per output channel), rounded half to even, shifted by
y_zero_point and saturated into its type. onnxruntime's com.microsoft QLinearConv takes
channels_last: x [N, D1, .., C] and y [N, O1, .., M], channels last (any value but 0, as
its kernel reads it), w as ONNX's [M, C/group, k1, ..]."""
import numpy as np

from .Conv import Conv
from .ConvInteger import check_8bit, per_channel, shifted
from .base import Kernel
from .quant import quantize


class QLinearConv(Kernel):
    domains = ("", "com.microsoft")
    attrs = {**Conv.attrs, "channels_last": 0}
    n_inputs = (8, 9)

    def setup(self, channels_last=0, **attrs):
        if channels_last and self.domain != "com.microsoft":
            raise self.fail("channels_last is com.microsoft's attribute, not ONNX's")
        self.conv = Conv(attrs, opset=self.opset)

    def run(self, x, x_scale, x_zero, w, w_scale, w_zero, y_scale, y_zero, b=None,
            channels_last=0, **attrs):
        check_8bit(self, x, w, y_zero)
        if channels_last:
            if x.ndim < 3:
                raise self.fail(f"x of shape {list(x.shape)} has no spatial axes")
            x = np.moveaxis(x, -1, 1)
        xs = shifted(x, np.asarray(x_zero).reshape(()))
        ws = shifted(w, per_channel(self, w_zero, w.shape))
        bias = None if b is None else b.astype(np.float64)
        (acc,) = self.conv(xs, ws, bias)
        # the factor in float32, as the scales are (onnx's reference, onnxruntime)
        wsc = per_channel(self, w_scale, w.shape)
        wsc = wsc if wsc.ndim == 0 else wsc.reshape((1, -1) + (1,) * (x.ndim - 2))
        factor = (np.float32(np.asarray(x_scale).reshape(())) * wsc.astype(np.float32)
                  / np.float32(np.asarray(y_scale).reshape(())))
        y = quantize(self, acc * factor.astype(np.float64),
                     np.asarray(y_zero).reshape(()), y_zero.dtype)
        return np.ascontiguousarray(np.moveaxis(y, 1, -1)) if channels_last else y
