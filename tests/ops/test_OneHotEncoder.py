"""OneHotEncoder (ai.onnx.ml 1): rules/OneHotEncoder.lp on data cases; the rule and our
kernel against onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel


def ohe(inputs, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": ML}


CASES = {
    "int64s": (ohe([("i64", "[n, 2]")], cats_int64s=[1, 2, 3]),
               {"y0": "[n, 2, 3]", "dtypes": {"y0": "f32"}}),
    "strings": (ohe([("str", "[n]")], cats_strings=["a", "b"]), {"y0": "[n, 2]"}),
    "a scalar": (ohe([("str", "[]")], cats_strings=["a", "b", "c"]), {"y0": "[3]"}),
    "floats": (ohe([("f64", "[a, b, c]")], cats_int64s=[0]), {"y0": "[a, b, c, 1]"}),
    "backward": ({**ohe([("i64", "[m, k]")], cats_int64s=[1, 2]),
                  "outputs": {"y0": {"shape": "[4, 5, 2]"}}}, {"x0": "[4, 5]"}),
    # errors
    "no categories": (ohe([("i64", "[n]")]), "error"),
    "both lists": (ohe([("i64", "[n]")], cats_int64s=[1], cats_strings=["a"]), "error"),
    "bool X": (ohe([("bool", "[n]")], cats_int64s=[1]), "error"),
    "another count": ({**ohe([("i64", "[n]")], cats_int64s=[1, 2]),
                       "outputs": {"y0": {"shape": "[n, 3]"}}}, "error"),
}

test_case = case_test("OneHotEncoder", CASES)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), shape=st.lists(st.integers(1, 3), max_size=3),
       kind=st.sampled_from(["i64", "f32", "f64", "str", "i64 for strings"]),
       zeros=st.sampled_from([1, 1, 0]))
def test_matches_onnxruntime(seed, shape, kind, zeros):
    """(with zeros=0 every element is a category: an unknown one fails at run time, which
    no shape tells; test_zeros_0_fails)"""
    rng = np.random.default_rng(seed)
    values = rng.choice([0, 1, -2, 3] if zeros == 0 else [-2, -1, 0, 1, 2, 3], size=shape)
    if kind == "str":
        x = np.array([f"w{v}" for v in values.reshape(-1)], dtype=object).reshape(shape)
        attrs = {"cats_strings": ["w0", "w1", "w3", "w-2"]}
    else:
        x = values.astype({"f32": np.float32, "f64": np.float64}.get(kind, np.int64))
        if kind != "i64":
            x = x + 0.25 * np.sign(x)  # truncated toward 0
        attrs = {"cats_strings": ["1", "2"]} if kind == "i64 for strings" and zeros else \
            {"cats_int64s": [0, 1, -2, 3]}
    attrs["zeros"] = zeros
    check_ml("OneHotEncoder", [x], attrs, 1)


def test_against_reference():
    x = np.array([[1, 5], [3, 2]], np.int64)
    attrs = {"cats_int64s": [1, 2, 3]}
    (got,) = run_kernel("OneHotEncoder", [x], attrs)
    (want,) = reference_outputs("OneHotEncoder", [x], attrs, domain=ML)
    np.testing.assert_array_equal(got, want)


def test_zeros_0_fails():
    import pytest

    with pytest.raises(Exception, match="no category"):
        run_kernel("OneHotEncoder", [np.array([1, 5], np.int64)],
                   {"cats_int64s": [1, 2], "zeros": 0})
