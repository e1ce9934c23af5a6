"""Neural-network kernels (matmul, convolution, pooling, normalization, recurrent) vs onnx's
reference evaluator, on random shapes, strides, pads, dilations and groups."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import reference_outputs

from .reference import TESTED, check, rand, seeds

FAST = settings(max_examples=12, deadline=None)
small = st.integers(1, 4)


@FAST
@given(seed=seeds, ra=st.integers(1, 4), rb=st.integers(1, 4), n=small, k=small, m=small,
       batch=st.lists(st.integers(1, 3), min_size=2, max_size=2))
def test_matmul(seed, ra, rb, n, k, m, batch):
    rng = np.random.default_rng(seed)
    a = (batch + [n, k])[-ra:] if ra > 1 else [k]
    b = (batch[::-1][:1] + [1] + [k, m])[-rb:] if rb > 1 else [k]
    check("MatMul", [rand(rng, a), rand(rng, b)])


@FAST
@given(seed=seeds, m=small, k=small, n=small, ta=st.booleans(), tb=st.booleans(),
       alpha=st.floats(-2, 2), beta=st.floats(-2, 2),
       c=st.sampled_from(["none", "row", "full", "scalar"]))
def test_gemm(seed, m, k, n, ta, tb, alpha, beta, c):
    rng = np.random.default_rng(seed)
    a = rand(rng, (k, m) if ta else (m, k))
    b = rand(rng, (n, k) if tb else (k, n))
    cs = {"none": None, "row": rand(rng, (n,)), "full": rand(rng, (m, n)),
          "scalar": rand(rng, ())}[c]
    check("Gemm", [a, b, cs], {"transA": int(ta), "transB": int(tb), "alpha": alpha, "beta": beta})


@st.composite
def conv_case(draw, transpose=False):
    nd = draw(st.integers(1, 3))
    group = draw(st.sampled_from([1, 1, 2]))
    cg, mg = draw(small), draw(st.integers(1, 3))
    kernel = [draw(st.integers(1, 3)) for _ in range(nd)]
    size = [draw(st.integers(3, 7)) for _ in range(nd)]
    attrs = {"strides": [draw(st.integers(1, 3)) for _ in range(nd)],
             "dilations": [draw(st.integers(1, 2)) for _ in range(nd)], "group": group}
    pad_kind = draw(st.sampled_from(["none", "pads", "SAME_UPPER", "SAME_LOWER", "VALID"]))
    if pad_kind == "pads":
        attrs["pads"] = [draw(st.integers(0, 2)) for _ in range(2 * nd)]
    elif pad_kind != "none" and not transpose:
        attrs["auto_pad"] = pad_kind
    if transpose and draw(st.booleans()):
        attrs["output_padding"] = [draw(st.integers(0, s - 1)) for s in attrs["strides"]]
    x = (draw(st.integers(1, 2)), cg * group, *size)
    w = (cg * group, mg, *kernel) if transpose else (mg * group, cg, *kernel)
    return x, w, attrs, draw(st.booleans())


@FAST
@given(seed=seeds, case=conv_case())
def test_conv(seed, case):
    rng = np.random.default_rng(seed)
    x, w, attrs, bias = case
    b = rand(rng, (w[0],)) if bias else None
    check("Conv", [rand(rng, x), rand(rng, w), b], attrs)


@FAST
@given(seed=seeds, case=conv_case(transpose=True))
def test_conv_transpose(seed, case):
    rng = np.random.default_rng(seed)
    x, w, attrs, bias = case
    b = rand(rng, (w[1] * attrs["group"],)) if bias else None
    # onnxruntime with groups and a bias: the reference adds the first group's biases
    # to every group
    check("ConvTranspose", [rand(rng, x), rand(rng, w), b], attrs,
          ort=attrs["group"] > 1 and bias)


@FAST
@given(seed=seeds, x=st.integers(2, 6), k=st.integers(1, 3), s=st.integers(1, 3))
def test_conv_transpose_output_shape(seed, x, k, s):
    rng = np.random.default_rng(seed)
    out = (x - 1) * s + k + 1  # one more than the full output: a negative pad
    check("ConvTranspose", [rand(rng, (1, 2, x, x)), rand(rng, (2, 3, k, k))],
          {"strides": [s, s], "output_shape": [out, out - 1]})


@FAST
@given(seed=seeds, x=st.integers(1, 4), k=st.integers(1, 3), s=st.integers(2, 3),
       mode=st.sampled_from(["NOTSET", "SAME_UPPER", "SAME_LOWER"]), data=st.data())
def test_conv_transpose_output_shape_past_the_full_output_pads_zeros_at_the_end(
        seed, x, k, s, mode, data):
    # onnxruntime pads by max(0, full - output_shape): below stride * x + k the output
    # gets its zeros at the end whatever auto_pad says (SAME_UPPER put one at the start)
    rng = np.random.default_rng(seed)
    full = (x - 1) * s + k
    out = data.draw(st.integers(full, s * x + k - 1))
    check("ConvTranspose", [rand(rng, (1, 2, x)), rand(rng, (2, 3, k))],
          {"strides": [s], "output_shape": [out], "auto_pad": mode}, ort=True)


@st.composite
def pool_case(draw, dilations=True):
    nd = draw(st.integers(1, 3))
    kernel = [draw(st.integers(1, 3)) for _ in range(nd)]
    attrs = {"kernel_shape": kernel, "strides": [draw(st.integers(1, 3)) for _ in range(nd)],
             "ceil_mode": int(draw(st.booleans()))}
    if dilations:
        attrs["dilations"] = [draw(st.integers(1, 2)) for _ in range(nd)]
    if draw(st.booleans()):  # pads smaller than the kernel, as ONNX requires
        attrs["pads"] = [draw(st.integers(0, k - 1)) for k in kernel * 2]
    elif draw(st.booleans()):
        attrs["auto_pad"] = draw(st.sampled_from(["SAME_UPPER", "SAME_LOWER", "VALID"]))
        # a stride beyond the kernel makes SAME's total padding negative: onnxruntime
        # rejects it, the reference crops; we pad nothing. Not compared.
        attrs["strides"] = [min(s, k) for s, k in zip(attrs["strides"], kernel)]
        # with SAME, onnxruntime leaves dilation out of the output size (the spec's is
        # ceil(n / stride), as ours); the reference leaves it out of the pads: not compared
        attrs.pop("dilations", None)
    # the (dilated) window fits the padded input: wider ones are degenerate (onnxruntime
    # truncates the negative span toward zero, giving one output where the spec has none)
    size = [max(draw(st.integers(3, 7)), (k - 1) * d + 1) for k, d in
            zip(kernel, attrs.get("dilations", [1] * nd))]
    return (draw(st.integers(1, 2)), draw(st.integers(1, 3)), *size), attrs


@FAST
@given(seed=seeds, case=pool_case(), indices=st.booleans(), order=st.booleans())
def test_maxpool(seed, case, indices, order):
    shape, attrs = case
    if indices and order and len(shape) == 4:
        attrs["storage_order"] = 1
    # onnxruntime: the reference is wrong for SAME pads (it leaves dilations out), for
    # pads that differ across axes or ends (it misreads them), and for Indices outside
    # 2-D (it forgets the channel offset). But with VALID, ceil_mode changes nothing in
    # the spec (ceil((n - k + 1) / s) windows), and the reference has that: onnxruntime
    # rounds up a window more (2 for n 4, k 3, s 2); with Indices, where neither agrees,
    # the spec's equal case ceil_mode 0 is compared
    valid_ceil = attrs.get("auto_pad") == "VALID" and attrs["ceil_mode"] == 1
    if valid_ceil and indices:
        attrs["ceil_mode"] = valid_ceil = 0
    check("MaxPool", [rand(np.random.default_rng(seed), shape)], attrs, n_outputs=1 + indices,
          ort=not valid_ceil)


@FAST
@given(seed=seeds, case=pool_case(), include=st.booleans())
def test_averagepool(seed, case, include):
    shape, attrs = case
    attrs["count_include_pad"] = int(include)
    check("AveragePool", [rand(np.random.default_rng(seed), shape)], attrs)


@pytest.mark.parametrize("shape,attrs", [
    # window 3, stride 2, pad 1 on an even axis or none on an odd one: pooling.pairs; on
    # the others: the rows
    ((2, 3, 6, 8), {"pads": [1, 1, 1, 1]}),
    ((1, 2, 6, 8), {"pads": [1, 1, 1, 0]}),  # the end pad is never read: pairs too
    ((1, 2, 2, 4), {"pads": [1, 1, 1, 1]}),  # one window per row
    ((1, 2, 6, 7), {"pads": [1, 1, 1, 1]}),  # the odd axis: rows
    ((2, 3, 7, 9), {}),  # no padding, odd axes: pairs from position 0
    ((1, 2, 3, 6), {}),  # one window on the odd axis; the even one: rows
    ((1, 2, 7, 7), {"pads": [0, 0, 1, 1]}),  # the end pad is never read: pairs too
    ((1, 2, 6, 8), {"pads": [1, 1, 1, 1], "ceil_mode": 1}),  # one more window: rows
    ((1, 2, 4, 6, 8), {"pads": [1, 0, 1, 1, 1, 1], "kernel_shape": [3, 2, 3],
                       "strides": [2, 1, 2]}),
    ((2, 3, 10), {"pads": [1, 1], "kernel_shape": [3]}),
])
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_pools_of_three_by_two(op, shape, attrs):
    nd = len(shape) - 2
    attrs = {"kernel_shape": [3] * nd, "strides": [2] * nd, **attrs}
    x = rand(np.random.default_rng(len(shape)), shape)
    check(op, [x], attrs, ort=op == "MaxPool")
    if op == "AveragePool":
        check(op, [x], {**attrs, "count_include_pad": 1})


@FAST
@given(seed=seeds, case=pool_case(dilations=False), p=st.sampled_from([1, 2, 3]))
def test_lppool(seed, case, p):
    shape, attrs = case
    attrs["p"] = p
    attrs.pop("ceil_mode")
    check("LpPool", [rand(np.random.default_rng(seed), shape)], attrs)


@pytest.mark.parametrize("op", ["GlobalAveragePool", "GlobalMaxPool"])
@FAST
@given(seed=seeds, shape=st.lists(small, min_size=3, max_size=5))
def test_global_pool(op, seed, shape):
    check(op, [rand(np.random.default_rng(seed), shape)], ort=len(shape) != 4)


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:invalid value")
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 3, 5, 4), (1, 4, 0, 3), (3, 2, 7)])
def test_global_average_pool_dtypes_and_empty_planes(dtype, shape):
    """float32/float64 by one matrix-vector product, others (and empty planes) by mean."""
    x = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    with np.errstate(all="ignore"):
        (got,) = load_kernel("GlobalAveragePool")({})(x)
        want = np.mean(x.astype(np.float64), axis=tuple(range(2, x.ndim)), keepdims=True)
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-3, atol=1e-3)


@pytest.mark.parametrize("shape", [(1, 5, 7, 7), (2, 3, 4, 6)])
def test_average_pool_of_one_whole_window(shape):
    """A window the size of the input (ShuffleNet's last pool): the planes' means."""
    x = rand(np.random.default_rng(1), shape)
    assert check("AveragePool", [x], {"kernel_shape": list(shape[2:])}) is not None


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=3, max_size=5), p=st.sampled_from([1, 2, 3]))
def test_global_lp_pool(seed, shape, p):
    # onnx's reference has no GlobalLpPool: onnxruntime's
    check("GlobalLpPool", [rand(np.random.default_rng(seed), shape)], {"p": p}, ort=True)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=4), data=st.data(),
       p=st.sampled_from([1, 2]))
def test_lp_normalization(seed, shape, data, p):
    # onnx's reference sums x^p, not |x|^p: onnxruntime's (some all-zero lines: 0, not NaN)
    x = rand(np.random.default_rng(seed), shape)
    x[..., 0] = 0
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check("LpNormalization", [x], {"axis": axis, "p": p}, ort=True)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=4, max_size=4),
       size=st.sampled_from([1, 3, 5]))
def test_lrn(seed, shape, size):
    # (onnxruntime's LRN takes 4-D inputs and odd sizes only: other draws compared nothing,
    # and 12 random draws compared nothing at all about once in 70 runs)
    check("LRN", [rand(np.random.default_rng(seed), shape)], {"size": size, "alpha": 0.01},
          ort=True)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=2, max_size=4), training=st.booleans())
def test_batchnorm(seed, shape, training):
    rng = np.random.default_rng(seed)
    c = (shape[1],)
    arrays = [rand(rng, shape), rand(rng, c), rand(rng, c), rand(rng, c), rand(rng, c, low=0.5)]
    if training:
        check("BatchNormalization", arrays, {"training_mode": 1, "momentum": 0.8}, n_outputs=3)
    else:
        check("BatchNormalization", arrays, {"epsilon": 1e-3})


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=4), data=st.data())
def test_layernorm(seed, shape, data):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    norm = shape[axis:]
    bias = rand(rng, norm) if data.draw(st.booleans()) else None
    check("LayerNormalization", [rand(rng, shape), rand(rng, norm), bias], {"axis": axis},
          n_outputs=3, opset=17)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=3, max_size=4))
def test_instancenorm(seed, shape):
    rng = np.random.default_rng(seed)
    c = (shape[1],)
    check("InstanceNormalization", [rand(rng, shape), rand(rng, c), rand(rng, c)])


@FAST
@given(seed=seeds, shape=st.lists(st.integers(2, 4), min_size=4, max_size=4))
def test_mvn(seed, shape):
    check("MeanVarianceNormalization", [rand(np.random.default_rng(seed), shape)])


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=4), data=st.data(),
       opset=st.sampled_from([11, 13]))
def test_softmax(op, seed, shape, data, opset):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check(op, [rand(np.random.default_rng(seed), shape, low=-20, high=20)], {"axis": axis},
          opset=opset, ort=opset < 13)


@pytest.mark.parametrize("op,gates", [("LSTM", 4), ("GRU", 3), ("RNN", 1)])
@FAST
@given(seed=seeds, t=small, b=small, i=small, h=small, data=st.data())
def test_recurrent(op, gates, seed, t, b, i, h, data):
    rng = np.random.default_rng(seed)
    direction = data.draw(st.sampled_from(["forward", "reverse", "bidirectional"]))
    d = 2 if direction == "bidirectional" else 1
    layout = data.draw(st.sampled_from([0, 1]))
    x = rand(rng, (b, t, i) if layout else (t, b, i), low=-1, high=1)
    w, r = (rand(rng, (d, gates * h, i), low=-1, high=1),
            rand(rng, (d, gates * h, h), low=-1, high=1))
    bias = rand(rng, (d, 2 * gates * h), low=-1, high=1)
    lens = rng.integers(1, t + 1, size=b).astype(np.int32) if data.draw(st.booleans()) else None
    h0 = rand(rng, (b, d, h) if layout else (d, b, h), low=-1, high=1)
    arrays = [x, w, r, bias, lens, h0]
    attrs = {"hidden_size": h, "direction": direction, "layout": layout}
    if op == "GRU":
        attrs["linear_before_reset"] = data.draw(st.sampled_from([0, 1]))
    if op == "LSTM":
        arrays += [rand(rng, h0.shape, low=-1, high=1), rand(rng, (d, 3 * h), low=-1, high=1)]
    n_out = 3 if op == "LSTM" else 2
    check(op, arrays, attrs, n_outputs=n_out, ort=lens is not None)


EQUATIONS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 1)]),
             ("ii->i", [(3, 3)]), ("ij->ji", [(2, 4)]), ("i,i", [(5,), (5,)]),
             ("...ij,...jk", [(2, 2, 3), (3, 2)]), ("ij->", [(3, 4)])]


@pytest.mark.parametrize("eq,shape_list", EQUATIONS)
def test_einsum(eq, shape_list):
    rng = np.random.default_rng(0)
    check("Einsum", [rand(rng, s) for s in shape_list], {"equation": eq})


@FAST
@given(seed=seeds, shape=st.lists(small, max_size=3), opset=st.sampled_from([7, 13]))
def test_dropout_inference(seed, shape, opset):
    x = rand(np.random.default_rng(seed), shape)
    if opset >= 10:
        check("Dropout", [x], n_outputs=2, opset=opset)
        return
    # opset 7's mask has the input's type (the reference makes it bool; onnxruntime fills
    # it with zeros): ours is all ones, every element kept
    check("Dropout", [x], opset=opset)
    _, mask = load_kernel("Dropout")({}, opset=opset, n_outputs=2)(x)
    assert mask.dtype == x.dtype and np.all(mask == 1)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=4), data=st.data(),
       opset=st.sampled_from([11, 13]))
def test_hardmax(seed, shape, data, opset):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = rand(np.random.default_rng(seed), shape, "i64", -2, 2).astype(np.float32)  # ties
    check("Hardmax", [x], {"axis": axis}, opset=opset, ort=opset < 13)


@FAST
@given(seed=seeds, n=small, g=st.integers(1, 3), cg=st.integers(1, 3),
       spatial=st.lists(small, max_size=2), opset=st.sampled_from([18, 21]))
def test_groupnorm(seed, n, g, cg, spatial, opset):
    """Against the spec's formula (onnx's node-test implementation) in float64: onnx's
    evaluator runs the op's function body in float32, which loses the variance of a group
    of two close values to cancellation (0.5% off where ours is 1e-6 off)."""
    from onnx.backend.test.case.node.groupnormalization import _group_normalization

    rng = np.random.default_rng(seed)
    c = g * cg
    per = g if opset == 18 else c
    x, scale, bias = rand(rng, (n, c, *spatial)), rand(rng, (per,)), rand(rng, (per,))
    TESTED.add("GroupNormalization")
    (got,) = load_kernel("GroupNormalization")({"num_groups": g}, opset=opset)(x, scale, bias)
    if per != c:  # opset 18: one scale and bias per group, for each of its channels
        scale, bias = np.repeat(scale, cg), np.repeat(bias, cg)
    want = _group_normalization(x.astype(np.float64), g, scale.astype(np.float64),
                                bias.astype(np.float64))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_conv_equal_filters_give_equal_channels():
    """BLAS may compute equal rows of a tile in different orders; equal filters (and biases)
    must still give bitwise-equal channels (a softmax over ~1e10 logits depends on it)."""
    rng = np.random.default_rng(0)
    x = (rng.random((1, 512, 13, 13), dtype=np.float32) * 1e6).astype(np.float32)
    w = np.full((1000, 512, 1, 1), 0.0137, np.float32)
    (y,) = load_kernel("Conv")({})(x, w, np.full(1000, 0.5, np.float32))
    assert (y == y[:, :1]).all()
    np.testing.assert_allclose(y[0, 0], np.einsum("chw->hw", x[0].astype(np.float64)) * 0.0137
                               + 0.5, rtol=1e-5)
    w[7] += 1  # one filter differs: its channel is computed, not copied
    (y,) = load_kernel("Conv")({})(x, w, None)
    assert not np.array_equal(y[0, 7], y[0, 0])



def test_maxpool_valid_ignores_ceil_mode():
    """The case onnxruntime gets otherwise (one window of 3 in 4 by 2, not two), as onnx's
    reference and the rule have it."""
    x = rand(np.random.default_rng(0), (1, 1, 4))
    attrs = {"kernel_shape": [3], "strides": [2], "ceil_mode": 1, "auto_pad": "VALID"}
    got = check("MaxPool", [x], attrs)
    assert got is not None and got[0].shape == (1, 1, 1)



@pytest.mark.parametrize("op", ["RandomNormal", "RandomUniform", "RandomNormalLike",
                                "RandomUniformLike", "Bernoulli"])
def test_random_kernels(op):
    """The random operators' draws are NumPy's, not the reference's: their shapes and types
    agree with it, a seed repeats them, and their distribution is the operator's."""
    TESTED.add(op)
    like = op.endswith("Like") or op == "Bernoulli"
    x = np.full((400, 50), 0.25, np.float32)
    attrs = {"seed": 3.0} | ({} if like else {"shape": [400, 50]})
    attrs |= {"RandomNormal": {"mean": 2.0, "scale": 0.5},
              "RandomNormalLike": {"mean": 2.0, "scale": 0.5},
              "RandomUniform": {"low": 1.0, "high": 3.0},
              "RandomUniformLike": {"low": 1.0, "high": 3.0}}.get(op, {})
    args = [x] if like else []
    kernel = load_kernel(op)(attrs)
    (y,) = kernel(*args)
    (want,) = reference_outputs(op, args, attrs)
    assert y.shape == want.shape and y.dtype == want.dtype
    assert np.array_equal(kernel(*args)[0], y)  # seeded: the same draws again
    mean = {"Bernoulli": 0.25}.get(op, 2.0)
    assert abs(float(y.mean()) - mean) < 0.02
    if "Uniform" in op:
        assert y.min() >= 1.0 and y.max() < 3.0
    if "Normal" in op:
        assert abs(float(y.std()) - 0.5) < 0.02


@pytest.mark.parametrize("attrs", [{}, {"sample_size": 7, "dtype": 7, "seed": 5.0}])
def test_multinomial(attrs):
    """Multinomial's draws are NumPy's: their shape and type agree with onnxruntime's (onnx's
    reference has no Multinomial), a seed repeats them, and each class comes as often as
    its probability says."""
    from onnx import TensorProto, helper

    ort = pytest.importorskip("onnxruntime")
    TESTED.add("Multinomial")
    x = np.log(np.array([[0.2, 0.8, 1e-9], [0.5, 0.25, 0.25]], np.float32))
    kernel = load_kernel("Multinomial")(attrs)
    (y,) = kernel(x)
    out = TensorProto.INT64 if attrs.get("dtype") == 7 else TensorProto.INT32
    model = helper.make_model(helper.make_graph(
        [helper.make_node("Multinomial", ["x"], ["y"], **attrs)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", out, None)]),
        opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    want = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})[0]
    assert y.shape == want.shape and y.dtype == want.dtype
    if "seed" in attrs:
        assert np.array_equal(kernel(x)[0], y)
    many = load_kernel("Multinomial")({"sample_size": 20000, "seed": 1.0})(x)[0]
    assert abs((many[0] == 1).mean() - 0.8) < 0.02 and (many[0] == 2).sum() == 0
    assert abs((many[1] == 0).mean() - 0.5) < 0.02


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=1, max_size=4), data=st.data())
def test_rms_normalization(seed, shape, data):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check("RMSNormalization", [rand(rng, shape), rand(rng, shape[axis:])], {"axis": axis},
          opset=23)


@FAST
@given(seed=seeds, shape=st.lists(small, max_size=4), alpha=st.floats(0.1, 2))
def test_swiglu(seed, shape, alpha):
    rng = np.random.default_rng(seed)
    check("SwiGLU", [rand(rng, shape, "f32", -30, 30), rand(rng, shape)], {"alpha": alpha},
          opset=28)


@pytest.mark.parametrize("attrs, inputs", [
    # onnxruntime: an output_padding of the stride or more fails, also under a dilation
    ({"strides": [1, 2], "dilations": [2, 1], "output_padding": [1, 0]},
     ((1, 1, 5, 2), (1, 2, 2, 1))),
    # output_shape names the spatial axes only ("Attribute output_shape has incorrect size")
    ({"output_shape": [1, 2, 6, 2]}, ((1, 1, 5, 2), (1, 2, 2, 1))),
    # an output_shape at stride * d + e or beyond: a block position more than the input
    # has ("Explicit output_shape is inconsistent with input spatial dimensions"); the
    # kernel padded it with zeros, where the rules call it an error (bench/fuzz.py --kind
    # ops --seed 3505, graph 1061: 'unsound')
    ({"output_shape": [4, 4]}, ((2, 3, 2, 3), (3, 1, 2, 1))),
    ({"output_shape": [3, 4]}, ((2, 3, 2, 3), (3, 1, 2, 1))),
    ({"strides": [3], "output_shape": [11]}, ((1, 1, 3), (1, 1, 2))),
    # an empty output axis ("Computed output dimension is <= 0", "Explicit output size
    # must be positive"), as the rules' empty_output says
    ({"pads": [1, 0]}, ((1, 1, 1), (1, 1, 1))),
    ({"output_shape": [0]}, ((1, 1, 2), (1, 1, 2))),
])
def test_conv_transpose_rejects_what_onnxruntime_rejects(attrs, inputs):
    x, w = (np.ones(s, np.float32) for s in inputs)
    with pytest.raises(Exception):
        load_kernel("ConvTranspose")(attrs)(x, w)


@pytest.mark.parametrize("opset, per", [(18, 4), (21, 2)])
def test_groupnorm_scale_has_one_entry_per_group_at_opset_18_per_channel_from_21(opset, per):
    x, s = np.ones((1, 4, 1), np.float32), np.ones(per, np.float32)
    with pytest.raises(Exception, match="must be"):
        load_kernel("GroupNormalization")({"num_groups": 2}, opset=opset)(x, s, s)


def test_layernorm_scale_broadcasts_to_x_and_never_widens_it():
    kernel = load_kernel("LayerNormalization")({"axis": 1}, n_outputs=2)
    y, _ = kernel(np.ones((4, 2, 3), np.float32), np.ones((1, 3), np.float32))
    assert y.shape == (4, 2, 3)
    y, _ = kernel(np.ones((4, 2, 3), np.float32), np.ones((4, 2, 3), np.float32))  # (ort)
    assert y.shape == (4, 2, 3)
    with pytest.raises(Exception, match="does not broadcast"):  # onnxruntime fails too
        kernel(np.ones((4, 1, 1), np.float32), np.ones((1, 1, 2), np.float32))


@pytest.mark.parametrize("beta", [0.5, 0.75, 1.0, 0.6])
def test_lrn_powers_by_square_roots_match_the_power(beta):
    """LRN's usual betas by square roots (LRN.POWERS) within float32's rounding of
    `** beta` over float64 sums; another beta takes `**` itself."""
    rng = np.random.default_rng(int(beta * 100))
    x = (rng.standard_normal((2, 7, 5, 4)) * 30).astype(np.float32)
    (y,) = load_kernel("LRN")({"size": 3, "alpha": 0.01, "beta": beta, "bias": 2.0})(x)
    sq = np.pad(x.astype(np.float64) ** 2, [(0, 0), (1, 1), (0, 0), (0, 0)])
    want = x / (2.0 + 0.01 / 3 * (sq[:, :7] + sq[:, 1:8] + sq[:, 2:9])) ** beta
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, want, rtol=3e-6, atol=0)


def test_lrn_of_integers_sums_in_float64_and_keeps_their_type():
    # (the rule takes any element type; the sums and power are float64's, as before the
    # scratch buffers, whose dtype.type a NumPy scalar type lacked)
    x = np.arange(24, dtype=np.int64).reshape(1, 4, 2, 3)
    (y,) = load_kernel("LRN")({"size": 3, "alpha": 0.01, "beta": 0.75, "bias": 2.0})(x)
    sq = np.pad(x.astype(np.float64) ** 2, [(0, 0), (1, 1), (0, 0), (0, 0)])
    want = (x / (2.0 + 0.01 / 3 * (sq[:, :4] + sq[:, 1:5] + sq[:, 2:6])) ** 0.75)
    assert y.dtype == np.int64
    np.testing.assert_array_equal(y, want.astype(np.int64))
