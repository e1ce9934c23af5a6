"""CenterCropPad: each listed axis (all by default) cropped or zero-padded about its centre
to the size `shape` gives; an odd difference leaves the extra element at the end."""
import numpy as np

from .base import Kernel


class CenterCropPad(Kernel):
    attrs = {"axes": None}
    n_inputs = (2, 2)

    def run(self, x, shape, axes):
        sizes = self.ints(shape)
        axes = list(range(x.ndim)) if axes is None else [self.axis(a, x.ndim) for a in axes]
        if len(sizes) != len(axes) or len(set(axes)) != len(axes) or min(sizes, default=0) < 0:
            raise self.fail(f"shape {sizes} does not give one size per axis of {axes}")
        out_shape = list(x.shape)
        src = [slice(None)] * x.ndim
        dst = [slice(None)] * x.ndim
        for a, want in zip(axes, sizes):
            have = x.shape[a]
            out_shape[a] = want
            if want < have:  # crop: start at half the difference, rounded down
                start = (have - want) // 2
                src[a] = slice(start, start + want)
            elif want > have:  # pad: the same, in the output
                start = (want - have) // 2
                dst[a] = slice(start, start + have)
        y = np.zeros(out_shape, x.dtype)
        y[tuple(dst)] = x[tuple(src)]
        return y
