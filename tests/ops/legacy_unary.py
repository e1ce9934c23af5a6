"""The elementwise experimental operators onnx has dropped and onnxruntime still runs up to
opset 9 (Affine, Scale, ScaledTanh, ParametricSoftplus): one test set, on data cases and
against onnxruntime's CPU kernel on random shapes. Their float attributes must be floats
(onnxruntime refuses an integer, a list, a string); f64 is the schemas' but has no CPU
kernel."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import random_array
from tests import contrib_ops
from tests.ops.cases import case_test

# a float attribute, now and then an integer one (which onnxruntime refuses)
NUMBER = st.one_of(*[st.floats(-2, 2)] * 5, st.integers(-2, 2))
OPSET = 9  # onnxruntime registers these operators up to opset 9


def unary_cases(attrs: dict, required: bool) -> dict:
    """Data cases of an operator whose float attributes are `attrs` (their values), each
    `required` or with a default."""
    first, rest = next(iter(attrs)), {k: v for k, v in list(attrs.items())[1:]}
    cases = {
        "symbolic shape": ({"inputs": ["[b, s, 768]"], "attrs": attrs}, {"y0": "[b, s, 768]"}),
        "scalar": ({"inputs": ["[]"], "attrs": attrs}, {"y0": "[]"}),
        "f16": ({"inputs": [("f16", "[n, 3]")], "attrs": attrs},
                {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
        "backward from the output": ({"inputs": ["S"], "attrs": attrs,
                                      "outputs": {"y0": {"shape": "[4, n]"}}},
                                     {"x0": "[4, n]"}),
        "integer elements": ({"inputs": [("i64", "[3]")], "attrs": attrs}, "error"),
        "bf16 elements": ({"inputs": [("bf16", "[3]")], "attrs": attrs}, "error"),
        "integer attribute": ({"inputs": ["[3]"], "attrs": {**rest, first: 2}}, "error"),
        "list attribute": ({"inputs": ["[3]"], "attrs": {**rest, first: [2.0]}}, "error"),
        "two inputs": ({"inputs": ["[2]", "[2]"], "attrs": attrs}, "error"),
    }
    if required:
        for k in attrs:
            cases[f"no {k}"] = ({"inputs": ["[3]"], "attrs": {j: v for j, v in attrs.items()
                                                               if j != k}}, "error")
    else:
        cases["defaults"] = ({"inputs": ["[3]"]}, {"y0": "[3]"})
    return cases


def runs_test(op: str, runs: list):
    """test_runs_as_onnxruntime of `op`: each of `runs` ((shape, dtype, attrs) that
    onnxruntime runs: compared for sure, as random attributes are often refused) against
    onnxruntime at opset 9 (ImageScaler's and Crop's too)."""
    @pytest.mark.parametrize("shape, dtype, given_attrs", runs)
    def test_runs_as_onnxruntime(shape, dtype, given_attrs):
        tol = 1e-2 if dtype == "f16" else 1e-5
        assert contrib_ops.check_against_onnxruntime(
            op, [random_array(shape, dtype)], given_attrs, domain="", opset=OPSET, rtol=tol,
            atol=tol) is not None
    return test_runs_as_onnxruntime


def unary_tests(op: str, attrs: dict, required: bool, runs: list):
    """(test_case, test_runs_as_onnxruntime, test_matches_onnxruntime) of `op`: the data
    cases, `runs` (runs_test), and random shapes, types and attributes."""
    names = list(attrs)

    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(1, 4), max_size=4),
           st.sampled_from(["f16", "f32", "f32", "f64", "i32"]),
           st.sampled_from([None] * (len(names) + 1) + names),
           st.tuples(*[NUMBER] * len(names)))
    def test_matches_onnxruntime(shape, dtype, drop, values):
        drawn = {k: v for k, v in zip(names, values) if k != drop}
        tol = 1e-2 if dtype == "f16" else 1e-5
        contrib_ops.check_against_onnxruntime(op, [random_array(shape, dtype)], drawn,
                                              domain="", opset=OPSET, rtol=tol, atol=tol,
                                              ort_fails_ok=dtype == "f64")

    return (case_test(op, unary_cases(attrs, required), OPSET), runs_test(op, runs),
            test_matches_onnxruntime)
