"""Scripted control flow: small torch.jit.script modules exported by the TorchScript
exporter (torch.onnx.export(..., dynamo=False)), whose Python control flow becomes ONNX
If, Loop, sequences and optionals: Optional[Tensor] locals and arguments tested with
`is None` (an optional attention mask), lists appended in a for-loop over a dynamic size
then stacked or concatenated, a while loop on a data-dependent condition, a loop carrying
a growing tensor, if/else on a shape, greedy decoding with an early exit from a fixed
trip count, tuple returns, negative list indices and `len(list)` in a shape.

Entries as torch_zoo's: (module maker, maker of inputs at (n, m), input names, dynamic
axes, two sizes (n, m), exporters). For `compare_peers.py --zoo3` and
tests/test_torch_zoo3.py.

torch.jit.script needs its modules' source in a file, which is why they are defined at
module level here. Left out: an Optional[Tensor] argument passed as None, which the
exporter refuses (ValueError: "When exporting a ScriptModule or ScriptFunction, no args
may be None"; optional_mask passes the mask, which becomes an optional(tensor) input that
OptionalHasElement tests); a List[List[Tensor]] (`pairs.append([x[i], 2 * x[i]])`),
which it exports as a SequenceInsert of a SequenceConstruct, a sequence of sequences that
onnxruntime refuses to load (we name the node: rules/SequenceInsert.lp). A Dict[str,
Tensor] local exports."""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    Module = nn.Module
except ImportError:  # the zoo is only built with torch; its doc is read without
    torch = None
    Module = object

D = 8  # width


def _f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


class OptionalLocal(Module):
    """y: Optional[Tensor] = None, set on a shape condition, tested with `is None`."""

    def forward(self, x):
        y: Optional[torch.Tensor] = None
        if x.size(1) > 2:
            y = x * 2
        return x if y is None else y + 1


class OptionalMask(Module):
    """Attention with an Optional[Tensor] key padding mask argument."""

    def __init__(self):
        super().__init__()
        self.q, self.k = nn.Linear(D, D), nn.Linear(D, D)

    def forward(self, x, mem, mask: Optional[torch.Tensor] = None):
        a = self.q(x) @ self.k(mem).transpose(1, 2)
        if mask is not None:
            a = a.masked_fill(mask[:, None, :] == 0, -1e4)
        return a.softmax(-1) @ mem


class ListStack(Module):
    """A List[Tensor] appended per step of a dynamic size, stacked and concatenated."""

    def forward(self, x):
        outs: List[torch.Tensor] = []
        for i in range(x.size(1)):
            outs.append(x[:, i] * float(i))
        return torch.stack(outs, 1), torch.cat(outs, -1)


class ScriptedRNN(Module):
    """An RNN cell run over a dynamic length, its states collected in a list."""

    def __init__(self):
        super().__init__()
        self.ih, self.hh = nn.Linear(D, D), nn.Linear(D, D)

    def forward(self, x):
        h = torch.zeros(x.size(0), self.hh.in_features)
        outs: List[torch.Tensor] = []
        for t in range(x.size(1)):
            h = torch.tanh(self.ih(x[:, t]) + self.hh(h))
            outs.append(h)
        return torch.stack(outs, 1), h


class WhileHalve(Module):
    """A while loop on a data-dependent condition, counting its steps."""

    def forward(self, x):
        n = torch.zeros(1, dtype=torch.long)
        while bool(x.abs().max() > 0.5):
            x = x * 0.5
            n = n + 1
        return x, n


class GrowCat(Module):
    """A loop carrying a tensor that grows by one step per iteration (torch.cat)."""

    def forward(self, x, steps):
        h = x[:, :1]
        for _ in range(steps.size(0)):
            h = torch.cat([h, torch.tanh(h[:, -1:])], 1)
        return h


class ShapeBranch(Module):
    """if/else on a shape: cut or pad to 4 steps; a branch whose shapes differ."""

    def forward(self, x):
        if x.size(1) > 4:
            y = x[:, :4]
        else:
            y = F.pad(x, [0, 0, 0, 4 - x.size(1)])
        if x.size(0) > 1:
            z = x.sum(0)
        else:
            z = x[0]
        return y, z


class ShapeTruncate(Module):
    """if/else on a shape: cut to 4 steps where longer, else keep: min(4, t) both ways."""

    def forward(self, x):
        if x.size(1) > 4:
            y = x[:, :4]
        else:
            y = x
        return torch.relu(y)


class Greedy(Module):
    """Greedy decoding of at most 5 tokens, stopping when every row emits EOS."""

    def __init__(self):
        super().__init__()
        self.emb, self.out = nn.Embedding(12, D), nn.Linear(D, 12)

    def forward(self, h):
        tok = torch.zeros(h.size(0), dtype=torch.long)
        toks: List[torch.Tensor] = []
        for _ in range(5):
            h = torch.tanh(h + self.emb(tok))
            tok = self.out(h).argmax(-1)
            toks.append(tok)
            if bool((tok == 0).all()):
                break
        return torch.stack(toks, 1), h


class BeamStep(Module):
    """A beam search step: top-k over beams x vocabulary, reorder the cache, tuple out."""

    def forward(self, scores, logp, cache) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        b, k = scores.size(0), scores.size(1)
        total = (scores[:, :, None] + logp).reshape(b, -1)
        best, idx = total.topk(k, 1)
        beam = torch.div(idx, logp.size(2), rounding_mode="floor")
        flat = (beam + torch.arange(b)[:, None] * k).reshape(-1)
        moved = cache.reshape(b * k, -1, cache.size(3))[flat].reshape(cache.shape)
        return best, idx % logp.size(2), moved


class Layers(Module):
    """Hidden states of each layer in a list: the last two by negative indices, and
    len(list) in a shape."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(D, D) for _ in range(3)])

    def forward(self, x):
        states: List[torch.Tensor] = [x]
        for layer in self.layers:
            states.append(torch.relu(layer(states[-1])))
        w = torch.ones(x.size(0), len(states)) / len(states)
        mixed = (torch.stack(states, -1) * w[:, None, None, :]).sum(-1)
        return states[-1] - states[-2], mixed


def zoo():
    """name -> entry (see the module's doc)."""
    def r(f):  # a maker of inputs, seeded by the sizes
        return lambda n, m: f(np.random.default_rng(100 * n + m), n, m)

    def script(cls):
        return lambda: torch.jit.script(cls())

    ts = ("torchscript",)
    bt = {0: "b", 1: "t"}
    return {
        "optional_local": (script(OptionalLocal), r(lambda g, b, t: [_f32(g, b, t, D)]),
                           ["x"], {"x": bt}, [(2, 3), (3, 2)], ts),
        "optional_mask": (script(OptionalMask), r(lambda g, b, t: [
            _f32(g, b, t, D), _f32(g, b, t + 2, D), g.integers(0, 2, (b, t + 2))]),
            ["x", "mem", "mask"], {"x": bt, "mem": {0: "b", 1: "s"}, "mask": {0: "b", 1: "s"}},
            [(2, 3), (3, 5)], ts),
        "list_stack": (script(ListStack), r(lambda g, b, t: [_f32(g, b, t, 4)]), ["x"],
                       {"x": bt}, [(2, 3), (3, 5)], ts),
        "scripted_rnn": (script(ScriptedRNN), r(lambda g, b, t: [_f32(g, b, t, D)]), ["x"],
                         {"x": bt}, [(2, 3), (3, 5)], ts),
        "while_halve": (script(WhileHalve), r(lambda g, b, t: [_f32(g, b, t) * t]), ["x"],
                        {"x": bt}, [(2, 3), (3, 5)], ts),
        "grow_cat": (script(GrowCat), r(lambda g, b, t: [_f32(g, b, 3, D), _f32(g, t)]),
                     ["x", "steps"], {"x": {0: "b"}, "steps": {0: "t"}}, [(2, 3), (3, 5)], ts),
        "shape_branch": (script(ShapeBranch), r(lambda g, b, t: [_f32(g, b, t, 4)]), ["x"],
                         {"x": bt}, [(2, 3), (1, 6)], ts),
        "shape_truncate": (script(ShapeTruncate), r(lambda g, b, t: [_f32(g, b, t, 4)]), ["x"],
                           {"x": bt}, [(2, 3), (1, 6)], ts),
        "greedy": (script(Greedy), r(lambda g, b, t: [_f32(g, b, D)]), ["h"], {"h": {0: "b"}},
                   [(2, 1), (3, 1)], ts),
        "beam_step": (script(BeamStep), r(lambda g, b, t: [
            _f32(g, b, 2), _f32(g, b, 2, t + 4), _f32(g, b, 2, t, D)]), ["scores", "logp", "cache"],
            {"scores": {0: "b"}, "logp": {0: "b", 2: "v"}, "cache": {0: "b", 2: "t"}},
            [(2, 3), (3, 5)], ts),
        "layers": (script(Layers), r(lambda g, b, t: [_f32(g, b, t, D)]), ["x"], {"x": bt},
                   [(2, 3), (3, 5)], ts),
    }
