"""QEmbedLayerNormalization (com.microsoft, dynamic quantization's EmbedLayerNormalization):
EmbedLayerNormalization (kernels/EmbedLayerNormalization.py) over its 8-bit tables and
normalization weights dequantized as (q - zero_point) * scale, each per tensor."""
import numpy as np

from .EmbedLayerNormalization import EmbedLayerNormalization
from .QLinearAdd import dequantized
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
        # (float32: the product of a small integer and a float32 scale, rounded once)
        word, position, segment, gamma, beta = (
            None if q is None else dequantized(self, q, scale, zero).astype(np.float32)
            for q, scale, zero in zip((word, position, segment, gamma, beta), scales, zeros))
        return self.embed(ids, segment_ids, word, position, segment, gamma, beta, mask)
