"""VarlenNGramHashMapping (com.microsoft): NGramHashMapping's hash ids over B packed
sequences of T tokens in all (input_ids [T], request b the tokens cu[b]..cu[b + 1] - 1,
each request its own history: past_ids[b], else pad_id, or eos_token_id when given); the
head offsets wrap. Breaks: after each eos (reset_on_eos), and where the segment id changes
along past_segment_ids ++ segment_ids (without past_segment_ids, within the request only).
present_ids, present_segment_ids: each request's last max_ngram_size - 1 ids (segment ids:
the missing history has the request's first one); state_update [B, capacity, n - 1]: the
last ids after each of the first min(capture_count[b], length, capacity) tokens, pad_id
in the slots left. The arithmetic is NGramHashMapping's (`hash_rows`)."""
import numpy as np

from .NGramHashMapping import check_ngram, eos_breaks, hash_rows
from .base import REQUIRED, Kernel


class VarlenNGramHashMapping(Kernel):
    domains = ("com.microsoft",)
    attrs = {"max_ngram_size": REQUIRED, "n_head_per_ngram": REQUIRED, "pad_id": REQUIRED,
             "reset_on_eos": 0, "state_update_capacity": 0}
    n_inputs = (4, 10)

    def run(self, ids, mult, vocab, cu, past=None, offsets=None, eos=None, segments=None,
            past_segments=None, capture=None, *, max_ngram_size, n_head_per_ngram, pad_id,
            reset_on_eos, state_update_capacity):
        fill = check_ngram(self, ids, mult, vocab, max_ngram_size, n_head_per_ngram, pad_id,
                           offsets, eos)
        cap = state_update_capacity
        if not 0 <= cap <= 8:
            raise self.fail(f"state_update_capacity {cap} is not in 0..8")
        if (capture is not None) != (cap > 0):
            raise self.fail("capture_count comes exactly with a positive state_update_capacity")
        if ids.ndim != 1 or cu.ndim != 1 or cu.dtype != np.int32 or len(cu) < 2:
            raise self.fail("input_ids must be [T], cumulative_sequence_length int32 [B + 1]")
        t, b, state = len(ids), len(cu) - 1, max_ngram_size - 1
        if cu[0] != 0 or cu[-1] != t or (np.diff(cu) <= 0).any():
            raise self.fail(f"cumulative_sequence_length {cu.tolist()} must rise from 0 to {t}")
        if eos is not None and eos.ndim != 0:
            raise self.fail("eos_token_id must be a scalar")
        for name, a, shape in (("past_ids", past, (b, state)), ("segment_ids", segments, (t,)),
                               ("past_segment_ids", past_segments, (b, state)),
                               ("capture_count", capture, (b,))):
            if a is not None and a.shape != shape:
                raise self.fail(f"{name} {list(a.shape)} must be {list(shape)}")
        if any(a is not None and a.dtype != np.int32 for a in (segments, past_segments, capture)):
            raise self.fail("segment ids and capture_count are int32")
        # (present_segment_ids needs them too: the rules say so where the node gives that
        # output; n_outputs cannot tell an absent one from a given one)
        if segments is None and past_segments is not None:
            raise self.fail("past_segment_ids needs segment_ids")
        reset = bool(reset_on_eos) and eos is not None
        out = np.zeros((t, len(vocab)), ids.dtype)
        present = np.zeros((b, state), ids.dtype)
        present_seg = np.zeros((b, state), np.int32)
        update = np.full((b, cap, state), pad_id, ids.dtype)
        for r in range(b):
            lo, hi = cu[r], cu[r + 1]
            hist = np.full(state, fill, ids.dtype) if past is None else past[r]
            combined = np.concatenate([hist, ids[lo:hi]])
            breaks = eos_breaks(combined, fill, reset)
            if segments is not None:
                seg = segments[lo:hi]
                pseg = np.full(state, seg[0], np.int32) if past_segments is None \
                    else past_segments[r]
                cseg = np.concatenate([pseg, seg])
                breaks[1:] |= cseg[1:] != cseg[:-1]
                present_seg[r] = cseg[len(cseg) - state:]
            out[lo:hi] = hash_rows(combined, state, breaks, mult, vocab, offsets, fill,
                                   n_head_per_ngram)
            present[r] = combined[len(combined) - state:]
            for j in range(min(int(capture[r]), hi - lo, cap) if cap else 0):
                update[r, j] = combined[j + 1:j + 1 + state]
        return out, present, present_seg, update
