"""BatchNormalization: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel (axis 1).
With training_mode = 1 (opset 14+), the batch's own mean and (population) variance are
used, and the running statistics are updated with momentum; opsets 9 and earlier list
the saved mean/var as extra outputs, which we give too."""
import numpy as np

from .Relu import zeros
from .base import Kernel


class BatchNormalization(Kernel):
    attrs = {"epsilon": 1e-5, "momentum": 0.9, "training_mode": 0}
    legacy = ("spatial", "is_test", "consumed_inputs")
    n_inputs = (5, 5)
    relu = False  # the executor fused a Relu of the output in (exec_rewrite.fuse_conv_relu)

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
        y = self.normalize(x, scale, b, mean, var, epsilon, shape)
        if self.relu:  # y is new: in place
            np.maximum(y, zeros(y.size, y.dtype).reshape(y.shape), out=y)
        return y

    @staticmethod
    def normalize(x, scale, b, mean, var, epsilon, shape):
        # one multiply-add per element: fold the statistics into a per-channel a*x + c
        a = scale / np.sqrt(var.astype(np.float64) + epsilon)
        c = b - mean * a
        y = x * a.astype(x.dtype).reshape(shape)
        y += c.astype(x.dtype).reshape(shape)  # in place: one new array, not two
        return y
