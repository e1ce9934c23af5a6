"""Convolutional and audio blocks exported to ONNX with dynamic sizes, beyond
bench/torch_zoo.py: a diffusion UNet block, ConvNeXt, MobileNetV3, EfficientNet's MBConv,
a DETR-like decoder, wav2vec2's feature extractor with its lengths, unfold/fold patches, a
spectrogram by convolution, masked_scatter and index_put updates, 'same' convolutions.

Entries as torch_zoo's: (module, maker of inputs at (n, m), input names, dynamic axes,
two sizes (n, m), exporters). For `compare_peers.py --zoo2` and tests/test_torch_zoo2.py."""
from __future__ import annotations

import math

import numpy as np

BOTH = ("torchscript", "dynamo")


def _f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def zoo():
    """name -> entry (see the module's doc)."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Diffusion(nn.Module):  # resnet block + timestep, attention over h*w, up x2, skip
        def __init__(s, c=8):
            super().__init__()
            s.n1, s.n2, s.na = nn.GroupNorm(4, c), nn.GroupNorm(4, c), nn.GroupNorm(4, c)
            s.c1, s.c2 = nn.Conv2d(c, c, 3, padding=1), nn.Conv2d(c, c, 3, padding=1)
            s.t, s.qkv, s.proj = nn.Linear(16, c), nn.Conv2d(c, 3 * c, 1), nn.Conv2d(c, c, 1)
            s.up = nn.Conv2d(2 * c, c, 3, padding=1)

        def forward(s, x, t):
            freqs = torch.exp(-math.log(10000.0) * torch.arange(8).float() / 8)
            emb = t[:, None] * freqs[None]
            emb = torch.cat([emb.sin(), emb.cos()], -1)
            y = s.c1(F.silu(s.n1(x))) + s.t(F.silu(emb))[:, :, None, None]
            y = s.c2(F.silu(s.n2(y))) + x
            b, c, h, w = y.shape
            q, k, v = s.qkv(s.na(y)).reshape(b, 3, c, h * w).unbind(1)
            a = (q.transpose(1, 2) @ k / math.sqrt(c)).softmax(-1)
            y = y + s.proj((v @ a.transpose(1, 2)).reshape(b, c, h, w))
            up = F.interpolate(y, scale_factor=2.0, mode="nearest")
            return s.up(torch.cat([up, F.interpolate(x, scale_factor=2.0, mode="nearest")], 1))

    class ConvNeXt(nn.Module):  # depthwise 7x7, channels-last LayerNorm, layer scale, down
        def __init__(s, c=8):
            super().__init__()
            s.dw, s.ln = nn.Conv2d(c, c, 7, padding=3, groups=c), nn.LayerNorm(c)
            s.p1, s.p2 = nn.Linear(c, 4 * c), nn.Linear(4 * c, c)
            s.g, s.down = nn.Parameter(1e-2 * torch.ones(c)), nn.Conv2d(c, 2 * c, 2, 2)

        def forward(s, x):
            y = s.p2(F.gelu(s.p1(s.ln(s.dw(x).permute(0, 2, 3, 1))))) * s.g
            return s.down(x + y.permute(0, 3, 1, 2))

    class MobileV3(nn.Module):  # hardswish, depthwise stride 2, squeeze-excitation
        def __init__(s, c=8, e=16):
            super().__init__()
            s.exp, s.b1 = nn.Conv2d(c, e, 1, bias=False), nn.BatchNorm2d(e)
            s.dw, s.b2 = nn.Conv2d(e, e, 5, 2, 2, groups=e, bias=False), nn.BatchNorm2d(e)
            s.se1, s.se2 = nn.Conv2d(e, 4, 1), nn.Conv2d(4, e, 1)
            s.proj, s.b3 = nn.Conv2d(e, 12, 1, bias=False), nn.BatchNorm2d(12)

        def forward(s, x):
            y = F.hardswish(s.b2(s.dw(F.hardswish(s.b1(s.exp(x))))))
            y = y * F.hardsigmoid(s.se2(F.relu(s.se1(F.adaptive_avg_pool2d(y, 1)))))
            return s.b3(s.proj(y))

    class MBConv(nn.Module):  # EfficientNet: SiLU, SE by mean, residual (no drop path)
        def __init__(s, c=8, e=32):
            super().__init__()
            s.exp, s.dw = nn.Conv2d(c, e, 1), nn.Conv2d(e, e, 3, padding=1, groups=e)
            s.se1, s.se2, s.proj = nn.Conv2d(e, 2, 1), nn.Conv2d(2, e, 1), nn.Conv2d(e, c, 1)
            s.bn = nn.BatchNorm2d(c)

        def forward(s, x):
            y = F.silu(s.dw(F.silu(s.exp(x))))
            y = y * torch.sigmoid(s.se2(F.silu(s.se1(y.mean((2, 3), keepdim=True)))))
            return x + s.bn(s.proj(y))

    class Detr(nn.Module):  # learned queries attend to a flattened feature map + positions
        def __init__(s, d=16):
            super().__init__()
            s.backbone, s.pos = nn.Conv2d(3, d, 4, 4), nn.Linear(2, d)
            s.query, s.q, s.kv = nn.Embedding(5, d), nn.Linear(d, d), nn.Linear(d, 2 * d)
            s.cls, s.box = nn.Linear(d, 3), nn.Linear(d, 4)

        def forward(s, img):
            f = s.backbone(img)
            b, d, h, w = f.shape
            ys = torch.arange(h).float()[:, None].expand(h, w) / h
            xs = torch.arange(w).float()[None, :].expand(h, w) / w
            mem = f.flatten(2).transpose(1, 2) + s.pos(torch.stack([ys, xs], -1).flatten(0, 1))
            tgt = s.query.weight.unsqueeze(0).expand(b, -1, -1)
            k, v = s.kv(mem).chunk(2, -1)
            out = tgt + (s.q(tgt) @ k.transpose(1, 2) / 4.0).softmax(-1) @ v
            return s.cls(out), s.box(out).sigmoid()

    class Wav2Vec2(nn.Module):  # conv stack, GroupNorm, output lengths by floor division
        def __init__(s):
            super().__init__()
            s.convs = nn.ModuleList([nn.Conv1d(1, 8, 10, 5, bias=False),
                                     nn.Conv1d(8, 8, 3, 2, bias=False),
                                     nn.Conv1d(8, 8, 2, 2, bias=False)])
            s.gn, s.ln, s.proj = nn.GroupNorm(8, 8), nn.LayerNorm(8), nn.Linear(8, 16)

        def forward(s, wav, lengths):
            x = F.gelu(s.gn(s.convs[0](wav.unsqueeze(1))))
            for conv in s.convs[1:]:
                x = F.gelu(conv(x))
            x = x.transpose(1, 2)
            for k, st in ((10, 5), (3, 2), (2, 2)):
                lengths = torch.div(lengths - k, st, rounding_mode="floor") + 1
            mask = torch.arange(x.shape[1])[None, :] < lengths[:, None]
            return s.proj(s.ln(x)) * mask[..., None], mask

    class Fold(nn.Module):  # patches out with F.unfold, mixed, back with F.fold
        def __init__(s):
            super().__init__()
            s.mix = nn.Linear(12, 12)

        def forward(s, x):
            p = s.mix(F.unfold(x, 2, stride=2).transpose(1, 2)).transpose(1, 2)
            return F.fold(p, x.shape[-2:], 2, stride=2), p

    class Spectrogram(nn.Module):  # an STFT-free log spectrogram: fixed cos/sin kernels
        def __init__(s, n_fft=16, hop=4):
            super().__init__()
            t = torch.arange(n_fft).float()
            f = torch.arange(n_fft // 2 + 1).float()[:, None]
            kern = torch.cat([torch.cos(2 * math.pi * f * t / n_fft),
                              -torch.sin(2 * math.pi * f * t / n_fft)])[:, None]
            s.register_buffer("kern", kern * torch.hann_window(n_fft))
            s.n_fft, s.hop = n_fft, hop

        def forward(s, wav):
            x = F.pad(wav[:, None], (s.n_fft // 2, s.n_fft // 2), mode="reflect")
            re, im = F.conv1d(x, s.kern, stride=s.hop).chunk(2, 1)
            spec = torch.log(re ** 2 + im ** 2 + 1e-6)
            return spec - spec.mean(-1, keepdim=True)

    class Updates(nn.Module):  # masked_scatter; index_put: a range index, a mask, rows
        def forward(s, x, mask):
            y = x.masked_scatter(mask, x * 2.0)
            z = x.clone()
            z[:, 0] = 0.0
            z[:, torch.arange(1, x.shape[1], 2)] = 1.0
            z[z > 2.0] = 2.0
            z[torch.arange(x.shape[0]), -1] = x[:, 1]
            return y, z

    class SameConv(nn.Module):  # padding='same': odd, even (asymmetric), 1-D
        dilation = 1

        def __init__(s):
            super().__init__()
            s.a = nn.Conv2d(4, 4, 3, padding="same", dilation=s.dilation)
            s.b = nn.Conv2d(4, 4, (4, 2), padding="same")
            s.c = nn.Conv1d(4, 4, 5, padding="same", dilation=s.dilation)

        def forward(s, x):
            return s.a(x), s.b(x), s.c(x.flatten(2))

    class DilatedSameConv(SameConv):  # (the legacy exporter writes auto_pad = SAME_UPPER
        dilation = 2  # with dilations, which onnxruntime does not run)

    class PoolEdges(nn.Module):  # ceil_mode with padding: the last window must start inside
        def forward(s, x):
            return (F.max_pool2d(x, 3, 2, padding=1, ceil_mode=True),
                    F.avg_pool2d(x, 2, 2, ceil_mode=True, count_include_pad=False),
                    F.avg_pool1d(x.flatten(2), 3, 3, padding=1, ceil_mode=True),
                    F.max_pool2d(x, 2, 1, dilation=2), F.lp_pool2d(x, 2, 3, 2))

    class ResizeScales(nn.Module):  # scales that are not integers, sizes from the shape
        def forward(s, x):
            h, w = x.shape[-2:]
            return (F.interpolate(x, scale_factor=1.5, mode="nearest"),
                    F.interpolate(x, scale_factor=(0.3, 0.7), mode="bilinear"),
                    F.interpolate(x, size=(2 * h + 1, w // 3 + 1), mode="bicubic"))

    def r(f):  # a maker of inputs, seeded by the sizes
        return lambda n, m: f(np.random.default_rng(100 * n + m), n, m)

    img = {"x": {0: "b", 2: "h", 3: "w"}}
    return {
        "diffusion_block": (Diffusion, r(lambda g, b, s: [
            _f32(g, b, 8, s, s + 2), g.uniform(0, 1000, b).astype(np.float32)]), ["x", "t"],
            {"x": {0: "b", 2: "h", 3: "w"}, "t": {0: "b"}}, [(2, 4), (1, 6)], BOTH),
        "convnext": (ConvNeXt, r(lambda g, b, s: [_f32(g, b, 8, s, s + 3)]), ["x"], img,
                     [(2, 8), (1, 11)], BOTH),
        "mobilenet_v3": (MobileV3, r(lambda g, b, s: [_f32(g, b, 8, s, s + 1)]), ["x"], img,
                         [(2, 8), (1, 13)], BOTH),
        "mbconv": (MBConv, r(lambda g, b, s: [_f32(g, b, 8, s, s + 2)]), ["x"], img,
                   [(2, 6), (1, 9)], BOTH),
        "detr": (Detr, r(lambda g, b, s: [_f32(g, b, 3, 4 * s, 4 * s + 8)]), ["img"],
                 {"img": {0: "b", 2: "h", 3: "w"}}, [(2, 3), (1, 5)], BOTH),
        "wav2vec2": (Wav2Vec2, r(lambda g, b, n: [_f32(g, b, n), np.full(b, n, np.int64)]),
                     ["wav", "lengths"], {"wav": {0: "b", 1: "n"}, "lengths": {0: "b"}},
                     [(2, 400), (3, 517)], BOTH),
        "fold": (Fold, r(lambda g, b, s: [_f32(g, b, 3, 2 * s, 2 * s + 4)]), ["x"], img,
                 [(2, 3), (1, 5)], ("dynamo",)),
        "spectrogram": (Spectrogram, r(lambda g, b, n: [_f32(g, b, n)]), ["wav"],
                        {"wav": {0: "b", 1: "n"}}, [(2, 64), (1, 101)], BOTH),
        "updates": (Updates, r(lambda g, b, s: [_f32(g, b, s), g.standard_normal((b, s)) > 0]),
                    ["x", "mask"], {"x": {0: "b", 1: "s"}, "mask": {0: "b", 1: "s"}},
                    [(2, 5), (3, 8)], BOTH),
        "same_conv": (SameConv, r(lambda g, b, s: [_f32(g, b, 4, s, s + 3)]), ["x"], img,
                      [(2, 7), (1, 10)], BOTH),
        "pool_edges": (PoolEdges, r(lambda g, b, s: [_f32(g, b, 3, s, s + 3)]), ["x"], img,
                       [(2, 7), (1, 10)], BOTH),
        "resize_scales": (ResizeScales, r(lambda g, b, s: [_f32(g, b, 3, s, s + 4)]), ["x"], img,
                          [(2, 7), (1, 10)], BOTH),
        "same_conv_dilated": (DilatedSameConv, r(lambda g, b, s: [_f32(g, b, 4, s, s + 3)]),
                              ["x"], img, [(2, 7), (1, 10)], ("dynamo",)),
    }
