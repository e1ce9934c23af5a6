"""Upsample: Resize before it existed (opset 7's scales attribute, opset 9's input): floor(dim *
scale) per axis, each scale at least 1, nearest neighbours (onnxruntime's: input i / s
truncated) or linear interpolation with asymmetric coordinates (Resize.py)."""
import numpy as np

from .base import Kernel
from .Resize import Resize
from .nchwc_ops import NCHWC, NchwcUpsample


class Upsample(Kernel):
    domains = ("", NCHWC)
    variants = {NCHWC: NchwcUpsample}  # (nchwc_ops.py)

    attrs = {"mode": "nearest", "scales": None}
    n_inputs = (1, 2)

    def run(self, x, scales_input=None, *, mode, scales):
        scales = scales if self.opset < 9 else scales_input
        if scales is None:
            raise self.fail("no scales (an attribute before opset 9, an input since)")
        scales = np.asarray(scales, np.float32).reshape(-1)
        if scales.size != x.ndim or np.any(scales < 1):
            raise self.fail(f"scales {scales.tolist()}: one per axis of {list(x.shape)}, "
                            "each at least 1")
        if mode not in ("nearest", "linear", "bilinear"):
            raise self.fail(f"mode {mode!r} is neither nearest nor linear")
        resize = Resize({"mode": "nearest" if mode == "nearest" else "linear"}, opset=10)
        return resize(x, scales)[0]
