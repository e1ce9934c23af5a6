"""Mean: rules/Mean.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array

from .elementwise import operand_shapes, variadic_cases
from tests.ops.cases import case_test

OPSET = 18
CASES = variadic_cases("f16", "f32")


test_case = case_test("Mean", CASES)


@settings(max_examples=20, deadline=None)
@given(operand_shapes(None), st.sampled_from(["f16", "f32", "f64"]))
def test_matches_reference(shapes, dtype):
    arrays = [random_array(s, dtype) for s in shapes]
    try:
        full = np.broadcast_shapes(*map(tuple, shapes))
    except ValueError:
        full = None
    if full is not None and tuple(shapes[0]) != full:
        # onnx's reference Mean adds in place into a copy of the first input, so it fails when
        # that input does not have the broadcast shape: compare with numpy's broadcast instead
        sol = infer("Mean", [(dtype, list(s)) for s in shapes], opset=OPSET)
        assert sol.shape("y0") == "[" + ", ".join(map(str, full)) + "]"
        assert sol.dtype("y0") == dtype
        return
    check_against_reference("Mean", arrays, opset=OPSET)
