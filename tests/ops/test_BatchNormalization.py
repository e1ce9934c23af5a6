"""BatchNormalization: rules/BatchNormalization.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

PARAMS = ["[c1]", "[c2]", "[c3]", "[c4]"]

CASES = {
    "inference": ({"inputs": ["[n, c, h, w]"] + PARAMS},
                  {"y0": "[n, c, h, w]", "x1": "[c]", "x4": "[c]",
                   "bindings": {"c1": "c", "c2": "c", "c3": "c", "c4": "c"}}),
    "channels from a parameter": ({"inputs": ["[n, c, t]", "[8]", "[b]", "[m]", "[v]"]},
                                  {"y0": "[n, 8, t]", "x4": "[8]"}),
    "rank 2": ({"inputs": ["[n, 3]"] + PARAMS}, {"y0": "[n, 3]"}),
    "training outputs": ({"inputs": ["[n, 3, h, w]"] + PARAMS, "attrs": {"training_mode": 1},
                          "n_outputs": 3},
                         {"y0": "[n, 3, h, w]", "y1": "[3]", "y2": "[3]"}),
    "opset 15 dtypes: T, T1, T2": ({"inputs": [("f16", "[2, 3, 4]"), ("f32", "[3]"), ("f32", "[3]"),
                                               ("f64", "[3]"), ("f64", "[3]")],
                                    "attrs": {"training_mode": 1}, "n_outputs": 3},
                                   {"dtypes": {"y0": "f16", "y1": "f64", "y2": "f64"}}),
    "opset 14 dtypes: T, U": ({"inputs": [("f16", "[2, 3]"), ("f16", "[3]"), ("f16", "[3]"),
                                          ("f32", "[3]"), ("f32", "[3]")], "opset": 14,
                               "attrs": {"training_mode": 1}, "n_outputs": 3},
                              {"dtypes": {"y0": "f16", "y1": "f32", "y2": "f32"}}),
    "opset 9: four statistics": ({"inputs": [("f64", "[2, 3, 5]")] + [("f64", p) for p in PARAMS],
                                  "opset": 9,
                                  "n_outputs": 5},
                                 {"y0": "[2, 3, 5]", "y3": "[3]", "y4": "[3]",
                                  "dtypes": {"y4": "f64", "x1": "f64"}}),
    "opset 7 non-spatial: no parameter shapes": ({"inputs": ["[2, 3, 5]", "[s, t]"] + PARAMS[1:],
                                                  "opset": 7, "attrs": {"spatial": 0}},
                                                 {"y0": "[2, 3, 5]", "x1": "[s, t]"}),
    "backward": ({"inputs": ["x"] + PARAMS, "outputs": {"y0": {"shape": "[2, 6, 7]"}}},
                 {"x0": "[2, 6, 7]", "x3": "[6]"}),
    # errors
    "integer statistics": ({"inputs": ["[2, 3]", "[3]", "[3]", ("i64", "[3]"), ("i64", "[3]")]},
                           "error"),
    "rank 1": ({"inputs": ["[3]"] + PARAMS}, "error"),
    "channel mismatch": ({"inputs": ["[2, 3, 4]", "[4]", "[3]", "[3]", "[3]"]}, "error"),
    "parameter of length 1": ({"inputs": ["[2, 3, 4]", "[1]", "[3]", "[3]", "[3]"]}, "error"),
    "parameter of rank 2": ({"inputs": ["[2, 3, 4]", "[3, 1]", "[3]", "[3]", "[3]"]}, "error"),
    "extra outputs in inference": ({"inputs": ["[2, 3, 4]"] + PARAMS, "n_outputs": 3}, "error"),
    "missing outputs in training": ({"inputs": ["[2, 3, 4]"] + PARAMS,
                                     "attrs": {"training_mode": 1}},
                                    "error"),
    "four inputs": ({"inputs": ["[2, 3, 4]"] + PARAMS[:3]}, "error"),
    "opset 15: scale and B differ": ({"inputs": ["[2, 3]", ("f32", "[3]"), ("f16", "[3]"), "[3]",
                                                 "[3]"]}, "error"),
    "opset 14: scale is not X's type": ({"inputs": [("f16", "[2, 3]"), "[3]", "[3]", "[3]", "[3]"],
                                         "opset": 14}, "error"),
    "opset 9: one type": ({"inputs": ["[2, 3]", "[3]", "[3]", ("f64", "[3]"), "[3]"], "opset": 9},
                          "error"),
}


test_case = case_test("BatchNormalization", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.integers(0, 1),
       st.lists(st.sampled_from([0] * 9 + [1, 2]), min_size=4, max_size=4),
       st.sampled_from([14, 15]), st.booleans())
def test_matches_reference(x_shape, training, param_kind, opset, right_outputs):
    c = x_shape[1] if len(x_shape) > 1 else x_shape[0]
    # each parameter: [c], [c + 1] (a clash), or [1] (broadcasts in the reference only)
    params = [[c, c + 1, 1][k] for k in param_kind]
    n_outputs = (3 if training else 1) if right_outputs else (1 if training else 3)
    arrays = [random_array(x_shape)] + [np.abs(random_array([p])) for p in params]
    attrs = {"training_mode": training}
    # onnxruntime rejects these; the reference broadcasts a parameter against a channel of 1
    rejected = (len(x_shape) < 2 or not right_outputs
                or any(p != c and 1 in (p, c) for p in params))
    if rejected:
        sol = infer("BatchNormalization", [list(a.shape) for a in arrays], attrs, n_outputs,
                    opset=opset)
        assert sol.status == "error"
        return
    check_against_reference("BatchNormalization", arrays, attrs, n_outputs=n_outputs, opset=opset)
