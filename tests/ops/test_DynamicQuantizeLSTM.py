"""DynamicQuantizeLSTM (com.microsoft): rules/DynamicQuantizeLSTM.lp on data cases, and the
rules and the kernel against onnxruntime (which also quantizes X as it runs: values to a
tolerance) on random layers."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime

ABSENT = [None, None, None, None]


def case(inputs, attrs, n_outputs=3, outputs=None):
    spec = {"inputs": inputs, "attrs": attrs, "domain": MS, "n_outputs": n_outputs}
    return {**spec, "outputs": outputs} if outputs else spec


def scales(shape, dtype="i8"):
    return [shape, (dtype, shape), shape, (dtype, shape)]


CASES = {
    "forward, per-direction scales": (
        case([("f32", "[s, b, 8]"), ("i8", "W"), ("i8", "R"), "B"] + ABSENT + scales("[1]"),
             {"hidden_size": 16}),
        {"x1": "[1, 8, 64]", "x2": "[1, 16, 64]", "x3": "[1, 128]", "y0": "[s, 1, b, 16]",
         "y1": "[1, b, 16]", "y2": "[1, b, 16]", "dtypes": {"y0": "f32", "x8": "f32"}}),
    "bidirectional, per-column scales give the hidden size": (
        case([("f32", "[s, b, i]"), ("u8", "W"), ("u8", "R")] + [None] * 5 +
             scales("[2, 20]", "u8"), {"direction": "bidirectional"}),
        {"x1": "[2, i, 20]", "x2": "[2, 5, 20]", "y0": "[s, 2, b, 5]"}),
    "initial states and sequence lengths": (
        case([("f32", "[s, b, i]"), ("i8", "[1, i, 12]"), ("i8", "R"), None, ("i32", "L"),
              "H0", "C0", None] + scales("[1]"), {"hidden_size": 3}),
        {"x4": "[b]", "x5": "[1, b, 3]", "x6": "[1, b, 3]"}),
    "W laid out as LSTM's (gates on axis 1) clashes": (
        case([("f32", "[s, b, 8]"), ("i8", "[1, 64, 8]"), ("i8", "R")] + [None] * 5 +
             scales("[1]"), {"hidden_size": 16}), "error"),
    "float weights": (case([("f32", "[s, b, 8]"), "[1, 8, 64]", "[1, 16, 64]"] + [None] * 5 +
                           scales("[1]"), {"hidden_size": 16}), "error"),
    "a zero point of another type": (
        case([("f32", "[s, b, 8]"), ("i8", "[1, 8, 64]"), ("i8", "[1, 16, 64]")] + [None] * 5
             + ["[1]", ("u8", "[1]"), "[1]", ("i8", "[1]")], {"hidden_size": 16}), "error"),
    "layout is LSTM's only": (case([("f32", "[s, b, 8]"), ("i8", "W"), ("i8", "R")] +
                                   [None] * 5 + scales("[1]"),
                                   {"hidden_size": 16, "layout": 1}), "input error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("DynamicQuantizeLSTM", spec, expected)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), s=st.integers(1, 4), b=st.integers(1, 3),
       i=st.integers(1, 4), h=st.integers(1, 4),
       direction=st.sampled_from(["forward", "reverse", "bidirectional"]),
       per_column=st.booleans(), bias=st.booleans(), states=st.booleans(),
       signed=st.booleans())
def test_matches_onnxruntime(seed, s, b, i, h, direction, per_column, bias, states, signed):
    rng = np.random.default_rng(seed)
    d = 2 if direction == "bidirectional" else 1
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda *shape: rng.integers(lo, hi, shape).astype(dtype)  # noqa: E731
    f = lambda *shape: (rng.standard_normal(shape) * 0.5).astype(np.float32)  # noqa: E731
    cols = (d, 4 * h) if per_column else (d,)
    # (onnxruntime takes int8 weights with a zero point of 0 only, uint8 ones with one
    # zero point for every column)
    zero = (lambda: np.zeros(cols, np.int8) if signed else  # noqa: E731
            np.full(cols, rng.integers(0, 256), np.uint8))
    arrays = [f(s, b, i), q(d, i, 4 * h), q(d, h, 4 * h), f(d, 8 * h) if bias else None,
              None, f(d, b, h) if states else None, f(d, b, h) if states else None, None,
              np.full(cols, 0.01, np.float32), zero(), np.full(cols, 0.01, np.float32),
              zero()]
    check_against_onnxruntime("DynamicQuantizeLSTM", arrays,
                              {"hidden_size": h, "direction": direction}, n_outputs=3,
                              rtol=0.05, atol=0.05)
