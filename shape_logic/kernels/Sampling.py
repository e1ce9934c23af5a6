"""Sampling (com.microsoft): onnxruntime's top-p sampling text generation for a GPT-2 style
decoder subgraph (model_type 0), GreedySearch's loop with a random draw in place of the
argmax. onnxruntime's CPU kernel is deterministic: its std::default_random_engine
(libstdc++'s minstd_rand0, x = x * 16807 mod 2^31 - 1) is seeded, for each run, with the
`seed` input's first element (0 without it, which minstd makes 1), and each step draws one
std::uniform_real_distribution<double> value per row (generate_canonical: two draws each).

A step, as onnxruntime's CPU kernel does it (logits_processor.cc, sampling_cpu_helper.h,
random.cc's MultinomialComputeShared): the last position's logits (the first vocab_size
of them) pass the processors in order (repetition penalty, no-repeat n-grams, the vocab
and (first step only) prefix masks and min_length's eos, all to float32's lowest;
temperature where > 0; presence_mask * presence_penalty), then top-p: each row's scores
sorted (ascending, or descending where `custom`), their softmax summed in float32 along
the sorted order; ascending, a position whose sum is <= 1 - top_p (the last
min_tokens_to_keep never) has its token's score set to filter_value; custom, the token
after a position whose sum is > top_p. Then a multinomial draw over exp(score - max) in
double (non-finite scores have no weight): the first index whose running total exceeds the
draw times the total. A row that met eos_token_id (or had met it) gets pad_token_id.

Refused rather than guessed: a top-p decision within a few float32 ulps of its threshold
(onnxruntime's softmax is MLAS's, whose exp and summation order are not reproduced bit
for bit: the default top_p 0 with min_tokens_to_keep 0 is such a case, where the last sum
is 1 against 1 - top_p = 1), a tie straddling the top-p cut in a vocabulary over 16
(std::sort is not stable there; up to 16 it is an insertion sort, stable), and a draw
within 1e-12 of a boundary. The decoder's first mask and positions are GreedySearch's
(the attention_mask input where given). The filtered_logits output is absent
(onnxruntime writes it in debug builds only)."""
import numpy as np

from .base import REQUIRED, Kernel
from .GreedySearch import LOWEST, check_masks, penalized, prompt_feeds, setup_gpt2

MINSTD = 2 ** 31 - 1
EPS32 = 2.0 ** -23
SUMEXP_FLOOR = np.float32(-88.3762626647949)  # MLAS's lower bound of exp's argument


class MinStd:
    """libstdc++'s minstd_rand0 and generate_canonical<double, 53> over it."""

    def __init__(self, seed):
        s = int(seed) % MINSTD
        self.x = s or 1

    def draw(self):
        self.x = self.x * 16807 % MINSTD
        return self.x

    def canonical(self):
        r = float(MINSTD - 1)  # max - min + 1
        total = float(self.draw() - 1)
        total += float(self.draw() - 1) * r
        v = total / float((MINSTD - 1) ** 2)
        return np.nextafter(1.0, 0.0) if v >= 1.0 else v


def softmax32(x):
    """MLAS's softmax in float32: exp(x - max) (its argument floored as MLAS's is), times
    the reciprocal of their sum."""
    e = np.exp(np.maximum(x - x.max(), SUMEXP_FLOOR)).astype(np.float32)
    return (e * (np.float32(1) / e.sum(dtype=np.float32))).astype(np.float32)


class Sampling(Kernel):
    domains = ("com.microsoft",)
    attrs = {"decoder": REQUIRED, "eos_token_id": REQUIRED, "pad_token_id": REQUIRED,
             "init_decoder": None, "encoder": None, "model_type": 0, "vocab_size": -1,
             "no_repeat_ngram_size": 0, "decoder_start_token_id": -1, "temperature": 1.0,
             "top_p": 0.0, "filter_value": float(np.float32(-1e20)), "min_tokens_to_keep": 0,
             "custom": 0, "presence_penalty": 0.0}
    n_inputs = (2, 9)

    def setup(self, decoder, init_decoder, encoder, model_type, **_):
        if model_type != 0 or encoder is not None:
            raise self.fail("only GPT-2 style decoders (model_type 0) are run")
        setup_gpt2(self, decoder, init_decoder)

    def run(self, ids, max_length, min_length=None, penalty=None, vocab_mask=None,
            prefix_mask=None, attention_mask=None, presence_mask=None, seed=None, *,
            eos_token_id, pad_token_id, vocab_size, **kw):
        if ids.ndim != 2:
            raise self.fail(f"input_ids must be [batch, length], not {list(ids.shape)}")
        b, s = ids.shape
        width = self.scalar(max_length)
        if width <= s:
            raise self.fail(f"max_length ({width}) must exceed the prompt's length ({s})")
        seed = 0 if seed is None else self.scalar(seed)
        if seed < 0:
            raise self.fail(f"seed ({seed}) must be >= 0")
        pen = 1.0 if penalty is None else float(self.scalar(penalty))
        if not pen > 0:
            raise self.fail(f"repetition_penalty ({pen}) must be > 0")
        self.step = dict(kw, eos=eos_token_id, pen=np.float32(pen), vocab_mask=vocab_mask,
                         prefix=prefix_mask, presence=presence_mask,
                         least=0 if min_length is None else self.scalar(min_length))
        mask, pos, lengths = prompt_feeds(ids, pad_token_id, attention_mask)
        layers = len(self.decoder.params) - 3
        pasts = [np.zeros((2, b, h, 0, d), np.float32) for h, d in self.pasts]
        run, feed, gen = self.first, ids, MinStd(seed)
        seq = np.full((b, width), pad_token_id, np.int32)
        seq[:, :s] = ids
        done = np.zeros(b, bool)
        for length in range(s, width):
            outs = run(feed, pos, mask, *pasts, outer=self.outer_values)
            logits = np.asarray(outs[0], np.float32)
            if vocab_size not in (-1, 0):
                if vocab_size > logits.shape[2]:
                    raise self.fail(f"vocab_size ({vocab_size}) exceeds the decoder's "
                                    f"logits ({logits.shape[2]})")
                # onnxruntime reads the logits with vocab_size as their row's stride
                n, flat = logits.shape[1], logits.reshape(-1)
                logits = np.stack([flat[(i * n + n - 1) * vocab_size:][:vocab_size]
                                   for i in range(b)])
            else:
                logits = logits[:, -1, :]
            if length == s:
                self._check_masks(ids, logits.shape[1], attention_mask)
            scores = self._processed(logits.copy(), seq[:, :length], length, length == s)
            token = np.array([self._draw(self._top_p(row), gen) for row in scores], np.int32)
            hit = done | (token == eos_token_id)
            seq[:, length] = np.where(hit, pad_token_id, token)
            done |= hit
            if done.all():
                break
            pasts, run = list(outs[1:1 + layers]), self.decoder
            feed = np.where(hit, pad_token_id, token).astype(np.int32)[:, None]
            pos = (lengths[:, None] if length == s else pos + 1).astype(np.int32)
            mask = np.concatenate([mask, np.ones((b, 1), np.int32)], 1)
        return (seq, None) if self.n_outputs > 1 else seq

    def _check_masks(self, ids, v, attention_mask):
        """The masks' shapes as onnxruntime checks them, min_tokens_to_keep's range, and
        min_length's eos in the vocabulary (onnxruntime writes out of it)."""
        st = self.step
        keep = st["min_tokens_to_keep"]
        if not 0 <= keep < v:
            raise self.fail(f"min_tokens_to_keep must be in [0, vocab_size), got {keep} "
                            f"with vocab_size {v}")
        check_masks(self, ids, v, st["vocab_mask"], st["prefix"], attention_mask)
        if st["presence"] is not None and np.shape(st["presence"]) != (ids.shape[0], v):
            raise self.fail(f"presence_mask must be [batch, {v}], not "
                            f"{list(np.shape(st['presence']))}")
        if st["least"] > ids.shape[1] and not 0 <= st["eos"] < v:
            raise self.fail("min_length with an eos_token_id out of the vocabulary")

    def _processed(self, scores, seq, length, first):
        """onnxruntime's logits processors, in its order, in float32."""
        st = self.step
        scores = penalized(scores, seq, st["pen"], st["no_repeat_ngram_size"])
        if st["vocab_mask"] is not None:
            scores[:, np.asarray(st["vocab_mask"]).reshape(-1) == 0] = LOWEST
        if first and st["prefix"] is not None:
            scores[np.asarray(st["prefix"]) == 0] = LOWEST
        if length < st["least"]:
            scores[:, st["eos"]] = LOWEST
        t = np.float32(st["temperature"])
        if t > 0 and t != 1:
            scores = (scores / t).astype(np.float32)
        if st["presence"] is not None and st["presence_penalty"] != 0:
            # (onnxruntime's loop never moves its pointer: the first score takes it all)
            first_score, pen = scores.flat[0], np.float32(st["presence_penalty"])
            for m in np.asarray(st["presence"]).reshape(-1):
                first_score = np.float32(first_score - np.float32(m) * pen)
            scores.flat[0] = first_score
        return scores.astype(np.float32)

    def _top_p(self, row):
        """The row with its filtered tokens' scores set to filter_value (see the module's
        text); refuses a decision too close to call."""
        st = self.step
        custom, v = bool(st["custom"]), row.size
        if np.isnan(row).any():
            raise self.fail("a NaN score has no defined order in onnxruntime's sort")
        order = np.argsort(-row if custom else row, kind="stable")
        cum = np.cumsum(softmax32(row[order]), dtype=np.float32)  # (sequential float32)
        top_p = np.float32(st["top_p"])
        filt = np.zeros(v, bool)  # each sorted position: is its token filtered
        if custom:  # the token after each position whose sum exceeds top_p
            thr, checked = top_p, cum[:-1]
            filt[1:] = checked > thr
        else:
            thr = np.float32(1) - top_p
            checked = cum[:v - st["min_tokens_to_keep"]]
            filt[:checked.size] = checked <= thr
        tol = EPS32 * (32 + 2 * np.sqrt(v)) * max(1.0, abs(float(thr)))
        if (np.abs(checked.astype(np.float64) - float(thr)) <= tol).any():
            raise self.fail("a top-p decision is within float32 rounding of its threshold "
                            "(onnxruntime's MLAS softmax is not reproduced bit for bit)")
        vals = row[order]  # past 16 tokens std::sort's introsort orders ties unknowably
        if v > 16 and ((vals[1:] == vals[:-1]) & (filt[1:] != filt[:-1])).any():
            raise self.fail("tied scores straddle the top-p cut, and onnxruntime's "
                            "std::sort orders ties unpredictably past 16 tokens")
        out = row.copy()
        out[order[filt]] = np.float32(st["filter_value"])
        return out

    def _draw(self, scores, gen):
        """MultinomialComputeShared: one draw over exp(score - max), in double."""
        fin = np.isfinite(scores)
        top = float(scores[fin].max()) if fin.any() else float(LOWEST)
        w = np.where(fin, np.exp(scores.astype(np.float64) - top), 0.0)
        cdf = np.cumsum(w)  # (sequential, as the running total)
        goal = gen.canonical() * (cdf[-1] if cdf.size else 0.0)
        if cdf.size and cdf[-1] > 0 and (np.abs(cdf - goal) <= 1e-12 * cdf[-1]).any():
            raise self.fail("a draw falls within rounding of a cumulative boundary")
        return int(np.searchsorted(cdf, goal, side="right"))
