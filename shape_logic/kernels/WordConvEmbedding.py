"""WordConvEmbedding (com.microsoft): one embedding per word, as onnxruntime's CPU kernel.
Sequence [S, L] (int32) holds each word's character ids; a word's length is its count of
positive ids (0 when its first id is not positive). The first max(length, Wd) ids are
looked up in C [V, Ce], a convolution of window Wd (weights W [E, 1, Wd, Ce], bias B [E])
runs over them, then tanh and a max over the windows: Y [S, E], float32. onnxruntime
leaves a word of length 0 unwritten (its row holds whatever the memory held): here, 0."""
import numpy as np

from .base import Kernel


class WordConvEmbedding(Kernel):
    domains = ("com.microsoft",)
    attrs = {"embedding_size": -1, "conv_window_size": -1, "char_embedding_size": -1}
    n_inputs = (4, 4)

    def run(self, seq, w, b, c, *, embedding_size, conv_window_size, char_embedding_size):
        if seq.ndim < 2 or w.ndim < 4 or c.ndim < 2:
            raise self.fail(f"needs Sequence of rank >= 2, W of rank >= 4 and C of rank >= 2, "
                            f"not {seq.ndim}, {w.ndim} and {c.ndim}")
        s, length = seq.shape[:2]
        e, wd, ce = w.shape[0], w.shape[2], c.shape[1]
        for name, value, size in (("embedding_size", embedding_size, e),
                                  ("conv_window_size", conv_window_size, wd),
                                  ("char_embedding_size", char_embedding_size, ce)):
            if value != -1 and value != size:
                raise self.fail(f"{name} = {value} is not the size {size}")
        if w.shape[3] != ce or b.shape != (e,) or wd > length:
            raise self.fail(f"shapes do not fit: W {list(w.shape)}, B {list(b.shape)}, "
                            f"C {list(c.shape)}, Sequence {list(seq.shape)}")
        if w.size < e * wd * ce:
            raise self.fail(f"W holds {w.size} weights, fewer than {e * wd * ce}")
        ids = seq.reshape(-1)[:s * length].reshape(s, length).astype(np.int64)
        # (C's rows as onnxruntime reads them: Ce values apart, whatever C's other axes)
        rows = c.size // ce if ce else c.shape[0]
        table = c.reshape(-1)[:rows * ce].reshape(rows, ce).astype(np.float32)
        filters = w.reshape(-1)[:e * wd * ce].reshape(e, wd * ce).astype(np.float32)
        y = np.zeros((s, e), np.float32)
        for i in range(s):
            n = int((ids[i] > 0).sum()) if ids[i, 0] > 0 else 0
            if n == 0:
                continue
            chars = ids[i, :max(n, wd)]
            if chars.min() < 0 or chars.max() >= table.shape[0]:
                raise self.fail(f"word {i} holds a character id out of 0..{table.shape[0] - 1}")
            emb = table[chars]
            windows = np.stack([emb[j:j + wd].reshape(-1) for j in range(len(chars) - wd + 1)])
            y[i] = np.tanh(windows @ filters.T + b.astype(np.float32)).max(axis=0)
        return y
