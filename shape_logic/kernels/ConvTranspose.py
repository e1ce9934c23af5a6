"""ConvTranspose: the gradient of Conv. Each input pixel times the weights (one matmul per
group) is scattered into the output, one strided add per kernel offset (col2im); then
the pads are cut off. output_shape, when given, decides the pads (SAME_UPPER puts the
odd one at the end, otherwise at the beginning)."""
import numpy as np

from .base import Kernel
from .spatial import kernel_offsets


class ConvTranspose(Kernel):
    attrs = {"auto_pad": "NOTSET", "dilations": None, "group": 1, "kernel_shape": None,
             "output_padding": None, "output_shape": None, "pads": None, "strides": None}
    n_inputs = (2, 3)

    def run(self, x, w, b=None, auto_pad="NOTSET", dilations=None, group=1,
            kernel_shape=None, output_padding=None, output_shape=None, pads=None,
            strides=None):
        n, c = x.shape[:2]
        nd = x.ndim - 2
        if w.ndim != x.ndim or w.shape[0] != c or c % group:
            raise self.fail(f"input {list(x.shape)}, weights {list(w.shape)} and group {group} "
                            "do not fit (need W.shape[0] = C, C % group == 0)")
        kernel = list(kernel_shape or w.shape[2:])
        strides = list(strides or [1] * nd)
        dilations = list(dilations or [1] * nd)
        opad = list(output_padding or [0] * nd)[:nd]
        # onnxruntime: an output_padding of a stride or more fails (its output size does
        # not give back the input's), and output_shape names the spatial axes only
        if any(a >= s for a, s in zip(opad, strides)):
            raise self.fail(f"output_padding {opad} is not below the strides {strides}")
        if output_shape is not None and len(output_shape) != nd:
            raise self.fail(f"output_shape {list(output_shape)} does not have {nd} entries")
        sizes = list(x.shape[2:])
        # the full output before cutting pads: every input pixel's kernel footprint
        full = [(i - 1) * s + (k - 1) * d + 1 + p
                for i, s, k, d, p in zip(sizes, strides, kernel, dilations, opad)]
        if output_shape is not None or (pads is None and auto_pad in ("SAME_UPPER",
                                                                     "SAME_LOWER")):
            target = list(output_shape) if output_shape is not None else \
                [i * s for i, s in zip(sizes, strides)]
            # onnxruntime pads by max(0, full - target): an output_shape beyond the full
            # output gets its zeros at the end (a SAME target beyond it is not met: the
            # full output), and one that reaches a block position more than the input
            # has (stride * d + e, e the dilated kernel) fails, as the rule file says
            # (rules/ConvTranspose.lp; bench/fuzz.py --kind ops --seed 3505, graph 1061)
            total = [max(f - t, 0) for f, t in zip(full, target)]
            if output_shape is None:
                target = [f - t for f, t in zip(full, total)]
            reach = [s * i + (k - 1) * d + 1
                     for i, s, k, d in zip(sizes, strides, kernel, dilations)]
            if any(t >= r for t, r in zip(target, reach)):
                raise self.fail(f"output_shape {target} reaches past the block positions of "
                                f"input {list(x.shape)} (each below {reach})")
            if auto_pad == "SAME_UPPER":
                begin = [t // 2 for t in total]
            else:
                begin = [t - t // 2 for t in total]
        else:
            p = list(pads or [0] * (2 * nd))
            begin = p[:nd]
            target = [f - p[i] - p[nd + i] for i, f in enumerate(full)]
        # an empty output axis fails too (onnxruntime: "Computed output dimension is <= 0",
        # "Explicit output size must be positive"; the rules' empty_output)
        if any(t <= 0 for t in target):
            raise self.fail(f"output size {target} is not positive (input {list(x.shape)}, "
                            f"kernel {kernel}, pads {pads})")
        g, cg, mg = group, c // group, w.shape[1]
        k_size = int(np.prod(kernel))
        xs = x.reshape(n, g, cg, -1)  # [N, G, Cg, P]
        wt = w.reshape(g, cg, mg * k_size).transpose(0, 2, 1)  # [G, Mg*K, Cg]
        cols = np.matmul(wt, xs).reshape((n, g * mg) + tuple(kernel) + tuple(sizes))
        y = np.zeros((n, g * mg) + tuple(full), dtype=x.dtype)
        for off in kernel_offsets(kernel):
            dst = (Ellipsis,) + tuple(slice(o * d, o * d + (i - 1) * s + 1, s)
                                      for o, d, i, s in zip(off, dilations, sizes, strides))
            y[dst] += cols[(slice(None), slice(None)) + off]
        # an output_shape beyond the full output (pads 0): zeros at the end
        grow = [(max(-b_, 0), max(b_ + t - f, 0)) for b_, t, f in zip(begin, target, full)]
        if any(lo or hi for lo, hi in grow):
            y = np.pad(y, [(0, 0), (0, 0)] + grow)
            begin = [b_ + lo for b_, (lo, _) in zip(begin, grow)]
        y = y[(Ellipsis,) + tuple(slice(b_, b_ + t) for b_, t in zip(begin, target))]
        if b is not None:
            y = y + b.reshape((1, -1) + (1,) * nd).astype(y.dtype, copy=False)
        return np.ascontiguousarray(y)
