"""NGramRepeatBlock (com.microsoft): scores [batch, vocab] with -inf at every token that
would repeat an n-gram of its row of input_ids [batch, length] (onnxruntime's kernel)."""
import numpy as np

from .base import REQUIRED, Kernel


class NGramRepeatBlock(Kernel):
    domains = ("com.microsoft",)
    attrs = {"ngram_size": REQUIRED}
    n_inputs = (2, 2)

    def run(self, ids, scores, *, ngram_size):
        n = int(ngram_size)
        if n <= 0:
            raise self.fail(f"ngram_size must be positive, not {n}")
        if ids.ndim != 2 or scores.ndim != 2 or ids.shape[0] != scores.shape[0]:
            raise self.fail(f"input_ids {list(ids.shape)} and scores {list(scores.shape)} "
                            "must be matrices of one batch")
        out = scores.copy()
        length, vocab = ids.shape[1], scores.shape[1]
        for b in range(ids.shape[0]):
            row = ids[b]
            tail = row[length + 1 - n:] if n > 1 else row[:0]
            # every start i whose first n - 1 tokens are the last n - 1 ones bans the
            # token that followed them
            for i in range(length + 1 - n):
                if np.array_equal(row[i:i + n - 1], tail):
                    token = int(row[i + n - 1])
                    if not 0 <= token < vocab:
                        raise self.fail(f"token {token} is out of range [0, {vocab})")
                    out[b, token] = -np.inf
        return out
