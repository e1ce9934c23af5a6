"""NGramHashMapping (com.microsoft): Engram's n-gram hash ids of token ids [B, S]. For each
n in 2..max_ngram_size the window of the token and the n - 1 before it (before the sequence:
past_ids, else pad_id, or eos_token_id when given) mixes as t_0 * m_0 ^ t_1 * m_1 ^ ...
(wrapping in the id type, t_k the id k places back), and each of that n's heads emits the
mix modulo its vocabulary size (plus its head offset, wrapping). A reset (an eos_token_id
before the position, with reset_on_eos; a change of segment id) replaces every id at or
before the position before it by the fill. present_ids: the last max_ngram_size - 1 ids of
past ++ input. The arithmetic is shared with VarlenNGramHashMapping (`hash_rows`)."""
import numpy as np

from .base import REQUIRED, Kernel

IDS = (np.dtype(np.int32), np.dtype(np.int64))


def unsigned(a):
    """The ids as the unsigned type of their width (products and sums wrap there)."""
    return a.astype(np.uint32 if a.dtype == np.int32 else np.uint64)


def hash_rows(combined, state, breaks, mult, vocab, offsets, fill, heads):
    """The [len(combined) - state, (max_ngram_size - 1) * heads] hash ids of one sequence:
    `combined` its `state` ids of history, then its own; `breaks[i]` says the history starts
    afresh at combined position i (every id before it reads as `fill` from there on)."""
    dt = combined.dtype
    idx = np.arange(state, len(combined))
    # the latest break at or before each position, as the index of the id before it
    last = np.maximum.accumulate(np.where(breaks, np.arange(len(combined)) - 1, -1))[idx]
    m = unsigned(mult)
    cols = []
    for n in range(2, state + 2):
        mix = None
        for k in range(n):
            tok = np.where(last >= idx - k, fill, combined[idx - k]).astype(dt)
            prod = unsigned(tok) * m[k]
            mix = prod if mix is None else mix ^ prod
        mix = mix.astype(dt).astype(np.int64)
        for h in range((n - 2) * heads, (n - 1) * heads):
            res = np.mod(mix, np.int64(vocab[h])).astype(dt)
            if offsets is not None:  # (wrapping in the id type)
                res = (unsigned(res) + unsigned(offsets[h:h + 1])).astype(dt)
            cols.append(res)
    return np.stack(cols, -1) if len(idx) else np.zeros((0, len(vocab)), dt)


def eos_breaks(combined, eos, reset):
    """With reset_on_eos and an eos_token_id: a break after each eos (history included)."""
    flags = np.zeros(len(combined), bool)
    if reset:
        flags[1:] = combined[:-1] == eos
    return flags


def check_ngram(kernel, ids, mult, vocab, max_ngram_size, n_head_per_ngram, pad_id,
                offsets=None, eos=None):
    """The checks both ops share: one id type; the attributes; the per-head vectors."""
    if ids.dtype not in IDS or any(a is not None and a.dtype != ids.dtype
                                   for a in (mult, vocab, offsets, eos)):
        raise kernel.fail("takes int32 or int64 ids, multipliers, vocab_sizes, head_offsets, "
                          "eos_token_id, all of one type")
    if max_ngram_size < 2 or n_head_per_ngram < 1:
        raise kernel.fail("max_ngram_size must be at least 2 and n_head_per_ngram positive")
    info = np.iinfo(ids.dtype)
    if not info.min <= pad_id <= info.max:
        raise kernel.fail(f"pad_id {pad_id} is out of range for {ids.dtype}")
    n = (max_ngram_size - 1) * n_head_per_ngram
    if mult.ndim != 1 or len(mult) < max_ngram_size:
        raise kernel.fail(f"multipliers {list(mult.shape)} need {max_ngram_size} or more")
    for name, v in (("vocab_sizes", vocab), ("head_offsets", offsets)):
        if v is not None and v.shape != (n,):
            raise kernel.fail(f"{name} {list(v.shape)} must be [{n}]")
    if (vocab <= 0).any():
        raise kernel.fail("vocab_sizes must be positive")
    return ids.dtype.type(pad_id if eos is None else eos.reshape(-1)[0])


class NGramHashMapping(Kernel):
    domains = ("com.microsoft",)
    attrs = {"max_ngram_size": REQUIRED, "n_head_per_ngram": REQUIRED, "pad_id": REQUIRED,
             "reset_on_eos": 0}
    n_inputs = (3, 7)

    def run(self, ids, mult, vocab, past=None, offsets=None, eos=None, segments=None, *,
            max_ngram_size, n_head_per_ngram, pad_id, reset_on_eos):
        fill = check_ngram(self, ids, mult, vocab, max_ngram_size, n_head_per_ngram, pad_id,
                           offsets, eos)
        if ids.ndim != 2:
            raise self.fail(f"input_ids {list(ids.shape)} must be [batch, sequence]")
        top = np.iinfo(ids.dtype).max
        if offsets is not None and ((offsets < 0) | (offsets > top - vocab)).any():
            raise self.fail(f"head_offsets must be non-negative, each plus its vocab size at "
                            f"most {top}")
        if eos is not None and eos.ndim != 0:
            raise self.fail("eos_token_id must be a scalar")
        b, s = ids.shape
        state = max_ngram_size - 1
        if past is not None and past.shape != (b, state):
            raise self.fail(f"past_ids {list(past.shape)} must be [{b}, {state}]")
        if segments is not None and (segments.dtype != np.int32 or segments.shape != (b, s)):
            raise self.fail(f"segment_ids must be int32 [{b}, {s}]")
        reset = bool(reset_on_eos) and eos is not None
        out = np.zeros((b, s, len(vocab)), ids.dtype)
        present = np.zeros((b, state), ids.dtype)
        for r in range(b):
            hist = np.full(state, fill, ids.dtype) if past is None else past[r]
            combined = np.concatenate([hist, ids[r]])
            breaks = eos_breaks(combined, fill, reset)
            if segments is not None:  # (a change of segment within input_ids only)
                breaks[state + 1:] |= segments[r, 1:] != segments[r, :-1]
            out[r] = hash_rows(combined, state, breaks, mult, vocab, offsets, fill,
                               n_head_per_ngram)
            present[r] = combined[len(combined) - state:]
        return out, present
