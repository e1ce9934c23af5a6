"""QMoE (com.microsoft): MoE (kernels/MoE.py) with each expert's weights quantized to integers
of `bits` bits (expert_weight_bits, or fc1_/fc2_expert_weight_bits): w = (q - zero_point) *
scale. A projection of `rows` outputs and `cols` inputs holds [E, rows, cols * bits / 8]
uint8, each row's codes packed low bits first; its scales are one per row ([E, rows], or
[E, rows, 1]) or, with a block_size and fc1's scales 3-D, one per block of block_size
columns ([E, rows, ceil(cols / block_size)]); its zero points (2^(bits - 1) by default) are
packed likewise, across the rows ([E, ceil(rows * bits / 8)]) or along each row's blocks
([E, rows, ceil(blocks * bits / 8)]). Weights in the older layout (fc2 [E, inter, hidden *
bits / 8], fc1 [E, hidden, f * inter * bits / 8]) are the same memory, read as onnxruntime
reads it. router_weights, when given, weigh the experts router_probs chose.

As onnxruntime's CPU kernel routes: each token's weights are the softmax of its k highest
router_probs (summing to 1 whatever normalize_routing_weights says, which normalizes
router_weights only). Computed in float32 (accuracy_level 4's int8 activations are not
imitated). Integer weights of 2, 4 and 8 bits in the raw layout only: 3-bit weights (INT3),
the float quant types (fp4, nvfp4, fp8, wfp4afp8, with their global and activation scales)
and prepacked weights are refused. onnxruntime's CPU kernel has no mixed bit widths, no
FC3 and interleaved SwiGLU only: those follow the documented formulas."""
import numpy as np

from .MoE import GATED, MOE_ATTRS, MoEBase
from .dtypes import NARROW_FLOATS


def unpack(packed: np.ndarray, bits: int, n: int) -> np.ndarray:
    """The first n codes of each row of packed bytes (low bits first), as int32."""
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    codes = (packed[..., None] >> shifts) & ((1 << bits) - 1)
    return codes.reshape(packed.shape[:-1] + (-1,))[..., :n].astype(np.int32)


class QMoE(MoEBase):
    attrs = {**MOE_ATTRS, "quant_type": "int", "expert_weight_bits": 4,
             "fc1_expert_weight_bits": None, "fc2_expert_weight_bits": None,
             "fc3_expert_weight_bits": None, "block_size": 0, "weights_prepacked": -1,
             "accuracy_level": 0}
    n_inputs = (6, 21)
    optional_inputs = frozenset({3, 4})  # fc1's scales and bias, before fc2's weights
    widens_small_floats = False  # (bfloat16 is rounded at each stage as the input's type)

    def setup(self, quant_type, expert_weight_bits, block_size, weights_prepacked, **kw):
        super().setup(**kw)
        if quant_type != "int":
            raise self.fail(f"quant_type {quant_type!r} is not supported (integer weights only)")
        if weights_prepacked not in (-1, 0):
            raise self.fail(f"weights_prepacked = {weights_prepacked} (an execution provider's "
                            "layout) is not supported")
        self.bits = {}
        for j in (1, 2, 3):
            b = kw[f"fc{j}_expert_weight_bits"]
            self.bits[j] = expert_weight_bits if b is None else b
            if self.bits[j] not in (2, 4, 8):
                raise self.fail(f"{self.bits[j]}-bit weights are not supported (2, 4 or 8)")
        if block_size and (block_size < 16 or block_size & (block_size - 1)):
            raise self.fail(f"block_size = {block_size} is not a power of two >= 16")

    def route(self, router, mixing=None):
        """The k highest router_probs, weighted by their softmax (or by router_weights)."""
        r = router.astype(np.float32)
        ids = np.arange(r.shape[1])
        order = np.stack([np.lexsort((-ids, -row)) for row in r]) if len(r) else \
            np.zeros((0, r.shape[1]), np.int64)
        top = order[:, : self.kw["k"]]
        if mixing is None:
            chosen = np.take_along_axis(r, top, axis=1)
            weights = np.exp(chosen - chosen.max(axis=1, keepdims=True))
            return top, weights / weights.sum(axis=1, keepdims=True)
        weights = np.take_along_axis(mixing.astype(np.float32), top, axis=1)
        if self.kw["normalize_routing_weights"]:
            weights = weights / weights.sum(axis=1, keepdims=True)
        return top, weights

    def run(self, x, router, fc1, s1, b1, fc2, s2=None, b2=None, fc3=None, s3=None, b3=None,
            z1=None, z2=None, z3=None, router_weights=None, *scales, **_):
        if any(s is not None for s in scales):
            raise self.fail("global and activation scales (the float quant types) are not "
                            "supported")
        if x.dtype.name not in NARROW_FLOATS:
            raise self.fail(f"takes float16, bfloat16 or float32 tensors, not {x.dtype}")
        for t in (router, b1, b2, b3, router_weights):
            if t is not None and t.dtype != x.dtype:
                raise self.fail(f"takes one float type: {x.dtype} and {t.dtype}")
        for t in (fc1, fc2, fc3, z1, z2, z3):
            if t is not None and t.dtype != np.uint8:
                raise self.fail(f"integer weights and zero points are uint8, not {t.dtype}")
        if s1 is None or s2 is None:
            raise self.fail("needs fc1's and fc2's scales")
        self.dtype = x.dtype
        self.tokens(x, router)
        if router_weights is not None and router_weights.shape != router.shape:
            raise self.fail(f"router_weights of shape {list(router_weights.shape)} is not "
                            f"router_probs' {list(router.shape)}")
        hidden, experts = x.shape[-1], router.shape[1]
        inter, old = self.inter(hidden, experts, fc1, fc2)
        f = self.fused
        self.blocked = bool(self.kw["block_size"]) and s1.ndim == 3
        w1 = self.weights(1, fc1, s1, z1, experts, f * inter, hidden)
        w2 = self.weights(2, fc2, s2, z2, experts, hidden, inter)
        for name, b, want in (("fc1", b1, (experts, f * inter)), ("fc2", b2, (experts, hidden))):
            if b is not None and b.shape != want:
                raise self.fail(f"{name}_experts_bias of shape {list(b.shape)} is not "
                                f"{list(want)}")
        w3 = None
        if fc3 is not None:
            if f != 1 or self.kw["activation_type"] not in GATED:
                raise self.fail("FC3 is taken only by SwiGLU with swiglu_fusion 0")
            if s3 is None:
                raise self.fail("needs fc3's scales")
            w3 = self.weights(3, fc3, s3, z3, experts, inter, hidden)
            if b3 is not None and b3.shape != (experts, inter):
                raise self.fail(f"fc3_experts_bias of shape {list(b3.shape)} is not "
                                f"{[experts, inter]}")

        def opt(b, e):
            return None if b is None else b[e].astype(np.float32)

        def expert(e, rows):
            return self.ffn(rows, w1[e], opt(b1, e), w2[e], opt(b2, e),
                            None if w3 is None else w3[e], opt(b3, e))
        return self.mix(x, router, expert, router_weights)

    def inter(self, hidden, experts, fc1, fc2):
        """inter and whether the weights are in the older layout, their shapes checked."""
        f, p1, p2 = self.fused, 8 // self.bits[1], 8 // self.bits[2]
        if fc1.ndim != 3 or fc2.ndim != 3:
            raise self.fail(f"the weights of shapes {list(fc1.shape)} and {list(fc2.shape)} "
                            "are not 3-D")
        d1, d2 = fc2.shape[1:]
        if hidden < 1 or hidden % p1 or d1 * d2 * p2 % hidden or d1 * d2 * p2 // hidden < 1:
            raise self.fail(f"fc2_experts_weights of shape {list(fc2.shape)} does not fit "
                            f"hidden = {hidden} of {self.bits[1]}-bit weights")
        inter = d1 * d2 * p2 // hidden
        old = (hidden != inter and d1 == inter) or \
            (hidden == inter and f == 2 and fc1.shape[1] == hidden)
        if (f * inter) % p1 or inter % p2:
            raise self.fail(f"inter = {inter} is no whole number of bytes of weights")
        want1 = (experts, hidden, f * inter // p1) if old else (experts, f * inter, hidden // p1)
        want2 = (experts, inter, hidden // p2) if old else (experts, hidden, inter // p2)
        for name, t, want in (("fc1", fc1, want1), ("fc2", fc2, want2)):
            if t.shape != want:
                raise self.fail(f"{name}_experts_weights of shape {list(t.shape)} is not "
                                f"{list(want)}")
        return inter, old

    def weights(self, j, q, scales, zero, experts, rows, cols):
        """Projection j's weights dequantized, float32 [E, rows, cols] (the older layout's
        memory read as this one)."""
        bits, block = self.bits[j], self.kw["block_size"]
        name = f"fc{j}"
        if q.size != experts * rows * cols * bits // 8:
            raise self.fail(f"{name}_experts_weights of shape {list(q.shape)} does not hold "
                            f"[{experts}, {rows}, {cols}] {bits}-bit weights")
        codes = unpack(q.reshape(experts, rows, cols * bits // 8), bits, cols)
        if scales.dtype.name not in NARROW_FLOATS:
            raise self.fail(f"{name}_scales of type {scales.dtype} are not float scales")
        if self.blocked:
            blocks = -(-cols // block)
            want = [(experts, rows, blocks)]
            zwant = [(experts, rows, -(-blocks * bits // 8))]
        else:
            blocks = 1
            want = [(experts, rows), (experts, rows, 1)]
            zwant = [(experts, -(-rows * bits // 8))]
        if scales.shape not in want:
            raise self.fail(f"{name}_scales of shape {list(scales.shape)} is not "
                            f"{' or '.join(str(list(w)) for w in want)}")
        s = scales.astype(np.float32).reshape(experts, rows, blocks)
        if zero is None:
            z = np.full((experts, rows, blocks), 2 ** (bits - 1), np.int32)
        elif zero.shape not in zwant:
            raise self.fail(f"{name}_zero_points of shape {list(zero.shape)} is not "
                            f"{list(zwant[0])}")
        elif self.blocked:
            z = unpack(zero, bits, blocks)
        else:
            z = unpack(zero, bits, rows).reshape(experts, rows, 1)
        if self.blocked:
            at = np.arange(cols) // block
            return (codes - z[:, :, at]).astype(np.float32) * s[:, :, at]
        return (codes - z).astype(np.float32) * s
