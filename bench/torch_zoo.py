"""Small PyTorch building blocks exported to ONNX, each with dynamic sizes: a zoo of the
patterns that exporters write for common layers (attention, normalization, padding,
resizing, rolling, windows, sorting, ...), for `compare_peers.py --zoo` and
tests/test_torch_zoo.py. Built on the fly, nothing committed as a binary.

Each entry: (the module, a maker of its inputs at (n, m), input names, dynamic axes, the
two sizes (n, m) the shapes are checked at, the exporters that can export it)."""
from __future__ import annotations

import numpy as np

from torch_models import export, use_dynamo

BOTH = ("torchscript", "dynamo")


def _f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def zoo():
    """name -> entry (see the module's doc)."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Encoder(nn.Module):
        def __init__(s):
            super().__init__()
            s.l = nn.TransformerEncoderLayer(16, 4, 32, batch_first=True, dropout=0.0)

        def forward(s, x):
            return s.l(x)

    class MHA(nn.Module):
        def __init__(s):
            super().__init__()
            s.m = nn.MultiheadAttention(16, 4, batch_first=True)

        def forward(s, q, k):
            return s.m(q, k, k, need_weights=False)[0]

    class Audio(nn.Module):
        def __init__(s):
            super().__init__()
            s.c, s.b = nn.Conv1d(4, 8, 5, stride=2, padding=2), nn.BatchNorm1d(8)
            s.p, s.a = nn.MaxPool1d(3, 2, ceil_mode=True), nn.AdaptiveAvgPool1d(1)

        def forward(s, x):
            y = s.p(F.relu(s.b(s.c(x))))
            return y, s.a(y).flatten(1)

    class Interp(nn.Module):
        def forward(s, x):
            return (F.interpolate(x, scale_factor=2, mode="nearest"),
                    F.interpolate(x, scale_factor=0.5, mode="bilinear"))

    class Misc(nn.Module):
        def forward(s, x):
            c, a = torch.cumsum(x, 1), x.argmax(-1)
            return (c, a, torch.topk(x, 3, dim=-1).values, torch.gather(x, 2, a.unsqueeze(-1)),
                    x.masked_fill(x > 0, 0.0), torch.where(x > 0, x, c))

    class Embed(nn.Module):
        def __init__(s):
            super().__init__()
            s.e, s.p = nn.Embedding(50, 16), nn.Embedding(64, 16)

        def forward(s, ids):
            return s.e(ids) + s.p(torch.arange(ids.shape[1]).unsqueeze(0))

    class Pads(nn.Module):
        def forward(s, x):
            return (F.pad(x, (1, 2, 3, 4), mode="reflect"), F.pad(x, (0, 5)), x[:, :, ::2, 1::3],
                    x.flatten(1), x.permute(0, 2, 3, 1).reshape(x.shape[0], -1, x.shape[1]))

    class Einsum(nn.Module):
        def forward(s, a, b):
            return torch.einsum("bij,bjk->bik", a, b), torch.einsum("bi,bi->b", a[:, 0], a[:, 1])

    class Norms(nn.Module):
        def __init__(s):
            super().__init__()
            s.g, s.l, s.i = nn.GroupNorm(2, 8), nn.LayerNorm([8]), nn.InstanceNorm2d(8)

        def forward(s, x):
            return s.g(x), s.l(x.transpose(1, 3)), s.i(x)

    class Chunks(nn.Module):
        def forward(s, x):
            a, b = x.chunk(2, dim=1)
            e = x.split([3, 5], dim=1)
            return torch.cat([a, b, a], 1), torch.stack([a, b], 0), e[0], e[1], \
                x.view(x.shape[0], -1)

    class Pixel(nn.Module):
        def __init__(s):
            super().__init__()
            s.ps, s.pu = nn.PixelShuffle(2), nn.PixelUnshuffle(2)

        def forward(s, x):
            return s.ps(x), s.pu(x)

    class Deconv(nn.Module):
        def __init__(s):
            super().__init__()
            s.c = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)
            s.d = nn.Conv2d(4, 4, 3, dilation=2, padding=2)

        def forward(s, x):
            return s.d(s.c(x))

    class SDPA(nn.Module):
        def forward(s, q, k, v):
            return F.scaled_dot_product_attention(q, k, v)

    class Causal(nn.Module):
        def forward(s, x):
            n = x.shape[-1]
            m = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
            return x.masked_fill(m, float("-inf")).softmax(-1), torch.tril(x)

    class Expand(nn.Module):
        def forward(s, x, y):
            return (x.expand(y.shape[0], -1, -1) + 1, x.repeat(2, 1, 3),
                    (x * y).sum(dim=(1, 2), keepdim=True), x.mean(-1))

    class Unfold(nn.Module):
        def forward(s, x):
            return F.unfold(x, kernel_size=3, padding=1, stride=2)

    class CausalConv(nn.Module):  # Mamba's depthwise causal convolution over time
        def __init__(s):
            super().__init__()
            s.c = nn.Conv1d(8, 8, 4, groups=8, padding=3)

        def forward(s, x):
            return s.c(x.transpose(1, 2))[..., :x.shape[1]].transpose(1, 2)

    class Roll(nn.Module):
        def forward(s, x):
            return torch.roll(x, shifts=(2, -1), dims=(1, 2)), x.flip(1)

    class Windows(nn.Module):  # Swin's window partition
        def forward(s, x):
            b, h, w, c = x.shape
            return x.view(b, h // 4, 4, w // 4, 4, c).permute(0, 1, 3, 2, 4, 5).reshape(-1, 16, c)

    class RepeatKV(nn.Module):
        def forward(s, k):
            return torch.repeat_interleave(k, 3, dim=1), k.unsqueeze(2).expand(
                -1, -1, 3, -1, -1).reshape(k.shape[0], -1, k.shape[2], k.shape[3])

    class Positions(nn.Module):
        def forward(s, mask):
            pos = (mask.long().cumsum(-1) - 1).masked_fill(mask == 0, 1)
            return pos, torch.arange(mask.shape[1]).expand(mask.shape[0], -1)

    class Batched(nn.Module):
        def forward(s, a, b):
            return torch.matmul(a, b), torch.matmul(a[0], b), a.unsqueeze(1) @ b.unsqueeze(0)

    class Sort(nn.Module):
        def forward(s, x):
            v, i = torch.sort(x, dim=-1, descending=True)
            return v, i, torch.argsort(x, 1)

    class Fill(nn.Module):
        def forward(s, x):
            return (x.new_zeros(x.shape[0], x.shape[1] * 2), torch.zeros_like(x),
                    torch.full((x.shape[0], 3), 2.0))

    def r(f):  # a maker of inputs, seeded by the sizes
        return lambda n, m: f(np.random.default_rng(100 * n + m), n, m)

    return {
        "encoder": (Encoder, r(lambda g, b, s: [_f32(g, b, s, 16)]), ["x"],
                    {"x": {0: "b", 1: "s"}}, [(2, 5), (3, 7)], ("dynamo",)),
        "mha": (MHA, r(lambda g, b, s: [_f32(g, b, s, 16), _f32(g, b, s + 2, 16)]), ["q", "k"],
                {"q": {0: "b", 1: "s"}, "k": {0: "b", 1: "t"}}, [(2, 5), (3, 7)], ("dynamo",)),
        "audio": (Audio, r(lambda g, b, t: [_f32(g, b, 4, t)]), ["x"], {"x": {0: "b", 2: "t"}},
                  [(2, 50), (3, 37)], ("torchscript",)),
        "interp": (Interp, r(lambda g, b, s: [_f32(g, b, 3, s, s + 2)]), ["x"],
                   {"x": {0: "b", 2: "h", 3: "w"}}, [(2, 8), (1, 12)], BOTH),
        "misc": (Misc, r(lambda g, b, s: [_f32(g, b, s, 6)]), ["x"], {"x": {0: "b", 1: "s"}},
                 [(2, 5), (3, 7)], BOTH),
        "embed": (Embed, r(lambda g, b, s: [g.integers(0, 50, (b, s))]), ["ids"],
                  {"ids": {0: "b", 1: "s"}}, [(2, 5), (3, 7)], BOTH),
        "pads": (Pads, r(lambda g, b, s: [_f32(g, b, 3, s, s + 3)]), ["x"],
                 {"x": {0: "b", 2: "h", 3: "w"}}, [(2, 8), (1, 11)], BOTH),
        "einsum": (Einsum, r(lambda g, b, s: [_f32(g, b, s, 4), _f32(g, b, 4, 3)]), ["a", "b"],
                   {"a": {0: "n", 1: "i"}, "b": {0: "n"}}, [(2, 5), (3, 7)], BOTH),
        "norms": (Norms, r(lambda g, b, s: [_f32(g, b, 8, s, 8)]), ["x"], {"x": {0: "b", 2: "h"}},
                  [(2, 5), (3, 7)], BOTH),
        "chunks": (Chunks, r(lambda g, b, s: [_f32(g, b, 8, s)]), ["x"], {"x": {0: "b", 2: "t"}},
                   [(2, 5), (3, 7)], BOTH),
        "pixel": (Pixel, r(lambda g, b, s: [_f32(g, b, 8, 2 * s, 2 * s)]), ["x"],
                  {"x": {0: "b", 2: "h", 3: "w"}}, [(2, 3), (1, 5)], BOTH),
        "deconv": (Deconv, r(lambda g, b, s: [_f32(g, b, 8, s, s + 1)]), ["x"],
                   {"x": {0: "b", 2: "h", 3: "w"}}, [(2, 5), (1, 8)], BOTH),
        "sdpa": (SDPA, r(lambda g, b, s: [_f32(g, b, 2, s, 8), _f32(g, b, 2, s + 3, 8),
                                          _f32(g, b, 2, s + 3, 8)]), ["q", "k", "v"],
                 {"q": {0: "b", 2: "s"}, "k": {0: "b", 2: "t"}, "v": {0: "b", 2: "t"}},
                 [(2, 5), (3, 7)], BOTH),
        "causal": (Causal, r(lambda g, b, s: [_f32(g, b, s, s)]), ["x"],
                   {"x": {0: "b", 1: "n", 2: "n"}}, [(2, 5), (3, 7)], BOTH),
        "expand": (Expand, r(lambda g, b, s: [_f32(g, 1, s, 4), _f32(g, b, s, 4)]), ["x", "y"],
                   {"x": {1: "s"}, "y": {0: "b", 1: "s"}}, [(2, 5), (3, 7)], BOTH),
        "unfold": (Unfold, r(lambda g, b, s: [_f32(g, b, 3, s, s + 1)]), ["x"],
                   {"x": {0: "b", 2: "h", 3: "w"}}, [(2, 6), (1, 9)], BOTH),
        "causal_conv": (CausalConv, r(lambda g, b, s: [_f32(g, b, s, 8)]), ["x"],
                        {"x": {0: "b", 1: "s"}}, [(2, 5), (3, 7)], BOTH),
        "roll": (Roll, r(lambda g, b, s: [_f32(g, b, s, s + 1)]), ["x"],
                 {"x": {0: "b", 1: "h", 2: "w"}}, [(2, 5), (3, 7)], BOTH),
        "windows": (Windows, r(lambda g, b, s: [_f32(g, b, 4 * s, 8, 3)]), ["x"],
                    {"x": {0: "b", 1: "h"}}, [(2, 2), (1, 3)], BOTH),
        "repeat_kv": (RepeatKV, r(lambda g, b, s: [_f32(g, b, 2, s, 8)]), ["k"],
                      {"k": {0: "b", 2: "s"}}, [(2, 5), (3, 7)], BOTH),
        "positions": (Positions, r(lambda g, b, s: [g.integers(0, 2, (b, s))]), ["mask"],
                      {"mask": {0: "b", 1: "s"}}, [(2, 5), (3, 7)], BOTH),
        "batched": (Batched, r(lambda g, b, s: [_f32(g, b, s, 4), _f32(g, 4, 3)]), ["a", "b"],
                    {"a": {0: "n", 1: "s"}}, [(2, 5), (3, 7)], BOTH),
        "sort": (Sort, r(lambda g, b, s: [_f32(g, b, s)]), ["x"], {"x": {0: "b", 1: "s"}},
                 [(2, 5), (3, 7)], BOTH),
        "fill": (Fill, r(lambda g, b, s: [_f32(g, b, s)]), ["x"], {"x": {0: "b", 1: "s"}},
                 [(2, 5), (3, 7)], BOTH),
    }


def build(name: str, exporter: str = "torchscript", entries: dict | None = None):
    """(model, [feeds at each size]) of a zoo entry (of this zoo, or of `entries`: another
    module's zoo()), exported by `exporter`."""
    import torch

    module, make, names, dynamic, sizes, _ = (entries or zoo())[name]
    use_dynamo(exporter == "dynamo")
    try:
        args = tuple(torch.from_numpy(a) for a in make(*sizes[0]))
        model = export(module(), args, names, None, dynamic)
    finally:
        use_dynamo(False)
    feeds = [dict(zip([i.name for i in model.graph.input], make(*size))) for size in sizes]
    return model, feeds
