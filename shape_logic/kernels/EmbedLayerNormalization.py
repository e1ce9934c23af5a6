"""EmbedLayerNormalization (com.microsoft): word + position (+ segment) embeddings,
layer-normalized over the hidden axis; the mask index is each row's count of ones."""
import numpy as np

from .base import Kernel


class EmbedLayerNormalization(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-12, "mask_index_type": 1}
    n_inputs = (7, 9)
    optional_inputs = frozenset({1, 4})  # segment ids and embeddings (DistilBERT has none)

    def run(self, ids, segment_ids, word, position, segment, gamma, beta, mask=None,
            position_ids=None, epsilon=1e-12, mask_index_type=1):
        b, s = ids.shape
        if position_ids is not None and (position_ids.ndim != 2 or position_ids.shape[1] != s
                                         or position_ids.shape[0] not in (1, b)):
            raise self.fail(f"position ids {list(position_ids.shape)} are not [{b}, {s}] "
                            f"or [1, {s}] (the ids' {list(ids.shape)})")
        if position_ids is None and s > position.shape[0]:
            raise self.fail(f"its {s} positions read past its position table of "
                            f"{position.shape[0]} rows")
        pos = np.broadcast_to(np.arange(s), (b, s)) if position_ids is None \
            else np.broadcast_to(position_ids, (b, s))
        x = word[ids] + position[pos]
        if (segment is None) != (segment_ids is None):
            raise self.fail("segment ids and segment embeddings go together (one is absent)")
        if segment is not None:
            x = x + segment[segment_ids]
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        y = (x - mean) / np.sqrt(var + epsilon) * gamma + beta
        index = (np.zeros(b, np.int32) if mask is None
                 else mask.astype(bool).sum(-1).astype(np.int32))
        return y.astype(word.dtype), index, x.astype(word.dtype)
