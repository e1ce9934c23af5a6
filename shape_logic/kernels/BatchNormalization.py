"""BatchNormalization: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel (axis 1).
With training_mode = 1 (opset 14+), the batch's own mean and (population) variance are
used, and the running statistics are updated with momentum; opsets 9 and earlier list
the saved mean/var as extra outputs, which we give too.

Inference folds the statistics into a per-channel a * x + c, worked out once per set of
parameter arrays (a graph's are the same arrays on every run: ~9 us a call less).
`unscaled` (set by the executor, exec_fold.scale_into_conv): the consumer took a (> 0)
into its weights, and this node gives x + c / a (with the fused Relu:
relu(a x + c) = a relu(x + c / a)), a pass over the tensor fewer."""
import numpy as np

from .Relu import zeros
from .base import Kernel


class BatchNormalization(Kernel):
    attrs = {"epsilon": 1e-5, "momentum": 0.9, "training_mode": 0}
    legacy = ("spatial", "is_test", "consumed_inputs")
    n_inputs = (5, 5)
    relu = False  # the executor fused a Relu of the output in (exec_rewrite.fuse_conv_relu)
    unscaled = False  # the executor moved a into the consumer's weights (see the module)

    def setup(self, **attrs):
        self._coeffs = (None,) * 7  # (scale, b, mean, var, dtype, ndim, (a, c))

    def run(self, x, scale, b, mean, var, epsilon, momentum, training_mode):
        if x.ndim < 2:
            raise self.fail(f"input must be [N, C, ...], got {list(x.shape)}")
        shape = (1, -1) + (1,) * (x.ndim - 2)
        training = training_mode or (self.opset < 14 and self.n_outputs > 1)
        if training:
            axes = (0,) + tuple(range(2, x.ndim))
            batch_mean = x.mean(axis=axes)
            batch_var = x.var(axis=axes)
            y = self.normalize(x, scale, b, batch_mean, batch_var, epsilon, shape)
            run_mean = mean * momentum + batch_mean * (1 - momentum)
            run_var = var * momentum + batch_var * (1 - momentum)
            return tuple(a.astype(x.dtype, copy=False)
                         for a in (y, run_mean, run_var, batch_mean, batch_var))
        a, c = self.coefficients(x, scale, b, mean, var, epsilon)
        if self.unscaled:
            y = x + c
        else:
            y = x * a
            y += c  # in place: one new array, not two
        if self.relu:  # y is new: in place
            np.maximum(y, zeros(y.size, y.dtype).reshape(y.shape), out=y)
        return y

    def coefficients(self, x, scale, b, mean, var, epsilon):
        """(a, c) in x's dtype, shaped [1, C, 1...] (cached by the arrays' identity); c
        is c / a when `unscaled`."""
        last = self._coeffs
        if last[0] is scale and last[1] is b and last[2] is mean and last[3] is var \
                and last[4] == x.dtype and last[5] == (x.ndim, self.unscaled):
            return last[6]
        a, c = affine(scale, b, mean, var, epsilon)
        if self.unscaled:
            c = c / a
        shape = (1, -1) + (1,) * (x.ndim - 2)
        coeffs = (a.astype(x.dtype).reshape(shape), c.astype(x.dtype).reshape(shape))
        self._coeffs = (scale, b, mean, var, x.dtype, (x.ndim, self.unscaled), coeffs)
        return coeffs

    @staticmethod
    def normalize(x, scale, b, mean, var, epsilon, shape):
        # one multiply-add per element: fold the statistics into a per-channel a*x + c
        a, c = affine(scale, b, mean, var, epsilon)
        y = x * a.astype(x.dtype).reshape(shape)
        y += c.astype(x.dtype).reshape(shape)  # in place: one new array, not two
        return y


def affine(scale, b, mean, var, epsilon) -> tuple[np.ndarray, np.ndarray]:
    """The per-channel (a, c) of a * x + c, in float64."""
    a = scale / np.sqrt(var.astype(np.float64) + epsilon)
    return a, b - mean * a
