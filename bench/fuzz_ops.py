"""Random graphs of operators with size arithmetic for bench/fuzz.py (`--kind ops`).

Spatial operators (ConvTranspose, the pools with ceil_mode / auto_pad / dilations, Pad,
Resize, DepthToSpace, SpaceToDepth, Col2Im, CenterCropPad, MaxUnpool), sizes from values
(Range, OneHot, TopK, EyeLike, the spectral windows, DFT, STFT) and, in fuzz_ops2.py,
GridSample, RoiAlign, indexing, data-dependent sizes, reductions, normalizations and
broadcasting ones. Attributes are drawn over each operator's whole space (negative pads
and axes, strides beyond the kernel, output_padding, every auto_pad); a last node may
be invalid (`fail`). Size-carrying inputs are constants or, as exporters write them,
computed from a tensor's Shape (Shape -> Gather / Slice, plus a constant): symbolic; or,
now and then, graph inputs holding them (values the data gives).
"""
from __future__ import annotations

import random

from fuzz_graphs import GENERATORS, Builder

AUTO_PAD = ["NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]


# ----- size-carrying inputs

def _dim_source(b: Builder, v: int) -> tuple[str, int, int] | None:
    """(tensor, axis, dim) of a graph tensor whose dim is v (or any dim, to offset)."""
    found = [(t, i, d) for t, a in b.values.items() if hasattr(a, "shape")
             and not t.startswith("c") and t not in b.optionals
             for i, d in enumerate(getattr(a, "shape", ()))]
    same = [f for f in found if f[2] == v]
    if same and b.rng.random() < 0.7:
        return b.rng.choice(same)
    if v >= 1 and b.rng.random() < 0.5:
        return b.new_input([v]), 0, v
    return b.rng.choice(found) if found else None


def from_shape(b: Builder, v: int, scalar: bool) -> str | None:
    """An i64 tensor holding v ([1], or a scalar) computed from a dim: Shape -> Gather (or
    Shape with start/end), plus a constant where the dim is not v."""
    src = _dim_source(b, v)
    if src is None:
        return None
    t, axis, d = src
    rank = b.values[t].ndim
    if scalar:
        s = b.add("Shape", [t])
        out = s and b.add("Gather", [s[0], b.const(b.rng.choice([axis, axis - rank]))],
                          {"axis": 0})
    else:
        out = b.add("Shape", [t], {"start": axis, "end": axis + 1})
    if out and d != v:
        out = b.add("Add", [out[0], b.const(v - d if scalar else [v - d])])
    return out[0] if out else None


def ints(b: Builder, vals, p: float = 0.4) -> str:
    """A 1-D i64 tensor of vals: a constant, or (each value with probability p) computed
    from shapes and concatenated."""
    vals = [int(v) for v in vals]
    if vals and b.rng.random() < 0.1:  # given as a graph input: the data's
        return b.value_input(vals)
    if not vals or b.rng.random() >= p * 2:
        return b.const(vals)
    parts = [from_shape(b, v, False) if b.rng.random() < p else b.const([v]) for v in vals]
    if any(x is None for x in parts):
        return b.const(vals)
    if len(parts) == 1:
        return parts[0]
    out = b.add("Concat", parts, {"axis": 0})
    return out[0] if out else b.const(vals)


def scalar(b: Builder, v: int, p: float = 0.5) -> str:
    """A scalar i64 tensor of v: a constant or computed from a shape."""
    if b.rng.random() < 0.1:  # given as a graph input: the data's
        return b.value_input(v)
    t = from_shape(b, v, True) if b.rng.random() < p else None
    return t or b.const(v)


def image(b: Builder, nd: int | None = None, lo: int = 1, hi: int = 6) -> str:
    """An f32 [N, C, spatial...] tensor: one of the graph's (rank 3-4) or a new input."""
    nd = nd or b.rng.randint(1, 2)
    x = b.pick(min_rank=nd + 2, max_rank=nd + 2)
    if x is not None and b.rng.random() < 0.4 and max(b.values[x].shape) <= 8:
        return x
    return b.new_input([b.rng.randint(1, 2), b.rng.randint(1, 4)]
                       + [b.rng.randint(lo, hi) for _ in range(nd)])


def pick_or_new(b: Builder, min_rank=0, max_rank=4) -> str:
    x = b.pick(min_rank=min_rank, max_rank=max_rank)
    if x is not None and b.rng.random() < 0.6 and b.values[x].size <= 512:
        return x
    return b.new_input(b.random_shape(b.rng.randint(min_rank, max_rank)))


# ----- spatial

def g_conv_transpose(b, fail):
    x = image(b)
    n, c, *sizes = b.values[x].shape
    nd = len(sizes)
    group = b.rng.choice([g for g in (1, 2, 3) if c % g == 0])
    k = [b.rng.randint(1, 3) for _ in sizes]
    w = b.new_input([c + (1 if fail and b.rng.random() < 0.3 else 0),
                     b.rng.randint(1, 2)] + k)
    strides = [b.rng.randint(1, 3) for _ in sizes]
    dil = [b.rng.randint(1, 2) for _ in sizes]
    attrs = {"group": group} if group > 1 or b.rng.random() < 0.2 else {}
    if b.rng.random() < 0.7:
        attrs["strides"] = strides
    else:
        strides = [1] * nd
    if b.rng.random() < 0.4:
        attrs["dilations"] = dil
    else:
        dil = [1] * nd
    if b.rng.random() < 0.3:
        attrs["kernel_shape"] = k
    if b.rng.random() < 0.4:  # ONNX: output_padding < max(stride, dilation)
        attrs["output_padding"] = [b.rng.randint(0, max(s, d) - 1 + fail)
                                   for s, d in zip(strides, dil)]
    r = b.rng.random()
    if r < 0.25:
        # output_shape: the spatial dims (or N, C too), at most the full output + padding
        full = [(i - 1) * s + (kk - 1) * d + 1 for i, s, kk, d in zip(sizes, strides, k, dil)]
        shape = [b.rng.randint(max(f - 2, 1), f + (2 if fail else 0)) for f in full]
        attrs["output_shape"] = shape if not fail or b.rng.random() < 0.7 else [n, c] + shape
        if b.rng.random() < 0.5:
            attrs["auto_pad"] = b.rng.choice(AUTO_PAD)
    elif r < 0.6:
        attrs["auto_pad"] = b.rng.choice(AUTO_PAD)
    elif r < 0.9:
        attrs["pads"] = [b.rng.randint(0, 2) for _ in range(2 * nd)]
    ins = [x, w] + ([b.new_input([b.values[w].shape[1] * group])] if b.rng.random() < 0.3
                    else [])
    return b.add("ConvTranspose", ins, attrs, allow_failure=fail)


def g_pool(b, fail):
    op = b.rng.choice(["MaxPool", "MaxPool", "AveragePool", "LpPool"])
    x = image(b)
    nd = b.values[x].ndim - 2
    k = [b.rng.randint(1, 3) for _ in range(nd)]
    attrs = {"kernel_shape": k}
    if b.rng.random() < 0.7:
        attrs["strides"] = [b.rng.randint(1, 4) for _ in range(nd)]  # beyond the kernel too
    if op != "AveragePool" and b.rng.random() < 0.4:  # (AveragePool's dilations: opset 19)
        attrs["dilations"] = [b.rng.randint(1, 2) for _ in range(nd)]
    if b.rng.random() < 0.5:
        attrs["ceil_mode"] = 1
    r = b.rng.random()
    if r < 0.5:  # ONNX: pads < the kernel
        attrs["pads"] = [b.rng.randint(0, kk - 1 + fail) for kk in k + k]
    elif r < 0.8:
        attrs["auto_pad"] = b.rng.choice(AUTO_PAD)
    if op == "AveragePool" and b.rng.random() < 0.5:
        attrs["count_include_pad"] = 1
    if op == "LpPool":
        attrs["p"] = b.rng.choice([1, 2, 3])
    n_out = 2 if op == "MaxPool" and b.rng.random() < 0.3 else 1
    if n_out == 2:
        attrs["storage_order"] = b.rng.randint(0, 1)
    out = b.add(op, [x], attrs, n_out=n_out, allow_failure=fail)
    if out and n_out == 2 and not b.failed_op and b.rng.random() < 0.6:
        # MaxUnpool back: the same kernel, strides and pads; maybe an output_shape
        un = {a: attrs[a] for a in ("kernel_shape", "strides", "pads") if a in attrs}
        ins = [out[0], out[1]]
        # (without output_shape, a ceil_mode window's index may lie past the unpooled
        # output: a failure only the data shows)
        if b.rng.random() < 0.4 or attrs.get("ceil_mode") or "auto_pad" in attrs:
            shape = list(b.values[x].shape)
            ins.append(ints(b, shape))
        return b.add("MaxUnpool", ins, un, allow_failure=fail)
    return out


def g_global_pool(b, fail):
    x = image(b)
    op = b.rng.choice(["GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"])
    return b.add(op, [x])


def g_pad(b, fail):
    x = pick_or_new(b, 1, 3)
    shape = b.values[x].shape
    r = len(shape)
    axes = list(range(r))
    use_axes = b.rng.random() < 0.4
    if use_axes:
        axes = b.rng.sample(range(r), b.rng.randint(1, r))
    pads = [b.rng.randint(-shape[a] + 1 if b.rng.random() < 0.3 else 0, 3) for a in axes] + \
        [b.rng.randint(-shape[a] + 1 if b.rng.random() < 0.3 else 0, 3) for a in axes]
    if fail and b.rng.random() < 0.5:
        pads = pads[:-1]
    # (not "wrap": opset 19's, which the rules reject at 18 as the spec does, and which
    # our kernel and onnxruntime run)
    mode = b.rng.choice(["constant", "constant", "reflect", "edge"])
    ins = [x, ints(b, pads)]
    if use_axes or b.rng.random() < 0.3:
        ins.append(b.const(1.5, "f32") if b.rng.random() < 0.5 else "")
    if use_axes:
        ins.append(ints(b, [a - r if b.rng.random() < 0.4 else a for a in axes], p=0.2))
    return b.add("Pad", ins, {"mode": mode}, allow_failure=fail)


def g_resize(b, fail):
    x = pick_or_new(b, 1, 4)
    shape = b.values[x].shape
    if max(shape) > 6 or b.values[x].size > 256:
        return None
    r = len(shape)
    axes = list(range(r))
    attrs = {"mode": b.rng.choice(["nearest", "nearest", "linear"])}
    if b.rng.random() < 0.3:
        axes = sorted(b.rng.sample(range(r), b.rng.randint(1, r)))
        attrs["axes"] = [a - r if b.rng.random() < 0.3 else a for a in axes]
    if attrs["mode"] == "linear" and len(axes) > 2:
        attrs["mode"] = "nearest"
    attrs["coordinate_transformation_mode"] = b.rng.choice(
        ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"])
    if b.rng.random() < 0.5:
        scales = [b.rng.choice([0.5, 1.0, 1.5, 2.0, 0.7, 1 / 3, 2.5]) for _ in axes]
        return b.add("Resize", [x, "", b.const(scales, "f32")], attrs, allow_failure=fail)
    sizes = [b.rng.randint(1, 7) for _ in axes]
    if b.rng.random() < 0.4:
        attrs["keep_aspect_ratio_policy"] = b.rng.choice(["stretch", "not_larger",
                                                          "not_smaller"])
    if fail:
        sizes = sizes + [2]
    return b.add("Resize", [x, "", "", ints(b, sizes)], attrs, allow_failure=fail)


def g_depth_space(b, fail):
    bs = b.rng.randint(1, 3)
    if b.rng.random() < 0.5:
        c = bs * bs * b.rng.randint(1, 2) + (1 if fail and bs > 1 else 0)
        x = b.new_input([b.rng.randint(1, 2), c, b.rng.randint(1, 3), b.rng.randint(1, 3)])
        return b.add("DepthToSpace", [x], {"blocksize": bs,
                                           "mode": b.rng.choice(["DCR", "CRD"])},
                     allow_failure=fail)
    h, w = bs * b.rng.randint(1, 3), bs * b.rng.randint(1, 3) + (1 if fail and bs > 1 else 0)
    x = b.new_input([b.rng.randint(1, 2), b.rng.randint(1, 2), h, w])
    return b.add("SpaceToDepth", [x], {"blocksize": bs}, allow_failure=fail)


def g_col2im(b, fail):
    nd = b.rng.randint(1, 2)
    img = [b.rng.randint(2, 6) for _ in range(nd)]
    block = [b.rng.randint(1, 3) for _ in range(nd)]
    dil = [b.rng.randint(1, 2) for _ in range(nd)]
    st = [b.rng.randint(1, 3) for _ in range(nd)]
    pads = [b.rng.randint(0, 2) for _ in range(2 * nd)]
    counts = [(img[i] + pads[i] + pads[i + nd] - dil[i] * (block[i] - 1) - 1) // st[i] + 1
              for i in range(nd)]
    if min(counts) < 1:
        return None
    taps, length = 1, 1
    for k_, c_ in zip(block, counts):
        taps, length = taps * k_, length * c_
    x = b.new_input([b.rng.randint(1, 2), taps * b.rng.randint(1, 2),
                     length + (1 if fail else 0)])
    attrs = {}
    if b.rng.random() < 0.5:
        attrs["dilations"] = dil
    if b.rng.random() < 0.5:
        attrs["strides"] = st
    if b.rng.random() < 0.5:
        attrs["pads"] = pads
    return b.add("Col2Im", [x, ints(b, img), ints(b, block, p=0.2)], attrs,
                 allow_failure=True)  # (attributes left out change the block count)


def g_center_crop_pad(b, fail):
    x = pick_or_new(b, 1, 3)
    r = b.values[x].ndim
    attrs = {}
    axes = list(range(r))
    if b.rng.random() < 0.4:
        axes = b.rng.sample(range(r), b.rng.randint(1, r))
        attrs["axes"] = [a - r if b.rng.random() < 0.4 else a for a in axes]
    sizes = [b.rng.randint(1, 7) for _ in axes] + ([1] if fail else [])
    return b.add("CenterCropPad", [x, ints(b, sizes)], attrs, allow_failure=fail)


# ----- sizes from values

def g_range(b, fail):
    start = b.rng.randint(-3, 5)
    delta = b.rng.choice([1, 2, 3, -1, -2])
    limit = start + delta * b.rng.randint(-1, 5) + b.rng.randint(-1, 1)
    return b.add("Range", [scalar(b, start), scalar(b, limit), scalar(b, delta, p=0.3)])


def g_one_hot(b, fail):
    depth = b.rng.randint(1, 5)
    idx = b.new_input(b.random_shape(b.rng.randint(0, 2)), "i64")  # values 0..2
    if depth < 3 and not fail:
        idx = b.add("Min", [idx, b.const(depth - 1)])[0]
    r = b.values[idx].ndim
    d = scalar(b, depth) if b.rng.random() < 0.6 else ints(b, [depth])
    return b.add("OneHot", [idx, d, b.const([0.0, 1.0], "f32")],
                 {"axis": b.rng.randint(-r - 1, r)}, allow_failure=fail)


def g_top_k(b, fail):
    x = pick_or_new(b, 1, 3)
    r = b.values[x].ndim
    axis = b.rng.randrange(r)
    d = b.values[x].shape[axis]
    k = b.rng.randint(1, d) + (1 if fail else 0)
    if b.rng.random() < 0.3:  # min(dim, k), as exporters clamp k
        s = b.add("Shape", [x], {"start": axis, "end": axis + 1})
        kk = s and b.add("Min", [s[0], b.const([k])])
        k_in = kk[0] if kk else b.const([k])
    else:
        k_in = ints(b, [k])
    attrs = {"axis": axis - r if b.rng.random() < 0.4 else axis,
             "largest": b.rng.randint(0, 1), "sorted": b.rng.randint(0, 1)}
    return b.add("TopK", [x, k_in], attrs, n_out=2, allow_failure=fail)


def g_eye_like(b, fail):
    x = pick_or_new(b, 2, 2) if not fail else pick_or_new(b, 1, 3)
    return b.add("EyeLike", [x], {"k": b.rng.randint(-4, 4)}, allow_failure=fail)


def g_window(b, fail):
    op = b.rng.choice(["HannWindow", "HammingWindow", "BlackmanWindow"])
    return b.add(op, [scalar(b, b.rng.randint(1, 6), p=0.7)],
                 {"periodic": b.rng.randint(0, 1)})


def g_dft(b, fail):
    x = b.new_input([b.rng.randint(1, 2), b.rng.randint(1, 6), b.rng.randint(1, 3),
                     b.rng.choice([1, 2])])
    axis = b.rng.choice([1, 2, -2, -3])
    attrs = {"axis": axis, "onesided": b.rng.randint(0, 1), "inverse": b.rng.randint(0, 1)}
    ins = [x]
    if b.rng.random() < 0.5:
        ins.append(scalar(b, b.rng.randint(1, 7)))
    if attrs["onesided"] and attrs["inverse"] and b.values[x].shape[-1] == 1:
        return None  # (irfft of a real signal: ONNX's onesided inverse takes complex input)
    return b.add("DFT", ins, attrs, allow_failure=fail)


def g_stft(b, fail):
    length = b.rng.randint(2, 8)
    x = b.new_input([b.rng.randint(1, 2), length, b.rng.choice([1, 2])])
    n = b.rng.randint(1, length + (1 if fail else 0))
    step = scalar(b, b.rng.randint(1, 4), p=0.6)
    attrs = {"onesided": b.rng.randint(0, 1) if b.values[x].shape[2] == 1 else 0}
    if b.rng.random() < 0.5:
        win = b.add("HannWindow", [scalar(b, n, p=0.5)])
        ins = [x, step, win[0]] if win else [x, step, "", b.const(n)]
    else:
        ins = [x, step, "", scalar(b, n, p=0.5)]
    return b.add("STFT", ins, attrs, allow_failure=fail)


OPS_GENERATORS = {g.__name__[2:]: g for g in (
    g_conv_transpose, g_pool, g_global_pool, g_pad, g_resize, g_depth_space, g_col2im,
    g_center_crop_pad, g_range, g_one_hot, g_top_k, g_eye_like,
    g_window, g_dft, g_stft)}


def build_ops(rng: random.Random, max_nodes: int = 6) -> Builder:
    """A random graph of mostly the generators above and fuzz_ops2.py's (a few of the base
    kind's between them); with probability 0.15 its last node may be invalid."""
    from fuzz_input_sizes import g_input_sizes
    from fuzz_ops2 import OPS2_GENERATORS

    gens = {**OPS_GENERATORS, **OPS2_GENERATORS, "input_sizes": g_input_sizes}
    b = Builder(rng, symbolic=rng.choice([0.5, 0.8, 1.0, 1.0]))
    b.new_input(b.random_shape(rng.randint(1, 4)))
    may_fail = rng.random() < 0.15
    n_nodes = rng.randint(1, max_nodes)
    attempts = 0
    while len(b.graph["nodes"]) < n_nodes and attempts < 50 and not b.failed_op:
        attempts += 1
        last = may_fail and len(b.graph["nodes"]) >= n_nodes - 1
        if rng.random() < 0.2:
            GENERATORS[rng.choice(list(GENERATORS))](b, last)
        else:
            gens[rng.choice(list(gens))](b, last)
    return b
