"""MatMulInteger: rules/MatMulInteger.lp (MatMul.lp's shapes) on data cases, and against
onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "batched by a matrix": ({"inputs": [("u8", "[b, s, 8]"), ("i8", "[8, 16]")]},
                            {"y0": "[b, s, 16]", "dtypes": {"y0": "i32"}}),
    "zero points": ({"inputs": [("u8", "[m, k]"), ("u8", "[k, n]"), ("u8", "[]"),
                                ("u8", "[n]")]}, {"y0": "[m, n]"}),
    "vector by matrix": ({"inputs": [("i8", "[k]"), ("i8", "[k, n]")]}, {"y0": "[n]"}),
    "backward: the contracted axis": ({"inputs": [("u8", "[m, k]"), ("i8", "[4, n]")]},
                                      {"x0": "[m, 4]"}),
    "contracted axes differ": ({"inputs": [("u8", "[2, 3]"), ("i8", "[4, 5]")]}, "error"),
    "float operands": ({"inputs": ["[2, 3]", "[3, 5]"]}, "error"),
    "a zero point of another type": ({"inputs": [("u8", "[2, 3]"), ("u8", "[3, 5]"),
                                                 ("i8", "[]")]}, "error"),
    "output dtype clashes": ({"inputs": [("u8", "[2, 3]"), ("u8", "[3, 5]")],
                              "outputs": {"y0": {"dtype": "i64"}}}, "error"),
}


test_case = case_test("MatMulInteger", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.lists(st.integers(1, 3), max_size=2),
       st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_matches_reference(ra, rb, batch, m, k, n, zeros, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 255, (batch + [m, k])[-ra:] if ra > 1 else [k]).astype(np.uint8)
    b = rng.integers(-128, 127, (batch + [k, n])[-rb:] if rb > 1 else [k]).astype(np.int8)
    inputs = [a, b] + ([np.uint8(7), np.int8(-2)] if zeros else [])
    check_against_reference("MatMulInteger", inputs, None, opset=OPSET)
