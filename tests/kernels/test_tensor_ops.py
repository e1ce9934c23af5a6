"""Reductions and shape/indexing kernels vs onnx's reference evaluator, including the
opsets where attributes became inputs (axes, split, starts/ends, pads, k)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)
small = st.integers(1, 4)
shapes = st.lists(small, min_size=1, max_size=4)
REDUCE = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
          "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"]


@pytest.mark.parametrize("op", REDUCE)
@FAST
@given(seed=seeds, shape=shapes, data=st.data(), keep=st.booleans(), old=st.booleans())
def test_reduce(op, seed, shape, data, keep, old):
    rng = np.random.default_rng(seed)
    x = rand(rng, shape, low=0.1 if op == "ReduceLogSum" else -2, high=2)
    axes = data.draw(st.none() | st.lists(st.integers(-len(shape), len(shape) - 1), min_size=1,
                                          max_size=len(shape), unique=True))
    attrs = {"keepdims": int(keep)}
    if old:  # before axes became an input (13 for ReduceSum, 18 for the others)
        opset = 11
        if axes is not None:
            attrs["axes"] = axes
        check(op, [x], attrs, opset=opset)
    else:
        check(op, [x, None if axes is None else np.array(axes, np.int64)], attrs)


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@FAST
@given(seed=seeds, shape=shapes, data=st.data(), keep=st.booleans(), last=st.booleans())
def test_arg(op, seed, shape, data, keep, last):
    x = rand(np.random.default_rng(seed), shape, "i64", -2, 2)  # ties, for select_last_index
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check(op, [x], {"axis": axis, "keepdims": int(keep), "select_last_index": int(last)})


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_transpose(seed, shape, data):
    perm = data.draw(st.permutations(range(len(shape))))
    check("Transpose", [rand(np.random.default_rng(seed), shape)], {"perm": list(perm)})


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_reshape(seed, shape, data):
    n = int(np.prod(shape))
    target = data.draw(st.sampled_from([[n], [-1], [1, n], [n, -1], [0] * len(shape),
                                        [0, -1], list(shape)[::-1]]))
    check("Reshape", [rand(np.random.default_rng(seed), shape), np.array(target, np.int64)])


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_flatten(seed, shape, data):
    axis = data.draw(st.integers(-len(shape), len(shape)))
    check("Flatten", [rand(np.random.default_rng(seed), shape)], {"axis": axis})


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 2), min_size=1, max_size=4), old=st.booleans(),
       data=st.data())
def test_squeeze_unsqueeze(seed, shape, old, data):
    x = rand(np.random.default_rng(seed), shape)
    ones = [i for i, d in enumerate(shape) if d == 1]
    sq = data.draw(st.none() | st.lists(st.sampled_from(ones), unique=True, min_size=1)) \
        if ones else None
    r = len(shape) + 1
    unsq = data.draw(st.lists(st.integers(-r, r - 1), min_size=1, max_size=1))
    if old:
        check("Squeeze", [x], {"axes": sq} if sq else None, opset=11)
        check("Unsqueeze", [x], {"axes": unsq}, opset=11)
    else:
        check("Squeeze", [x, None if sq is None else np.array(sq, np.int64)])
        check("Unsqueeze", [x, np.array(unsq, np.int64)])


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), n=st.integers(1, 3))
def test_concat(seed, shape, data, n):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    arrays = []
    for _ in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        arrays.append(rand(rng, s))
    check("Concat", arrays, {"axis": axis})


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), how=st.sampled_from(["equal", "sizes",
                                                                     "attr", "num"]))
def test_split(seed, shape, data, how):
    x = rand(np.random.default_rng(seed), shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    if how == "num":
        parts = data.draw(st.integers(1, n))
        check("Split", [x], {"axis": axis, "num_outputs": parts}, n_outputs=parts)
        return
    cut = sorted(data.draw(st.lists(st.integers(0, n), max_size=2)))
    sizes = [b - a for a, b in zip([0] + cut, cut + [n])]
    if how == "equal":
        check("Split", [x], {"axis": axis}, n_outputs=1, opset=13)
    elif how == "attr":
        check("Split", [x], {"axis": axis, "split": sizes}, n_outputs=len(sizes), opset=11)
    else:
        check("Split", [x, np.array(sizes, np.int64)], {"axis": axis}, n_outputs=len(sizes))


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), old=st.booleans())
def test_slice(seed, shape, data, old):
    x = rand(np.random.default_rng(seed), shape)
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True))
    bound = st.integers(-6, 6) | st.sampled_from([2**63 - 1, -2**63])
    starts = [data.draw(bound) for _ in axes]
    ends = [data.draw(bound) for _ in axes]
    if old:  # opset 1: attributes, step 1
        check("Slice", [x], {"starts": starts, "ends": ends, "axes": axes}, opset=9)
        return
    steps = [data.draw(st.sampled_from([1, 2, -1, -2])) for _ in axes]
    # an end of INT64_MAX with a negative step: onnxruntime takes one element, the spec's
    # clamping none; not compared
    ends = [-2**63 if s < 0 and e == 2**63 - 1 else e for s, e in zip(steps, ends)]
    arrays = [x] + [np.array(v, np.int64) for v in (starts, ends, axes, steps)]
    # onnxruntime: the reference mis-clamps a start below -size with a negative step
    check("Slice", arrays, ort=True)


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_gather(seed, shape, data):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    idx = rng.integers(-n, n, size=data.draw(st.lists(small, max_size=2)))
    check("Gather", [rand(rng, shape), idx.astype(np.int64)], {"axis": axis})
    ishape = list(shape)
    ishape[axis] = data.draw(small)
    check("GatherElements", [rand(rng, shape), rng.integers(-n, n, size=ishape)],
          {"axis": axis})


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_expand_tile(seed, shape, data):
    rng = np.random.default_rng(seed)
    x = rand(rng, shape)
    target = [data.draw(st.sampled_from([1, d])) for d in shape]
    target = [data.draw(small)] * data.draw(st.integers(0, 1)) + \
        [data.draw(small) if t == 1 else t for t in target]
    check("Expand", [x, np.array(target, np.int64)])
    check("Tile", [x, np.array([data.draw(st.integers(0, 2)) for _ in shape], np.int64)])


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), mode=st.sampled_from(["constant", "reflect",
                                                                      "edge", "wrap"]))
def test_pad(seed, shape, data, mode):
    x = rand(np.random.default_rng(seed), [d + 1 for d in shape])
    pads = [data.draw(st.integers(-1 if mode == "constant" else 0, d)) for d in shape * 2]
    check("Pad", [x, np.array(pads, np.int64), np.array(1.5, np.float32)], {"mode": mode})
    if mode != "wrap":
        check("Pad", [x], {"mode": mode, "pads": pads, "value": 2.0}, opset=2)


@FAST
@given(seed=seeds, shape=st.lists(small, max_size=4), start=st.integers(-5, 5),
       end=st.none() | st.integers(-5, 5))
def test_shape_size(seed, shape, start, end):
    x = rand(np.random.default_rng(seed), shape)
    # onnxruntime: the reference does not clamp an end below -rank to 0
    check("Shape", [x], {"start": start} if end is None else {"start": start, "end": end},
          ort=True)
    check("Size", [x])


@FAST
@given(shape=st.lists(st.integers(0, 3), max_size=3), value=st.sampled_from(
    [None, np.array([3], np.int64), np.array([1.5], np.float32)]))
def test_constant_of_shape(shape, value):
    check("ConstantOfShape", [np.array(shape, np.int64)], None if value is None else
          {"value": value})


@FAST
@given(start=st.integers(-5, 5), limit=st.integers(-5, 5), delta=st.integers(-3, 3).filter(bool),
       dtype=st.sampled_from([np.int64, np.int32, np.float32]))
def test_range(start, limit, delta, dtype):
    check("Range", [np.array(v, dtype) for v in (start, limit, delta)])


def test_constant():
    for attrs in ({"value": np.arange(6, dtype=np.float32).reshape(2, 3)}, {"value_int": 4},
                  {"value_floats": [1.0, 2.5]}, {"value_ints": [1, 2]}):
        check("Constant", [], attrs)


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), largest=st.booleans())
def test_topk(seed, shape, data, largest):
    x = rand(np.random.default_rng(seed), shape, "i64", -3, 3)  # ties: lower index first
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    k = data.draw(st.integers(0, shape[axis]))
    check("TopK", [x, np.array([k], np.int64)], {"axis": axis, "largest": int(largest)},
          n_outputs=2)


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), excl=st.booleans(), rev=st.booleans())
def test_cumsum(seed, shape, data, excl, rev):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check("CumSum", [rand(np.random.default_rng(seed), shape), np.array(axis, np.int64)],
          {"exclusive": int(excl), "reverse": int(rev)})


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=2, max_size=4), k=st.none() | st.integers(-4, 4),
       upper=st.booleans())
def test_trilu(seed, shape, k, upper):
    x = rand(np.random.default_rng(seed), shape)
    check("Trilu", [x, None if k is None else np.array(k, np.int64)], {"upper": int(upper)})


@FAST
@given(seed=seeds, shape=st.lists(small, max_size=4))
def test_nonzero(seed, shape):
    check("NonZero", [rand(np.random.default_rng(seed), shape, "i64", 0, 1)])


@FAST
# (indices of rank 1 or more: onnx's shape inference and onnxruntime refuse scalar ones)
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=3), depth=st.integers(1, 5),
       data=st.data())
def test_onehot(seed, shape, depth, data):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    idx = rng.integers(-depth, depth, size=shape).astype(np.int64)
    check("OneHot", [idx, np.array(depth, np.int64), np.array([0.5, 2.0], np.float32)],
          {"axis": axis})


@FAST
@given(seed=seeds, b=st.integers(1, 3), mode=st.sampled_from(["DCR", "CRD"]))
def test_depth_space(seed, b, mode):
    rng = np.random.default_rng(seed)
    check("DepthToSpace", [rand(rng, (1, 2 * b * b, 2, 3))], {"blocksize": b, "mode": mode})
    check("SpaceToDepth", [rand(rng, (2, 2, 2 * b, 3 * b))], {"blocksize": b})


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_compress(seed, shape, data):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    n = int(np.prod(shape)) if axis is None else shape[axis]
    cond = rng.random(data.draw(st.integers(1, n))) < 0.5
    check("Compress", [rand(rng, shape), cond], None if axis is None else {"axis": axis})


@FAST
@given(seed=seeds, shape=st.lists(small, max_size=3), data=st.data(), srt=st.booleans())
def test_unique(seed, shape, data, srt):
    x = rand(np.random.default_rng(seed), shape, "i64", 0, 2)  # repeats
    attrs = {"sorted": int(srt)}
    if shape and data.draw(st.booleans()):
        attrs["axis"] = data.draw(st.integers(-len(shape), len(shape) - 1))
    # onnx's reference evaluator drops slices along an axis when sorted = 0 ([[0], [1]] on
    # axis 1 gives [[0]]); onnxruntime keeps them, as the spec says: compare with it there
    check("Unique", [x], attrs, n_outputs=4, ort="axis" in attrs and not srt)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=2, max_size=3), data=st.data())
def test_gather_scatter_nd(seed, shape, data):
    rng = np.random.default_rng(seed)
    k = data.draw(st.integers(1, len(shape)))
    idx = np.stack([rng.integers(0, shape[j], size=(2,)) for j in range(k)], -1)
    check("GatherND", [rand(rng, shape), idx.astype(np.int64)])
    flat = rng.permutation(int(np.prod(shape[:k])))[:2]
    idx = np.stack(np.unravel_index(flat, shape[:k]), axis=-1).astype(np.int64)
    check("ScatterND", [rand(rng, shape), idx, rand(rng, [len(flat)] + shape[k:])],
          {"reduction": data.draw(st.sampled_from(["none", "add", "max"]))})


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=3, max_size=4), data=st.data())
def test_resize(seed, shape, data):
    scales = np.array([data.draw(st.sampled_from([1.0, 0.5, 2.0])) for _ in shape], np.float32)
    check("Resize", [rand(np.random.default_rng(seed), shape), None, scales],
          {"mode": data.draw(st.sampled_from(["nearest", "linear"]))})


@FAST
@given(seed=seeds, shape=shapes, data=st.data(), excl=st.booleans(), rev=st.booleans(),
       dtype=st.sampled_from(["f32", "i64"]))
def test_cumprod(seed, shape, data, excl, rev, dtype):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check("CumProd", [rand(np.random.default_rng(seed), shape, dtype), np.array(axis, np.int64)],
          {"exclusive": int(excl), "reverse": int(rev)}, opset=26)


@FAST
@given(seed=seeds, shape=shapes, data=st.data(),
       reduction=st.sampled_from(["none", "add", "mul", "max", "min"]))
def test_scatter_elements(seed, shape, data, reduction):
    # duplicate indices: with reduction they all combine; without, the values differ only in
    # which duplicate wins, so indices are distinct along the axis then
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ishape = [data.draw(st.integers(1, d)) for d in shape]
    n = shape[axis]
    if reduction == "none":
        ishape[axis] = data.draw(st.integers(1, n))
        order = np.argsort(rng.random(ishape[:axis] + [n] + ishape[axis + 1:]), axis=axis)
        idx = np.take(order, range(ishape[axis]), axis=axis)
    else:
        idx = rng.integers(-n, n, size=ishape)
    check("ScatterElements", [rand(rng, shape), idx.astype(np.int64), rand(rng, ishape)],
          {"axis": axis, "reduction": reduction})


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 5), min_size=2, max_size=2),
       k=st.integers(-5, 5), dtype=st.sampled_from([None, 1, 7, 9]))
def test_eyelike(seed, shape, k, dtype):
    attrs = {"k": k} if dtype is None else {"k": k, "dtype": dtype}
    check("EyeLike", [rand(np.random.default_rng(seed), shape, "i32")], attrs)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=2, max_size=4), batch_first=st.booleans(),
       data=st.data())
def test_reverse_sequence(seed, shape, batch_first, data):
    ba, ta = (0, 1) if batch_first else (1, 0)
    lens = np.array([data.draw(st.integers(0, shape[ta])) for _ in range(shape[ba])], np.int64)
    check("ReverseSequence", [rand(np.random.default_rng(seed), shape), lens],
          {"batch_axis": ba, "time_axis": ta})


@FAST
@given(seed=seeds, shape=shapes, data=st.data())
def test_center_crop_pad(seed, shape, data):
    r = len(shape)
    axes = data.draw(st.none() | st.lists(st.integers(-r, r - 1), min_size=1, max_size=r,
                                          unique_by=lambda a: a % r))
    n = r if axes is None else len(axes)
    sizes = np.array([data.draw(st.integers(1, 7)) for _ in range(n)], np.int64)
    check("CenterCropPad", [rand(np.random.default_rng(seed), shape, "i32"), sizes],
          None if axes is None else {"axes": axes})


@FAST
@given(seed=seeds, batch=st.lists(small, max_size=2), m=small)
def test_det(seed, batch, m):
    check("Det", [rand(np.random.default_rng(seed), batch + [m, m])], rtol=1e-3, atol=1e-4)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=3), data=st.data())
def test_scatter(seed, shape, data):
    """Scatter (opset 10) against onnxruntime: onnx's reference has none."""
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ishape = [data.draw(st.integers(1, n)) for n in shape]
    indices = rng.integers(0, shape[axis], ishape).astype(np.int64)
    check("Scatter", [rand(rng, shape), indices, rand(rng, ishape)], {"axis": axis}, opset=10,
          ort=True)


@FAST
@given(seed=seeds, shape=shapes, pair=st.sampled_from(
    [("f32", 6), ("i32", 1), ("f64", 7), ("f16", 4), ("u16", 16), ("i8", 2), ("u8", 9)]))
def test_bitcast(seed, shape, pair):
    dtype, to = pair
    check("BitCast", [rand(np.random.default_rng(seed), shape, dtype)], {"to": to}, opset=26)


def test_gather_elements_is_shaped_like_indices_shorter_than_the_data_off_the_axis():
    # (bench/fuzz.py --kind ops, seed 500: np.take_along_axis broadcast indices [2, 1]
    # against data [3, 2] to [2, 2]; onnxruntime gives [2, 1], as the rules do)
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    y = check("GatherElements", [x, np.array([[2], [-2]])], {"axis": 0}, ort=True)
    assert y[0].tolist() == [[4.0], [2.0]]
    from shape_logic.kernels import load_kernel

    with pytest.raises(Exception, match="longer than the data"):
        load_kernel("GatherElements")({"axis": 0})(x, np.zeros((2, 3), np.int64))


@pytest.mark.parametrize("x, pads, mode, want", [
    # a crop past the input reaches into the other end's padding: [1] by [1, -2] is []
    # (cropping first sliced x[0:-1] and padded that: [0]); [1, 2, 3] by [2, -4] is [0]
    ([1.0], [1, -2], "constant", []), ([1.0, 2, 3], [2, -4], "constant", [0.0]),
    ([1.0, 2, 3], [-5, 2], "constant", []),
    # the other modes pad from what the crops leave, which must be there (onnxruntime)
    ([1.0, 2, 3], [2, -4], "edge", None), ([1.0, 2, 3], [-1, 2], "reflect", None),
    ([1.0, 2, 3], [-1, 1], "reflect", [2.0, 3, 2]),
])
def test_pad_with_negative_pads_is_onnxruntime_s(x, pads, mode, want):
    from shape_logic.kernels import load_kernel

    kernel = load_kernel("Pad")({"mode": mode})
    x, pads = np.array(x, np.float32), np.array(pads, np.int64)
    if want is None:
        with pytest.raises(Exception):
            kernel(x, pads)
        return
    (y,) = kernel(x, pads)
    assert y.tolist() == want


def test_resize_takes_negative_axes():
    y = check("Resize", [np.ones((5, 5), np.float32), None, np.array([2.0, 2.5], np.float32)],
              {"axes": [-2, 1], "mode": "linear"}, ort=True)
    assert y[0].shape == (10, 12)


@pytest.mark.parametrize("axis, want", [(None, [1.0, 3, 4]), (0, [[1.0, 2]])])
def test_compress_cuts_a_condition_longer_than_the_axis_as_onnxruntime_does(axis, want):
    from shape_logic.kernels import load_kernel

    x = np.array([[1.0, 2], [3, 4]], np.float32)
    cond = np.array([1, 0, 1, 1, 1], bool)
    (y,) = load_kernel("Compress")({} if axis is None else {"axis": axis})(x, cond)
    assert y.tolist() == want


@pytest.mark.parametrize("op, inputs, attrs", [
    # (onnxruntime fails each; the kernels broadcast the bound, ignored the extra sizes)
    ("Clip", [np.ones((2, 2), np.float32), None, np.array([0.5, 1.0], np.float32)], {}),
    ("Resize", [np.ones((1, 2, 3, 4), np.float32), None, None, np.array([6, 2, 4, 2, 2])],
     {}),
    ("Resize", [np.ones(4, np.float32), None, np.array([2.0, 3.0], np.float32)],
     {"axes": [0]}),
])
def test_a_clip_bound_is_one_element_and_resize_has_one_scale_or_size_per_axis(
        op, inputs, attrs):
    from shape_logic.kernels import load_kernel

    with pytest.raises(Exception, match="scalar|axes"):
        load_kernel(op)(attrs)(*inputs)
    if op == "Clip":  # a bound of one element, [1], is one
        (y,) = load_kernel(op)({})(inputs[0], None, np.array([0.5], np.float32))
        assert y.max() == 0.5
