"""Adam (ai.onnx.preview.training): rules/Adam.lp on data cases, and the rule against
onnx's reference and our kernel (shapes, types, values)."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from tests.ops.optimizers import check_step, spec
from tests.ops.cases import case_test

CASES = {
    "one tensor": (spec([["[b, n]"], ["G"], ["V"], ["H"]], 3),
                   {"y0": "[b, n]", "y1": "[b, n]", "y2": "[b, n]", "x5": "[b, n]"}),
    "two tensors": (spec([["[m]", "[k, 3]"], ["G1", "G2"], ["V1", "V2"], ["H1", "H2"]], 6,
                         alpha=0.95),
                    {"y0": "[m]", "y1": "[k, 3]", "y3": "[k, 3]", "y4": "[m]", "x9": "[k, 3]"}),
    "double": (spec([[("f64", "[4]")], [("f64", "G")], [("f64", "V")], [("f64", "H")]], 3,
                    [("f64", "[]"), ("i64", "[1]")]),
               {"y2": "[4]", "dtypes": {"y0": "f64", "y2": "f64"}}),
    "the shape back from an output": (
        {**spec([["X"], ["G"], ["V"], ["H"]], 3), "outputs": {"y2": {"shape": "[2, 5]"}}},
        {"x2": "[2, 5]", "y0": "[2, 5]"}),
    # errors
    "a momentum of another shape": (spec([["[3]"], ["G"], ["[2]"], ["H"]], 3), "error"),
    "Adagrad's inputs": (spec([["[3]"], ["[3]"], ["[3]"]], 3), "error"),
    "one input too many": (spec([["[3]", "[3]"], ["[3]"], ["[3]"], ["[3]"]], 3), "error"),
    "two outputs": (spec([["[3]"], ["G"], ["V"], ["H"]], 2), "error"),
    "T of two elements": (spec([["[3]"], ["G"], ["V"], ["H"]], 3,
                               [("f32", "[]"), ("i64", "[2]")]), "error"),
    "R a matrix": (spec([["[3]"], ["G"], ["V"], ["H"]], 3, [("f32", "[1, 1]"), ("i64", "[]")]),
                   "error"),
    "float16 tensors": (spec([[("f16", "[3]")], [("f16", "G")], [("f16", "V")], [("f16", "H")]],
                             3), "error"),
}


test_case = case_test("Adam", CASES)


shapes = st.lists(st.lists(st.integers(1, 4), max_size=3), min_size=1, max_size=3)


@settings(max_examples=25, deadline=None)
@given(shapes=shapes, dtype=st.sampled_from(["f32", "f64"]), t=st.integers(0, 3),
       broken=st.booleans(), seed=st.integers(0, 2**16),
       attrs=st.sampled_from([{}, {"alpha": 0.95, "beta": 0.85, "epsilon": 1e-2,
                                   "norm_coefficient": 0.001, "norm_coefficient_post": 0.01}]))
def test_matches_reference(shapes, dtype, t, broken, seed, attrs):
    """(onnx's reference gives X_new in double for one float tensor when T > 0, and float
    for several double ones; the operator's outputs have the inputs' type, as the rule
    and our kernel say: those cases are left to test_kernel_keeps_the_type)"""
    assume(dtype == "f32" if len(shapes) > 1 else dtype == "f64" or t == 0)
    check_step("Adam", 4, 3, attrs, shapes, dtype, t, broken, np.random.default_rng(seed))


@pytest.mark.parametrize("dtype, n", [(np.float32, 1), (np.float64, 2)])
def test_kernel_keeps_the_type(dtype, n):
    from shape_logic.kernels import node_kernel
    from shape_logic.testing import reference_outputs

    rng = np.random.default_rng(0)
    tensors = [np.abs(rng.standard_normal(3)).astype(dtype) for _ in range(4 * n)]
    arrays = [np.array(0.1, dtype), np.array(2, np.int64), *tensors]
    got = node_kernel("Adam", "ai.onnx.preview.training", {}, 18, 3 * n)(*arrays)
    want = reference_outputs("Adam", arrays, {}, n_outputs=3 * n,
                             domain="ai.onnx.preview.training")
    assert all(g.dtype == dtype for g in got)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w.astype(dtype), rtol=1e-5, atol=1e-6)  # (w: float32)
