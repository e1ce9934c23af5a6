"""The tests NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share (one set of shape
rules: NegativeLogLikelihoodLoss.lp's class_loss): data cases, and the rules against onnx's
reference on random shapes, weights and ignored targets (the kernels' values:
tests/kernels/test_losses.py)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case

CASES = {
    "2-D, mean": ({"inputs": ["[n, c]", ("i64", "[n]")]}, {"y0": "[]"}),
    "per element": ({"inputs": ["[n, c, h, w]", ("i64", "[n, h, w]")],
                     "attrs": {"reduction": "none"}}, {"y0": "[n, h, w]"}),
    "sum, weights": ({"inputs": [("f64", "[n, c, d]"), ("i32", "[n, d]"), ("f64", "[c]")],
                      "attrs": {"reduction": "sum"}}, {"y0": "[]", "dtypes": {"y0": "f64"}}),
    "backward: the targets from the input": ({"inputs": ["[2, 5, 7]", ("i64", "T")],
                                              "attrs": {"reduction": "none"}},
                                             {"x1": "[2, 7]", "y0": "[2, 7]"}),
    "backward: the input's batch from the loss": ({"inputs": ["[n, c]", ("i64", "[m]")],
                                                   "attrs": {"reduction": "none"},
                                                   "outputs": {"y0": {"shape": "[4]"}}},
                                                  {"x0": "[4, c]", "x1": "[4]"}),
    "backward: the input's rank from the targets": ({"inputs": ["X", ("i64", "[n, d]")]},
                                                   {"x0": "[n, _1, d]"}),
    "weights: one per class": ({"inputs": ["[n, 3]", ("i64", "[n]"), "[W]"]}, {"x2": "[3]"}),
    "a vector input": ({"inputs": ["[c]", ("i64", "[]")]}, "error"),
    "targets of another batch": ({"inputs": ["[2, 3]", ("i64", "[5]")]}, "error"),
    "targets of another rank": ({"inputs": ["[2, 3, 4]", ("i64", "[2]")]}, "error"),
    "float targets": ({"inputs": ["[2, 3]", "[2]"]}, "error"),
    "integer input": ({"inputs": [("i64", "[2, 3]"), ("i64", "[2]")]}, "error"),
    "weights of another class count": ({"inputs": ["[2, 3]", ("i64", "[2]"), "[4]"]}, "error"),
    "unknown reduction": ({"inputs": ["[2, 3]", ("i64", "[2]")], "attrs": {"reduction": "max"}},
                          "error"),
}


def class_loss_tests(op: str, n_outputs: int):
    """test_case and test_matches_reference of a class loss with up to n_outputs outputs."""
    @pytest.mark.parametrize("name", CASES)
    def test_case(name):
        check_case(op, *CASES[name])

    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.integers(1, 3), min_size=2, max_size=4), st.booleans(),
           st.sampled_from(["none", "sum", "mean"]), st.sampled_from([None, 0, 1]),
           st.integers(1, n_outputs), st.integers(0, 2**32 - 1))
    def test_matches_reference(shape, weighted, reduction, ignore_index, outputs, seed):
        rng = np.random.default_rng(seed)
        x = rng.standard_normal(shape).astype(np.float32)
        target = rng.integers(0, shape[1], [shape[0]] + shape[2:]).astype(np.int64)
        arrays = [x, target] + ([rng.random(shape[1]).astype(np.float32)] if weighted else [])
        if ignore_index is not None and ignore_index < shape[1] and np.all(target == ignore_index):
            target[(0,) * target.ndim] = (ignore_index + 1) % shape[1]  # (no 0/0 mean)
            if np.all(target == ignore_index):
                return
        attrs = {"reduction": reduction}
        if ignore_index is not None:
            attrs["ignore_index"] = ignore_index
        check_against_reference(op, arrays, attrs, n_outputs=outputs, const=(1,))

    return test_case, test_matches_reference
