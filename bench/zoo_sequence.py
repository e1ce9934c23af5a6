"""Sequence models exported to ONNX with dynamic sizes, beyond bench/torch_zoo.py: decoder
steps with a KV cache and cross-attention (Whisper, BART, T5 with relative buckets), a
mixture of experts with TopK routing, a selective scan, partial rotary, ALiBi,
key-padding masks, padding to a multiple of 8, einsum attention, band masks.

Entries as torch_zoo's: (module, maker of inputs at (n, m), input names, dynamic axes,
two sizes (n, m), exporters). For `compare_peers.py --zoo2` and tests/test_torch_zoo2.py."""
from __future__ import annotations

import math

import numpy as np

BOTH = ("torchscript", "dynamo")
D, H = 16, 4  # width and heads of the attention models


def _f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def zoo():
    """name -> entry (see the module's doc)."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def heads(x):  # [b, t, D] -> [b, H, t, D/H]
        return x.view(x.shape[0], x.shape[1], H, -1).transpose(1, 2)

    def attend(q, k, v, bias=None):  # heads in, [b, t, D] out
        a = q @ k.transpose(-1, -2) / math.sqrt(D // H)
        a = (a if bias is None else a + bias).softmax(-1)
        return (a @ v).transpose(1, 2).flatten(2)

    class Whisper(nn.Module):  # encoder stem on a mel spectrogram + one decoder step
        def __init__(s):
            super().__init__()
            s.c1, s.c2 = nn.Conv1d(8, D, 3, padding=1), nn.Conv1d(D, D, 3, 2, padding=1)
            s.enc_pos, s.dec_pos, s.tok = (nn.Embedding(64, D), nn.Embedding(64, D),
                                           nn.Embedding(30, D))
            s.qkv, s.q2, s.kv2 = nn.Linear(D, 3 * D), nn.Linear(D, D), nn.Linear(D, 2 * D)
            s.o, s.o2 = nn.Linear(D, D), nn.Linear(D, D)

        def forward(s, mel, ids, past_k, past_v):
            e = F.gelu(s.c2(F.gelu(s.c1(mel)))).transpose(1, 2)
            e = e + s.enc_pos.weight[:e.shape[1]]
            t, p = ids.shape[1], past_k.shape[2]
            x = s.tok(ids) + s.dec_pos(torch.arange(p, p + t))
            q, k, v = s.qkv(x).chunk(3, -1)
            k, v = torch.cat([past_k, heads(k)], 2), torch.cat([past_v, heads(v)], 2)
            mask = torch.full((t, p + t), float("-inf")).triu(p + 1)
            x = x + s.o(attend(heads(q), k, v, mask))
            ck, cv = s.kv2(e).chunk(2, -1)
            return x + s.o2(attend(heads(s.q2(x)), heads(ck), heads(cv))), k, v

    class Bart(nn.Module):  # decoder step: offset positions, causal + encoder padding masks
        def __init__(s):
            super().__init__()
            s.pos, s.ln = nn.Embedding(66, D), nn.LayerNorm(D)
            s.q, s.k, s.v, s.o = (nn.Linear(D, D) for _ in range(4))

        def forward(s, x, enc, enc_mask, past_k):
            b, t, _ = x.shape
            p = past_k.shape[2]
            x = s.ln(x + s.pos(torch.arange(p, p + t) + 2))
            k = torch.cat([past_k, heads(s.k(x))], 2)
            causal = torch.ones(t, p + t, dtype=torch.bool).tril(p)
            bias = torch.zeros(t, p + t).masked_fill(~causal, -1e4)[None, None]
            x = x + s.o(attend(heads(s.q(x)), k, k, bias.expand(b, 1, t, p + t)))
            cross = (1.0 - enc_mask[:, None, None, :].float()) * -1e4
            return x + s.o(attend(heads(s.q(x)), heads(s.k(enc)), heads(s.v(enc)), cross)), k

    class T5Decoder(nn.Module):  # unidirectional relative buckets over a cache
        def __init__(s):
            super().__init__()
            s.bias, s.q, s.kv = nn.Embedding(8, H), nn.Linear(D, D), nn.Linear(D, 2 * D)

        def forward(s, x, enc, past_k):
            t, p = x.shape[1], past_k.shape[2]
            rel = torch.arange(p + t)[None, :] - torch.arange(p, p + t)[:, None]
            rel = -torch.min(rel, torch.zeros_like(rel))  # keys after the query: 0
            large = 4 + (torch.log(rel.float() / 4 + 1e-6) / math.log(4) * 4).long()
            bucket = torch.where(rel < 4, rel, torch.min(large, torch.full_like(large, 7)))
            k, v = s.kv(x).chunk(2, -1)
            k = torch.cat([past_k, heads(k)], 2)
            y = attend(heads(s.q(x)), k, k, s.bias(bucket).permute(2, 0, 1)[None])
            ck, cv = s.kv(enc).chunk(2, -1)
            return attend(heads(s.q(y)), heads(ck), heads(cv)), k

    class MoE(nn.Module):  # top-2 routing; each expert gathers its tokens (data-dependent)
        def __init__(s):
            super().__init__()
            s.gate, s.experts = nn.Linear(8, 3), nn.ModuleList(nn.Linear(8, 8) for _ in range(3))

        def forward(s, x):
            flat = x.reshape(-1, x.shape[-1])
            w, idx = s.gate(flat).softmax(-1).topk(2, dim=-1)
            out = torch.zeros_like(flat)
            for e, expert in enumerate(s.experts):
                tok, slot = torch.where(idx == e)
                out = out.index_add(0, tok, expert(flat[tok]) * w[tok, slot, None])
            return out.view_as(x), idx

    class SelectiveScan(nn.Module):  # Mamba/S4-like: the recurrence as cumsum and exp
        def __init__(s):
            super().__init__()
            s.inp, s.dt, s.B, s.C = (nn.Linear(8, 16), nn.Linear(8, 8), nn.Linear(8, 4),
                                     nn.Linear(8, 4))
            s.A, s.out = nn.Parameter(-torch.rand(8, 4)), nn.Linear(8, 8)

        def forward(s, x):
            u, z = s.inp(x).chunk(2, -1)
            dt = F.softplus(s.dt(u)).unsqueeze(-1)  # [b, l, 8, 1]
            decay = torch.cumsum(dt * s.A, dim=1)  # [b, l, 8, 4]
            h = torch.exp(decay) * torch.cumsum(torch.exp(-decay) * dt * s.B(u).unsqueeze(2)
                                                * u.unsqueeze(-1), dim=1)
            return s.out((h * s.C(u).unsqueeze(2)).sum(-1) * F.silu(z))

    class NeoxRotary(nn.Module):  # rotary on the first quarter of each head, past offset
        def forward(s, q, past):
            t, p, hd = q.shape[2], past.shape[2], q.shape[-1]
            r = hd // 4
            inv = 1.0 / 10000 ** (torch.arange(0, r, 2).float() / r)
            ang = torch.arange(p, p + t).float()[:, None] * inv[None]
            cos, sin = torch.cat([ang, ang], -1).cos(), torch.cat([ang, ang], -1).sin()
            rot, keep = q[..., :r], q[..., r:]
            half = torch.cat([-rot[..., r // 2:], rot[..., :r // 2]], -1)
            return torch.cat([rot * cos + half * sin, keep], -1)

    class Alibi(nn.Module):  # linear biases from the shapes, causal
        def forward(s, q, k):
            t, n = q.shape[2], k.shape[2]
            slopes = 2.0 ** (-8.0 * torch.arange(1, H + 1).float() / H)
            dist = torch.arange(n)[None, :] - torch.arange(n - t, n)[:, None]
            bias = slopes[:, None, None] * dist.float()[None]
            bias = bias.masked_fill(dist[None] > 0, float("-inf"))
            return (q @ k.transpose(-1, -2) + bias).softmax(-1)

    class PaddedMHA(nn.Module):
        def __init__(s):
            super().__init__()
            s.m = nn.MultiheadAttention(D, H, batch_first=True)

        def forward(s, q, k, pad):
            return s.m(q, k, k, key_padding_mask=pad, need_weights=False)[0]

    class PadMultiple(nn.Module):  # pad time to a multiple of 8, attend in blocks, cut
        def forward(s, x):
            b, n, d = x.shape
            y = F.pad(x, (0, 0, 0, (-n) % 8)).view(b, -1, 8, d)
            a = (y @ y.transpose(-1, -2)).softmax(-1) @ y
            return a.reshape(b, -1, d)[:, :n], y.shape[1]

    class EinsumAttention(nn.Module):
        def forward(s, q, k, v):
            a = torch.einsum("bqhd,bkhd->bhqk", q, k).softmax(-1)
            return torch.einsum("bhqk,bkhd->bqhd", a, v), torch.einsum("bqhd->bhq", q)

    class BandMask(nn.Module):  # torch.where on masks made of positions only
        def forward(s, x, y):
            i, j = torch.arange(x.shape[1]), torch.arange(y.shape[1])
            band = (j[None, :] - i[:, None]).abs() <= 2
            a = torch.where(band, x @ y.transpose(1, 2), torch.tensor(float("-inf")))
            return a.softmax(-1), torch.where(i[:, None] < j[None, :], 1.0, 0.0)

    def r(f):  # a maker of inputs, seeded by the sizes
        return lambda n, m: f(np.random.default_rng(100 * n + m), n, m)

    hd = D // H
    return {
        "whisper_step": (Whisper, r(lambda g, b, t: [
            _f32(g, b, 8, 4 * t + 1), g.integers(0, 30, (b, t)), _f32(g, b, H, t + 2, hd),
            _f32(g, b, H, t + 2, hd)]), ["mel", "ids", "past_k", "past_v"],
            {"mel": {0: "b", 2: "frames"}, "ids": {0: "b", 1: "t"},
             "past_k": {0: "b", 2: "past"}, "past_v": {0: "b", 2: "past"}},
            [(2, 3), (1, 5)], BOTH),
        "bart_step": (Bart, r(lambda g, b, t: [
            _f32(g, b, t, D), _f32(g, b, 2 * t + 1, D), np.ones((b, 2 * t + 1), np.int64),
            _f32(g, b, H, t + 3, hd)]), ["x", "enc", "enc_mask", "past_k"],
            {"x": {0: "b", 1: "t"}, "enc": {0: "b", 1: "s"}, "enc_mask": {0: "b", 1: "s"},
             "past_k": {0: "b", 2: "past"}}, [(2, 2), (3, 4)], BOTH),
        "t5_step": (T5Decoder, r(lambda g, b, t: [
            _f32(g, b, t, D), _f32(g, b, t + 5, D), _f32(g, b, H, 3 * t, hd)]),
            ["x", "enc", "past_k"], {"x": {0: "b", 1: "t"}, "enc": {0: "b", 1: "s"},
                                     "past_k": {0: "b", 2: "past"}}, [(2, 2), (1, 5)], BOTH),
        "moe": (MoE, r(lambda g, b, t: [_f32(g, b, t, 8)]), ["x"], {"x": {0: "b", 1: "t"}},
                [(2, 5), (3, 7)], BOTH),
        "selective_scan": (SelectiveScan, r(lambda g, b, t: [_f32(g, b, t, 8)]), ["x"],
                           {"x": {0: "b", 1: "l"}}, [(2, 5), (1, 9)], BOTH),
        "neox_rotary": (NeoxRotary, r(lambda g, b, t: [_f32(g, b, H, t, 16),
                                                       _f32(g, b, H, t + 3, 16)]),
                        ["q", "past"], {"q": {0: "b", 2: "t"}, "past": {0: "b", 2: "p"}},
                        [(2, 3), (1, 6)], BOTH),
        "alibi": (Alibi, r(lambda g, b, t: [_f32(g, b, H, t, hd), _f32(g, b, H, t + 4, hd)]),
                  ["q", "k"], {"q": {0: "b", 2: "t"}, "k": {0: "b", 2: "n"}},
                  [(2, 3), (1, 6)], BOTH),
        "mha_padding": (PaddedMHA, r(lambda g, b, t: [
            _f32(g, b, t, D), _f32(g, b, t + 2, D), np.arange(t + 2)[None].repeat(b, 0) > t]),
            ["q", "k", "pad"], {"q": {0: "b", 1: "s"}, "k": {0: "b", 1: "t"},
                                "pad": {0: "b", 1: "t"}}, [(2, 5), (3, 7)], ("dynamo",)),
        "pad_multiple": (PadMultiple, r(lambda g, b, t: [_f32(g, b, t, 4)]), ["x"],
                         {"x": {0: "b", 1: "n"}}, [(2, 13), (1, 16)], BOTH),
        "einsum_attention": (EinsumAttention, r(lambda g, b, t: [
            _f32(g, b, t, H, hd), _f32(g, b, t + 1, H, hd), _f32(g, b, t + 1, H, hd)]),
            ["q", "k", "v"], {"q": {0: "b", 1: "s"}, "k": {0: "b", 1: "t"},
                              "v": {0: "b", 1: "t"}}, [(2, 3), (1, 6)], BOTH),
        "band_mask": (BandMask, r(lambda g, b, t: [_f32(g, b, t, 4), _f32(g, b, t + 2, 4)]),
                      ["x", "y"], {"x": {0: "b", 1: "s"}, "y": {0: "b", 1: "t"}},
                      [(2, 4), (1, 7)], BOTH),
    }
