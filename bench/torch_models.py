"""Small PyTorch models with random weights exported to ONNX (legacy TorchScript exporter),
with dynamic batch and sequence: for bench/compare_peers.py and the torch export test.
Nothing here is committed as a binary: models are built on the fly."""
from __future__ import annotations

import io
import math

import numpy as np


def _torch():
    import torch

    return torch


def export(module, args, input_names, output_names, dynamic_axes, opset=17):
    """The ONNX ModelProto of `module` exported at `args`."""
    import onnx

    torch = _torch()
    module.eval()
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(module, args, buf, input_names=input_names, output_names=output_names,
                          dynamic_axes=dynamic_axes, opset_version=opset, dynamo=False)
    return onnx.load_from_string(buf.getvalue())


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
