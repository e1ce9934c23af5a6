"""GroupNormalization: the channels split into num_groups groups, each normalized over
its channels and spatial axes; then scale and bias - one per group at opset 18, one per
channel from opset 21."""
import numpy as np

from .base import REQUIRED, Kernel


class GroupNormalization(Kernel):
    attrs = {"epsilon": 1e-5, "num_groups": REQUIRED, "stash_type": 1}
    n_inputs = (3, 3)

    def run(self, x, scale, bias, epsilon, num_groups, stash_type):
        n, c = x.shape[:2]
        g = num_groups
        if x.ndim < 2 or c % g:
            raise self.fail(f"{c} channels of {list(x.shape)} do not split into {g} groups")
        per = g if self.opset < 21 else c  # (onnxruntime fails to broadcast the other)
        if scale.shape != (per,) or bias.shape != (per,):
            raise self.fail(f"scale {list(scale.shape)} and bias {list(bias.shape)} must be "
                            f"[{per}] at opset {self.opset}")
        work = x.astype(np.float32 if stash_type == 1 else np.float64).reshape(n, g, -1)
        mean = work.mean(axis=2, keepdims=True)
        var = work.var(axis=2, keepdims=True)
        y = ((work - mean) / np.sqrt(var + epsilon)).reshape(x.shape)
        if scale.shape[0] == g and g != c:  # opset 18: per group, repeated to channels
            scale, bias = np.repeat(scale, c // g), np.repeat(bias, c // g)
        shape = (1, c) + (1,) * (x.ndim - 2)
        return (y * scale.reshape(shape) + bias.reshape(shape)).astype(x.dtype)
