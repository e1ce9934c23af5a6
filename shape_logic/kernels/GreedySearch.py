"""GreedySearch (com.microsoft): onnxruntime's greedy text generation for a GPT-2 style
decoder subgraph (model_type 0): (input_ids, position_ids, attention_mask, past_0..) ->
(logits, present_0..). The decoder runs on this package's executor (kernels/bodies.py),
first on the prompt with empty pasts, then once per token; each step takes the argmax of
the last position's logits. A row that met eos_token_id gets pad_token_id from then on
(the eos itself included, as onnxruntime writes it). Where every row has met it before
max_length, the rest is pad_token_id (onnxruntime leaves that memory unwritten)."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body


def body_of(value):
    """A subgraph attribute as a graph object: a GraphProto (a node built by onnx.helper)
    is converted as the importer converts one, its inputs' declared shapes kept (the past's
    heads and head size are read from them)."""
    if not hasattr(value, "SerializeToString"):
        return value
    from ..onnx_bodies import body_dict

    body = body_dict(value)
    body["inputs"] = {vi.name: {"shape": [d.dim_value if d.HasField("dim_value") else
                                          d.dim_param or "?"
                                          for d in vi.type.tensor_type.shape.dim]}
                      for vi in value.input if vi.name in set(body["inputs"])}
    return body


def declared_past(body, name):
    """The declared [2, batch, heads, past, head size] of a past input: (heads, head size),
    or None where the body object does not declare both."""
    inputs = body.get("inputs")
    decl = inputs.get(name) if isinstance(inputs, dict) else None
    shape = (decl or {}).get("shape") if isinstance(decl, dict) else None
    if not isinstance(shape, list) or len(shape) != 5:
        return None
    heads, size = shape[2], shape[4]
    return (heads, size) if isinstance(heads, int) and isinstance(size, int) else None


def setup_gpt2(kernel, decoder, init_decoder) -> None:
    """A GPT-2 style decoder (model_type 0) onto `kernel`: its body as `decoder` (and
    `first`: init_decoder's, for the prompt, where given), the empty pasts of the first step
    (`pasts`: each layer's declared heads and head size), and the outer names it reads.
    GreedySearch, BeamSearch and Sampling share it."""
    body = body_of(decoder)
    kernel.decoder = Body(kernel, body)
    kernel.first = (kernel.decoder if init_decoder is None
                    else Body(kernel, body_of(init_decoder)))
    kernel.pasts = [declared_past(body, n) for n in kernel.decoder.params[3:]]
    if len(kernel.pasts) < 1 or None in kernel.pasts:
        raise kernel.fail("the decoder must declare each past input [2, batch, heads, "
                          "past, head size] with its heads and head size")
    kernel.outer_names, kernel.outer_values = kernel.decoder.outer, {}


class GreedySearch(Kernel):
    domains = ("com.microsoft",)
    attrs = {"decoder": REQUIRED, "eos_token_id": REQUIRED, "pad_token_id": REQUIRED,
             "init_decoder": None, "encoder": None, "model_type": 0, "vocab_size": -1,
             "no_repeat_ngram_size": 0, "decoder_start_token_id": -1}
    n_inputs = (2, 7)

    def setup(self, decoder, init_decoder, encoder, model_type, no_repeat_ngram_size,
              **_):
        if model_type != 0 or encoder is not None:
            raise self.fail("only GPT-2 style decoders (model_type 0) are run")
        if no_repeat_ngram_size:
            raise self.fail("no_repeat_ngram_size is not supported")
        setup_gpt2(self, decoder, init_decoder)

    def run(self, ids, max_length, min_length=None, penalty=None, vocab_mask=None,
            prefix_mask=None, attention_mask=None, *, eos_token_id, pad_token_id,
            vocab_size, **_):
        if attention_mask is not None or penalty is not None:
            raise self.fail("attention_mask and repetition_penalty are not supported")
        if ids.ndim != 2:
            raise self.fail(f"input_ids must be [batch, length], not {list(ids.shape)}")
        b, s = ids.shape
        width = self.scalar(max_length)
        least = 0 if min_length is None else self.scalar(min_length)
        if width <= s:
            raise self.fail(f"max_length ({width}) must exceed the prompt's length ({s})")
        # the prompt's pads are masked; positions count the tokens that are not
        mask = (ids != pad_token_id).astype(np.int32)
        pos = np.where(mask == 1, np.cumsum(mask, 1) - 1, 0).astype(np.int32)
        layers = len(self.decoder.params) - 3
        pasts, run, feed = None, self.first, ids
        seq = np.full((b, width), pad_token_id, np.int32)
        seq[:, :s] = ids
        done = np.zeros(b, bool)
        for length in range(s, width):
            if pasts is None:
                pasts = [np.zeros((2, b, h, 0, d), np.float32) for h, d in self.pasts]
            outs = run(feed, pos, mask, *pasts, outer=self.outer_values)
            logits = np.asarray(outs[0], np.float32)[:, -1, :]
            if vocab_size not in (-1, 0):
                logits = logits[:, :vocab_size]
            logits = self._masked(logits, vocab_mask, prefix_mask if length == s else None,
                                  eos_token_id if length < least else None)
            token = logits.argmax(-1).astype(np.int32)
            hit = token == eos_token_id
            seq[:, length] = np.where(done | hit, pad_token_id, token)
            done |= hit
            if done.all():
                break
            pasts, run = list(outs[1:1 + layers]), self.decoder
            feed = seq[:, length:length + 1]  # (pad for a finished row, as onnxruntime feeds)
            pos = (mask.sum(1, keepdims=True) if length == s else pos + 1).astype(np.int32)
            mask = np.concatenate([mask, np.ones((b, 1), np.int32)], 1)
        return seq

    @staticmethod
    def _masked(logits, vocab_mask, prefix_mask, no_eos):
        logits = logits.copy()
        if vocab_mask is not None:
            logits[:, np.asarray(vocab_mask).reshape(-1)[:logits.shape[1]] == 0] = -np.inf
        if prefix_mask is not None:
            logits[np.asarray(prefix_mask)[:, :logits.shape[1]] == 0] = -np.inf
        if no_eos is not None:
            logits[:, no_eos] = -np.inf
        return logits
