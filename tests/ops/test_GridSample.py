"""GridSample: rules/GridSample.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 20
CASES = {
    "2-d": ({"inputs": ["[n, c, h, w]", "[n, oh, ow, 2]"]}, {"y0": "[n, c, oh, ow]"}),
    "3-d, the grid from X": ({"inputs": ["[n, c, d, h, w]", "G"]},
                             {"x1": "[n, _1, _2, _3, 3]", "y0": "[n, c, _1, _2, _3]"}),
    "X's type, float grid": ({"inputs": [("i32", "[1, 2, 3, 4]"), ("f16", "[1, 5, 6, 2]")]},
                             {"y0": "[1, 2, 5, 6]", "dtypes": {"y0": "i32"}}),
    "backward: the grid from the output": ({"inputs": ["[2, 3, 8, 8]", "G"],
                                            "outputs": {"y0": {"shape": "[2, 3, 4, 5]"}}},
                                           {"x1": "[2, 4, 5, 2]"}),
    "opset 16: 2-d only": ({"inputs": ["[1, 2, 3, 4, 5]", "[1, 2, 3, 4, 3]"], "opset": 16},
                           "error"),
    "coordinates of another count": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 3]"]}, "error"),
    "batches differ": ({"inputs": ["[1, 2, 3, 4]", "[2, 5, 6, 2]"]}, "error"),
    "an integer grid": ({"inputs": ["[1, 2, 3, 4]", ("i64", "[1, 5, 6, 2]")]}, "error"),
    "an unknown mode": ({"inputs": ["[1, 2, 3, 4]", "[1, 5, 6, 2]"], "attrs": {"mode": "area"}},
                        "error"),
    "no spatial axis": ({"inputs": ["[1, 2]", "[1, 0]"]}, "error"),
}


test_case = case_test("GridSample", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(2, 4), min_size=1, max_size=3), st.data(),
       st.sampled_from(["nearest", "linear", "cubic"]),
       st.sampled_from(["zeros", "border", "reflection"]), st.booleans())
def test_matches_reference(spatial, data, mode, padding, align):
    # spatial sizes from 2: the reference divides by zero reflecting on a size-1 axis with
    # align_corners (the kernel keeps such a position at the pixel)
    n, c = data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3))
    out = [data.draw(st.integers(1, 3)) for _ in spatial]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    grid = rng.uniform(-1.2, 1.2, [n] + out + [len(spatial)])
    check_against_reference("GridSample", [random_array([n, c] + spatial),
                                           grid.astype(np.float32)],
                            {"mode": mode, "padding_mode": padding, "align_corners": int(align)},
                            opset=OPSET)
