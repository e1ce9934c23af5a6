"""Inverse (com.microsoft): rules/Inverse.lp on data cases, and the rules and the kernel
against onnxruntime on random stacks of matrices."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "a batch of matrices, symbolic": ({"inputs": ["[b, n, n]"]}, {"y0": "[b, n, n]"}),
    "square: one axis from the other": ({"inputs": ["[2, k, 4]"]},
                                        {"x0": "[2, 4, 4]", "y0": "[2, 4, 4]"}),
    "two symbols made one": ({"inputs": ["[n, m]"]}, {"x0": "[m, m]", "y0": "[m, m]"}),
    "backward from the output": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[5, 3, 3]"}}},
                                 {"x0": "[5, 3, 3]"}),
    "a row: any batch axes": ({"inputs": ["s@[n, m]"]}, {"x0": "s@[m, m]", "y0": "s@[m, m]"}),
    "a row of one known axis has two": ({"inputs": ["s@[m]"]}, {"y0": "_1@[m, m]"}),
    "f16 kept": ({"inputs": [("f16", "[3, 3]")]}, {"dtypes": {"y0": "f16"}}),
    "f64 kept": ({"inputs": [("f64", "[b, 2, 2]")]}, {"dtypes": {"y0": "f64"}}),
    "not square": ({"inputs": ["[2, 3]"]}, "error"),
    "not square, batched": ({"inputs": ["[4, 2, 3]"]}, "error"),
    "a vector": ({"inputs": ["[3]"]}, "error"),
    "a scalar": ({"inputs": ["[]"]}, "error"),
    "integer elements": ({"inputs": [("i32", "[3, 3]")]}, "error"),
    "bfloat16 (not in onnxruntime's types)": ({"inputs": [("bf16", "[3, 3]")]}, "error"),
    "two inputs": ({"inputs": ["[3, 3]", "[3, 3]"]}, "error"),
}


test_case = case_test("Inverse", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), batch=st.lists(st.integers(1, 3), max_size=2),
       m=st.integers(1, 4), dtype=st.sampled_from([np.float32, np.float64, np.float16]))
def test_matches_onnxruntime(seed, batch, m, dtype):
    # well-conditioned matrices (dominant diagonals): float16's inverses stay close
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(batch + [m, m]) + 2 * m * np.eye(m)
    tol = 1e-2 if dtype == np.float16 else 1e-5
    want = check_against_onnxruntime("Inverse", [x.astype(dtype)], rtol=tol, atol=tol)
    assert want is not None


@pytest.mark.parametrize("shape", [(2, 3), (3,), (), (2, 1, 3)])
def test_onnxruntime_rejects_what_the_rules_reject(shape):
    x = np.ones(shape, np.float32)
    assert check_against_onnxruntime("Inverse", [x]) is None


@pytest.mark.parametrize("shape", [(0, 0), (0, 2, 2), (3, 1, 1)])
def test_empty_and_one_by_one_matrices(shape):
    x = np.full(shape, 2.0, np.float32)
    assert check_against_onnxruntime("Inverse", [x]) is not None


def test_a_singular_matrix_gives_no_error():
    # onnxruntime's LU gives inf/nan there; the kernel gives nan, and inverts the others
    from shape_logic.kernels import load_kernel

    x = np.stack([np.zeros((2, 2)), 2 * np.eye(2)]).astype(np.float32)
    (y,) = load_kernel("Inverse")({}, domain=MS)(x)
    assert np.isnan(y[0]).all() and np.allclose(y[1], 0.5 * np.eye(2))
