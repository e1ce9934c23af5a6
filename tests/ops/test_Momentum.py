"""Momentum (ai.onnx.preview.training): rules/Momentum.lp on data cases, and the rule
against onnx's reference and our kernel (shapes, types, values)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.ops.optimizers import check_step, spec as spec_
from tests.ops.cases import case_test

STANDARD = {"alpha": 0.95, "beta": 0.1, "mode": "standard", "norm_coefficient": 0.001}


def spec(groups, n_outputs, scalars=None, **attrs):
    """The node with the required attributes (those given replace them)."""
    return spec_(groups, n_outputs, *([scalars] if scalars else []), **{**STANDARD, **attrs})

CASES = {
    "one tensor": (spec([["[b, n]"], ["G"], ["V"]], 2), {"y0": "[b, n]", "y1": "[b, n]",
                                                        "x3": "[b, n]", "x4": "[b, n]"}),
    "two tensors, nesterov": (spec([["[m]", "[k, 3]"], ["G1", "G2"], ["V1", "V2"]], 4,
                                   mode="nesterov"),
                    {"y0": "[m]", "y1": "[k, 3]", "y2": "[m]", "y3": "[k, 3]", "x5": "[k, 3]"}),
    "double, R of one element": (
        spec([[("f64", "[4]")], [("f64", "G")], [("f64", "V")]], 2,
             [("f64", "[1]"), ("i64", "[]")]),
        {"y1": "[4]", "dtypes": {"y0": "f64", "y1": "f64"}}),
    "the shape back from an output": (
        {**spec([["X"], ["G"], ["V"]], 2), "outputs": {"y1": {"shape": "[2, 5]"}}},
        {"x2": "[2, 5]", "y0": "[2, 5]"}),
    # errors
    "a gradient of another shape": (spec([["[3]"], ["[4]"], ["V"]], 2), "error"),
    "one input too many": (spec([["[3]", "[3]"], ["[3]"], ["[3]"]], 2), "error"),
    "one output too few": (spec([["[3]"], ["G"], ["V"]], 1), "error"),
    "R of two elements": (spec([["[3]"], ["G"], ["V"]], 2, [("f32", "[2]"), ("i64", "[]")]),
                          "error"),
    "T of floats": (spec([["[3]"], ["G"], ["V"]], 2, [("f32", "[]"), ("f32", "[]")]), "error"),
    "integer tensors": (spec([[("i32", "[3]")], [("i32", "[3]")], [("i32", "[3]")]], 2), "error"),
    "mode unknown": (spec([["[3]"], ["G"], ["V"]], 2, mode="adam"), "error"),
    "no alpha": ({**spec([["[3]"], ["G"], ["V"]], 2), "attrs": {"beta": 0.1, "mode": "standard",
                                                               "norm_coefficient": 0.0}}, "error"),
    "a float and a double": (spec([["[3]"], [("f64", "[3]")], ["V"]], 2), "error"),
}


test_case = case_test("Momentum", CASES)


shapes = st.lists(st.lists(st.integers(1, 4), max_size=3), min_size=1, max_size=3)


@settings(max_examples=25, deadline=None)
@given(shapes=shapes, dtype=st.sampled_from(["f32", "f64"]), t=st.integers(0, 3),
       broken=st.booleans(), seed=st.integers(0, 2**16),
       attrs=st.sampled_from([STANDARD, {**STANDARD, "mode": "nesterov"},
                              {"alpha": 0.5, "beta": 1.0, "mode": "nesterov",
                               "norm_coefficient": 0.0}]))
def test_matches_reference(shapes, dtype, t, broken, seed, attrs):
    check_step("Momentum", 3, 2, attrs, shapes, dtype, t, broken, np.random.default_rng(seed))
