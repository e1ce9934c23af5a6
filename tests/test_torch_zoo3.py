"""The torch.jit.script modules of bench/zoo_scripted.py (If, Loop, sequences and optionals
from Optional[Tensor], appended lists, while loops, greedy decoding), exported by torch's
legacy exporter: every dim we state in the inputs' symbols is right at two sizes
(onnxruntime; a sequence's at each element, an optional's when it holds one), every
tensor is fully known except where noted, and our executor gives onnxruntime's outputs.
Skipped without torch."""
import os
import sys
import warnings

import pytest

from shape_logic import solve
from .onnx_graphs import assert_same_outputs, open_tensors_checking_the_rest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import torch_zoo  # noqa: E402
import zoo_scripted  # noqa: E402

ENTRIES = zoo_scripted.zoo()
# how many tensors keep a name of their own (fresh, or a declared output's), and why
OPEN = {
    "greedy": 1,
}
# greedy: the loop may stop early (every row at EOS): the stacked tokens are [b, _k], _k
#   the token list's length (1..5). (h and tok keep b only together, h' = tanh(h +
#   emb(tok)), tok' = argmax(out(h')): Loop.lp's loop_hyp)
# (grow_cat: h = cat([h, tanh(h[:, -1:])], 1) grows by min(n, 1) per iteration, 1 as
#   every iteration's h has n >= 1 rows: [b, t + 1, 8], Loop.lp's loop_grow)
# (shape_branch: `x[:, :4] if x.size(1) > 4 else pad(x, 4 - t)` is [b, 4, 4] both ways: the
#   then-branch's own copy of t is >= 5 (encodings/conditions.lp), so its slice min(4, t) is
#   4; the else-branch's pad 4 - t gives 4 rows whatever its sign; shape_truncate, `x[:, :4]
#   if x.size(1) > 4 else x`, is min(4, t): 4 where the then-branch runs, t where the else
#   does, If.lp's @if_join)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_scripted_export_every_stated_dim_is_right(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, feeds = torch_zoo.build(name, "torchscript", ENTRIES)
    sol = solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    unknown = open_tensors_checking_the_rest(model, sol, feeds)  # at two sizes
    assert len(unknown) == OPEN.get(name, 0), sorted(unknown)
    assert_same_outputs(model, feeds)
