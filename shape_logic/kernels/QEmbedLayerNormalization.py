"""QEmbedLayerNormalization (com.microsoft, dynamic quantization's EmbedLayerNormalization):
EmbedLayerNormalization (kernels/EmbedLayerNormalization.py) over its 8-bit tables and
normalization weights dequantized as (q - zero_point) * scale, each per tensor."""
import numpy as np

from .EmbedLayerNormalization import EmbedLayerNormalization
from .base import Kernel


class QEmbedLayerNormalization(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-12}
    n_inputs = (18, 18)
    # segment ids and embedding, the mask, the segment embedding's scale and zero point
    optional_inputs = frozenset({1, 4, 7, 10, 15})

    def setup(self, epsilon):
        self.embed = EmbedLayerNormalization({"epsilon": epsilon}, opset=self.opset,
                                             n_outputs=2, domain="com.microsoft")

    def run(self, ids, segment_ids, word, position, segment, gamma, beta, mask, *params,
            **attrs):
        scales, zeros = params[:5], params[5:]
        tables = []
        for q, scale, zero in zip((word, position, segment, gamma, beta), scales, zeros):
            if q is None:
                tables.append(None)
                continue
            if q.dtype not in (np.int8, np.uint8):
                raise self.fail(f"its quantized tables must be 8-bit integers, not {q.dtype}")
            if np.size(scale) != 1 or np.size(zero) != 1:
                raise self.fail("its scales and zero points are per tensor")
            tables.append((q.astype(np.float32) - np.float32(np.asarray(zero).reshape(())))
                          * np.float32(np.asarray(scale).reshape(())))
        word, position, segment, gamma, beta = tables
        return self.embed(ids, segment_ids, word, position, segment, gamma, beta, mask)
