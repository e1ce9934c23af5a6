"""ReorderInput (com.microsoft.nchwc): an NCHW (or, channels_last, NHWC) f32 tensor of rank 4
and C channels, C a multiple of 4, into NCHWc (nchwc.py): [N, C padded to the block, H, W],
the padding channels 0."""
import numpy as np

from .base import Kernel
from .nchwc import NCHWC, block, block_size


class ReorderInput(Kernel):
    attrs = {"channels_last": 0}
    domains = (NCHWC,)

    def run(self, x, *, channels_last):
        blk = block_size(self)
        if x.ndim != 4:
            raise self.fail(f"input {list(x.shape)} is not of rank 4")
        plain = np.moveaxis(x, 3, 1) if channels_last else x
        c = plain.shape[1]
        if c % 4:
            raise self.fail(f"{c} channels: not a multiple of 4")
        padded = -(-c // blk) * blk
        if padded != c:
            wide = np.zeros((plain.shape[0], padded) + plain.shape[2:], plain.dtype)
            wide[:, :c] = plain
            plain = wide
        return block(plain, blk)
