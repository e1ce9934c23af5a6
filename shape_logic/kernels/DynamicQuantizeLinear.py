"""DynamicQuantizeLinear: x (float32) to uint8 with a scale and zero point from its range,
which always includes 0 (in float32, as onnxruntime): scale = (max - min) / 255 (1 / 255
when max = min), zero point = round(clip(-min / scale, 0, 255)), y = saturate(round(x /
scale) + zero point); rounding half to even."""
import numpy as np

from .base import Kernel


class DynamicQuantizeLinear(Kernel):
    def run(self, x):
        if x.dtype != np.float32:
            raise self.fail(f"needs a float32 input, got {x.dtype}")
        f = np.float32
        hi = f(max(0.0, float(x.max()))) if x.size else f(0)
        lo = f(min(0.0, float(x.min()))) if x.size else f(0)
        scale = (f(1) if hi == lo else f(hi - lo)) / f(255)
        # a range of subnormals makes the scale 0 and the point 0/0: onnxruntime's clamp
        # (min then max, a NaN compared false) gives 255, as onnx's reference does
        with np.errstate(invalid="ignore", divide="ignore"):
            point = f(0) - lo / scale
            zero = f(255) if np.isnan(point) else np.rint(np.clip(point, 0, 255))
            y = np.clip(np.rint(x / scale) + zero, 0, 255).astype(np.uint8)
        return y, np.asarray(scale, np.float32), np.asarray(zero, np.uint8)
