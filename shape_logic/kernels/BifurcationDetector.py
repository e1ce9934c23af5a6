"""BifurcationDetector (com.microsoft): aggressive decoding's merge of predicted tokens
into the current ones, and the next suffix match in the source (onnxruntime's kernel)."""
import numpy as np

from .base import Kernel


def _find(hay, needle, start=0) -> int:
    """The first position >= start where `needle` occurs in `hay` (std::search), or -1."""
    n = len(needle)
    for i in range(start, len(hay) - n + 1):
        if np.array_equal(hay[i:i + n], needle):
            return i
    return -1


class BifurcationDetector(Kernel):
    domains = ("com.microsoft",)
    attrs = {"min_ngram_size": 1, "max_ngram_size": 3}
    n_inputs = (3, 4)

    def run(self, src, cur, prev, pred=None, *, min_ngram_size, max_ngram_size):
        lo, hi = int(min_ngram_size), int(max_ngram_size)
        if lo <= 0 or hi <= 0 or hi < lo:
            raise self.fail(f"n-gram sizes {lo}..{hi} must be positive and ordered")
        for name, t in (("src_tokens", src), ("cur_tokens", cur), ("pred_tokens", pred)):
            if t is not None and t.ndim != 1:
                raise self.fail(f"{name} must be a 1-D tensor, not {list(t.shape)}")
        if prev.size < 1:
            raise self.fail("prev_suffix_match_idx holds no element")
        if pred is None:
            tokens = cur.copy()
        else:
            p = int(prev.reshape(-1)[0])
            if p > len(src) or len(pred) != len(src) + 1 - p:
                raise self.fail(f"pred_tokens has {len(pred)} tokens where src_tokens "
                                f"({len(src)}) from {p} needs {len(src) + 1 - p}")
            # the first prediction that leaves the source (the last one if none does)
            k = 0
            while k < len(src) - p and pred[k] == src[k + p]:
                k += 1
            tokens = np.concatenate([cur, pred[:k + 1]])
        # the last n-gram of the tokens, for n = lo..hi, found once in the source: the
        # position after it (-1 where it is absent or found twice), as onnxruntime's loop
        suffix = -1
        for n in range(lo, hi + 1):
            if n > len(tokens):
                break
            gram = tokens[len(tokens) - n:]
            at = _find(src, gram)
            if at < 0:
                break
            suffix = at + n
            if suffix >= len(src):
                break
            if _find(src, gram, suffix - n + 1) >= 0:
                suffix = -1
        return tokens.astype(np.int64), np.full(prev.shape, suffix, np.int64)
