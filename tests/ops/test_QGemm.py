"""QGemm (com.microsoft): rules/QGemm.lp on data cases, and the rules and the kernel against
onnxruntime on random products (transpositions, C, per-column B, quantized or float Y)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import check_against_onnxruntime, ms_case as case


A = [("u8", "[m, k]"), "[]", ("u8", "[]")]
CASES = {
    "a quantized Linear layer, per-column weights, quantized Y": (
        case(A + [("i8", "[n, k]"), "[n]", ("i8", "[n]"), ("i32", "[n]"), "[]", ("u8", "[]")],
             {"transB": 1}), {"y0": "[m, n]", "dtypes": {"y0": "u8", "x6": "i32"}}),
    "float Y without y_zero_point": (case(A + [("i8", "[k, n]"), "[]", ("i8", "[]")]),
                                     {"y0": "[m, n]", "dtypes": {"y0": "f32", "x4": "f32"}}),
    "transA": (case([("i8", "[k, m]"), "[]", ("i8", "[]"), ("i8", "[k, 7]"), "[1]",
                     ("i8", "[1]")], {"transA": 1}), {"y0": "[m, 7]"}),
    "the per-column scale gives n": (case(A + [("i8", "[k, n]"), "[5]", ("i8", "Z")]),
                                     {"y0": "[m, 5]", "x5": "[5]"}),
    "backward: B from A and Y": (case(A + [("i8", "W"), "[]", ("i8", "[]")],
                                      outputs={"y0": {"shape": "[m, 6]"}}), {"x3": "[k, 6]"}),
    "k differs": (case([("u8", "[2, 3]"), "[]", ("u8", "[]"), ("i8", "[4, 5]"), "[]",
                        ("i8", "[]")]), "error"),
    "int8 A with uint8 B": (case([("i8", "[2, 3]"), "[]", ("i8", "[]"), ("u8", "[3, 5]"), "[]",
                                  ("u8", "[]")]), "error"),
    "float A": (case(["[2, 3]", "[]", ("u8", "[]"), ("i8", "[3, 5]"), "[]", ("i8", "[]")]),
                "error"),
    "A's scale per column": (case([("u8", "[2, 3]"), "[2]", ("u8", "[2]"), ("i8", "[3, 5]"),
                                   "[]", ("i8", "[]")]), "error"),
    "B's scale of the wrong length": (case(A + [("i8", "[k, 5]"), "[3]", ("i8", "[3]")]),
                                      "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QGemm", spec, expected)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 4), k=st.integers(1, 5),
       n=st.integers(1, 4), ta=st.booleans(), tb=st.booleans(),
       c=st.sampled_from([None, "n", "1n", "m1", "mn"]), per_column=st.booleans(),
       out=st.sampled_from(["quantized", "float", "float scaled"]),
       types=st.sampled_from([("u8", "u8"), ("u8", "i8"), ("i8", "i8")]),
       alpha=st.sampled_from([1.0, 0.5]))
def test_matches_onnxruntime(seed, m, k, n, ta, tb, c, per_column, out, types, alpha):
    rng = np.random.default_rng(seed)

    def q(code, shape):
        dtype, lo, hi = (np.int8, -128, 128) if code == "i8" else (np.uint8, 0, 256)
        return rng.integers(lo, hi, shape).astype(dtype)

    a = q(types[0], (k, m) if ta else (m, k))
    b = q(types[1], (n, k) if tb else (k, n))
    cols = (n,) if per_column else ()
    b_scale = (rng.random(cols) * 0.02 + 0.005).astype(np.float32)
    c_shape = {None: None, "n": (n,), "1n": (1, n), "m1": (m, 1), "mn": (m, n)}[c]
    cc = None if c_shape is None else rng.integers(-500, 500, c_shape).astype(np.int32)
    arrays = [a, np.float32(0.02), q(types[0], ()), b, b_scale, q(types[1], cols), cc]
    if out != "float":
        arrays.append(np.float32(0.5))
    if out == "quantized":
        arrays.append(q(types[0], ()))
    check_against_onnxruntime("QGemm", arrays, {"transA": int(ta), "transB": int(tb),
                                                "alpha": alpha}, rtol=1e-5, atol=1)
