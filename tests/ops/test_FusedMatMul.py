"""FusedMatMul (com.microsoft): rules/FusedMatMul.lp on data cases, and the rules and the
kernel against onnxruntime on random shapes and transpositions."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, ms_case as case


CASES = {
    "a Linear layer": (case(["[b, s, k]", "[k, n]"]), {"y0": "[b, s, n]"}),
    "transA": (case(["[b, k, s]", "[k, n]"], {"transA": 1}), {"y0": "[b, s, n]"}),
    "attention scores: transB and alpha": (
        case(["[b, h, s, d]", "[b, h, t, d]"], {"transB": 1, "alpha": 0.125}),
        {"y0": "[b, h, s, t]"}),
    "transBatchA: the first axis moves before the last": (
        case(["[2, 3, 4, 5]", "[3, 4, 5, 6]"], {"transBatchA": 1}), {"y0": "[3, 4, 2, 6]"}),
    "transBatchA and transA": (case(["[m, 3, 4, k]", "[3, 4, m, n]"],
                                    {"transBatchA": 1, "transA": 1}), {"y0": "[3, 4, k, n]"}),
    "transBatchB and transB": (case(["[b, s, k]", "[n, b, k]"], {"transBatchB": 1, "transB": 1}),
                               {"y0": "[b, s, n]"}),
    "both batches moved, batch axes broadcast": (
        case(["[a, 1, c]", "[c, e, f]"], {"transBatchA": 1, "transBatchB": 1}),
        {"y0": "[e, a, f]"}),
    "vectors: trans changes nothing": (case(["[k]", "[n, k]"], {"transA": 1, "transB": 1}),
                                       {"y0": "[n]"}),
    "backward: B from the output": (case(["[b, s, k]", "[n, m]"], {"transB": 1},
                                         outputs={"y0": {"shape": "[b, s, 7]"}}),
                                    {"x1": "[7, k]"}),
    "f16": (case([("f16", "[m, k]"), ("f16", "[k, n]")]), {"dtypes": {"y0": "f16"}}),
    "contracted sizes differ": (case(["[b, s, 4]", "[5, n]"]), "error"),
    "transB makes them differ": (case(["[b, s, 4]", "[4, 5]"], {"transB": 1}), "error"),
    "transBatchB with a 2-D B": (case(["[2, 3, 4]", "[4, 5]"], {"transBatchB": 1}), "error"),
    "transBatchA with 2-D operands": (case(["[3, 4]", "[4, 5]"], {"transBatchA": 1}), "error"),
    "a scalar": (case(["[]", "[4, 5]"]), "error"),
    "integer operands": (case([("i32", "[3, 4]"), ("i32", "[4, 5]")]), "error"),
    "operands of two types": (case(["[3, 4]", ("f16", "[4, 5]")]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("FusedMatMul", spec, expected)


def operand(shape, trans_batch, trans):
    """The input's shape whose transposition (as FusedMatMul makes it) is `shape`."""
    shape = list(shape)
    if trans and len(shape) >= 2:
        shape[-2:] = shape[-2:][::-1]
    if trans_batch:
        shape = [shape[-2]] + shape[:-2] + [shape[-1]]
    return tuple(shape)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ra=st.integers(1, 4), rb=st.integers(1, 4),
       m=st.integers(1, 4), k=st.integers(1, 4), n=st.integers(1, 4),
       batch=st.lists(st.integers(1, 3), min_size=2, max_size=2), flags=st.lists(
           st.booleans(), min_size=4, max_size=4), alpha=st.sampled_from([1.0, 0.5, -2.0]),
       ones=st.booleans())
def test_matches_onnxruntime(seed, ra, rb, m, k, n, batch, flags, alpha, ones):
    ta, tb, tba, tbb = flags
    if tba or tbb:  # onnxruntime: one rank, 3 or more
        rb = ra = max(ra, 3)
    a = (batch + [m, k])[-ra:] if ra > 1 else [k]
    b = ([1 if ones else batch[0]] + batch[1:] + [k, n])[-rb:] if rb > 1 else [k]
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(operand(a, tba, ta)).astype(np.float32)
    w = rng.standard_normal(operand(b, tbb, tb)).astype(np.float32)
    attrs = {"transA": int(ta), "transB": int(tb), "transBatchA": int(tba),
             "transBatchB": int(tbb), "alpha": alpha}
    assert check_against_onnxruntime("FusedMatMul", [x, w], attrs) is not None


@pytest.mark.parametrize("shapes, attrs", [
    (((2, 3, 4), (4, 5)), {"transBatchB": 1}), (((3, 4), (2, 4, 5)), {"transBatchA": 1}),
    (((2, 3, 4), (2, 4, 5)), {"transBatchA": 1}), (((3, 4), (5, 4)), {}),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, attrs):
    arrays = [np.ones(s, np.float32) for s in shapes]
    assert check_against_onnxruntime("FusedMatMul", arrays, attrs) is None
