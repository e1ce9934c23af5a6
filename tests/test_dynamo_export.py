"""Models exported by torch.export's ONNX exporter (torch.onnx.export's default since torch
2.9): it writes sizes as Shape(start, end) -> Squeeze -> Div and reshapes with
allowzero = 1, and declares an RNN's output with the traced length where the input's is
dynamic. Every shape exact and right at two sizes (onnxruntime). Skipped without torch or
onnxscript (which that exporter needs; both in the `bench` extra)."""
import os
import sys

import pytest

from shape_logic import run, solve

from .onnx_graphs import assert_every_dim_determined, assert_runtime_shapes, runtime_shapes

pytest.importorskip("torch")
pytest.importorskip("onnxscript")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import torch_models  # noqa: E402


@pytest.fixture(scope="module")
def dynamo():
    torch_models.use_dynamo(True)
    try:
        yield lambda name: torch_models.MODELS[name]()
    finally:
        torch_models.use_dynamo(False)


@pytest.mark.parametrize("name, output, shape, warned", [
    # the patches: Reshape(conv, [b, 32, (h//4)*(w//4)]) with allowzero = 1
    ("vit", "y", "[batch, 10]", False),
    # y is declared [batch, 5, 4]: set aside, with a warning
    ("lstm", "y", "[batch, seq, 4]", True),
])
def test_exact_and_right_at_two_sizes(dynamo, name, output, shape, warned):
    model, feeds = dynamo(name)
    sol = solve(model)
    assert sol.status == "ok" and sol.bindings == {}
    assert bool(sol.warnings) == warned
    assert all("would require seq = 5" in w for w in sol.warnings)
    assert_every_dim_determined(sol)
    assert sol.shape(output) == shape
    for f in feeds:
        assert_runtime_shapes(model, sol, f)
        # and the executor runs it at each size, every shape checked, as onnxruntime does
        assert run(model, f)[output].shape == runtime_shapes(model, f)[output]
