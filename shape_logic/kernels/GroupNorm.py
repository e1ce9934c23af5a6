"""GroupNorm (com.microsoft): group normalization of x [N, H, W, C] (channels_last = 1) or
[N, C, H, W]: mean and variance over each group of C / groups channels and all positions,
then gamma and beta per channel, and SiLU with activation = 1. Computed in float32. (onnxruntime
runs it on CUDA only.)"""
import numpy as np

from .Sigmoid import sigmoid
from .base import REQUIRED, Kernel


def group_norm(kernel: Kernel, x, gamma, beta, groups, epsilon, activation, channels_last):
    """GroupNorm's y (float32), for SkipGroupNorm too."""
    if x.ndim != 4:
        raise kernel.fail(f"x of shape {list(x.shape)} is not 4-D")
    if activation not in (0, 1):
        raise kernel.fail(f"activation = {activation} is not 0 (none) or 1 (SiLU)")
    xc = x if channels_last else np.moveaxis(x, 1, -1)  # [N, H, W, C]
    c = xc.shape[-1]
    if groups < 1 or c % groups:
        raise kernel.fail(f"groups = {groups} does not divide the {c} channels")
    for name, p in (("gamma", gamma), ("beta", beta)):
        if p.shape != (c,):
            raise kernel.fail(f"{name} of shape {list(p.shape)} is not [{c}]")
    g = xc.astype(np.float32).reshape(xc.shape[0], -1, groups, c // groups)
    mean = g.mean(axis=(1, 3), keepdims=True)
    var = ((g - mean) ** 2).mean(axis=(1, 3), keepdims=True)
    y = ((g - mean) / np.sqrt(var + epsilon)).reshape(xc.shape)
    y = y * gamma.astype(np.float32) + beta.astype(np.float32)
    if activation:
        y = y * sigmoid(y)
    return y if channels_last else np.moveaxis(y, -1, 1)


class GroupNorm(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-5, "groups": REQUIRED, "activation": REQUIRED, "channels_last": 1}
    n_inputs = (3, 3)

    def run(self, x, gamma, beta, *, epsilon, groups, activation, channels_last):
        return group_norm(self, x, gamma, beta, groups, epsilon, activation,
                          channels_last).astype(x.dtype)
