"""FastGelu (com.microsoft): rules/FastGelu.lp on data cases, and against onnxruntime."""
import numpy as np
import pytest

from tests.contrib_ops import check_against_ort, infer_contrib


def test_shape_kept_and_bias_over_the_last_axis():
    sol = infer_contrib("FastGelu", ["[b, s, d]", "B"])
    assert sol.shape("y0") == "[b, s, d]" and sol.shape("x1") == "[d]"
    assert infer_contrib("FastGelu", ["[b, s, d]"]).shape("y0") == "[b, s, d]"
    assert infer_contrib("FastGelu", ["[b, s, 8]", "[4]"]).status == "error"


@pytest.mark.parametrize("with_bias", [False, True])
def test_matches_onnxruntime(with_bias):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 8)).astype(np.float32)
    arrays = [x] + ([rng.standard_normal(8).astype(np.float32)] if with_bias else [])
    check_against_ort("FastGelu", arrays)
