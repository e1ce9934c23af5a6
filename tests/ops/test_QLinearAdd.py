"""QLinearAdd and QLinearMul (com.microsoft): rules on data cases (a broadcast), and the rules
and the kernels against onnxruntime on random quantized tensors (within one step of
rounding: onnxruntime computes in float32)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime


def case(a, b, dtype="u8", zero=True):
    z = (dtype, "[]") if zero else None
    return {"inputs": [(dtype, a), "SA", z, (dtype, b), "SB", z, "SC", z], "domain": MS}


CASES = {
    "a bias along the last axis": (case("[b, s, 4]", "[4]"),
                                   {"y0": "[b, s, 4]", "x1": "[]", "x5": "[]",
                                    "dtypes": {"y0": "u8", "x1": "f32"}}),
    "both broadcast": (case("[b, 1, 4]", "[3, 1]"), {"y0": "[b, 3, 4]"}),
    "int8": (case("[n]", "[n]", "i8"), {"dtypes": {"y0": "i8", "x2": "i8"}}),
    "no broadcast": (case("[b, 2, 4]", "[3, 1]"), "error"),
    "float tensors": (case("[n]", "[n]", "f32"), "error"),
    "uint8 and int8": ({"inputs": [("u8", "[n]"), "SA", ("u8", "[]"), ("i8", "[n]"), "SB",
                                   ("i8", "[]"), "SC", ("u8", "[]")], "domain": MS}, "error"),
    "a per-axis scale": ({"inputs": [("u8", "[n]"), "[3]", ("u8", "[]"), ("u8", "[n]"), "[]",
                                     ("u8", "[]"), "[]", ("u8", "[]")], "domain": MS}, "error"),
}


@pytest.mark.parametrize("op", ["QLinearAdd", "QLinearMul"])
@pytest.mark.parametrize("name", CASES)
def test_case(op, name):
    spec, expected = CASES[name]
    check_case(op, spec, expected)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), op=st.sampled_from(["QLinearAdd", "QLinearMul"]),
       shapes=st.sampled_from([((2, 3), (3,)), ((4, 1, 3), (2, 1)), ((), (5,)), ((2, 2), (2, 2))]),
       signed=st.booleans(), swap=st.booleans())
def test_matches_onnxruntime(seed, op, shapes, signed, swap):
    rng = np.random.default_rng(seed)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    a_shape, b_shape = shapes[::-1] if swap else shapes
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    scale = lambda: np.float32(rng.random() * 0.1 + 0.01)  # noqa: E731
    arrays = [q(a_shape), scale(), q(()), q(b_shape), scale(), q(()), scale(), q(())]
    # one step of the output's rounding apart at most (a float32 product against float64)
    assert check_against_onnxruntime(op, arrays, rtol=0, atol=1) is not None


def test_onnxruntime_rejects_what_the_rules_reject():
    u8 = lambda *s: np.zeros(s, np.uint8)  # noqa: E731
    s = np.float32(0.1)
    arrays = [u8(2, 3), s, u8(), u8(4), s, u8(), s, u8()]
    assert check_against_onnxruntime("QLinearAdd", arrays) is None
