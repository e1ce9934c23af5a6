"""MoE (com.microsoft): rules/MoE.lp on data cases (the output is the input's shape; the
router's rows and the experts' sizes as onnxruntime checks them), and the rules and the
kernel against onnxruntime's CPU kernel on random experts."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime, ms_case as case

SWIGLU = {"activation_type": "swiglu", "swiglu_fusion": 1}


CASES = {
    "packed tokens: the input's shape": (
        case(["[t, 64]", "P", "W1", None, "[8, 64, 256]"]),
        {"y0": "[t, 64]", "x1": "[t, 8]", "x2": "[8, 256, 64]", "dtypes": {"y0": "f32"}}),
    "3-D: the router has batch * seq rows": (
        case(["[b, s, 64]", "P", "W1", "B1", "[8, 64, 256]", "B2"]),
        {"y0": "[b, s, 64]", "x1": "[b*s, 8]", "x3": "[8, 256]", "x5": "[8, 64]"}),
    "the router's rows give the batch": (case(["[b, 3, 64]", "[6, e]", "W1", None, "W2"]),
                                         {"y0": "[2, 3, 64]", "bindings": {"b": 2}}),
    "backward from the output": (case(["X", "P", "W1", None, "W2"],
                                      outputs={"y0": {"shape": "[b, s, 64]"}}),
                                 {"x0": "[b, s, 64]"}),
    "the older layout: fc2 [E, inter, hidden], fc1 [E, hidden, inter]": (
        case(["[t, 64]", "P", "W1", "B1", "[8, 256, 64]"]),
        {"x2": "[8, 64, 256]", "x3": "[8, 256]"}),
    "fused SwiGLU: fc1 has 2 * inter rows": (
        case(["[t, 64]", "P", "W1", "B1", "[8, 64, 256]"], SWIGLU),
        {"x2": "[8, 512, 64]", "x3": "[8, 512]"}),
    "fused SwiGLU, the older layout": (case(["[t, 64]", "P", "W1", None, "[8, 256, 64]"],
                                            SWIGLU), {"x2": "[8, 64, 512]"}),
    "fused SwiGLU, inter = hidden: fc1's layout is open": (
        case(["[t, 64]", "P", "W1", "B1", "[8, 64, 64]"], SWIGLU),
        {"x2": "[8, _1, _2]", "x3": "[8, 128]"}),
    "fused SwiGLU, inter = hidden, fc1's axis 1 hidden: the older layout": (
        case(["[t, 64]", "P", "[8, 64, w]", None, "[8, 64, 64]"], SWIGLU),
        {"x2": "[8, 64, 128]"}),
    "symbolic sizes: inter from fc2": (case(["[t, h]", "P", "W1", "B1", "[e, h, i]", "B2"]),
                                       {"x2": "[e, i, h]", "x3": "[e, i]", "x5": "[e, h]"}),
    "symbolic sizes, fused: fc1's layout is open": (
        case(["[t, h]", "P", "W1", "B1", "[e, h, i]"], SWIGLU),
        {"x2": "[e, _1, _2]", "x3": "[e, 2*i]"}),
    "f16": (case([("f16", "[t, 64]"), ("f16", "P"), ("f16", "W1"), None, ("f16", "W2")]),
            {"dtypes": {"y0": "f16", "x1": "f16", "x2": "f16"}}),
    "bf16 (the CPU kernel has none; the operator does)": (
        case([("bf16", "[t, 64]"), ("bf16", "P"), ("bf16", "W1"), None, ("bf16", "W2")]),
        {"dtypes": {"y0": "bf16"}}),
    "k up to the experts": (case(["[t, 64]", "[t, 8]", "W1", None, "W2"], {"k": 8}),
                            {"y0": "[t, 64]"}),
    "the router's rows are not the tokens": (case(["[5, 64]", "[6, 8]", "W1", None, "W2"]),
                                             "error"),
    "the router's rows are not batch * seq": (case(["[2, 3, 64]", "[3, 8]", "W1", None, "W2"]),
                                              "error"),
    "a 3-D router": (case(["[b, s, 64]", "[b, s, 8]", "W1", None, "W2"]), "error"),
    "a 4-D input": (case(["[1, b, s, 64]", "P", "W1", None, "W2"]), "error"),
    "a vector": (case(["[64]", "P", "W1", None, "W2"]), "error"),
    "fc1's experts are not the router's": (
        case(["[t, 64]", "[t, 8]", "[4, 256, 64]", None, "W2"]), "error"),
    "fc2 has no hidden axis": (case(["[t, 64]", "P", "W1", None, "[8, 32, 512]"]), "error"),
    "fc1's rows are not inter": (case(["[t, 64]", "P", "[8, 128, 64]", None, "[8, 64, 256]"]),
                                 "error"),
    "fused SwiGLU: fc1 not doubled": (
        case(["[t, 64]", "P", "[8, 256, 64]", None, "[8, 64, 256]"], SWIGLU), "error"),
    "fc2's bias is not [E, hidden]": (
        case(["[t, 64]", "P", "W1", None, "[8, 64, 256]", "[8, 256]"]), "error"),
    "fc1's bias is not [E, inter]": (
        case(["[t, 64]", "P", "W1", "[8, 64]", "[8, 64, 256]"]), "error"),
    "k above the experts": (case(["[t, 64]", "[t, 8]", "W1", None, "W2"], {"k": 9}), "error"),
    "k 0": (case(["[t, 64]", "P", "W1", None, "W2"], {"k": 0}), "error"),
    "an activation it does not know": (case(["[t, 64]", "P", "W1", None, "W2"],
                                            {"activation_type": "tanh"}), "error"),
    "the sparse mixer with k 1": (case(["[t, 64]", "P", "W1", None, "W2"],
                                       {"use_sparse_mixer": 1}), "error"),
    "GEGLU unfused": (case(["[t, 64]", "P", "W1", None, "W2"], {"activation_type": "geglu"}),
                      "error"),
    "integer input": (case([("i32", "[t, 64]"), ("i32", "P"), ("i32", "W1"), None,
                            ("i32", "W2")]), "error"),
    "the router's type differs": (case(["[t, 64]", ("f16", "P"), "W1", None, "W2"]), "error"),
    "four inputs": (case(["[t, 64]", "P", "W1", None]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("MoE", spec, expected)


def experts(rng, e, hidden, inter, f=1, older=False, bias=True, dtype=np.float32):
    """fc1's weights and bias, fc2's (in the layout asked), of random experts."""
    def r(*shape):
        return (rng.standard_normal(shape) * 0.4).astype(dtype)
    w1 = r(e, hidden, f * inter) if older else r(e, f * inter, hidden)
    w2 = r(e, inter, hidden) if older else r(e, hidden, inter)
    return w1, r(e, f * inter) if bias else None, w2, r(e, hidden) if bias else None


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.sampled_from([(1,), (5,), (2, 3), (1, 4)]),
       hidden=st.integers(1, 12), inter=st.integers(1, 12), e=st.integers(1, 6), data=st.data(),
       act=st.sampled_from(["relu", "gelu", "silu", "identity", "swiglu"]),
       normalize=st.booleans(), older=st.booleans(), bias=st.booleans(), f16=st.booleans(),
       const=st.booleans())
def test_matches_onnxruntime(seed, lead, hidden, inter, e, data, act, normalize, older, bias,
                             f16, const):
    rng = np.random.default_rng(seed)
    dtype = np.float16 if f16 else np.float32
    k = data.draw(st.integers(1, e))
    attrs = {"k": k, "activation_type": act, "normalize_routing_weights": int(normalize)}
    f = 1
    if act == "swiglu":  # (onnxruntime's CPU kernel: interleaved only)
        f = 2
        attrs.update(swiglu_fusion=1, activation_alpha=1.702, activation_beta=1.0,
                     **data.draw(st.sampled_from([{}, {"swiglu_limit": 0.5}])))
    x = rng.standard_normal(lead + (hidden,)).astype(dtype)
    router = rng.standard_normal((int(np.prod(lead)), e)).astype(dtype)
    w1, b1, w2, b2 = experts(rng, e, hidden, inter, f, older, bias, dtype)
    tol = 1e-2 if f16 else 1e-4
    assert check_against_onnxruntime("MoE", [x, router, w1, b1, w2, b2], attrs, rtol=tol,
                                     atol=tol, const=(2, 3, 4, 5) if const else ()) is not None


@pytest.mark.parametrize("change, where", [
    ({"router": (6, 4)}, "the router's rows"), ({"router": (5, 3)}, "the router's experts"),
    ({"router": (1, 5, 4)}, "a 3-D router"), ({"x": (1, 1, 5, 8)}, "a 4-D input"),
    ({"x": (8,), "router": (1, 4)}, "a vector"), ({"w1": (4, 7, 8)}, "fc1's inter"),
    ({"w1": (4, 8, 6)}, "fc1 in the older layout, fc2 not"), ({"w2": (4, 9, 6)}, "fc2"),
    ({"w2": (4, 16, 3)}, "fc2 of hidden * inter elements"), ({"b1": (4, 7)}, "fc1's bias"),
    ({"b1": (24,)}, "fc1's bias flat"), ({"b2": (4, 9)}, "fc2's bias"),
    ({"attrs": {"k": 5}}, "k above the experts"), ({"attrs": {"k": 0}}, "k 0"),
    ({"attrs": {"activation_type": "tanh"}}, "activation"),
    ({"attrs": {"use_sparse_mixer": 1}}, "the sparse mixer with k 1"),
    ({"attrs": {"activation_type": "swiglu", "swiglu_fusion": 1}}, "SwiGLU, fc1 not doubled"),
])
def test_onnxruntime_rejects_what_the_rules_reject(change, where):
    rng = np.random.default_rng(1)
    shapes = {"x": (5, 8), "router": (5, 4), "w1": (4, 6, 8), "b1": (4, 6), "w2": (4, 8, 6),
              "b2": (4, 8), **change}
    arrays = [rng.standard_normal(shapes[n]).astype(np.float32)
              for n in ("x", "router", "w1", "b1", "w2", "b2")]
    assert check_against_onnxruntime("MoE", arrays, change.get("attrs", {"k": 2})) is None, \
        where


@pytest.mark.parametrize("attrs, f", [
    ({"activation_type": "swiglu", "swiglu_fusion": 2}, 2),
    ({"activation_type": "geglu", "swiglu_fusion": 1}, 2),
    ({"activation_type": "relu2"}, 1),
])
def test_what_the_cpu_kernel_does_not_run(attrs, f):
    # the operator's, onnxruntime's CUDA kernel's: the rules take them, its CPU kernel not
    rng = np.random.default_rng(4)
    w1, b1, w2, b2 = experts(rng, 4, 8, 6, f)
    arrays = [rng.standard_normal((2, 3, 8)).astype(np.float32),
              rng.standard_normal((6, 4)).astype(np.float32), w1, b1, w2, b2]
    attrs = {"k": 2, **attrs}
    assert check_against_onnxruntime("MoE", arrays, attrs, ort_fails_ok=True) is None
    y, = load_kernel("MoE")(attrs, domain=MS)(*arrays)
    assert y.shape == (2, 3, 8) and np.isfinite(y).all()


def test_swiglu_layouts_agree():
    # the gate and the up half interleaved (swiglu_fusion 1, which onnxruntime's CPU kernel
    # runs), concatenated (2) or FC1 and FC3 (0): one result, each from its own layout
    rng = np.random.default_rng(5)
    e, hidden, inter = 3, 8, 5
    w1, b1, w2, b2 = experts(rng, e, hidden, inter, 2)
    x = rng.standard_normal((4, hidden)).astype(np.float32)
    router = rng.standard_normal((4, e)).astype(np.float32)
    attrs = {"k": 2, "activation_type": "swiglu", "swiglu_limit": 0.7, "activation_beta": 1.0}

    def run(fusion, *arrays):
        return load_kernel("MoE")({**attrs, "swiglu_fusion": fusion}, domain=MS)(*arrays)[0]
    want = check_against_onnxruntime("MoE", [x, router, w1, b1, w2, b2],
                                     {**attrs, "swiglu_fusion": 1})[0]
    gate, up = w1[:, 0::2], w1[:, 1::2]
    bgate, bup = b1[:, 0::2], b1[:, 1::2]
    concatenated = [np.concatenate([gate, up], 1), np.concatenate([bgate, bup], 1)]
    np.testing.assert_allclose(run(2, x, router, concatenated[0], concatenated[1], w2, b2),
                               want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run(0, x, router, gate, bgate, w2, b2, up, bup), want,
                               rtol=1e-5, atol=1e-6)


def test_ties_go_to_the_higher_expert():
    # equal probabilities: onnxruntime's partial sort takes the higher expert number first
    rng = np.random.default_rng(6)
    w1, b1, w2, b2 = experts(rng, 4, 8, 6)
    router = np.tile(np.array([0.0, 1.0, 1.0, 0.5], np.float32), (3, 1))
    x = rng.standard_normal((3, 8)).astype(np.float32)
    for k in (1, 2, 3):
        assert check_against_onnxruntime("MoE", [x, router, w1, b1, w2, b2], {"k": k})
