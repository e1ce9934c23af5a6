"""Binarizer (ai.onnx.ml): rules/Binarizer.lp on data cases, and the rule against onnx's
reference and our kernel."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

ML = "ai.onnx.ml"


def binarizer(inputs, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": ML}


CASES = {
    "symbolic shape": (binarizer(["[b, n]"]), {"y0": "[b, n]", "dtypes": {"y0": "f32"}}),
    "int64, a threshold": (binarizer([("i64", "[3, k]")], threshold=1.5),
                           {"y0": "[3, k]", "dtypes": {"y0": "i64"}}),
    "scalar double": (binarizer([("f64", "[]")]), {"y0": "[]", "dtypes": {"y0": "f64"}}),
    "backward from the output": ({**binarizer(["X"]), "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    # errors
    "float16 elements": (binarizer([("f16", "[3]")]), "error"),
    "bool elements": (binarizer([("bool", "[3]")]), "error"),
    "two inputs": (binarizer(["[3]", "[3]"]), "error"),
}


test_case = case_test("Binarizer", CASES)


@settings(max_examples=20, deadline=None)
@given(shape=st.lists(st.integers(1, 4), max_size=3),
       dtype=st.sampled_from(["f32", "f64", "i64", "i32"]),
       threshold=st.sampled_from([None, 0.5, -1.0, 2.0]))
def test_matches_reference(shape, dtype, threshold):
    x = random_array(shape, dtype)
    attrs = None if threshold is None else {"threshold": threshold}
    check_against_reference("Binarizer", [x], attrs, domain=ML)


def test_kernel_values():
    from shape_logic.kernels import node_kernel
    from shape_logic.testing import reference_outputs

    x = np.array([[-1.0, 0.0, 0.5], [1.0, 2.0, 0.25]], np.float32)
    (got,) = node_kernel("Binarizer", ML, {"threshold": 0.25}, 18, 1)(x)
    (want,) = reference_outputs("Binarizer", [x], {"threshold": 0.25}, domain=ML)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype
