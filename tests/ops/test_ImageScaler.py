"""ImageScaler (ONNX's default domain, an experimental operator onnx dropped): rules/
ImageScaler.lp on data cases, and against onnxruntime's CPU kernel on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import random_array
from tests import contrib_ops
from tests.ops.cases import case_test
from tests.ops.legacy_unary import runs_test

# a float attribute, now and then an integer one (which onnxruntime refuses)
NUMBER = st.one_of(*[st.floats(-2, 2)] * 5, st.integers(-2, 2))
OP = "ImageScaler"
OPSET = 9  # onnxruntime registers the operator up to opset 9
AB = {"scale": 2.0, "bias": [1.0, 2.0, 3.0]}
CASES = {
    "symbolic shape": ({"inputs": ["[b, 3, h, w]"], "attrs": AB}, {"y0": "[b, 3, h, w]"}),
    "unknown rank": ({"inputs": ["S"], "attrs": AB}, {"y0": "[_1, _2, _3, _4]"}),
    "symbolic channels": ({"inputs": ["[b, c, h, w]"], "attrs": AB}, {"y0": "[b, c, h, w]"}),
    "f16": ({"inputs": [("f16", "[1, 3, 4, 4]")], "attrs": AB},
            {"y0": "[1, 3, 4, 4]", "dtypes": {"y0": "f16"}}),
    "default scale": ({"inputs": ["[1, 2, 4, 4]"], "attrs": {"bias": [0.5, 1.5]}},
                      {"y0": "[1, 2, 4, 4]"}),
    "backward from the output": ({"inputs": ["[a, b, c, d]"], "attrs": AB,
                                  "outputs": {"y0": {"shape": "[1, 3, n, n]"}}},
                                 {"x0": "[1, 3, c, c]"}),
    "bias of another length": ({"inputs": ["[1, 2, 4, 4]"], "attrs": AB}, "error"),
    "rank 3": ({"inputs": ["[3, 4, 4]"], "attrs": AB}, "error"),
    # onnxruntime reads the first four axes of a higher rank (measured)
    "rank 5": ({"inputs": ["[1, 3, h, w, 4]"], "attrs": AB}, {"y0": "[1, 3, h, w]"}),
    "no bias": ({"inputs": ["[1, 3, 4, 4]"], "attrs": {"scale": 2.0}}, "error"),
    "integer bias": ({"inputs": ["[1, 3, 4, 4]"], "attrs": {"bias": [1, 2, 3]}}, "error"),
    "integer scale": ({"inputs": ["[1, 3, 4, 4]"], "attrs": {**AB, "scale": 2}}, "error"),
    "integer elements": ({"inputs": [("i64", "[1, 3, 4, 4]")], "attrs": AB}, "error"),
    "two inputs": ({"inputs": ["[1, 3, 4, 4]", "[3]"], "attrs": AB}, "error"),
}

test_case = case_test(OP, CASES, OPSET)


# inputs onnxruntime runs: compared for sure (random ones are often rejected)
RUNS = [
    [(2, 3, 4, 5), "f32", {"scale": 1.5, "bias": [1.0, -2.0, 0.5]}],
    [(1, 2, 3, 2, 2), "f16", {"bias": [1.0, 2.0]}],
]


test_runs_as_onnxruntime = runs_test(OP, RUNS)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=3, max_size=5), st.integers(-1, 1),
       st.sampled_from(["f16", "f32", "f32", "f64", "i32"]), st.booleans(), NUMBER,
       NUMBER)
def test_matches_onnxruntime(shape, off, dtype, has_scale, scale, bias0):
    # a bias of C values (or one more or less), now and then of integers
    n = max(shape[1] + off if len(shape) > 1 else 1, 1)
    attrs = {"bias": [bias0 + k if isinstance(bias0, float) else k for k in range(n)]}
    if has_scale:
        attrs["scale"] = scale
    tol = 1e-2 if dtype == "f16" else 1e-5
    # f64: the schema allows it, onnxruntime's CPU provider has no kernel for it
    contrib_ops.check_against_onnxruntime(OP, [random_array(shape, dtype)], attrs,
                                          domain="", opset=OPSET, rtol=tol, atol=tol,
                                          ort_fails_ok=dtype == "f64")
