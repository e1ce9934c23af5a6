"""The building blocks of bench/torch_zoo.py exported by torch's legacy exporter: every
dim we state in the inputs' symbols is right at two sizes (onnxruntime), and every tensor
is fully known so except where noted. Skipped without torch."""
import os
import sys
import warnings

import pytest

from shape_logic import solve
from .onnx_graphs import open_tensors_checking_the_rest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import torch_zoo  # noqa: E402

ENTRIES = [name for name, entry in torch_zoo.zoo().items() if "torchscript" in entry[-1]]
# how many tensors keep a name of their own (fresh, or a declared output's), and why
# (Swin's windows, Reshape(x, [b, h//4, 4, 2, 4, 3]) with allowzero = 0, were 3: h//4 may
# be 0, which would copy x's axis; the element count excludes that, rules/Reshape.lp)
OPEN: dict = {}


@pytest.mark.parametrize("name", ENTRIES)
def test_every_stated_dim_is_right(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, feeds = torch_zoo.build(name, "torchscript")
    sol = solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    unknown = open_tensors_checking_the_rest(model, sol, feeds)  # at two sizes
    assert len(unknown) == OPEN.get(name, 0), sorted(unknown)
