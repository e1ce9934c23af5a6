"""UnfoldTensor (com.microsoft, torch's Tensor.unfold): the windows of `size` elements along
axis `dim`, `step` apart; that axis becomes the count of windows, (d - size)//step + 1, and
a last axis holds each window."""
import numpy as np

from .base import REQUIRED, Kernel


class UnfoldTensor(Kernel):
    domains = ("com.microsoft",)
    attrs = {"dim": -1, "size": REQUIRED, "step": 1}

    def run(self, x, *, dim, size, step):
        axis = self.axis(dim, x.ndim)
        if size <= 0 or step <= 0:
            raise self.fail(f"size and step must be positive, not {size} and {step}")
        if size > x.shape[axis]:
            raise self.fail(f"a window of {size} is larger than axis {axis} of "
                            f"{x.shape[axis]} elements")
        windows = np.lib.stride_tricks.sliding_window_view(x, size, axis=axis)
        picked = [slice(None)] * windows.ndim
        picked[axis] = slice(None, None, step)
        return np.ascontiguousarray(windows[tuple(picked)])
