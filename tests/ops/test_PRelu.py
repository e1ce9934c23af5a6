"""PRelu: rules/PRelu.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

CASES = {
    "same shapes": ({"inputs": ["[n, c, h, w]", "[n, c, h, w]"]}, {"y0": "[n, c, h, w]"}),
    "per-channel slope": ({"inputs": ["[n, c, h, w]", "[c, 1, 1]"]},
                          {"y0": "[n, c, h, w]", "x1": "[c, 1, 1]"}),
    "scalar slope": ({"inputs": ["[b, 3]", "[]"]}, {"y0": "[b, 3]"}),
    "the slope fixes X's axis": ({"inputs": ["[n, c, h, w]", "[3, 1, 1]"]},
                                 {"x0": "[n, 3, h, w]", "y0": "[n, 3, h, w]"}),
    "a slope symbol that may be 1 stays apart": ({"inputs": ["[n, c]", "[k]"]},
                                                 {"y0": "[n, c]", "x1": "[k]"}),
    "where X's axis is 1, so is the slope's": ({"inputs": ["[n, 1]", "[k]"]},
                                               {"x1": "[1]", "y0": "[n, 1]"}),
    "backward from the output": ({"inputs": ["S", "[3]"], "outputs": {"y0": {"shape": "[b, 3]"}}},
                                 {"x0": "[b, 3]"}),
    "dtype": ({"inputs": [("f16", "[n, 3]"), ("f16", "[3]")]},
              {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
    "dtype mix": ({"inputs": [("f32", "[3]"), ("f64", "[3]")]}, "error"),
    "slope of higher rank": ({"inputs": ["[3]", "[2, 3]"]}, "error"),
    "slope larger than X": ({"inputs": ["[1]", "[3]"]}, "error"),
    "a 1-D channel slope is not unidirectional": ({"inputs": ["[2, 3, 4, 5]", "[3]"]}, "error"),
    "opset 6: Y is X, whatever the slope": ({"inputs": ["[2, 3, 4, 5]", "[3]"], "opset": 6},
                                            {"y0": "[2, 3, 4, 5]"}),
    "one input": ({"inputs": ["[3]"]}, "error"),
}


test_case = case_test("PRelu", CASES)


@st.composite
def x_and_slope(draw):
    """X's shape, and a slope's that broadcasts to it, except where an axis or the rank was
    drawn freely (it may not)."""
    rank = draw(st.integers(0, 4))
    x = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    r = draw(st.integers(0, rank + 1))
    aligned = ([draw(st.integers(1, 3))] + x) if r > rank else x
    slope = [draw(st.sampled_from([d, d, 1, draw(st.integers(1, 5))]))
             for d in aligned[len(aligned) - r:]]
    return x, slope


def unidirectional(x, slope):
    if len(slope) > len(x):
        return False
    return all(s in (1, d) for s, d in zip(slope, x[len(x) - len(slope):]))


@settings(max_examples=20, deadline=None)
@given(x_and_slope(), st.sampled_from(["f16", "f32", "f64"]))
def test_matches_reference(shapes, dtype):
    x, slope = shapes
    if unidirectional(x, slope):
        check_against_reference("PRelu", [random_array(x, dtype), random_array(slope, dtype)])
    else:
        # onnx's reference (and onnxruntime) broadcast both ways, or match a 1-D slope to any
        # axis; the spec allows only unidirectional broadcasting of the slope to X
        assert infer("PRelu", [(dtype, x), (dtype, slope)]).status == "error"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=4), st.data())
def test_opset_6_slope_one_element_channels_or_x(x, data):
    """Before opset 7 the slope is one element, X's channels (axis 1) or X's shape: the rule
    accepts exactly what the kernel runs (PyTorch's PReLU exports at opset 6)."""
    import numpy as np

    from shape_logic.kernels import KernelError, load_kernel

    slope = data.draw(st.sampled_from([[1], x[1:2], list(x), x[-1:]])
                      | st.lists(st.integers(1, 4), max_size=3))
    try:
        (y,) = load_kernel("PRelu")({}, opset=6)(np.ones(x, np.float32) * -1,
                                                  np.ones(slope, np.float32))
    except KernelError:
        y = None
    sol = infer("PRelu", [str(x), str(slope)], opset=6)
    if y is None:
        assert sol.status == "error", (x, slope)
    else:
        assert sol.status == "ok" and sol.shape("y0") == str(list(y.shape)), (x, slope)


def test_opset_6_slope_over_the_channels():
    import numpy as np

    from shape_logic.kernels import load_kernel

    sol = infer("PRelu", ["[n, c, h]", "[3]"], opset=6)
    assert sol.bindings == {"c": 3}  # numpy's alignment would have taken h
    x = -np.ones((2, 3, 4), np.float32)
    (y,) = load_kernel("PRelu")({}, opset=6)(x, np.array([1, 2, 3], np.float32))
    assert np.array_equal(y[0, :, 0], [-1, -2, -3])


def test_a_slope_of_unknown_rank_aligns_its_own_axes_from_0():
    # x and slope of unknown rank: Y annotated [4, 5, a0, s5] gives x's, a Hardmax of the
    # slope annotated [a2 + 1, 1, c] the slope's; its axis 0 (a2 + 1, never 1) is x's axis
    # 1, and rows.lp's name for it from the end (-3) is not x's -2: a0 was bound to 5, and
    # x = [4, 5, 1, 1] with slope [5, 1, 1] called inconsistent (fuzz --backward 6804)
    from shape_logic import solve

    g = {"opset": 18, "inputs": {"x": {"dtype": "f32"}, "slope": {"dtype": "f32"}},
         "nodes": [{"name": "p", "op": "PRelu", "inputs": ["x", "slope"], "outputs": ["y"]},
                   {"name": "h", "op": "Hardmax", "inputs": ["slope"], "outputs": ["z"]}],
         "annotations": {"y": {"shape": "[4, 5, a0, s5]"}},
         "outputs": {"z": {"shape": "[a2 + 1, 1, c]"}}}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("x") == "[4, 5, a0, s5]" and sol.shape("slope") == "[5, 1, c]"
