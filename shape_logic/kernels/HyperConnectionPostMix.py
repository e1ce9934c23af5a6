"""HyperConnectionPostMix (com.microsoft): output[..., k, h] = sum_c(stream_mix[..., c, k] *
streams[..., c, h]) + post_mix[..., k, h] * block_output[..., h] (stream_mix the identity
when absent), the streams grouped or flattened as HyperConnectionPreMix's (its helpers read
the shapes), block_output [..., H], post_mix (C), (C, 1) or (C, H) after the leading axes,
stream_mix [..., C, C]. In float32 (the sum over c in order, then the injection), rounded
once to the streams' type."""
import numpy as np

from .HyperConnectionPreMix import check_floats, gate_values, streams_layout
from .base import Kernel


class HyperConnectionPostMix(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_branches": 0}
    n_inputs = (3, 4)
    small_float_from = 0

    def run(self, streams, block_output, post_mix, stream_mix=None, *, num_branches):
        check_floats(self, streams, block_output, post_mix, stream_mix)
        if block_output.dtype != streams.dtype or (
                stream_mix is not None and stream_mix.dtype != post_mix.dtype):
            raise self.fail("streams and block_output take one type, post_mix and stream_mix "
                            "one type")
        lead, c, h = streams_layout(self, streams, num_branches)
        if block_output.shape != (*lead, h):
            raise self.fail(f"block_output {list(block_output.shape)} must be "
                            f"{[*lead, h]}")
        gate = gate_values(self, post_mix, lead, c, h)
        x = streams.astype(np.float32).reshape(*lead, c, h)
        if stream_mix is None:
            y = x.copy()
        else:
            if stream_mix.shape != (*lead, c, c):
                raise self.fail(f"stream_mix {list(stream_mix.shape)} must be "
                                f"{[*lead, c, c]}")
            m = stream_mix.astype(np.float32)
            y = np.zeros_like(x)
            for src in range(c):  # in order, as onnxruntime sums
                y += m[..., src, :, None] * x[..., src, None, :]
        y += gate * block_output.astype(np.float32)[..., None, :]
        return y.reshape(streams.shape).astype(streams.dtype)
