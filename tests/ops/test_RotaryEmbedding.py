"""RotaryEmbedding (com.microsoft, and ONNX opset 23's): Y is X's shape; the kernel
against onnxruntime."""
import numpy as np
import pytest

from shape_logic.kernels import load_kernel
from shape_logic.testing import infer
from tests.contrib_ops import check_against_ort, infer_contrib


def test_shape_kept_and_caches_alike():
    sol = infer_contrib("RotaryEmbedding", ["[b, s, 64]", ("i64", "[b, s]"), "[m, 8]", "C"],
                        {"num_heads": 4})
    assert sol.shape("y0") == "[b, s, 64]" and sol.shape("x3") == "[m, 8]"
    onnx_form = infer("RotaryEmbedding", ["[b, 4, s, 16]", "[m, 8]", "C",
                                          ("i64", "[b, s]")], opset=23)
    assert onnx_form.shape("y0") == "[b, 4, s, 16]" and onnx_form.shape("x2") == "[m, 8]"
    assert infer_contrib("RotaryEmbedding", ["[b, 64]", ("i64", "[1]"), "[m, 8]",
                                             "[m, 8]"]).status == "error"


@pytest.mark.parametrize("interleaved", [0, 1])
def test_kernel_matches_onnxruntime(interleaved):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 32)).astype(np.float32)
    pos = np.array([[0, 1, 2], [3, 4, 5]], np.int64)
    cos = rng.standard_normal((8, 4)).astype(np.float32)
    sin = rng.standard_normal((8, 4)).astype(np.float32)
    attrs = {"interleaved": interleaved, "num_heads": 4}
    (want,) = check_against_ort("RotaryEmbedding", [x, pos, cos, sin], attrs)
    kernel = load_kernel("RotaryEmbedding")(attrs)
    kernel.microsoft = True
    (got,) = kernel(x, pos, cos, sin)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
