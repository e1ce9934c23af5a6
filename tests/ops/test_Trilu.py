"""Trilu: rules/Trilu.lp on data cases, and against onnx's reference on random shapes;
onnxruntime's com.microsoft Trilu on data cases and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array
from tests.contrib_ops import MS, check_against_onnxruntime, onnxruntime_verdict
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "upper": ({"inputs": ["[b, n, m]"]}, {"y0": "[b, n, m]"}),
    "lower with k": ({"inputs": ["[n, m]", np.array(-1, np.int64)], "attrs": {"upper": 0}},
                     {"y0": "[n, m]"}),
    "runtime k": ({"inputs": ["[n, m]", ("i64", "[]")]}, {"y0": "[n, m]"}),
    "dtype kept": ({"inputs": [("i32", "[2, 2]")]}, {"y0": "[2, 2]", "dtypes": {"y0": "i32"}}),
    "backward": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[3, 4]"}}}, {"x0": "[3, 4]"}),
    "a vector": ({"inputs": ["[n]"]}, "error"),
    "a scalar": ({"inputs": ["[]"]}, "error"),
    "float k": ({"inputs": ["[n, m]", ("f32", "[]")]}, "error"),
}


test_case = case_test("Trilu", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=4), st.integers(-3, 3), st.booleans())
def test_matches_reference(shape, k, upper):
    # (numpy, the reference, also takes a vector, which ONNX forbids: a case above)
    check_against_reference("Trilu", [random_array(shape), np.array(k, np.int64)],
                            {"upper": int(upper)}, opset=OPSET, const=[1])


# onnxruntime's com.microsoft Trilu: ONNX's at any opset, of numbers and bool only
MS_CASES = {
    "symbolic, opset 9": ({"inputs": ["[b, n, m]", np.array(1, np.int64)], "opset": 9},
                          {"y0": "[b, n, m]"}),
    "backward": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[3, 4]"}}}, {"x0": "[3, 4]"}),
    "bool (its schema's; onnxruntime's CPU has no kernel)": (
        {"inputs": [("bool", "[n, m]")]}, {"y0": "[n, m]", "dtypes": {"y0": "bool"}}),
    "a vector": ({"inputs": ["[n]"]}, "error"),
    "int32 k": ({"inputs": ["[n, m]", ("i32", "[]")]}, "error"),
    "strings": ({"inputs": [("str", "[2, 2]")]}, "error"),
    "complex": ({"inputs": [("c64", "[2, 2]")]}, "error"),
}


@pytest.mark.parametrize("name", MS_CASES)
def test_com_microsoft_case(name):
    spec, expected = MS_CASES[name]
    check_case("Trilu", {"opset": OPSET, **spec, "domain": MS}, expected)


def test_com_microsoft_strings_are_refused_by_onnxruntime_too():
    x = np.array([["a", "b"], ["c", "d"]], dtype=object)
    assert onnxruntime_verdict("Trilu", [x]) == "rejected"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=4), st.integers(-3, 3), st.booleans(),
       st.sampled_from([np.float32, np.float16, np.float64, np.int64]), st.data())
def test_com_microsoft_matches_onnxruntime(shape, k, upper, dtype, data):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel
    (the types it has a kernel for; k absent, a constant or a runtime scalar or [1])."""
    x = random_array(shape, rng=np.random.default_rng(k + 3)).astype(dtype)
    how = data.draw(st.sampled_from(["absent", "constant", "runtime", "runtime [1]"]))
    kk = np.array(k if how != "runtime [1]" else [k], np.int64)
    arrays = [x] if how == "absent" else [x, kk]
    check_against_onnxruntime("Trilu", arrays, {"upper": int(upper)},
                              const=(1,) if how == "constant" else ())
