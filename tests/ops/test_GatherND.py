"""GatherND: rules/GatherND.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import shape_logic
from shape_logic.kernels.GatherND import GatherND
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "full coordinates: elements": ({"inputs": ["[a, b]", ("i64", "[n, 2]")]}, {"y0": "[n]"}),
    "one coordinate: rows": ({"inputs": ["[a, b, c]", ("i64", "[n, m, 1]")]},
                             {"y0": "[n, m, b, c]"}),
    "batch_dims": ({"inputs": ["[b, s, d]", ("i64", "[b, k, 1]")], "attrs": {"batch_dims": 1}},
                   {"y0": "[b, k, d]"}),
    "batch axes are shared": ({"inputs": ["[b, s, d]", ("i64", "[q, k, 1]")],
                               "attrs": {"batch_dims": 1}}, {"x1": "[b, k, 1]"}),
    "too many coordinates": ({"inputs": ["[a, b]", ("i64", "[n, 3]")]}, "error"),
    "scalar indices": ({"inputs": ["[a, b]", ("i64", "[]")]}, "error"),
}


test_case = case_test("GatherND", CASES)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
def test_matches_reference(shape, data):
    b = data.draw(st.integers(0, len(shape) - 1))
    k = data.draw(st.integers(1, len(shape) - b))
    extra = data.draw(st.lists(st.integers(1, 3), max_size=2))
    rng = np.random.default_rng(len(shape))
    idx_shape = shape[:b] + extra + [k]
    idx = np.stack([rng.integers(0, shape[b + j], size=idx_shape[:-1]) for j in range(k)],
                   axis=-1).astype(np.int64)
    check_against_reference("GatherND", [random_array(shape), idx], {"batch_dims": b})


def test_a_negative_batch_dims_or_no_index_axis_is_refused_by_rule_and_kernel():
    for k, b, reason in ((2, -1, "batch_dims must not be negative: -1"),
                         (0, 0, "its indices' last axis is empty")):
        g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3, 4]"},
                        "i": {"dtype": "i64", "shape": f"[5, {k}]"}},
             "nodes": [{"name": "g", "op": "GatherND", "inputs": ["x", "i"], "outputs": ["y"],
                        "attrs": {"batch_dims": b}}]}
        (d,) = shape_logic.solve(g).diagnostics
        assert d.message.startswith('GatherND "g": ' + reason)
        with pytest.raises(Exception, match="do not fit"):
            GatherND().run(np.zeros((2, 3, 4), np.float32), np.zeros((5, k), np.int64),
                           batch_dims=b)
