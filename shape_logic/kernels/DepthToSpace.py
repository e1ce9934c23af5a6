"""DepthToSpace: [N, C*b*b, H, W] -> [N, C, H*b, W*b]; mode DCR takes the block index
from the channel's high part, CRD from its low part."""
from .base import REQUIRED, Kernel


class DepthToSpace(Kernel):
    attrs = {"blocksize": REQUIRED, "mode": "DCR"}

    def run(self, x, blocksize, mode):
        b = blocksize
        if x.ndim != 4 or x.shape[1] % (b * b):
            raise self.fail(f"input {list(x.shape)} must be [N, C*{b}*{b}, H, W]")
        n, c, h, w = x.shape
        if mode == "DCR":
            t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
        elif mode == "CRD":
            t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
        else:
            raise self.fail(f"mode must be 'DCR' or 'CRD', not {mode!r}")
        return t.reshape(n, c // (b * b), h * b, w * b)
