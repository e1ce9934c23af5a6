"""BeamSearch (com.microsoft): onnxruntime's beam search for a GPT-2 style decoder subgraph
(model_type 0), or a T5 style encoder and decoder (model_type 1, beam_search_impl_t5.h:
the encoder once, its logits the first step's, then the decoder; WhisperBeamSearch's
kernel runs Whisper's the same way), as its CPU kernel runs it (beam_search_impl_gpt.h,
ProcessLogits of generation_device_helper.cc, BeamSearchScorer of beam_search_scorer.cc):

- the prompt is copied num_beams times; the first beam of each batch row starts with score
  0, the others with -1e9 (so the first step picks among the first beam's tokens);
- each step: log_softmax of the last position's logits, the logits processors in
  onnxruntime's order (repetition penalty, no_repeat_ngram, vocab_mask, prefix_vocab_mask
  on the first step only, min_length holding eos back, Whisper's temperature dividing the
  scores), the beam's score added; then the top 2 * num_beams over beams * vocab (ties:
  the lower index first);
- the scorer walks those candidates in order: an eos among the first num_beams ends a
  hypothesis (the sequence without the eos, its score sum / length ** length_penalty),
  kept in a list of num_beams best (a new one goes after equal ones; one no better than
  the worst of a full list is dropped); the other tokens continue, num_beams of them. A
  batch row is done once its list is full and (without early_stopping) the best candidate
  score, over length ** length_penalty, cannot beat the list's worst. onnxruntime reads
  that best candidate at offset row * num_beams (not row * 2 * num_beams) of the top-k
  scores, as this kernel does. A done row continues with pad tokens, score 0, beam 0 (the
  batch's first: its past and sequence are copied from there);
- at max_length the open beams join their row's list with their scores; the best
  num_return_sequences of each row are the output, padded with pad_token_id.
The decoder's inputs after the first step: the chosen tokens, the positions (the count of
the prompt's tokens other than pad, then one more each step), the attention mask with a 1
appended, the presents picked by beam (num_beams 1: as they are)."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body
from .GreedySearch import LOWEST, body_of, check_masks, penalized, prompt_feeds, setup_gpt2

MAX_LENGTH, MAX_BEAMS = 4096, 128  # onnxruntime's kMaxSequenceLength, kMaxNumBeams


class BeamSearch(Kernel):
    domains = ("com.microsoft",)
    attrs = {"decoder": REQUIRED, "eos_token_id": REQUIRED, "pad_token_id": REQUIRED,
             "init_decoder": None, "encoder": None, "model_type": 0, "vocab_size": -1,
             "no_repeat_ngram_size": 0, "decoder_start_token_id": -1, "early_stopping": 0}
    # onnxruntime needs inputs 0 to 5 (min_length and length_penalty too)
    n_inputs = (6, 12)

    def setup(self, decoder, init_decoder, encoder, model_type, decoder_start_token_id, **_):
        self.t5 = model_type == 1
        if self.t5:
            self._setup_t5(body_of(encoder) if encoder is not None else None,
                           body_of(decoder), decoder_start_token_id)
            return
        if model_type != 0 or encoder is not None:
            raise self.fail("only GPT-2 (model_type 0) and T5 (1) style models are run")
        setup_gpt2(self, decoder, init_decoder)

    def _setup_t5(self, encoder, decoder, start):
        """convert_generation.py's T5 pair, as onnxruntime's subgraph_t5_encoder.cc and
        subgraph_t5_decoder.cc validate it: the encoder (encoder_decoder_init) takes
        (encoder_input_ids, encoder_attention_mask, decoder_input_ids) and gives (logits,
        encoder_hidden_states, then per layer present_key_self, present_value_self, then
        per layer present_key_cross, present_value_cross); the decoder takes (input_ids,
        encoder_attention_mask, encoder_hidden_states?, the 4 * layers pasts in that order)
        and gives (logits, the 2 * layers self-attention presents)."""
        if encoder is None:
            raise self.fail("model_type 1 needs the encoder subgraph")
        if start < 0:  # (onnxruntime then wants the 2-input encoder, not run here)
            raise self.fail("only an encoder with decoder_input_ids (decoder_start_token_id "
                            "given) is supported")
        self._setup_encoder(encoder, ["encoder_input_ids", "encoder_attention_mask",
                                      "decoder_input_ids"])
        self.decoder = Body(self, decoder)
        self._setup_decoder(decoder, ["input_ids", "encoder_attention_mask"])

    def _setup_encoder(self, encoder, inputs: list):
        """An encoder-decoder model's encoder (T5's encoder_decoder_init, Whisper's): it
        takes `inputs` and gives logits, encoder_hidden_states, then per layer
        present_key_self, present_value_self, then per layer present_key_cross,
        present_value_cross."""
        self.encoder = Body(self, encoder)
        enc_in, enc_out = self.encoder.params, self.encoder.results
        if enc_in != inputs:
            raise self.fail(f"the encoder's inputs must be {', '.join(inputs)}, not {enc_in}")
        if (len(enc_out) < 6 or (len(enc_out) - 2) % 4 or enc_out[:4] != [
                "logits", "encoder_hidden_states", "present_key_self_0", "present_value_self_0"]):
            raise self.fail("the encoder's outputs must be logits, encoder_hidden_states and "
                            f"4 presents per layer, not {enc_out}")
        self.layers = (len(enc_out) - 2) // 4

    def _setup_decoder(self, decoder, first):
        """An encoder-decoder model's decoder: inputs `first`, encoder_hidden_states?, the
        encoder's 4 presents per layer; outputs logits and 2 presents per layer."""
        dec_in, dec_out = self.decoder.params, self.decoder.results
        at = len(first)
        self.hidden = len(dec_in) > at and dec_in[at] == "encoder_hidden_states"
        if (dec_in[:at] != first or dec_out[:1] != ["logits"]
                or len(dec_in) - at - self.hidden != 4 * self.layers
                or len(dec_out) != 1 + 2 * self.layers):
            raise self.fail(f"the decoder must take {', '.join(first)}, "
                            "encoder_hidden_states? and the encoder's 4 presents per layer, "
                            "and give logits and 2 presents per layer")
        # onnxruntime feeds the next tokens where input_ids is declared [batch, 1], else
        # the whole sequences so far
        inputs = decoder.get("inputs")
        decl = (inputs.get("input_ids") or {}) if isinstance(inputs, dict) else {}
        shape = decl.get("shape") if isinstance(decl, dict) else None
        if not isinstance(shape, list) or len(shape) != 2:
            raise self.fail("the decoder must declare input_ids [batch, length]")
        self.whole = shape[1] != 1
        self.outer_names = sorted(set(self.encoder.outer) | set(self.decoder.outer))
        self.outer_values = {}

    def run(self, ids, max_length, min_length, num_beams, num_return, length_penalty,
            penalty=None, vocab_mask=None, prefix_mask=None, attention_mask=None,
            decoder_input_ids=None, logits_processor=None, *, eos_token_id, pad_token_id,
            vocab_size, early_stopping, no_repeat_ngram_size, **_):
        if ids.ndim != 2:
            raise self.fail(f"input_ids must be [batch, length], not {list(ids.shape)}")
        # (T5: the decoder's sequences start with decoder_start_token_id alone)
        v = self._values(1 if self.t5 else ids.shape[1], max_length, min_length, num_beams,
                         num_return, length_penalty, penalty, logits_processor)
        if self.t5:
            return self._run_t5(ids, v, vocab_mask, prefix_mask, attention_mask)
        width, least, nb, nrs, rep, lp = v
        b, s = ids.shape
        vocab = self._vocab(ids, vocab_size)
        self._check_masks(ids, vocab, vocab_mask, prefix_mask, attention_mask)
        if b == 0:  # (nothing to search: empty outputs)
            return (np.zeros((0, nrs, width), np.int32), np.zeros((0, nrs), np.float32),
                    np.zeros((width - s, 0, nb, vocab), np.float32))
        if s == 0:  # (onnxruntime reads the logits of position -1 then)
            raise self.fail("an empty prompt is not supported")
        if least > s and not 0 <= eos_token_id < vocab:
            raise self.fail("min_length with an eos_token_id out of the vocabulary")
        search = _Search(self, ids, width, nb, nrs, vocab, eos_token_id, pad_token_id, lp,
                         early_stopping == 1)
        search.processors = (rep, no_repeat_ngram_size, vocab_mask, prefix_mask, least)
        return search.run(search.gpt(attention_mask))

    def _values(self, s, max_length, min_length, num_beams, num_return, length_penalty,
                penalty, logits_processor):
        """The scalar inputs, checked as onnxruntime checks them (s: the length the
        sequences start with): max_length, min_length, num_beams, num_return_sequences,
        the repetition and length penalties."""
        for k, a in enumerate((max_length, min_length, num_beams, num_return,
                               length_penalty), 1):
            if a.ndim > 1 or a.size != 1:
                raise self.fail(f"input {k} must be a scalar, not {list(a.shape)}")
        width, least = self.scalar(max_length), self.scalar(min_length)
        nb, nrs = self.scalar(num_beams), self.scalar(num_return)
        if not s < width <= MAX_LENGTH:
            raise self.fail(f"max_length ({width}) must exceed the prompt's length ({s}) "
                            f"and be at most {MAX_LENGTH}")
        if not 1 <= nrs <= nb <= MAX_BEAMS:
            raise self.fail(f"needs 1 <= num_return_sequences ({nrs}) <= num_beams ({nb}) "
                            f"<= {MAX_BEAMS}")
        rep = 1.0 if penalty is None else float(np.asarray(penalty).reshape(-1)[0])
        if rep <= 0:
            raise self.fail(f"repetition_penalty ({rep}) must be positive")
        if logits_processor is not None and self.scalar(logits_processor) < 0:
            raise self.fail("logits_processor must not be negative")
        return width, least, nb, nrs, rep, float(self.scalar(length_penalty))

    def _run_t5(self, ids, v, vocab_mask, prefix_mask, attention_mask):
        """The encoder once on the batch (beam_search_impl_t5.h), with the mask: the input's,
        else 0 for the left padding only (T5's tokenizer may end with an eos equal to pad)."""
        b, pad = ids.shape[0], self.kw["pad_token_id"]
        if attention_mask is None:
            attention_mask = (np.cumsum(ids != pad, 1) > 0).astype(np.int32)
        elif attention_mask.shape != ids.shape:
            raise self.fail(f"attention_mask must be input_ids' shape {list(ids.shape)}, "
                            f"not {list(attention_mask.shape)}")
        mask = attention_mask.astype(np.int32)
        starts = np.full((b, 1), self.kw["decoder_start_token_id"], np.int32)
        return self._encoded(starts, v, vocab_mask, prefix_mask, (ids, mask, starts), [mask])

    def _encoded(self, starts, v, vocab_mask, prefix_mask, feeds, extra, temperature=1.0):
        """An encoder-decoder search (T5, Whisper): the encoder once on `feeds`, its logits
        the first step's, its outputs repeated num_beams times for the decoder's first run
        (with `extra`, T5's mask, first); the sequences start with `starts`."""
        width, least, nb, nrs, rep, lp = v
        b, s = starts.shape
        if b == 0:  # (onnxruntime crashes on an empty batch)
            raise self.fail("an empty batch is not supported for encoder-decoder models")
        if width == s + 1:  # (onnxruntime then runs the decoder on unset inputs)
            raise self.fail(f"max_length {width} (the start's length + 1) is not supported "
                            "for encoder-decoder models")
        outs = self.encoder(*feeds, outer=self.outer_values)
        vocab, vocab_size = np.shape(outs[0])[-1], self.kw["vocab_size"]
        if vocab_size > vocab:
            raise self.fail(f"vocab_size ({vocab_size}) exceeds the logits' width ({vocab})")
        if vocab_size not in (-1, 0, vocab):
            raise self.fail("a vocab_size other than the logits' width is not supported")
        self._check_masks(starts, vocab, vocab_mask, prefix_mask, None)
        eos = self.kw["eos_token_id"]
        if least > s and not 0 <= eos < vocab:
            raise self.fail("min_length with an eos_token_id out of the vocabulary")
        search = _Search(self, starts, width, nb, nrs, vocab, eos, self.kw["pad_token_id"],
                         lp, self.kw["early_stopping"] == 1)
        search.processors = (rep, self.kw["no_repeat_ngram_size"], vocab_mask, prefix_mask,
                             least)
        search.temperature = temperature
        return search.run(search.encoder_decoder(outs, extra))

    def _vocab(self, ids, vocab_size):
        """The logits' width (a first run of the decoder tells it), which the vocab_size
        attribute must not exceed; a smaller one is not supported."""
        one = np.zeros((1, 1), np.int32)
        outs = self.first(one, one, one + 1,
                          *[np.zeros((2, 1, h, 0, d), np.float32) for h, d in self.pasts],
                          outer=self.outer_values)
        width = np.shape(outs[0])[-1]
        if vocab_size > width:
            raise self.fail(f"vocab_size ({vocab_size}) exceeds the logits' width ({width})")
        if vocab_size not in (-1, 0, width):
            raise self.fail("a vocab_size other than the logits' width is not supported")
        return width

    def _check_masks(self, ids, vocab, vocab_mask, prefix_mask, attention_mask):
        check_masks(self, ids, vocab, vocab_mask, prefix_mask, attention_mask)


class _Search:
    """One run: the beams' sequences and scores, each row's finished hypotheses."""

    def __init__(self, kernel, ids, width, nb, nrs, vocab, eos, pad, lp, early):
        self.k, self.ids, self.width, self.nb, self.nrs = kernel, ids, width, nb, nrs
        self.vocab, self.eos, self.pad, self.lp, self.early = vocab, eos, pad, lp, early
        b = ids.shape[0]
        self.seqs = np.repeat(ids, nb, 0).astype(np.int32)
        self.beam_scores = np.zeros((b, nb), np.float32)
        self.beam_scores[:, 1:] = -1e9
        self.beam_scores = self.beam_scores.reshape(-1)
        self.hyps = [[] for _ in range(b)]  # (score, sequence), best first
        self.done = np.zeros(b, bool)
        self.temperature = 1.0

    def run(self, source):
        """The search: `source` yields each step's last-position logits, and is sent the
        tokens chosen and the beams they continue."""
        s, steps = self.ids.shape[1], []
        logits = next(source)
        for step, length in enumerate(range(s, self.width), 1):
            if logits.shape != (len(self.seqs), self.vocab):
                raise self.k.fail(f"logits of width {logits.shape[-1]}, not {self.vocab}")
            scores = self._processed(_log_softmax(logits), step, length)
            with np.errstate(over="ignore"):  # (a masked score plus -1e9: -inf, as there)
                scores = scores + self.beam_scores[:, None]
            steps.append(scores.reshape(-1, self.nb, self.vocab))
            tokens, beams = self._step(scores, length)
            self.seqs = np.concatenate([self.seqs[beams], tokens[:, None]], 1)
            if self.done.all():
                break
            if length + 1 < self.width:
                logits = source.send((tokens, beams))
        return self._finish(steps)

    def gpt(self, attention_mask):
        """GPT-2: the decoder on the prompt, then on each token, its positions and mask
        growing, the presents picked by beam."""
        k, ids, nb = self.k, self.ids, self.nb
        b, s = ids.shape
        mask, pos, lengths = prompt_feeds(ids, self.pad, attention_mask)
        lengths = np.repeat(lengths, nb)[:, None]
        mask, pos = np.repeat(mask, nb, 0), np.repeat(pos, nb, 0)
        pasts = [np.zeros((2, b * nb, h, 0, d), np.float32) for h, d in k.pasts]
        layers = len(k.decoder.params) - 3
        outs = k.first(self.seqs, pos, mask, *pasts, outer=k.outer_values)
        step = 1
        while True:
            tokens, beams = yield np.asarray(outs[0], np.float32)[:, -1, :]
            presents = list(outs[1:1 + layers])
            pasts = presents if nb == 1 else [np.asarray(p)[:, beams] for p in presents]
            pos = lengths if step == 1 else pos + 1
            mask = np.concatenate([mask, np.ones((b * nb, 1), np.int32)], 1)
            outs = k.decoder(tokens[:, None], pos, mask, *pasts, outer=k.outer_values)
            step += 1

    def encoder_decoder(self, enc, extra):
        """T5 and Whisper: the encoder's logits first (repeated per beam); then the decoder
        on the tokens (or the whole sequences), `extra` (T5's mask), the hidden states and
        the encoder's presents, repeated per beam; later its self-attention presents
        picked by beam, the cross-attention pasts kept."""
        k, nb = self.k, self.nb
        rep = lambda a: np.repeat(np.asarray(a), nb, 0)  # noqa: E731
        tokens, beams = yield rep(np.asarray(enc[0], np.float32)[:, -1, :])
        fixed = [rep(a) for a in extra] + ([rep(enc[1])] if k.hidden else [])
        pasts = [rep(p) for p in enc[2:]]
        own, cross = pasts[:2 * k.layers], pasts[2 * k.layers:]
        while True:
            feed = self.seqs if k.whole else tokens[:, None]
            outs = k.decoder(feed, *fixed, *own, *cross, outer=k.outer_values)
            tokens, beams = yield np.asarray(outs[0], np.float32)[:, -1, :]
            presents = list(outs[1:])
            own = presents if nb == 1 else [np.asarray(p)[beams] for p in presents]

    def _processed(self, scores, step, length):
        rep, ngram, vocab_mask, prefix_mask, least = self.processors
        scores = penalized(scores, self.seqs, rep, ngram)
        if vocab_mask is not None:
            scores[:, np.asarray(vocab_mask).reshape(-1) == 0] = LOWEST
        if prefix_mask is not None and step == 1:
            scores[np.repeat(np.asarray(prefix_mask), self.nb, 0) == 0] = LOWEST
        if least > 0 and length < least:
            scores[:, self.eos] = LOWEST
        if self.temperature > 0 and self.temperature != 1:  # (Whisper's input 14)
            with np.errstate(over="ignore"):
                scores = scores / np.float32(self.temperature)
        return scores

    def _step(self, scores, length):
        """The scorer's Process: the next tokens and the beams they continue."""
        b, nb, vocab = len(self.done), self.nb, self.vocab
        flat = scores.reshape(b, nb * vocab)
        order = np.argsort(-flat, axis=1, kind="stable")[:, :2 * nb]
        top = np.take_along_axis(flat, order, 1)
        new_scores = np.zeros(b * nb, np.float32)
        tokens = np.full(b * nb, self.pad, np.int32)
        beams = np.zeros(b * nb, np.int64)
        for r in range(b):
            if self.done[r]:
                continue
            used = 0
            for j in range(2 * nb):
                tok, beam = int(order[r, j] % vocab), r * nb + int(order[r, j] // vocab)
                if self.eos >= 0 and tok == self.eos:
                    if j < nb:
                        self._add(r, self.seqs[beam].copy(), top[r, j])
                else:
                    new_scores[r * nb + used], tokens[r * nb + used] = top[r, j], tok
                    beams[r * nb + used] = beam
                    used += 1
                if used == nb:
                    break
            if used != nb:
                raise self.k.fail("fewer candidates than beams (a vocabulary too small)")
            if len(self.hyps[r]) < nb:
                continue
            if not self.early:
                best = top.reshape(-1)[r * nb:r * nb + 2 * nb].max()  # (onnxruntime's offset)
                if self.hyps[r][-1][0] < self._score(best, length):
                    continue
            self.done[r] = True
        self.beam_scores = new_scores
        return tokens, beams

    def _score(self, total, length):
        return np.float32(np.float32(total) / np.float32(length) ** np.float32(self.lp))

    def _add(self, r, seq, total):
        hyps, score = self.hyps[r], self._score(total, len(seq))
        if len(hyps) == self.nb:
            if score <= hyps[-1][0]:
                return
            hyps.pop()
        at = next((i for i, (h, _) in enumerate(hyps) if score > h), len(hyps))
        hyps.insert(at, (score, seq))

    def _finish(self, steps):
        """The scorer's Finalize: the open beams join; the best of each row, padded."""
        b, nb = len(self.done), self.nb
        for r in np.flatnonzero(~self.done):
            for j in range(nb):
                self._add(r, self.seqs[r * nb + j].copy(), self.beam_scores[r * nb + j])
        seqs = np.full((b, self.nrs, self.width), self.pad, np.int32)
        best = np.zeros((b, self.nrs), np.float32)
        for r in range(b):
            for i, (score, seq) in enumerate(self.hyps[r][:self.nrs]):
                seqs[r, i, :len(seq)], best[r, i] = seq, score
        total = self.width - self.ids.shape[1]
        if self.k.n_outputs > 2 and len(steps) < total:
            raise self.k.fail("scores of a search that stops before max_length (onnxruntime "
                              "leaves the rest unwritten)")
        return seqs, best, np.stack(steps)


def _log_softmax(x):
    shifted = x - x.max(-1, keepdims=True)
    return (shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))).astype(np.float32)
