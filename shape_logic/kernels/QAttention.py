"""QAttention (com.microsoft, dynamic quantization's Attention): com.microsoft Attention
(kernels/Attention.py) over the 8-bit input and weight dequantized as (q - zero_point) *
scale: the input per tensor, the weight per tensor or per column."""
import numpy as np

from .Attention import Attention
from .ConvInteger import check_8bit
from .QLinearAdd import dequantized
from .base import Kernel
from .quant import laid_out


class QAttention(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_heads": None, "unidirectional": 0, "scale": None,
             "mask_filter_value": -10000.0, "do_rotary": 0, "past_present_share_buffer": 0}
    n_inputs = (5, 9)

    def setup(self, **attrs):
        self.attention = Attention(attrs, opset=self.opset, n_outputs=self.n_outputs,
                                   domain="com.microsoft")

    def run(self, x, w, bias, x_scale, w_scale, mask=None, x_zero=None, w_zero=None,
            past=None, **attrs):
        check_8bit(self, x, w)
        dtype = np.asarray(bias).dtype
        # (float32 first: the product of a small integer and a float32 scale, rounded once)
        xf = dequantized(self, x, x_scale, x_zero).astype(np.float32)
        wz = laid_out(self, w_zero, w.shape, 1)  # (per tensor, or per column)
        wf = (w.astype(np.float32) - (0 if wz is None else wz.astype(np.float32))) * \
            laid_out(self, w_scale, w.shape, 1).astype(np.float32)
        return self.attention(xf.astype(dtype), wf.astype(dtype), bias, mask, past)
