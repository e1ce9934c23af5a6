"""QLinearMatMul: rules/QLinearMatMul.lp (MatMul.lp's shapes) on data cases, and against
onnx's reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.ops.cases import case_test

OPSET = 21


def q(a, ad, b, bd, yd, scale="f32"):
    """The eight inputs, scales and zero points per tensor."""
    return [(ad, a), (scale, "[]"), (ad, "[]"), (bd, b), (scale, "[]"), (bd, "[]"),
            (scale, "[]"), (yd, "[]")]


CASES = {
    "the output zero point's type": ({"inputs": q("[b, s, 8]", "u8", "[8, 16]", "i8", "i8")},
                                     {"y0": "[b, s, 16]", "dtypes": {"y0": "i8"}}),
    "float16 scales (opset 21)": ({"inputs": q("[m, k]", "i8", "[k, n]", "i8", "u8", "f16")},
                                  {"y0": "[m, n]", "dtypes": {"y0": "u8"}}),
    "float16 scales before opset 21": ({"inputs": q("[m, k]", "i8", "[k, n]", "i8", "u8",
                                                    "f16"), "opset": 10}, "error"),
    "float8 before opset 21": ({"inputs": q("[m, k]", "f8e4m3fn", "[k, n]", "f8e4m3fn",
                                            "f8e4m3fn"), "opset": 10}, "error"),
    "backward: the contracted axis": ({"inputs": q("[m, k]", "u8", "[4, n]", "u8", "u8")},
                                      {"x0": "[m, 4]"}),
    "contracted axes differ": ({"inputs": q("[2, 3]", "u8", "[4, 5]", "u8", "u8")}, "error"),
    "a zero point of another type": ({"inputs": q("[2, 3]", "u8", "[3, 5]", "u8", "u8")[:2]
                                      + [("i8", "[]")] + q("[2, 3]", "u8", "[3, 5]", "u8",
                                                           "u8")[3:]}, "error"),
    "seven inputs": ({"inputs": q("[2, 3]", "u8", "[3, 5]", "u8", "u8")[:7]}, "error"),
}


test_case = case_test("QLinearMatMul", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.lists(st.integers(1, 3), max_size=2),
       st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_matches_reference(ra, rb, batch, m, k, n, signed, seed):
    rng = np.random.default_rng(seed)
    t = np.int8 if signed else np.uint8
    lo, hi = (-128, 127) if signed else (0, 255)
    a = rng.integers(lo, hi, (batch + [m, k])[-ra:] if ra > 1 else [k]).astype(t)
    b = rng.integers(lo, hi, (batch + [k, n])[-rb:] if rb > 1 else [k]).astype(t)
    f = np.float32
    inputs = [a, f(0.05), t(3), b, f(0.02), t(5), f(rng.uniform(0.1, 2)), t(9)]
    check_against_reference("QLinearMatMul", inputs, None, opset=OPSET)
