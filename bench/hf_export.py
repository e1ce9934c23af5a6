"""The export of bench/hf_models.py's and hf_models2.py's Hugging Face models: a module
to ONNX through torch.onnx (TorchScript's exporter or torch.export's), and the feeds of
text models (input_ids, attention_mask[, token_type_ids]) and of one-input models."""
from __future__ import annotations

import io
import logging
import warnings

import numpy as np

VOCAB = 100


def modules():
    import torch
    import transformers

    return torch, transformers


def export(module, args, names, outputs, dims, dynamo: bool):
    """The ONNX ModelProto of `module` at `args`; `dims`: input -> {axis: name}."""
    import onnx

    torch, _ = modules()
    module.eval()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dynamo:
            logging.getLogger("torch.onnx").setLevel(logging.ERROR)
            shapes = {arg: {axis: torch.export.Dim(name) for axis, name in axes.items()}
                      for arg, axes in zip(arg_names(module), dims.values())}
            program = torch.onnx.export(module, args, input_names=names, output_names=outputs,
                                        dynamic_shapes=shapes, dynamo=True, opset_version=18,
                                        verbose=False)
            return program.model_proto
        buf = io.BytesIO()
        torch.onnx.export(module, args, buf, input_names=names, output_names=outputs,
                          dynamic_axes=dims, opset_version=17, dynamo=False)
    return onnx.load_from_string(buf.getvalue())


def arg_names(module) -> list[str]:
    import inspect

    return list(inspect.signature(module.forward).parameters)


def text_feeds(batch: int, seq: int, token_types: bool = False) -> dict:
    rng = np.random.default_rng(batch * 10 + seq)
    feeds = {"input_ids": rng.integers(0, VOCAB, (batch, seq)).astype(np.int64),
             "attention_mask": np.ones((batch, seq), np.int64)}
    feeds["attention_mask"][0, -1] = 0  # (one padded position: the mask is read)
    if token_types:
        feeds["token_type_ids"] = np.zeros((batch, seq), np.int64)
    return feeds


def text_model(model_cls, config, token_types: bool, dynamo: bool):
    """A text encoder/decoder over (input_ids, attention_mask[, token_type_ids]) with
    dynamic batch and sequence, returning its last hidden state."""
    torch, _ = modules()
    inner = model_cls(config).eval()

    class Text(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            kw = {"token_type_ids": token_type_ids} if token_types else {}
            if dynamo:
                kw["use_cache"] = False
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          return_dict=False, **kw)[0]

    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if token_types else [])
    f = text_feeds(2, 5, token_types)
    args = tuple(torch.from_numpy(f[n]) for n in names)
    model = export(Text(), args, names, ["last_hidden_state"],
                    {n: {0: "batch", 1: "seq"} for n in names}, dynamo)
    return model, [text_feeds(2, 5, token_types), text_feeds(3, 7, token_types)]

def one_input(inner, name: str, call, axes: dict, feeds: list, dynamo: bool = False):
    """`call(inner, x)`'s first output over one input `name` with dynamic `axes`."""
    torch, _ = modules()

    class One(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner.eval()

        def forward(self, x):
            return call(self.m, x)

    model = export(One(), (torch.from_numpy(feeds[0][name]),), [name], ["last_hidden_state"],
                    {name: axes}, dynamo)
    return model, feeds, None


# an image's dynamic axes, and two sizes other than the 32 x 32 a tiny ViT config is made for
# (its position embeddings interpolated)
HW = {0: "batch", 2: "height", 3: "width"}
OTHER_SIZES = [(1, 3, 32, 48), (2, 3, 40, 24)]


def image(inner, axes, sizes, dynamo: bool = False, **kw):
    """`inner(pixel_values=x, **kw)`'s first output over images of `sizes`, `axes` dynamic."""
    return one_input(inner, "pixel_values",
                     lambda m, x: m(pixel_values=x, return_dict=False, **kw)[0], axes,
                     [floats("pixel_values", *size) for size in sizes], dynamo)


def audio(inner, dynamo: bool = False):
    """`inner(input_values=x)`'s first output over audio of a dynamic length (16000 and 12345
    samples)."""
    return one_input(inner, "input_values", lambda m, x: m(input_values=x, return_dict=False)[0],
                     {0: "batch", 1: "length"},
                     [floats("input_values", 1, 16000), floats("input_values", 2, 12345)], dynamo)


def floats(name: str, *shape: int) -> dict:
    return {name: np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)}



def kv_cache_decoder(inner, kv_heads: int, head_dim: int):
    """A two-layer decoder `inner` over a KV cache, exported by torch.export's exporter: the
    past keys and values of each layer as inputs [batch, kv_heads, past, head_dim], the
    mask over past + seq positions (its own dim name: the exporter cannot tie it), the
    present keys and values as outputs. (model, feeds at two sizes)"""
    torch, _ = modules()
    from transformers.cache_utils import DynamicCache

    pasts = ["past_k0", "past_v0", "past_k1", "past_v1"]  # (two layers)

    class Decoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner

        def forward(self, input_ids, attention_mask, past_k0, past_v0, past_k1, past_v1):
            cache = DynamicCache.from_legacy_cache(((past_k0, past_v0), (past_k1, past_v1)))
            out = self.m(input_ids=input_ids, attention_mask=attention_mask,
                         past_key_values=cache, use_cache=True, return_dict=True)
            present = out.past_key_values.to_legacy_cache()
            return (out.last_hidden_state,) + tuple(t for kv in present for t in kv)

    def feeds(batch, seq, past):
        rng = np.random.default_rng(batch * 100 + seq * 10 + past)
        f = {"input_ids": rng.integers(0, VOCAB, (batch, seq)).astype(np.int64),
             "attention_mask": np.ones((batch, past + seq), np.int64)}
        for name in pasts:
            f[name] = rng.standard_normal((batch, kv_heads, past, head_dim)).astype(np.float32)
        return f

    names = ["input_ids", "attention_mask"] + pasts
    f = feeds(2, 3, 4)
    dims = {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "total"},
            **{name: {0: "batch", 2: "past"} for name in pasts}}
    model = export(Decoder(), tuple(torch.from_numpy(f[n]) for n in names), names,
                   ["last_hidden_state"] + [f"present_{p[5:]}" for p in pasts], dims, True)
    return model, [feeds(2, 3, 4), feeds(1, 5, 2)]


def multi_input(module, feeds: list, dims: dict, outputs=("last_hidden_state",), dynamo=False):
    """`module` over the inputs named in `dims` (input -> {axis: name}), exported at feeds[0]."""
    torch, _ = modules()
    names = list(dims)
    model = export(module.eval(), tuple(torch.from_numpy(feeds[0][n]) for n in names), names,
                   list(outputs), dims, dynamo)
    return model, feeds, None


def wrapped(inner, call):
    """A torch.nn.Module calling `call(inner, *inputs)` over up to three inputs."""
    torch, _ = modules()

    class Wrapped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner.eval()

        def forward(self, x, y=None, z=None):
            return call(self.m, *(a for a in (x, y, z) if a is not None))

    return Wrapped()


def layout_model(inner, boxes):
    """A document-layout model `inner` over ids, token boxes [batch, seq, 4] (`boxes(rng,
    batch, seq)`, rng seeded by seq) and an attention mask, batch and seq dynamic: its last
    hidden state (BROS, LiLT)."""
    call = wrapped(inner, lambda m, ids, box, mask: m(input_ids=ids, bbox=box,
                                                      attention_mask=mask,
                                                      return_dict=False)[0])

    def feeds(batch, seq):
        f = text_feeds(batch, seq)
        return {"input_ids": f["input_ids"],
                "bbox": boxes(np.random.default_rng(seq), batch, seq),
                "attention_mask": f["attention_mask"]}

    return multi_input(call, [feeds(2, 5), feeds(3, 7)],
                       {n: {0: "batch", 1: "seq"} for n in ("input_ids", "bbox", "attention_mask")})
