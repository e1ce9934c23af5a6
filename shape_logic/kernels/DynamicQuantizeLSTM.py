"""DynamicQuantizeLSTM (com.microsoft, dynamic quantization's LSTM): LSTM with 8-bit weights
W [D, input, 4H] and R [D, H, 4H] (LSTM's own, transposed), each dequantized as (w -
zero_point) * scale, the scale and zero point per direction [D] or per direction and gate
column [D, 4H]. onnxruntime also quantizes X and the hidden state as it runs, so its
results differ from these (exact) ones by that rounding."""
import numpy as np

from .ConvInteger import check_8bit
from .LSTM import LSTM
from .base import Kernel


class DynamicQuantizeLSTM(Kernel):
    domains = ("com.microsoft",)
    attrs = {k: v for k, v in LSTM.attrs.items() if k != "layout"}
    n_inputs = (12, 12)
    optional_inputs = frozenset({3, 4, 5, 6, 7})

    def setup(self, **attrs):
        self.lstm = LSTM(attrs, opset=self.opset, n_outputs=self.n_outputs)

    def run(self, x, w, r, b, seq_lens, h0, c0, p, w_scale, w_zero, r_scale, r_zero,
            **attrs):
        wd = self._dequantized(w, w_scale, w_zero, "W")
        rd = self._dequantized(r, r_scale, r_zero, "R")
        return self.lstm(x, wd, rd, b, seq_lens, h0, c0, p)

    def _dequantized(self, w, scale, zero, name):
        """[D, in, 4H] 8-bit -> LSTM's float [D, 4H, in]."""
        check_8bit(self, w)
        if w.ndim != 3:
            raise self.fail(f"{name} must be 3-D, got {list(w.shape)}")
        want = ((w.shape[0],), (w.shape[0], w.shape[2]))
        for part, v in (("scale", scale), ("zero point", zero)):
            if np.shape(v) not in want:
                raise self.fail(f"{name}'s {part} of shape {list(np.shape(v))} is neither "
                                f"[{w.shape[0]}] nor [{w.shape[0]}, {w.shape[2]}]")
        # (per direction, or per direction and column: [D, 1, 1] or [D, 1, 4H])
        zero, scale = (np.asarray(t, np.float32).reshape(w.shape[0], 1, -1)
                       for t in (zero, scale))
        v = (w.astype(np.float32) - zero) * scale
        return np.ascontiguousarray(v.transpose(0, 2, 1))
