"""Small PyTorch models with random weights exported to ONNX, with dynamic batch and
sequence: for bench/compare_peers.py and the torch export tests. Nothing here is committed
as a binary: models are built on the fly.

Two exporters: the legacy TorchScript one (`dynamo=False`, opset 17) by default, and
torch.export's (`torch.onnx.export`'s default since torch 2.9, opset 18; it needs the
onnxscript package) after `use_dynamo(True)`. They write different graphs for the same
module: the dynamo exporter computes sizes with Shape(start, end) -> Squeeze -> Div and
reshapes with allowzero = 1, and declares every intermediate's shape."""
from __future__ import annotations

import io
import logging
import math
import warnings

import numpy as np

_DYNAMO = [False]


def use_dynamo(on: bool) -> None:
    """Export with torch.export's exporter (True) or the TorchScript one (False)."""
    _DYNAMO[0] = on


def _torch():
    import torch

    return torch


def export(module, args, input_names, output_names, dynamic_axes, opset=17):
    """The ONNX ModelProto of `module` exported at `args`."""
    import onnx

    torch = _torch()
    module.eval()
    if _DYNAMO[0]:
        # (it logs each torchvision op it cannot register, and warns about dynamic_axes)
        logging.getLogger("torch.onnx").setLevel(logging.ERROR)
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            program = torch.onnx.export(module, args, input_names=input_names,
                                        output_names=output_names, dynamic_axes=dynamic_axes,
                                        opset_version=max(opset, 18), dynamo=True,
                                        verbose=False)
        return program.model_proto
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(module, args, buf, input_names=input_names, output_names=output_names,
                          dynamic_axes=dynamic_axes, opset_version=opset, dynamo=False)
    return onnx.load_from_string(buf.getvalue())


def _randn(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def gpt_block(d=32, h=4, with_past=True):
    """A GPT-2-like block: LayerNorm, attention over a KV cache with a causal mask built
    from the shapes, GELU MLP; returns (model, make_feeds(batch, seq, past))."""
    torch = _torch()
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x, past_k, past_v):
            b, t, _ = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
            q = q.view(b, t, h, d // h).transpose(1, 2)
            k = torch.cat([past_k, k.view(b, t, h, d // h).transpose(1, 2)], dim=2)
            v = torch.cat([past_v, v.view(b, t, h, d // h).transpose(1, 2)], dim=2)
            total = k.shape[2]
            att = q @ k.transpose(-2, -1) / math.sqrt(d // h)
            causal = torch.ones(total, total, dtype=torch.bool).tril()[total - t:total, :total]
            att = att.masked_fill(~causal, float("-inf")).softmax(-1)
            y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
            x = x + self.proj(y)
            x = x + self.out(nn.functional.gelu(self.fc(self.ln2(x))))
            return x, k, v

    def feeds(batch, seq, past):
        rng = np.random.default_rng(0)
        return {"x": rng.standard_normal((batch, seq, d)).astype(np.float32),
                "past_k": rng.standard_normal((batch, h, past, d // h)).astype(np.float32),
                "past_v": rng.standard_normal((batch, h, past, d // h)).astype(np.float32)}

    f = feeds(2, 3, 4)
    args = tuple(torch.from_numpy(f[k]) for k in ("x", "past_k", "past_v"))
    dyn = {"x": {0: "batch", 1: "seq"}, "past_k": {0: "batch", 2: "past_seq"},
           "past_v": {0: "batch", 2: "past_seq"}}
    model = export(Block(), args, ["x", "past_k", "past_v"], ["y", "present_k", "present_v"],
                   dyn)
    return model, feeds


def bert_layer(d=32, h=4, vocab=50):
    """A BERT-like encoder: embeddings (token + position from the shape), an attention mask
    from the input, one encoder layer; dynamic batch and sequence."""
    torch = _torch()
    nn = torch.nn

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(64, d)
            self.ln = nn.LayerNorm(d)
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

        def forward(self, ids, mask):
            b, t = ids.shape
            x = self.ln(self.tok(ids) + self.pos(torch.arange(t).unsqueeze(0).expand(b, t)))
            q, k, v = (z.reshape(b, t, h, -1).permute(0, 2, 1, 3)
                       for z in self.qkv(x).chunk(3, dim=-1))
            bias = (1.0 - mask[:, None, None, :].float()) * -10000.0
            a = (q @ k.transpose(-1, -2) / math.sqrt(d // h) + bias).softmax(-1)
            x = x + self.o((a @ v).permute(0, 2, 1, 3).reshape(b, t, d))
            return x + self.ff(x)

    def feeds(batch, seq):
        rng = np.random.default_rng(batch * 10 + seq)
        return {"ids": rng.integers(0, vocab, (batch, seq)).astype(np.int64),
                "mask": np.ones((batch, seq), np.int64)}

    f = feeds(2, 5)
    model = export(Bert(), (torch.from_numpy(f["ids"]), torch.from_numpy(f["mask"])),
                   ["ids", "mask"], ["y"], {"ids": {0: "batch", 1: "seq"},
                                            "mask": {0: "batch", 1: "seq"}})
    return model, [feeds(2, 5), feeds(3, 7)]


def llama_block(d=32, h=4, kv_h=2):
    """A LLaMA-like block: RMSNorm, rotary embeddings computed from the positions, grouped
    KV heads repeated, a KV cache, causal mask, SiLU-gated MLP."""
    torch = _torch()
    nn = torch.nn
    hd = d // h

    class RMS(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.w

    def rotate(x, cos, sin):
        x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
        return x * cos + torch.cat([-x2, x1], dim=-1) * sin

    class Llama(nn.Module):
        def __init__(self):
            super().__init__()
            self.n1, self.n2 = RMS(), RMS()
            self.q, self.k = nn.Linear(d, d, bias=False), nn.Linear(d, kv_h * hd, bias=False)
            self.v, self.o = nn.Linear(d, kv_h * hd, bias=False), nn.Linear(d, d, bias=False)
            self.g, self.u = nn.Linear(d, 2 * d, bias=False), nn.Linear(d, 2 * d, bias=False)
            self.dn = nn.Linear(2 * d, d, bias=False)

        def forward(self, x, past_k, past_v):
            b, t, _ = x.shape
            past = past_k.shape[2]
            pos = torch.arange(past, past + t, dtype=torch.float32)
            inv = 1.0 / (10000 ** (torch.arange(0, hd, 2, dtype=torch.float32) / hd))
            ang = pos[:, None] * inv[None, :]
            emb = torch.cat([ang, ang], dim=-1)
            cos, sin = emb.cos()[None, None], emb.sin()[None, None]
            y = self.n1(x)
            q = rotate(self.q(y).view(b, t, h, hd).transpose(1, 2), cos, sin)
            k = rotate(self.k(y).view(b, t, kv_h, hd).transpose(1, 2), cos, sin)
            v = self.v(y).view(b, t, kv_h, hd).transpose(1, 2)
            k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
            kk = k.repeat_interleave(h // kv_h, dim=1)
            vv = v.repeat_interleave(h // kv_h, dim=1)
            total = kk.shape[2]
            mask = torch.full((t, total), float("-inf")).triu(past + 1)
            a = (q @ kk.transpose(-1, -2) / math.sqrt(hd) + mask).softmax(-1)
            x = x + self.o((a @ vv).transpose(1, 2).reshape(b, t, d))
            y = self.n2(x)
            return x + self.dn(nn.functional.silu(self.g(y)) * self.u(y)), k, v

    def feeds(batch, seq, past):
        return {"x": _randn((batch, seq, d), seq), "past_k": _randn((batch, kv_h, past, hd), 1),
                "past_v": _randn((batch, kv_h, past, hd), 2)}

    f = feeds(2, 3, 4)
    dyn = {"x": {0: "batch", 1: "seq"}, "past_k": {0: "batch", 2: "past_seq"},
           "past_v": {0: "batch", 2: "past_seq"}}
    model = export(Llama(), tuple(torch.from_numpy(f[k]) for k in ("x", "past_k", "past_v")),
                   ["x", "past_k", "past_v"], ["y", "present_k", "present_v"], dyn)
    return model, [feeds(2, 3, 4), feeds(1, 5, 2)]


def vit(d=32, patch=4):
    """A ViT-like model: patch convolution, flatten, class token, one encoder layer."""
    torch = _torch()
    nn = torch.nn

    class ViT(nn.Module):
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, d, patch, patch)
            self.cls = nn.Parameter(torch.zeros(1, 1, d))
            self.ln = nn.LayerNorm(d)
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.head = nn.Linear(d, 10)

        def forward(self, img):
            x = self.patch(img).flatten(2).transpose(1, 2)
            x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1)
            b, t, _ = x.shape
            q, k, v = self.qkv(self.ln(x)).reshape(b, t, 3, 4, d // 4).permute(2, 0, 3, 1, 4)
            a = (q @ k.transpose(-1, -2) * (d // 4) ** -0.5).softmax(-1)
            x = x + self.o((a @ v).transpose(1, 2).reshape(b, t, d))
            return self.head(x[:, 0])

    model = export(ViT(), (torch.from_numpy(_randn((2, 3, 16, 16))),), ["img"], ["y"],
                   {"img": {0: "batch", 2: "height", 3: "width"}})
    return model, [{"img": _randn((2, 3, 16, 16))}, {"img": _randn((1, 3, 24, 32))}]


def resnet(c=8):
    """A small ResNet: strided convolutions, batch norm, residual blocks, global pooling."""
    torch = _torch()
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.b1 = nn.BatchNorm2d(cout)
            self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.b2 = nn.BatchNorm2d(cout)
            self.skip = nn.Conv2d(cin, cout, 1, stride) if stride > 1 or cin != cout \
                else nn.Identity()

        def forward(self, x):
            y = self.b2(self.c2(torch.relu(self.b1(self.c1(x)))))
            return torch.relu(y + self.skip(x))

    net = nn.Sequential(nn.Conv2d(3, c, 7, 2, 3), nn.MaxPool2d(3, 2, 1), Block(c, c, 1),
                        Block(c, 2 * c, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                        nn.Linear(2 * c, 10))
    model = export(net, (torch.from_numpy(_randn((2, 3, 32, 32))),), ["img"], ["y"],
                   {"img": {0: "batch", 2: "height", 3: "width"}})
    return model, [{"img": _randn((2, 3, 32, 32))}, {"img": _randn((1, 3, 40, 56))}]


def recurrent(make_rnn, outputs: int, d: int, sizes):
    """An RNN module (make_rnn(nn)) over a dynamic sequence and batch, then a linear head
    to `outputs` features; feeds at the (batch, seq) `sizes`."""
    torch = _torch()
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = make_rnn(nn)
            width = self.rnn.hidden_size * (2 if self.rnn.bidirectional else 1)
            self.head = nn.Linear(width, outputs)

        def forward(self, x):
            y, _ = self.rnn(x)
            return self.head(y)

    model = export(Net(), (torch.from_numpy(_randn((*sizes[0], d))),), ["x"], ["y"],
                   {"x": {0: "batch", 1: "seq"}})
    return model, [{"x": _randn((*bs, d))} for bs in sizes]


def lstm(d=8, hidden=16):
    """A two-layer LSTM over a dynamic sequence and batch, then a linear head."""
    return recurrent(lambda nn: nn.LSTM(d, hidden, num_layers=2, batch_first=True), 4, d,
                     [(2, 5), (3, 9)])


def nonzero_topk(d=16):
    """Data-dependent shapes: the positive entries (NonZero), the top k (k from the
    sequence length), a masked select."""
    torch = _torch()
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(d, d)

        def forward(self, x):
            y = self.lin(x)
            idx = torch.nonzero(y > 0)
            k = y.shape[1] // 2
            top, where = y.topk(k, dim=1)
            picked = y[y > 0.5]
            return idx, top, where, picked

    model = export(Net(), (torch.from_numpy(_randn((2, 6, d))),), ["x"],
                   ["idx", "top", "where", "picked"], {"x": {0: "batch", 1: "seq"}})
    return model, [{"x": _randn((2, 6, d))}, {"x": _randn((3, 10, d), 1)}]


def pad_resize():
    """F.pad (reflect and constant) and F.interpolate (x2 nearest, x0.5 bilinear) with
    several outputs that dynamic_axes does not list: the legacy exporter computes the pads
    through a reversed, transposed [4, 2] matrix, and names the outputs' dims after what its
    shape inference merged (two Pads, and two Resizes, share names)."""
    torch = _torch()
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def forward(self, x):
            return (F.pad(x, (1, 2, 3, 4), mode="reflect"), F.pad(x, (0, 5)),
                    F.interpolate(x, scale_factor=2, mode="nearest"),
                    F.interpolate(x, scale_factor=0.5, mode="bilinear"), x.flatten(1))

    model = export(Net(), (torch.from_numpy(_randn((2, 3, 8, 10))),), ["x"],
                   ["padded", "padded_right", "up", "down", "flat"],
                   {"x": {0: "batch", 2: "height", 3: "width"}})
    return model, [{"x": _randn((2, 3, 8, 10))}, {"x": _randn((1, 3, 12, 14), 1)}]


def t5_layer(d=32, h=4, buckets=8, max_distance=16):
    """A T5-like encoder layer: RMS norm, self-attention with a bucketed relative position
    bias computed from the sequence length (Range, Log, Min, Where, Gather), ReLU MLP."""
    torch = _torch()
    nn = torch.nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.n1, self.n2 = nn.Parameter(torch.ones(d)), nn.Parameter(torch.ones(d))
            self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
            self.bias = nn.Embedding(buckets, h)
            self.wi, self.wo = nn.Linear(d, 2 * d, bias=False), nn.Linear(2 * d, d, bias=False)

        def norm(self, x, w):
            return w * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

        def position_bias(self, q_len, k_len):
            ctx = torch.arange(q_len)[:, None]
            mem = torch.arange(k_len)[None, :]
            rel = mem - ctx  # bidirectional buckets, as T5's encoder
            half = buckets // 2
            out = (rel > 0).long() * half
            rel = rel.abs()
            exact = half // 2
            large = exact + (torch.log(rel.float() / exact) / math.log(max_distance / exact)
                             * (half - exact)).long()
            large = torch.min(large, torch.full_like(large, half - 1))
            out = out + torch.where(rel < exact, rel, large)
            return self.bias(out).permute(2, 0, 1).unsqueeze(0)

        def forward(self, x):
            b, t, _ = x.shape
            y = self.norm(x, self.n1)
            q, k, v = (m(y).view(b, t, h, d // h).transpose(1, 2) for m in (self.q, self.k, self.v))
            att = (q @ k.transpose(-1, -2) + self.position_bias(t, t)).softmax(-1)
            x = x + self.o((att @ v).transpose(1, 2).reshape(b, t, d))
            return x + self.wo(torch.relu(self.wi(self.norm(x, self.n2))))

    model = export(Layer(), (torch.from_numpy(_randn((2, 7, d))),), ["x"], ["y"],
                   {"x": {0: "batch", 1: "seq"}})
    return model, [{"x": _randn((2, 7, d))}, {"x": _randn((3, 20, d), 1)}]


def unet(c=4):
    """A small UNet: two levels down (convolution, max pooling), up by a transposed
    convolution and by nearest-neighbour resizing, skip connections joined by Concat."""
    torch = _torch()
    nn = torch.nn

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1), nn.ReLU(),
                             nn.Conv2d(cout, cout, 3, 1, 1), nn.ReLU())

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.d1, self.d2, self.mid = block(3, c), block(c, 2 * c), block(2 * c, 4 * c)
            self.up2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, 2)
            self.u2, self.u1 = block(4 * c, 2 * c), block(3 * c, c)
            self.out = nn.Conv2d(c, 2, 1)

        def forward(self, x):
            a = self.d1(x)
            b = self.d2(nn.functional.max_pool2d(a, 2))
            m = self.mid(nn.functional.max_pool2d(b, 2))
            y = self.u2(torch.cat([self.up2(m), b], 1))
            y = nn.functional.interpolate(y, scale_factor=2.0, mode="nearest")
            return self.out(self.u1(torch.cat([y, a], 1)))

    model = export(UNet(), (torch.from_numpy(_randn((1, 3, 16, 16))),), ["img"], ["mask"],
                   {"img": {0: "batch", 2: "height", 3: "width"}})
    return model, [{"img": _randn((1, 3, 16, 16))}, {"img": _randn((2, 3, 24, 40))}]


def gru(d=8, hidden=12):
    """A bidirectional GRU over a dynamic sequence and batch, then a linear head."""
    return recurrent(lambda nn: nn.GRU(d, hidden, batch_first=True, bidirectional=True), 3, d,
                     [(2, 5), (4, 11)])


def gpt(d=32, h=4):
    model, feeds = gpt_block(d, h)
    return model, [feeds(2, 3, 4), feeds(1, 5, 2)]


MODELS = {"gpt2_block_kv": gpt, "bert_layer": bert_layer, "llama_block_kv": llama_block,
          "t5_layer": t5_layer, "vit": vit, "resnet": resnet, "unet": unet, "lstm": lstm,
          "gru": gru, "nonzero_topk": nonzero_topk, "pad_resize": pad_resize}
