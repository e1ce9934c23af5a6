"""SpaceToDepth: [N, C, H*b, W*b] -> [N, C*b*b, H, W], blocks moved into channels: the
block index is the channel's high part in mode DCR (the default), its low part in CRD."""
from .base import REQUIRED, Kernel


class SpaceToDepth(Kernel):
    attrs = {"blocksize": REQUIRED, "mode": "DCR"}

    def run(self, x, blocksize, mode):
        b = blocksize
        if x.ndim != 4 or x.shape[2] % b or x.shape[3] % b:
            raise self.fail(f"input {list(x.shape)} must be [N, C, H*{b}, W*{b}]")
        n, c, h, w = x.shape
        t = x.reshape(n, c, h // b, b, w // b, b)
        if mode == "DCR":
            t = t.transpose(0, 3, 5, 1, 2, 4)
        elif mode == "CRD":
            t = t.transpose(0, 1, 3, 5, 2, 4)
        else:
            raise self.fail(f"mode must be 'DCR' or 'CRD', not {mode!r}")
        return t.reshape(n, c * b * b, h // b, w // b)
