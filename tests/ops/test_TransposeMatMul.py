"""TransposeMatMul (com.microsoft, FusedMatMul without transBatchA/B): rules/TransposeMatMul.lp
on data cases, and the rules and the kernel against onnxruntime on random shapes and
transpositions."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, ms_case as case


CASES = {
    "a Linear layer": (case(["[b, s, k]", "[k, n]"]), {"y0": "[b, s, n]"}),
    "transA": (case(["[b, k, s]", "[k, n]"], {"transA": 1}), {"y0": "[b, s, n]"}),
    "any nonzero transA transposes": (case(["[b, k, s]", "[k, n]"], {"transA": -1}),
                                      {"y0": "[b, s, n]"}),
    "attention scores: transB and alpha": (
        case(["[b, h, s, d]", "[b, h, t, d]"], {"transB": 1, "alpha": 0.125}),
        {"y0": "[b, h, s, t]"}),
    "both, batch axes broadcast": (case(["[2, 1, k, m]", "[3, n, k]"],
                                        {"transA": 1, "transB": 1}), {"y0": "[2, 3, m, n]"}),
    "vectors: trans changes nothing": (case(["[k]", "[n, k]"], {"transA": 1, "transB": 1}),
                                       {"y0": "[n]"}),
    "vector by vector: a scalar": (case(["[k]", "[4]"], {"transA": 1, "transB": 1}),
                                   {"y0": "[]", "x0": "[4]"}),
    "matrix by vector, transA": (case(["[k, m]", "[k]"], {"transA": 1}), {"y0": "[m]"}),
    "backward: B from the output": (case(["[b, s, k]", "[n, m]"], {"transB": 1},
                                         outputs={"y0": {"shape": "[b, s, 7]"}}),
                                    {"x1": "[7, k]"}),
    "f16": (case([("f16", "[m, k]"), ("f16", "[k, n]")]), {"dtypes": {"y0": "f16"}}),
    "f64 (no CPU kernel in onnxruntime, but the schema's)": (
        case([("f64", "[m, k]"), ("f64", "[k, n]")]), {"dtypes": {"y0": "f64"}}),
    "bf16": (case([("bf16", "[m, k]"), ("bf16", "[k, n]")]), {"dtypes": {"y0": "bf16"}}),
    "contracted sizes differ": (case(["[b, s, 4]", "[5, n]"]), "error"),
    "transB makes them differ": (case(["[b, s, 4]", "[4, 5]"], {"transB": 1}), "error"),
    "transA makes a matrix by vector differ": (case(["[3, 4]", "[4]"], {"transA": 1}), "error"),
    "batch axes that do not broadcast": (case(["[2, 3, 4]", "[3, 4, 5]"]), "error"),
    "FusedMatMul's transBatchA is no attribute of it": (
        case(["[2, 3, 4]", "[3, 4, 5]"], {"transBatchA": 0}), "input error"),
    "nor transBatchB": (case(["[2, 3, 4]", "[2, 4, 5]"], {"transBatchB": 1}), "input error"),
    "a scalar": (case(["[]", "[4, 5]"]), "error"),
    "integer operands": (case([("i32", "[3, 4]"), ("i32", "[4, 5]")]), "error"),
    "operands of two types": (case(["[3, 4]", ("f16", "[4, 5]")]), "error"),
    "two inputs only": (case(["[3, 4]", "[4, 5]", "[5]"]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("TransposeMatMul", spec, expected)


def operand(shape, trans):
    """The input's shape whose transposition (as TransposeMatMul makes it) is `shape`."""
    shape = list(shape)
    if trans and len(shape) >= 2:
        shape[-2:] = shape[-2:][::-1]
    return tuple(shape)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ra=st.integers(1, 4), rb=st.integers(1, 4),
       m=st.integers(1, 4), k=st.integers(1, 4), n=st.integers(1, 4),
       batch=st.lists(st.integers(1, 3), min_size=2, max_size=2),
       trans=st.lists(st.sampled_from([0, 1, -1, 2]), min_size=2, max_size=2),
       alpha=st.sampled_from([1.0, 0.5, -2.0]), ones=st.booleans(), f16=st.booleans())
def test_matches_onnxruntime(seed, ra, rb, m, k, n, batch, trans, alpha, ones, f16):
    ta, tb = trans
    a = (batch + [m, k])[-ra:] if ra > 1 else [k]
    b = ([1 if ones else batch[0]] + batch[1:] + [k, n])[-rb:] if rb > 1 else [k]
    rng = np.random.default_rng(seed)
    dtype = np.float16 if f16 else np.float32
    x = rng.standard_normal(operand(a, ta)).astype(dtype)
    w = rng.standard_normal(operand(b, tb)).astype(dtype)
    tol = 2e-2 if f16 else 1e-4
    want = check_against_onnxruntime("TransposeMatMul", [x, w],
                                     {"transA": ta, "transB": tb, "alpha": alpha},
                                     rtol=tol, atol=tol)
    assert want is not None


@pytest.mark.parametrize("shapes, attrs", [
    (((3, 4), (5, 4)), {}), (((3, 4), (4, 5)), {"transA": 1}), (((3, 4), (4,)), {"transA": 1}),
    (((2, 3, 4), (2, 4, 5)), {"transB": 1}), (((2, 3, 4), (3, 4, 5)), {}),
    (((), (4, 5)), {}), (((2, 3, 4), (2, 4, 5)), {"transBatchA": 0}),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, attrs):
    arrays = [np.ones(s, np.float32) for s in shapes]
    assert check_against_onnxruntime("TransposeMatMul", arrays, attrs) is None
