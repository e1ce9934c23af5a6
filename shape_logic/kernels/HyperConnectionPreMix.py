"""HyperConnectionPreMix (com.microsoft): output[..., h] = reduction_scale * sum_c(
streams[..., c, h] * pre_mix[..., c, h]), the streams grouped [..., C, H] (num_branches 0)
or flattened [..., C * H] (num_branches = C), the gate (C), (C, 1), (C, H) or, flattened,
(C * H) after the streams' leading axes. Summed over c in order in float32, scaled, rounded
once to the streams' type (bfloat16 arrives as float32: base.py). `streams_layout` and
`gate_values`, which read the shapes as onnxruntime's hyper_connection_helper.h does, serve
HyperConnectionPostMix too."""
import numpy as np

from .base import Kernel

FLOATS = (np.float16, np.float32)


def streams_layout(kernel, streams, num_branches):
    """(the leading axes, C, H) of the streams; kernel.fail where onnxruntime rejects them."""
    shape = streams.shape
    if num_branches < 0:
        raise kernel.fail(f"num_branches {num_branches} is negative")
    if num_branches:
        if streams.ndim < 1 or shape[-1] <= 0 or shape[-1] % num_branches:
            raise kernel.fail(f"flattened streams {list(shape)} need a positive last axis, "
                              f"a multiple of num_branches {num_branches}")
        return shape[:-1], num_branches, shape[-1] // num_branches
    if streams.ndim < 2 or shape[-2] <= 0 or shape[-1] <= 0:
        raise kernel.fail(f"grouped streams {list(shape)} need [..., C >= 1, H >= 1]")
    return shape[:-2], shape[-2], shape[-1]


def gate_values(kernel, gate, lead, c, h, feature=False):
    """The gate as float32 [*lead, C, H]: its shape the leading axes, then (C), (C, 1), (C, H),
    or (C * H) where `feature` (PreMix's flattened streams) allows it."""
    g = gate.astype(np.float32)
    p = len(lead)
    suffix = gate.shape[p:]
    if gate.shape[:p] != tuple(lead) or gate.ndim < p:
        raise kernel.fail(f"gate {list(gate.shape)} must start with the streams' leading "
                          f"axes {list(lead)}")
    if suffix == (c,):
        return np.broadcast_to(g[..., None], (*lead, c, h))
    if feature and suffix == (c * h,):
        return g.reshape(*lead, c, h)
    if suffix == (c, 1) or suffix == (c, h):
        return np.broadcast_to(g, (*lead, c, h))
    raise kernel.fail(f"gate {list(gate.shape)} needs the suffix (C), (C, 1) or (C, H) for "
                      f"C = {c}, H = {h}" + (" or (C * H)" if feature else ""))


def check_floats(kernel, *arrays):
    for a in arrays:
        if a is not None and a.dtype not in FLOATS:
            raise kernel.fail(f"takes float tensors, not {a.dtype}")


class HyperConnectionPreMix(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_branches": 0, "reduction_scale": 1.0}
    n_inputs = (2, 2)
    small_float_from = 0

    def run(self, streams, pre_mix, *, num_branches, reduction_scale):
        check_floats(self, streams, pre_mix)
        lead, c, h = streams_layout(self, streams, num_branches)
        gate = gate_values(self, pre_mix, lead, c, h, feature=num_branches > 0)
        x = streams.astype(np.float32).reshape(*lead, c, h)
        total = np.zeros((*lead, h), np.float32)
        for k in range(c):  # in order, as onnxruntime sums
            total += x[..., k, :] * gate[..., k, :]
        return (total * np.float32(reduction_scale)).astype(streams.dtype)
