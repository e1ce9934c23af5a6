"""MaxPool: rules/MaxPool.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st


from .pooling import SHARED_CASES, backward_range, check_pool, draw_pool
from tests.ops.cases import case_test

CASES = {
    **SHARED_CASES,
    "2-D, pads and strides": ({"inputs": ["[n, c, h, w]"],
                               "attrs": {"kernel_shape": [3, 3], "strides": [2, 2],
                                         "pads": [1, 1, 1, 1]}},
                              {"y0": "[n, c, (h + 1)//2, (w + 1)//2]"}),
    "3-D dilations": ({"inputs": ["[1, 2, 8, 8, 8]"],
                       "attrs": {"kernel_shape": [2, 2, 2], "dilations": [2, 2, 2]}},
                      {"y0": "[1, 2, 6, 6, 6]"}),
    "ceil_mode: a window may start in the begin pads": ({"inputs": ["[1, 1, 4]"],
                                                         "attrs": {"kernel_shape": [2],
                                                                   "strides": [2],
                                                                   "pads": [1, 1], "ceil_mode": 1}},
                                                        {"y0": "[1, 1, 3]"}),
    "ceil_mode with dilations": ({"inputs": ["[1, 1, 4, 4, 4]"],
                                  "attrs": {"kernel_shape": [5, 5, 5], "dilations": [2, 2, 2],
                                            "strides": [3, 3, 3], "pads": [4, 4, 4, 4, 4, 4],
                                            "ceil_mode": 1}},
                                 {"y0": "[1, 1, 2, 2, 2]"}),
    "other ceil_mode values: unknown": ({"inputs": ["[1, 1, 5]"],
                                        "attrs": {"kernel_shape": [2], "strides": [2],
                                                  "ceil_mode": 2}},
                                       {"y0": "[1, 1, _1]"}),
    # ONNX's VALID with ceil_mode is ceil((h - 2 + 1) / 2): 1 window of 2 in 3 by 2 (not 2,
    # as onnxruntime gives); the kernel agrees (test_matches_reference found it disagreed)
    "VALID ignores ceil_mode": ({"inputs": ["[1, 1, 3, 1]"],
                                 "attrs": {"kernel_shape": [2, 1], "strides": [2, 1],
                                           "auto_pad": "VALID", "ceil_mode": 1}},
                                {"y0": "[1, 1, 1, 1]"}),
    "SAME_UPPER": ({"inputs": ["[n, c, h, w]"],
                    "attrs": {"kernel_shape": [3, 3], "strides": [2, 3], "auto_pad": "SAME_UPPER"}},
                   {"y0": "[n, c, (h + 1)//2, (w + 2)//3]"}),
    "SAME_LOWER ignores pads and ceil_mode": ({"inputs": ["[1, 1, 7]"],
                                              "attrs": {"kernel_shape": [2], "strides": [3],
                                                        "auto_pad": "SAME_LOWER", "pads": [1, 1],
                                                        "ceil_mode": 1}},
                                             {"y0": "[1, 1, 3]"}),
    "Indices: int64, Y's shape": ({"inputs": [("f16", "[n, c, h, w]")],
                                   "attrs": {"kernel_shape": [2, 2], "strides": [2, 2],
                                             "storage_order": 1},
                                   "n_outputs": 2},
                                  {"y0": "[n, c, h//2, w//2]", "y1": "[n, c, h//2, w//2]",
                                   "dtypes": {"y0": "f16", "y1": "i64"}}),
    "u8": ({"inputs": [("u8", "[1, 3, 5, 5]")], "attrs": {"kernel_shape": [5, 5], "pads": [2] * 4}},
           {"y0": "[1, 3, 5, 5]", "dtypes": {"y0": "u8"}}),
    "rank from kernel_shape": ({"inputs": ["s"], "attrs": {"kernel_shape": [2, 2]}},
                               {"x0": "[_1, _2, _3, _4]"}),
    "backward: batch and channels": ({"inputs": ["[n, c, 8]"], "attrs": {"kernel_shape": [2]},
                                      "outputs": {"y0": {"shape": "[2, 3, 7]"}}},
                                     {"x0": "[2, 3, 8]", "bindings": {"c": 3, "n": 2}}),
    "backward: unit stride binds": ({"inputs": ["[1, 1, h]"], "attrs": {"kernel_shape": [3]},
                                     "outputs": {"y0": {"shape": "[1, 1, 10]"}}},
                                    {"x0": "[1, 1, 12]", "bindings": {"h": 12}}),
    "backward: strided output leaves a range": (
        {"inputs": ["[1, 8, h, h]"],
         "attrs": {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
         "outputs": {"y0": {"shape": "[1, 8, 112, 112]"}}},
        {"x0": "[1, 8, h, h]", "bindings": {}}),
    "backward through Indices": ({"inputs": ["[1, 1, h]"], "attrs": {"kernel_shape": [3]},
                                  "n_outputs": 2, "outputs": {"y1": {"shape": "[1, 1, 10]"}}},
                                 {"x0": "[1, 1, 12]", "y0": "[1, 1, 10]"}),
    # a dilated window past 2^30 (computed exactly, never wrapped around)
    "huge dilated window": ({"inputs": ["[1, 1, 2000000000]"],
                             "attrs": {"kernel_shape": [40000], "dilations": [40000]}},
                            {"y0": "[1, 1, 400040000]"}),
    # errors
    "huge dilated window larger than the input": ({"inputs": ["[1, 1, 5]"],
                                                   "attrs": {"kernel_shape": [40000],
                                                             "dilations": [40000]}},
                                                  "error"),
    "i32 input": ({"inputs": [("i32", "[1, 3, 5]")], "attrs": {"kernel_shape": [2]}}, "error"),
    "i8 before opset 12": ({"inputs": [("i8", "[1, 3, 5]")], "attrs": {"kernel_shape": [2]},
                            "opset": 11}, "error"),
    "zero dilation": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [2], "dilations": [0]}},
                      "error"),
    "bad storage_order": ({"inputs": ["[1, 3, 5]"],
                           "attrs": {"kernel_shape": [2], "storage_order": 2}},
                          "error"),
    "window larger than the input, strided": ({"inputs": ["[1, 1, 2]"],
                                               "attrs": {"kernel_shape": [3], "strides": [2]}},
                                              "error"),
    "Indices clash with Y": ({"inputs": ["[1, 1, 5]"], "attrs": {"kernel_shape": [2]},
                              "n_outputs": 2,
                              "outputs": {"y1": {"shape": "[1, 1, 5]"}}}, "error"),
    "three outputs": ({"inputs": ["[1, 1, 5]"], "attrs": {"kernel_shape": [2]}, "n_outputs": 3},
                      "error"),
}


test_case = case_test("MaxPool", CASES)


def test_backward_range():
    # (h + 2 - 3)//2 + 1 = 112: h is 223 or 224
    backward_range("MaxPool", CASES, 223)


@st.composite
def pools(draw):
    def adjust(draw, attrs, auto_pad, nsp):
        unit = all(v == 1 for v in attrs.get("strides", []) + attrs.get("dilations", []))
        if unit:
            # onnx's reference has two implementations; the one for unit strides and
            # dilations mishandles pads (1-D, 3-D, ceil_mode) and SAME padding (but in 2-D)
            attrs.pop("pads", None)
            if nsp != 2 and auto_pad.startswith("SAME"):
                attrs["auto_pad"] = "VALID"
        elif auto_pad == "SAME_LOWER":
            # the other one rounds SAME_LOWER down (floor(d / stride)), against the spec
            attrs["auto_pad"] = "SAME_UPPER"

    x, attrs = draw_pool(draw, adjust)
    return x, attrs, draw(st.integers(1, 2))


@settings(max_examples=20, deadline=None)
@given(pools())
def test_matches_reference(case):
    x, attrs, n_outputs = case
    check_pool("MaxPool", x, attrs, n_outputs)


def test_valid_with_ceil_mode_runs_as_onnx_says():
    """The kernel's VALID windows ignore ceil_mode, as the rule and onnx's reference do."""
    import numpy as np

    from shape_logic import run

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 3, 1]"}},
         "nodes": [{"op": "MaxPool", "inputs": ["x"], "outputs": ["y"],
                    "attrs": {"kernel_shape": [2, 1], "strides": [2, 1], "auto_pad": "VALID",
                              "ceil_mode": 1}}]}
    x = np.array([[[[0.1], [-0.1], [0.6]]]], np.float32)
    assert run(g, {"x": x})["y"].tolist() == [[[[np.float32(0.1)]]]]
