"""PRelu: y = x for x >= 0, slope * x below; slope broadcasts to x (unidirectionally). Before
opset 7 slope is one element, a vector over x's channels (axis 1) or x's shape."""
import numpy as np

from .families import Binary, check_broadcast


class PRelu(Binary):
    def run(self, x, slope):
        if self.opset < 7:
            slope = self.old_slope(x, slope)
        check_broadcast(self, x, slope)
        # unidirectionally: y has x's shape (onnxruntime runs a slope that widens x, its
        # shape inference and the spec do not; nor do the rules)
        if np.broadcast_shapes(x.shape, slope.shape) != x.shape:
            raise self.fail(f"slope {list(slope.shape)} does not broadcast to x "
                            f"{list(x.shape)}")
        return np.where(x >= 0, x, x * slope).astype(x.dtype, copy=False)

    def old_slope(self, x, slope):
        if slope.size == 1:
            return slope.reshape(())
        if slope.shape == x.shape:
            return slope
        if slope.ndim == 1 and x.ndim >= 2 and slope.shape[0] == x.shape[1]:
            return slope.reshape((-1,) + (1,) * (x.ndim - 2))
        raise self.fail(f"slope {list(slope.shape)} is neither one element, nor x's channels "
                        f"nor x's shape {list(x.shape)} (opset < 7)")
