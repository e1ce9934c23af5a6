"""GreedySearch (com.microsoft): onnxruntime's greedy text generation for a GPT-2 style
decoder subgraph (model_type 0): (input_ids, position_ids, attention_mask, past_0..) ->
(logits, present_0..). The decoder runs on this package's executor (kernels/bodies.py),
first on the prompt with empty pasts, then once per token (greedy_search_impl_gpt.h); each
step takes the argmax (the first of equal ones) of the last position's logits, read with
vocab_size as their row's stride, after onnxruntime's logits processors in its order
(logits_processor.cc): the repetition penalty, no-repeat n-grams, the vocab mask, the
prefix mask (first step only), min_length holding eos back. A row that met eos_token_id
gets pad_token_id from then on (the eos itself included, as onnxruntime writes it), and
feeds it to the decoder. Where every row has met it before max_length, the rest is
pad_token_id (onnxruntime leaves that memory unwritten). The decoder's first mask is the
attention_mask input where given (else 0 at the prompt's pads, 1 elsewhere), then a 1
more each step; its positions count the prompt's tokens other than pad whatever the mask
(0 at a pad), then go on from their count. This module also holds what BeamSearch and
Sampling share: the subgraph's setup, the first feeds and the two processors."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body

LOWEST = np.finfo(np.float32).min  # onnxruntime's masked score (numeric_limits::lowest)


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


def prompt_feeds(ids, pad, attention_mask):
    """The decoder's first mask and positions, and each row's count of tokens other than
    pad (CreateGptInputs of generation_device_helper.cc): the mask is the attention_mask
    input as given, else 0 at the pads and 1 elsewhere; a position counts the tokens before
    it other than pad (0 at a pad), whatever the mask."""
    real = (ids != pad).astype(np.int32)
    mask = real if attention_mask is None else np.asarray(attention_mask, np.int32)
    pos = np.where(real == 1, np.cumsum(real, 1) - 1, 0).astype(np.int32)
    return mask, pos, real.sum(1).astype(np.int32)


def check_masks(kernel, ids, vocab, vocab_mask, prefix_mask, attention_mask) -> None:
    """The masks' shapes as onnxruntime checks them: vocab_mask [vocab], prefix_vocab_mask
    [batch, vocab], attention_mask input_ids' shape."""
    if vocab_mask is not None and np.shape(vocab_mask) != (vocab,):
        raise kernel.fail(f"vocab_mask must be [{vocab}], not {list(np.shape(vocab_mask))}")
    if prefix_mask is not None and np.shape(prefix_mask) != (ids.shape[0], vocab):
        raise kernel.fail(f"prefix_vocab_mask must be [batch, {vocab}], not "
                          f"{list(np.shape(prefix_mask))}")
    if attention_mask is not None and np.shape(attention_mask) != ids.shape:
        raise kernel.fail(f"attention_mask must be input_ids' shape {list(ids.shape)}, "
                          f"not {list(np.shape(attention_mask))}")


def penalized(scores, seqs, penalty, ngram):
    """onnxruntime's first two logits processors (logits_processor.cc) on float32 scores
    [rows, vocab], in place, each row's sequence so far (prompt and pads included) in
    `seqs`: a repetition penalty (not 1) divides the score of each token of the sequence
    where it is positive and multiplies it where negative; no_repeat_ngram_size n (with
    0 < n <= the length) sets each token completing an n-gram already in the sequence (its
    first n - 1 the sequence's last n - 1) to float32's lowest."""
    if penalty != 1:
        pen = np.float32(penalty)
        for row, seq in zip(scores, seqs):
            w = np.unique(seq)
            row[w] = np.where(row[w] < 0, row[w] * pen, row[w] / pen)
    length = np.shape(seqs)[1]
    if 0 < ngram <= length:
        for row, seq in zip(scores, seqs):
            tail = seq[length - ngram + 1:]
            for j in range(length - ngram + 1):
                if ngram == 1 or np.array_equal(seq[j:j + ngram - 1], tail):
                    row[seq[j + ngram - 1]] = LOWEST
    return scores


class GreedySearch(Kernel):
    domains = ("com.microsoft",)
    attrs = {"decoder": REQUIRED, "eos_token_id": REQUIRED, "pad_token_id": REQUIRED,
             "init_decoder": None, "encoder": None, "model_type": 0, "vocab_size": -1,
             "no_repeat_ngram_size": 0, "decoder_start_token_id": -1}
    n_inputs = (2, 7)

    def setup(self, decoder, init_decoder, encoder, model_type, **_):
        if model_type != 0 or encoder is not None:
            raise self.fail("only GPT-2 style decoders (model_type 0) are run")
        setup_gpt2(self, decoder, init_decoder)

    def run(self, ids, max_length, min_length=None, penalty=None, vocab_mask=None,
            prefix_mask=None, attention_mask=None, *, eos_token_id, pad_token_id,
            vocab_size, no_repeat_ngram_size, **_):
        if ids.ndim != 2:
            raise self.fail(f"input_ids must be [batch, length], not {list(ids.shape)}")
        b, s = ids.shape
        width = self.scalar(max_length)
        least = 0 if min_length is None else self.scalar(min_length)
        if width <= s:
            raise self.fail(f"max_length ({width}) must exceed the prompt's length ({s})")
        pen = 1.0 if penalty is None else float(self.scalar(penalty))
        if not pen > 0:
            raise self.fail(f"repetition_penalty ({pen}) must be > 0")
        mask, pos, lengths = prompt_feeds(ids, pad_token_id, attention_mask)
        layers = len(self.decoder.params) - 3
        pasts, run, feed = None, self.first, ids
        seq = np.full((b, width), pad_token_id, np.int32)
        seq[:, :s] = ids
        done = np.zeros(b, bool)
        for length in range(s, width):
            if pasts is None:
                pasts = [np.zeros((2, b, h, 0, d), np.float32) for h, d in self.pasts]
            outs = run(feed, pos, mask, *pasts, outer=self.outer_values)
            logits = self._last(np.asarray(outs[0], np.float32), vocab_size)
            if length == s:
                self._check(ids, logits.shape[1], vocab_mask, prefix_mask, attention_mask,
                            least, eos_token_id)
            logits = penalized(logits, seq[:, :length], pen, no_repeat_ngram_size)
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
            pos = (lengths[:, None] if length == s else pos + 1).astype(np.int32)
            mask = np.concatenate([mask, np.ones((b, 1), np.int32)], 1)
        return seq

    def _last(self, logits, vocab_size):
        """The last position's logits: onnxruntime reads them with vocab_size (where given)
        as their row's stride."""
        if vocab_size in (-1, 0):
            return logits[:, -1, :].copy()
        b, n, v = logits.shape
        if vocab_size > v:
            raise self.fail(f"vocab_size ({vocab_size}) exceeds the decoder's logits ({v})")
        flat = logits.reshape(-1)
        return np.stack([flat[(i * n + n - 1) * vocab_size:][:vocab_size] for i in range(b)])

    def _check(self, ids, vocab, vocab_mask, prefix_mask, attention_mask, least, eos):
        check_masks(self, ids, vocab, vocab_mask, prefix_mask, attention_mask)
        if least > ids.shape[1] and not 0 <= eos < vocab:  # (onnxruntime writes out of
            raise self.fail("min_length with an eos_token_id out of the vocabulary")  # it)

    @staticmethod
    def _masked(logits, vocab_mask, prefix_mask, no_eos):
        if vocab_mask is not None:
            logits[:, np.asarray(vocab_mask) == 0] = LOWEST
        if prefix_mask is not None:
            logits[np.asarray(prefix_mask) == 0] = LOWEST
        if no_eos is not None:
            logits[:, no_eos] = LOWEST
        return logits
