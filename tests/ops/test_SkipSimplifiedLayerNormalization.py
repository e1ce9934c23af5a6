"""SkipSimplifiedLayerNormalization (com.microsoft): rules on data cases, and the rules and
the kernel against onnxruntime on random shapes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime

OP = "SkipSimplifiedLayerNormalization"


def case(inputs, n_outputs=1, outputs=None):
    spec = {"inputs": inputs, "n_outputs": n_outputs, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "every output": (case(["[b, s, h]", "SK", "G", "B"], 4),
                     {"y0": "[b, s, h]", "y1": "[b, s, 1]", "y2": "[b, s, 1]", "y3": "[b, s, h]",
                      "x2": "[h]", "x3": "[h]"}),
    "genai's layers: output and the sum only": (
        case(["[b, s, 3072]", "[b, s, 3072]", "G"], 4), {"y3": "[b, s, 3072]", "x2": "[3072]"}),
    "tokens, 2-D": (case(["[t, h]", "[t, h]", "G"], 3), {"y0": "[t, h]", "y2": "[t, 1]"}),
    "a 2-D skip for a 3-D input": (case(["[b, s, h]", "[n, m]", "G"]),
                                   {"x1": "[n, h]", "bindings": {"s": "n", "m": "h"}}),
    "a 3-D skip's batch is not derived (it may be 1)": (case(["[b, s, h]", "[n, s, h]", "G"]),
                                                         {"x1": "[n, s, h]"}),
    "float16, float32 statistics": (
        case([("f16", "[b, s, h]"), ("f16", "SK"), ("f16", "G")], 3),
        {"dtypes": {"y0": "f16", "y1": "f32", "y2": "f32"}}),
    "backward from the output": (case(["X", "SK", "G"], outputs={"y0": {"shape": "[b, s, 8]"}}),
                                 {"x0": "[b, s, 8]", "x2": "[8]"}),
    "a 4-D input": (case(["[a, b, s, h]", "[b, s, h]", "G"]), "error"),
    "a 1-D skip": (case(["[b, s, h]", "[h]", "G"]), "error"),
    "skip's rows": (case(["[b, 3, 8]", "[b, 4, 8]", "G"]), "error"),
    "gamma's size": (case(["[b, s, 8]", "SK", "[4]"]), "error"),
    "bias's size": (case(["[b, s, 8]", "SK", "G", "[4]"]), "error"),
    "gamma of another type": (case(["[b, s, 8]", "SK", ("f16", "G")]), "error"),
    "integer input": (case([("i32", "[b, s, 8]"), ("i32", "SK"), ("i32", "G")]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(1, 4), min_size=1, max_size=2),
       h=st.integers(1, 9), skip=st.sampled_from(["same", "rows", "batch 1"]),
       bias=st.booleans(), f16=st.booleans(), n_out=st.integers(1, 4))
def test_matches_onnxruntime(seed, lead, h, skip, bias, f16, n_out):
    rng = np.random.default_rng(seed)
    dtype = np.float16 if f16 else np.float32
    shape = tuple(lead) + (h,)
    skip_shape = {"same": shape, "rows": shape[-2:], "batch 1": (1,) + shape[-2:]}[skip]
    f = lambda *s: rng.standard_normal(s).astype(dtype)  # noqa: E731
    arrays = [f(*shape), f(*skip_shape), f(h), f(h) if bias else None]
    tol = 3e-3 if f16 else 1e-5
    want = check_against_onnxruntime(OP, arrays, {"epsilon": 1e-5}, n_out, rtol=tol, atol=tol)
    # a 2-D input takes a skip of its shape only (both reject a 3-D one)
    assert (want is None) == (len(lead) == 1 and skip == "batch 1")


@pytest.mark.parametrize("shapes, where", [
    (((2, 3, 8), (8,), (8,)), "a 1-D skip"), (((2, 3, 8), (2, 3, 8), (4,)), "gamma's size"),
    (((1, 2, 3, 8), (1, 2, 3, 8), (8,)), "a 4-D input"),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, where):
    arrays = [np.ones(s, np.float32) for s in shapes]
    assert check_against_onnxruntime(OP, arrays, {}) is None, where
