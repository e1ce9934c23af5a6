"""The kernels of onnxruntime's com.microsoft.nchwc operators (nchwc.py: the layout): each
reads its NCHWc input as plain NCHW, computes as the ONNX operator's kernel here does, and
gives its result back in NCHWc. The ONNX kernels Conv, MaxPool, AveragePool,
GlobalMaxPool, GlobalAveragePool and Upsample hand a node of this domain to these
(their `variants`)."""
from __future__ import annotations

import numpy as np

from .base import REQUIRED, Kernel
from .fused_activation import conv_activation
from .nchwc import NCHWC, block, block_size, check_blocked, filters_bibo, filters_bo, unblock


class NchwcConv(Kernel):
    """Conv (com.microsoft.nchwc): activation(conv(X, W) + B + Sum), 2-D, f32."""
    attrs = {"auto_pad": "NOTSET", "dilations": None, "group": 1, "kernel_shape": None,
             "pads": None, "strides": None, "activation": "", "activation_params": None}
    n_inputs = (2, 4)
    domains = (NCHWC,)

    def setup(self, activation, activation_params, **conv_attrs):
        from .Conv import Conv

        self.op = "Conv"
        self.conv = Conv(conv_attrs, opset=11)
        self.group = conv_attrs["group"]
        self.activation = conv_activation(self.op, activation, activation_params) \
            if activation else None
        self._filters = (None, None, None)  # (w, block, its plain filters)

    def run(self, x, w, b=None, addend=None, **attrs):
        blk = block_size(self)
        if x.ndim != 4 or w.ndim != 4:
            raise self.fail("NCHWc Conv input and filter must be rank 4")
        c, m, g = x.shape[1], w.shape[0], self.group
        if g < 1 or m % blk or (c >= blk and c % blk):
            raise self.fail(f"input {list(x.shape)}, filter {list(w.shape)}, group {g}: no "
                            f"NCHWc layout of block {blk}")
        if b is not None and b.shape != (m,):
            raise self.fail(f"bias {list(b.shape)} is not [{m}]")
        plain = self.filters(w, blk, c)
        xs = x if c < blk else unblock(x, blk)
        (y,) = self.conv(xs, plain, b)
        y = block(y, blk)
        if addend is not None:
            if addend.shape != y.shape:
                raise self.fail(f"Sum {list(addend.shape)} is not the output's shape "
                                f"{list(y.shape)}")
            y = y + addend
        return self.activation(y) if self.activation else y

    def filters(self, w, blk, c):
        """The plain filters of MLAS's reordered ones (once per weight array)."""
        if self._filters[0] is w and self._filters[1] == blk:
            return self._filters[2]
        m, cpg, g = w.shape[0], w.shape[1], self.group
        if c < blk and g == 1:  # a plain input (the first convolution)
            plain = filters_bo(w, blk)
        elif c >= blk and g == c == m and cpg == 1:  # depthwise
            plain = filters_bo(w, blk)
        elif c >= blk and cpg % blk == 0 and (m // g) % blk == 0 and m % g == 0:
            plain = filters_bibo(w, blk)
        else:
            raise self.fail(f"input {c} channels, filter {list(w.shape)}, group {g}: no "
                            f"MLAS filter layout of block {blk}")
        self._filters = (w, blk, plain)
        return plain


class NchwcPool(Kernel):
    """MaxPool, AveragePool (com.microsoft.nchwc): the ONNX pool's over NCHWc planes."""
    attrs = {"auto_pad": "NOTSET", "ceil_mode": 0, "dilations": None,
             "kernel_shape": REQUIRED, "pads": None, "strides": None}
    domains = (NCHWC,)
    onnx_op = ""

    def setup(self, **attrs):
        from . import load_kernel

        self.op = self.onnx_op
        self.pool = load_kernel(self.onnx_op)(attrs, opset=19)

    def run(self, x, **attrs):
        blk = block_size(self)
        check_blocked(self, x, blk)
        return block(self.pool(unblock(x, blk))[0], blk)


class NchwcMaxPool(NchwcPool):
    attrs = {**NchwcPool.attrs, "storage_order": 0}
    onnx_op = "MaxPool"


class NchwcAveragePool(NchwcPool):
    """count_include_pad = 1 divides every window's sum by the kernel's size, the ceil_mode
    overhang too (MLAS's kernel; ONNX's counts the explicit pads only)."""
    attrs = {**NchwcPool.attrs, "count_include_pad": 0}
    onnx_op = "AveragePool"

    def run(self, x, **attrs):
        if not attrs["count_include_pad"]:
            return super().run(x)
        from .spatial import geometry

        blk = block_size(self)
        check_blocked(self, x, blk)
        plain = unblock(x, blk)
        kernel, strides, dilations, begin, end, out = geometry(
            self, plain, attrs["kernel_shape"], attrs["strides"], attrs["dilations"],
            attrs["pads"], attrs["auto_pad"], attrs["ceil_mode"])
        # zeros around the input, as far as the last window reaches: each window whole
        reach = [(o - 1) * s + d * (k - 1) + 1 for o, s, d, k in zip(out, strides, dilations,
                                                                      kernel)]
        widths = [(0, 0), (0, 0)] + [(b, max(0, r - b - n)) for b, r, n in
                                     zip(begin, reach, plain.shape[2:])]
        padded = np.pad(plain, widths)
        from . import load_kernel

        pool = load_kernel("AveragePool")({"kernel_shape": list(kernel), "strides": strides,
                                           "dilations": dilations}, opset=19)
        (y,) = pool(padded)
        return block(np.ascontiguousarray(y[(slice(None),) * 2 + tuple(
            slice(0, o) for o in out)]), blk)


class NchwcGlobalPool(Kernel):
    """GlobalMaxPool, GlobalAveragePool (com.microsoft.nchwc): [N, C, 1, 1], whose NCHWc
    memory is the plain one's."""
    attrs = {}
    domains = (NCHWC,)
    reduce = None

    def run(self, x):
        blk = block_size(self)
        check_blocked(self, x, blk)
        n, c, h, w = x.shape
        parts = np.ascontiguousarray(x).reshape(n, c // blk, h * w, blk)
        return type(self).reduce(parts, axis=2).astype(x.dtype).reshape(n, c, 1, 1)


class NchwcGlobalMaxPool(NchwcGlobalPool):
    reduce = np.max


class NchwcGlobalAveragePool(NchwcGlobalPool):
    reduce = np.mean


class NchwcUpsample(Kernel):
    """Upsample (com.microsoft.nchwc): integer scales [1, 1, sh, sw] (attribute), nearest
    (input index o // s) or linear with onnxruntime's coordinate transformations."""
    attrs = {"scales": None, "mode": "nearest", "coordinate_transformation_mode": "asymmetric"}
    domains = (NCHWC,)

    def setup(self, scales, mode, coordinate_transformation_mode):
        self.op = "Upsample"
        if scales is None or len(scales) != 4 or scales[0] != 1 or scales[1] != 1 \
                or min(scales[2:]) < 1:
            raise self.fail(f"scales {scales}: [1, 1, sh, sw], sh and sw at least 1")
        if mode not in ("nearest", "linear"):
            raise self.fail(f"unsupported mode {mode!r} for NCHWc Upsample")
        if coordinate_transformation_mode not in ("asymmetric", "half_pixel", "align_corners"):
            raise self.fail(f"unsupported transformation mode {coordinate_transformation_mode!r}"
                            " for NCHWc Upsample")

    def run(self, x, *, scales, mode, coordinate_transformation_mode):
        blk = block_size(self)
        check_blocked(self, x, blk)
        sh, sw = scales[2:]
        p = unblock(x, blk)
        if mode == "nearest":
            y = np.repeat(np.repeat(p, sh, axis=2), sw, axis=3)
        else:
            y = self.linear(p, sh, sw, coordinate_transformation_mode)
        return block(y, blk)

    @staticmethod
    def positions(n_in, scale, ctm):
        """The source coordinate of each output row or column (onnxruntime's
        NchwcUpsample::ComputeInterpolation, in float32)."""
        o = np.arange(n_in * scale, dtype=np.float32)
        if scale == 1:
            return o
        if ctm == "align_corners":
            return o * np.float32(n_in - 1) / np.float32(n_in * scale - 1)
        if ctm == "half_pixel":
            return np.maximum(np.float32(0), (o + np.float32(0.5)) / np.float32(scale)
                              - np.float32(0.5))
        return o / np.float32(scale)

    def linear(self, p, sh, sw, ctm):
        h, w = p.shape[2:]
        y = p
        for axis, n_in, s in ((2, h, sh), (3, w, sw)):
            pos = self.positions(n_in, s, ctm)
            lo = np.minimum(np.floor(pos).astype(np.int64), n_in - 1)
            hi = np.minimum(lo + 1, n_in - 1)
            frac = (pos - lo).astype(np.float32)
            shape = [1, 1, 1, 1]
            shape[axis] = -1
            frac = frac.reshape(shape)
            y = np.take(y, lo, axis=axis) * (1 - frac) + np.take(y, hi, axis=axis) * frac
        return y.astype(p.dtype)
