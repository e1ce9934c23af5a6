"""BiasGelu (com.microsoft): rules/BiasGelu.lp on data cases, and against onnxruntime."""
import numpy as np
import pytest

from tests.contrib_ops import check_against_ort, infer_contrib

CASES = {
    "bias over the last axis": (["[b, s, 64]", "[64]"], "[b, s, 64]"),
    "symbolic hidden size": (["[b, s, d]", "[d]"], "[b, s, d]"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, want = CASES[name]
    assert infer_contrib("BiasGelu", inputs).shape("y0") == want


def test_bias_of_another_size_is_an_error():
    assert infer_contrib("BiasGelu", ["[b, s, 64]", "[32]"]).status == "error"


@pytest.mark.parametrize("shape", [(2, 3, 8), (1, 8)])
def test_matches_onnxruntime(shape):
    rng = np.random.default_rng(0)
    check_against_ort("BiasGelu", [rng.standard_normal(shape).astype(np.float32),
                                   rng.standard_normal(shape[-1:]).astype(np.float32)])
