"""The blocks of bench/zoo_sequence.py and bench/zoo_vision.py (decoder steps with caches
and cross-attention, mixture of experts, selective scan, diffusion UNet block, ConvNeXt,
wav2vec2 features, ...): every dim we state in the inputs' symbols is right at two sizes
(onnxruntime), every tensor is fully known except where noted, and our executor gives
onnxruntime's outputs. Every block by torch's legacy exporter; a few by torch.export's,
whose exports take seconds each. Skipped without torch (and onnxscript for those)."""
import importlib.util
import os
import sys
import warnings

import pytest

from shape_logic import solve
from .onnx_graphs import assert_same_outputs, open_tensors_checking_the_rest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import torch_zoo  # noqa: E402
import zoo_sequence  # noqa: E402
import zoo_vision  # noqa: E402

ENTRIES = {**zoo_sequence.zoo(), **zoo_vision.zoo()}
LEGACY = [name for name, entry in ENTRIES.items() if "torchscript" in entry[-1]]
# the dynamo exports checked here: GroupNorm's reshape back after a strided Conv1d, the
# fold (Col2Im, opset 18), a key padding mask, data-dependent index_put
DYNAMO = ["wav2vec2", "fold", "mha_padding", "updates"]
# how many tensors keep a name of their own (fresh, or a declared output's), and why
OPEN = {
    ("moe", "torchscript"): 51,
    ("moe", "dynamo"): 39,
    ("updates", "torchscript"): 3,
    ("updates", "dynamo"): 7,
    ("resize_scales", "torchscript"): 1,
}
# moe: each expert's tokens are NonZero(routing == e): a data-dependent count _k (in
#   0..2*b*t) for NonZero, Transpose, Split, Squeeze, Gather and the expert's Gemm.
#   Downstream copies get new names although they equal _k: a broadcast of two axes that
#   have no value (Add of [_1] and [_1]) is not linked to either, and a Reshape with -1
#   of [_1, 1] cannot divide an element count it does not have.
# updates: masked_scatter takes NonZero(mask) and slices the source to its count (legacy:
#   3); dynamo also writes x[x > 2] = 2 as NonZero plus Expand(value, ReduceSum(mask)),
#   a count that equals NonZero's only by what the data is (4 more)
# resize_scales: F.interpolate by (0.3, 0.7): onnxruntime floors the f32 product (10 * 0.7
#   is 7 there, 6.99999988 exactly), so the width is open (the height is 3*h//10: 0.3 is a
#   little above 3/10); the legacy exporter's declared names for it, shared with the x1.5
#   output's, are set aside


def _check(name, exporter):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, feeds = torch_zoo.build(name, exporter, ENTRIES)
    sol = solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    unknown = open_tensors_checking_the_rest(model, sol, feeds)  # at two sizes
    assert len(unknown) == OPEN.get((name, exporter), 0), sorted(unknown)
    return model, feeds


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_export_every_stated_dim_is_right(name):
    assert_same_outputs(*_check(name, "torchscript"))


@pytest.mark.skipif(importlib.util.find_spec("onnxscript") is None, reason="no onnxscript")
@pytest.mark.parametrize("name", DYNAMO)
def test_dynamo_export_every_stated_dim_is_right(name):
    assert_same_outputs(*_check(name, "dynamo"))
