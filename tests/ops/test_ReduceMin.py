"""ReduceMin: rules/ReduceMin.lp on data cases, and against onnx's reference.

`axes` is an input since opset 18 and an attribute before (opset 13 here).
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array

OP = "ReduceMin"
BEFORE = 13  # an opset where axes is an attribute


def axes(*values):
    return np.array(values, dtype=np.int64)


CASES = {
    # axes given by the input's values
    "one axis kept": ({"inputs": ["[b, s, h]", axes(1)]}, {"y0": "[b, 1, h]"}),
    "one axis dropped": ({"inputs": ["[b, s, h]", axes(1)], "attrs": {"keepdims": 0}},
                         {"y0": "[b, h]"}),
    "negative axis": ({"inputs": ["[b, s, h]", axes(-1)], "attrs": {"keepdims": 0}},
                      {"y0": "[b, s]"}),
    "two axes kept": ({"inputs": ["[b, s, h]", axes(0, -1)]}, {"y0": "[1, s, 1]"}),
    "two axes dropped": ({"inputs": ["[b, s, h]", axes(2, 0)], "attrs": {"keepdims": 0}},
                         {"y0": "[s]"}),
    "every axis listed": ({"inputs": ["[b, s]", axes(1, 0)], "attrs": {"keepdims": 0}},
                          {"y0": "[]"}),
    "dtype kept": ({"inputs": [("f16", "[b, s]"), axes(0)]},
                   {"y0": "[1, s]", "dtypes": {"y0": "f16"}}),
    # no axes: all of them, or none with noop_with_empty_axes
    "no axes input": ({"inputs": ["[b, s, h]"]}, {"y0": "[1, 1, 1]"}),
    "no axes input, dropped": ({"inputs": ["[b, s, h]"], "attrs": {"keepdims": 0}},
                               {"y0": "[]"}),
    "absent axes input": ({"inputs": ["[b, s, h]", None], "attrs": {"keepdims": 0}},
                          {"y0": "[]"}),
    "empty axes": ({"inputs": ["[b, s, h]", axes()]}, {"y0": "[1, 1, 1]"}),
    "empty axes, noop": ({"inputs": ["[b, s, h]", axes()],
                          "attrs": {"noop_with_empty_axes": 1, "keepdims": 0}},
                         {"y0": "[b, s, h]"}),
    "no axes, noop": ({"inputs": ["[b, s, h]"], "attrs": {"noop_with_empty_axes": 1}},
                      {"y0": "[b, s, h]"}),
    "noop with axes given": ({"inputs": ["[b, s, h]", axes(1)],
                              "attrs": {"noop_with_empty_axes": 1, "keepdims": 0}},
                             {"y0": "[b, h]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    # axes whose values are unknown: only what is certain
    "unknown axes keep the rank and the 1s": ({"inputs": ["[b, 1, h]", ("i64", "[k]")]},
                                              {"y0": "[_1, 1, _2]"}),
    "unknown axes, backward: a Y axis not 1 was kept": ({"inputs": ["x", ("i64", "[k]")],
                                                          "outputs": {"y0": {"shape": "[1, 4]"}}},
                                                         {"x0": "[_1, 4]"}),
    "unknown axes, known count, dropped": ({"inputs": ["[b, s, h]", ("i64", "[2]")],
                                            "attrs": {"keepdims": 0}},
                                           {"y0": "[_1]"}),
    "unknown axes, unknown count, dropped": ({"inputs": ["[b, s, h]", ("i64", "[k]")],
                                              "attrs": {"keepdims": 0}},
                                             {"y0": "_1"}),
    # axes as an attribute, before opset 18
    "attribute axes": ({"inputs": ["[b, s, h]"], "attrs": {"axes": [1], "keepdims": 0},
                        "opset": BEFORE}, {"y0": "[b, h]"}),
    "attribute, negative axes": ({"inputs": ["[b, s, h]"], "attrs": {"axes": [-2, 0]},
                                  "opset": BEFORE}, {"y0": "[1, 1, h]"}),
    "attribute absent": ({"inputs": ["[b, s, h]"], "opset": BEFORE}, {"y0": "[1, 1, 1]"}),
    "attribute empty": ({"inputs": ["[b, s, h]"], "attrs": {"axes": [], "keepdims": 0},
                         "opset": BEFORE}, {"y0": "[]"}),
    "noop ignored before opset 18": ({"inputs": ["[b, s]"],
                                           "attrs": {"noop_with_empty_axes": 1},
                                           "opset": BEFORE}, {"y0": "[1, 1]"}),
    # backwards from the output
    "backward, dropped": ({"inputs": ["x", axes(1)], "attrs": {"keepdims": 0},
                           "outputs": {"y0": {"shape": "[4, 5]"}}}, {"x0": "[4, _1, 5]"}),
    "backward, kept": ({"inputs": ["x", axes(-2)], "outputs": {"y0": {"shape": "[4, 1, 5]"}}},
                       {"x0": "[4, _1, 5]"}),
    "backward rank, unknown axes": ({"inputs": ["x", ("i64", "[2]")], "attrs": {"keepdims": 0},
                                     "outputs": {"y0": {"shape": "[4]"}}},
                                    {"x0": "[_1, _2, _3]"}),
    "backward, attribute": ({"inputs": ["x"], "attrs": {"axes": [0], "keepdims": 0},
                             "opset": BEFORE, "outputs": {"y0": {"shape": "[n]"}}},
                            {"x0": "[_1, n]"}),
    # errors
    "axis out of range": ({"inputs": ["[b, s, h]", axes(3)]}, "error"),
    "negative axis out of range": ({"inputs": ["[b, s, h]", axes(-4)]}, "error"),
    "repeated axis": ({"inputs": ["[b, s, h]", axes(1, -2)]}, "error"),
    "more axes than X has": ({"inputs": ["[b, s]", ("i64", "[3]")]}, "error"),
    "axes of a scalar": ({"inputs": ["[]", axes(0)]}, "error"),
    "axes not 1-D": ({"inputs": ["[b, s]", ("i64", "[1, 1]")]}, "error"),
    "axes not int64": ({"inputs": ["[b, s]", ("i32", "[1]")]}, "error"),
    "axes input before opset 18": ({"inputs": ["[b, s]", axes(0)], "opset": BEFORE},
                                        "error"),
    "axes attribute since opset 18": ({"inputs": ["[b, s]"], "attrs": {"axes": [0]}},
                                           "error"),
    "attribute axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axes": [2]},
                                     "opset": BEFORE}, "error"),
    "output rank clash": ({"inputs": ["[b, s, h]", axes(1)],
                           "outputs": {"y0": {"shape": "[b, h]"}}}, "error"),
    "output dim clash": ({"inputs": ["[2, 3]", axes(0)], "attrs": {"keepdims": 0},
                          "outputs": {"y0": {"shape": "[2]"}}}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case(OP, *CASES[name])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # empty means, logs of 0: values only
@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=3), st.lists(st.integers(-4, 3), max_size=3),
       st.integers(0, 1), st.integers(0, 1), st.sampled_from(["input", "absent", "attr"]))
def test_matches_reference(shape, axes_, keepdims, noop, how):
    # axes drawn freely: some are out of range or repeated, which the reference rejects
    x = random_array(shape)
    attrs = {"keepdims": keepdims}
    if how == "attr":
        if axes_:
            attrs["axes"] = axes_
        check_against_reference(OP, [x], attrs, opset=BEFORE)
    elif how == "absent":
        check_against_reference(OP, [x], dict(attrs, noop_with_empty_axes=noop))
    else:
        check_against_reference(OP, [x, axes(*axes_)], dict(attrs, noop_with_empty_axes=noop),
                                const=[1])
