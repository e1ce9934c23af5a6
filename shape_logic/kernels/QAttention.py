"""QAttention (com.microsoft, dynamic quantization's Attention): com.microsoft Attention
(kernels/Attention.py) over the 8-bit input and weight dequantized as (q - zero_point) *
scale: the input per tensor, the weight per tensor or per column."""
import numpy as np

from .Attention import Attention
from .base import Kernel


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
        for t, name in ((x, "input"), (w, "weight")):
            if t.dtype not in (np.int8, np.uint8):
                raise self.fail(f"{name} must be 8-bit integers, not {t.dtype}")
        if np.size(x_scale) != 1 or (x_zero is not None and np.size(x_zero) != 1):
            raise self.fail("the input's scale and zero point are per tensor")
        cols = w.shape[-1]
        if np.size(w_scale) not in (1, cols) or (w_zero is not None and
                                                 np.size(w_zero) not in (1, cols)):
            raise self.fail(f"the weight's scale and zero point are per tensor or per "
                            f"column ({cols})")
        dtype = np.asarray(bias).dtype
        xf = (x.astype(np.float32) - (0 if x_zero is None else np.float32(
            np.asarray(x_zero).reshape(())))) * np.float32(np.asarray(x_scale).reshape(()))
        wz = 0 if w_zero is None else np.asarray(w_zero, np.float32).reshape(-1)
        wf = (w.astype(np.float32) - wz) * np.asarray(w_scale, np.float32).reshape(-1)
        return self.attention(xf.astype(dtype), wf.astype(dtype), bias, mask, past)
