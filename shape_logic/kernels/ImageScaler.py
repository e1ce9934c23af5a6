"""ImageScaler: y = scale * x + bias[c] per channel of an [N, C, H, W] batch (onnx's
dropped experimental operator). As onnxruntime's CPU kernel does (measured), an input of
higher rank gives its first four axes: the values of its first N*C*H*W elements."""
import numpy as np

from .base import REQUIRED
from .families import UnaryFloat


class ImageScaler(UnaryFloat):
    attrs = {"bias": REQUIRED, "scale": 1.0}

    def run(self, x, bias, scale):
        if x.ndim < 4:
            raise self.fail(f"needs an [N, C, H, W] input, got rank {x.ndim}")
        if len(bias) != x.shape[1]:
            raise self.fail(f"bias has {len(bias)} values for {x.shape[1]} channels")
        nchw = x.shape[:4]
        x = np.ascontiguousarray(x).reshape(-1)[:int(np.prod(nchw))].reshape(nchw)
        t = x.dtype.type
        return t(scale) * x + np.asarray(bias, x.dtype).reshape(1, -1, 1, 1)
