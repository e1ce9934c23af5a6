"""Crop (ONNX's default domain, an experimental operator onnx dropped): rules/Crop.lp
 on data cases, and against onnxruntime's CPU kernel on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import random_array
from tests import contrib_ops
from tests.ops.cases import case_test
from tests.ops.legacy_unary import runs_test

OP = "Crop"
OPSET = 9  # onnxruntime registers the operator up to opset 9
CASES = {
    "border": ({"inputs": ["[n, c, 5, 6]"], "attrs": {"border": [1, 2, 0, 0]}},
               {"y0": "[n, c, 3, 5]"}),
    "symbolic border": ({"inputs": ["[n, c, h, w]"], "attrs": {"border": [1, 2, 3, 4]}},
                        {"y0": "[n, c, h - 6, w - 4]"}),
    "scale": ({"inputs": ["[n, c, h, w]"], "attrs": {"border": [1, 2, 3, 4], "scale": [2, 3]}},
              {"y0": "[n, c, 2, 3]"}),
    "scale ignores right and bottom": ({"inputs": ["[1, 3, 5, 6]"],
                                        "attrs": {"border": [0, 0, 9, 9], "scale": [1, 1]}},
                                       {"y0": "[1, 3, 1, 1]"}),
    "all cropped": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"border": [6, 5, 0, 0]}},
                    {"y0": "[1, 3, 0, 0]"}),
    "f16": ({"inputs": [("f16", "[1, 3, 4, 4]")], "attrs": {"border": [1, 1, 1, 1]}},
            {"y0": "[1, 3, 2, 2]", "dtypes": {"y0": "f16"}}),
    "width too small": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"border": [4, 0, 3, 0]}},
                        "error"),
    "height too small for scale": ({"inputs": ["[1, 3, 5, 6]"],
                                    "attrs": {"border": [0, 1, 0, 0], "scale": [5, 1]}},
                                   "error"),
    "three borders": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"border": [0, 0, 0]}}, "error"),
    "negative border": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"border": [0, 0, 0, -1]}},
                        "error"),
    "float border": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"border": [0.0, 0.0, 0.0, 0.0]}},
                     "error"),
    "no border": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"scale": [1, 1]}}, "error"),
    "one scale": ({"inputs": ["[1, 3, 5, 6]"], "attrs": {"border": [0, 0, 0, 0], "scale": [1]}},
                  "error"),
    "rank 3": ({"inputs": ["[3, 5, 6]"], "attrs": {"border": [0, 0, 0, 0]}}, "error"),
    "integer elements": ({"inputs": [("i32", "[1, 3, 5, 6]")], "attrs": {"border": [0, 0, 0, 0]}},
                         "error"),
}

test_case = case_test(OP, CASES, OPSET)


# inputs onnxruntime runs: compared for sure (random ones are often rejected)
RUNS = [
    [(2, 3, 5, 6), "f32", {"border": [1, 2, 0, 1]}],
    [(1, 2, 5, 6), "f16", {"border": [1, 2, 9, 9], "scale": [3, 5]}],
]


test_runs_as_onnxruntime = runs_test(OP, RUNS)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(3, 6), min_size=4, max_size=4), st.sampled_from([3, 4, 4, 4, 4, 4, 5]),
       st.sampled_from(["f16", "f32", "f32", "f32", "f64", "i32"]),
       st.lists(st.integers(0, 2), min_size=4, max_size=4),
       st.sampled_from([None, None, 2, 2, 1, 3]), st.integers(0, 3), st.integers(0, 3),
       st.sampled_from(["", "", "", "", "", "three", "negative", "float"]))
def test_matches_onnxruntime(dims, rank, dtype, border, n_scale, h, w, odd):
    # mostly 4 borders >= 0 and a scale of 2 (or none), now and then another
    shape = (dims * 2)[:rank]
    border = {"three": border[:3], "negative": border[:3] + [-1],
              "float": [float(b) for b in border]}.get(odd, border)
    attrs = {"border": border}
    if n_scale is not None:
        attrs["scale"] = [h, w, 1][:n_scale]
    # f64: the schema allows it, onnxruntime's CPU provider has no kernel for it
    contrib_ops.check_against_onnxruntime(OP, [random_array(shape, dtype)], attrs,
                                          domain="", opset=OPSET, ort_fails_ok=dtype == "f64")
