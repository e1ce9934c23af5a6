"""MaxUnpool: zeros of the unpooled shape, [n, c, (d - 1) * stride - pads + kernel per
spatial axis], with x's values put at the flat positions `indices` gives (MaxPool's
indices into its whole input); with output_shape, that tensor padded with zeros at the
end of each axis to output_shape (as onnx's reference)."""
import numpy as np

from .base import REQUIRED, Kernel


class MaxUnpool(Kernel):
    attrs = {"kernel_shape": REQUIRED, "pads": None, "strides": None}
    n_inputs = (2, 3)

    def run(self, x, indices, output_shape=None, kernel_shape=(), pads=None, strides=None):
        k = len(kernel_shape)
        if x.ndim != k + 2 or indices.shape != x.shape:
            raise self.fail(f"x {list(x.shape)} and indices {list(indices.shape)} do not fit a "
                            f"{k}-d kernel")
        strides = strides or [1] * k
        pads = pads or [0] * (2 * k)
        shape = x.shape[:2] + tuple((d - 1) * s - (pads[i] + pads[i + k]) + kk for i, (d, s, kk)
                                    in enumerate(zip(x.shape[2:], strides, kernel_shape)))
        total = int(np.prod(shape))
        idx = indices.reshape(-1).astype(np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= total):
            raise self.fail(f"indices in [{idx.min()}, {idx.max()}] are outside the "
                            f"{total} elements of {list(shape)}")
        y = np.zeros(total, x.dtype)
        y[idx] = x.reshape(-1)
        y = y.reshape(shape)
        if output_shape is None:
            return y
        want = tuple(self.ints(output_shape))
        if len(want) != len(shape) or any(w < s for w, s in zip(want, shape)):
            raise self.fail(f"output_shape {list(want)} is smaller than {list(shape)}")
        out = np.zeros(want, x.dtype)
        out[tuple(slice(0, s) for s in shape)] = y
        return out
