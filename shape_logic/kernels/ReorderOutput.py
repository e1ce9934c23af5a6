"""ReorderOutput (com.microsoft.nchwc): an NCHWc tensor (nchwc.py) [N, Cb, H, W] back to NCHW
[N, channels, H, W] (or, channels_last, NHWC [N, H, W, channels]), the padding channels
dropped: Cb a multiple of the block, channels <= Cb < channels + block."""
import numpy as np

from .base import Kernel
from .nchwc import NCHWC, block_size, unblock


class ReorderOutput(Kernel):
    attrs = {"channels": 0, "channels_last": 0}
    domains = (NCHWC,)

    def setup(self, channels, channels_last):
        if channels <= 0:
            raise self.fail(f"invalid channel count {channels}")

    def run(self, x, *, channels, channels_last):
        blk = block_size(self)
        if x.ndim != 4:
            raise self.fail(f"input {list(x.shape)} is not of rank 4")
        cb = x.shape[1]
        if cb % blk or channels > cb or cb - channels >= blk:
            raise self.fail(f"input channels {cb} must match the NCHWc block-aligned channel "
                            f"count of {channels} (block {blk})")
        y = unblock(x, blk)[:, :channels]
        return np.ascontiguousarray(np.moveaxis(y, 1, 3) if channels_last else y)
