"""MoE (com.microsoft): a mixture of experts. Each token (a row of input [rows, hidden], or
of [batch, seq, hidden]) is routed by softmax(router_probs) to the k experts of highest
probability (ties to the higher expert number, as onnxruntime's partial sort has it),
weighted by those probabilities (normalized to sum 1 over the k with
normalize_routing_weights). Expert e computes fc2(act(fc1(x))): fc1(x) = x @ W1[e]^T + b1[e],
W1[e] [f * inter, hidden] (f = 2 where a fused SwiGLU or GEGLU computes the gate and the
up half together), fc2 likewise with W2[e] [hidden, inter]. The activations: relu, gelu
(tanh's approximation, as onnxruntime computes it), silu, identity, relu2 (relu squared),
swiglu: G = min(g, limit), L = clamp(l, -limit, limit), G * sigmoid(alpha * G) * (L + beta)
(with swiglu_limit_after_activation the limit clamps the activated gate instead), and
geglu: gelu(g) * l. swiglu_fusion 1 interleaves g and l in FC1's rows, 2 concatenates them,
0 takes l from FC3.

Weights in onnxruntime's older layout (fc2 [E, inter, hidden], fc1 [E, hidden, f * inter])
are read as it reads them: the same memory as [E, hidden, inter] and [E, f * inter, hidden]
(not transposed). Computed in float32, each stage's result rounded to the input's type as
onnxruntime's kernel stores it. onnxruntime's CPU kernel runs relu, gelu, silu, identity and
interleaved SwiGLU without FC3 only (GEGLU, relu2, other SwiGLU layouts, FC3 and the limit
after the activation need CUDA): those follow the documented formulas. The sparse mixer (its
CPU kernel ignores it) is refused."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel

ACTIVATIONS = ("relu", "gelu", "silu", "identity", "swiglu", "relu2", "geglu")
GATED = ("swiglu", "geglu")
# the attributes MoE and QMoE share
MOE_ATTRS = {"k": 1, "activation_type": "relu", "activation_alpha": 1.0,
             "activation_beta": 0.0, "normalize_routing_weights": 0, "swiglu_fusion": 0,
             "swiglu_limit": None, "swiglu_limit_after_activation": 0, "use_sparse_mixer": 0}


def rounded(a: np.ndarray, dtype) -> np.ndarray:
    """float32 values as a tensor of `dtype` holds them (float32 again)."""
    return a if dtype == np.float32 else a.astype(dtype).astype(np.float32)


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(np.float32(0.7978845608) * (x + np.float32(0.044715) * x ** 3)))


class MoEBase(Kernel):
    """What MoE and QMoE share: the attributes' checks, the routing, the activation and
    the weighted sum of the experts' outputs; each says how it reads expert e's weights."""
    domains = ("com.microsoft",)

    def setup(self, k, activation_type, swiglu_fusion, use_sparse_mixer, **_):
        if activation_type not in ACTIVATIONS:
            raise self.fail(f"activation_type {activation_type!r} is not one of "
                            f"{', '.join(ACTIVATIONS)}")
        if k < 1:
            raise self.fail(f"k = {k} must be positive")
        if use_sparse_mixer:
            raise self.fail("use_sparse_mixer is not supported (onnxruntime's CPU kernel "
                            "ignores it, its CUDA kernel routes by SparseMixer's top-2)")
        if activation_type == "geglu" and swiglu_fusion not in (1, 2):
            raise self.fail(f"GEGLU needs swiglu_fusion 1 or 2, not {swiglu_fusion}")
        # f: FC1's rows per unit of inter
        self.fused = 2 if activation_type in GATED and swiglu_fusion in (1, 2) else 1
        if activation_type in GATED and self.fused == 1 and swiglu_fusion != 0:
            raise self.fail(f"swiglu_fusion = {swiglu_fusion} is not 0, 1 or 2")

    def tokens(self, x, router):
        """input as rows [rows, hidden]; router_probs checked against them."""
        if x.ndim not in (2, 3):
            raise self.fail(f"input of shape {list(x.shape)} is not 2-D or 3-D")
        rows = x.reshape(int(np.prod(x.shape[:-1])), x.shape[-1])
        if router.ndim != 2 or router.shape[0] != rows.shape[0]:
            raise self.fail(f"router_probs of shape {list(router.shape)} is not [{rows.shape[0]},"
                            " experts]")
        if self.kw["k"] > router.shape[1]:
            raise self.fail(f"k = {self.kw['k']} is more than the {router.shape[1]} experts")
        return rows

    def route(self, router, mixing=None):
        """The k experts of each row and their weights ([rows, k] each)."""
        r = router.astype(np.float32)
        p = np.exp(r - r.max(axis=1, keepdims=True))
        p = p / p.sum(axis=1, keepdims=True)
        ids = np.arange(p.shape[1])
        # by probability, then the higher expert first (onnxruntime's order of ties)
        order = np.stack([np.lexsort((-ids, -row)) for row in p]) if len(p) else \
            np.zeros((0, p.shape[1]), np.int64)
        top = order[:, : self.kw["k"]]
        weights = np.take_along_axis(p if mixing is None else mixing.astype(np.float32),
                                     top, axis=1)
        if self.kw["normalize_routing_weights"]:
            weights = weights / weights.sum(axis=1, keepdims=True)
        return top, weights

    def activate(self, h, up=None):
        """The activation of FC1's output h [n, f * inter] (up: FC3's, unfused)."""
        name, kw = self.kw["activation_type"], self.kw
        if name not in GATED:
            return {"relu": lambda v: np.maximum(v, 0), "gelu": gelu_tanh,
                    "silu": lambda v: v * sigmoid(v), "identity": lambda v: v,
                    "relu2": lambda v: np.maximum(v, 0) ** 2}[name](h)
        if self.fused == 1:
            if up is None:
                raise self.fail(f"{name} with swiglu_fusion 0 needs FC3's weights")
            g, lin = h, up
        elif kw["swiglu_fusion"] == 1:
            g, lin = h[:, 0::2], h[:, 1::2]
        else:
            half = h.shape[1] // 2
            g, lin = h[:, :half], h[:, half:]
        if name == "geglu":
            return gelu_tanh(g) * lin
        limit = np.float32(np.inf if kw["swiglu_limit"] is None else kw["swiglu_limit"])
        alpha, beta = np.float32(kw["activation_alpha"]), np.float32(kw["activation_beta"])
        lin = np.clip(lin, -limit, limit)
        if kw["swiglu_limit_after_activation"]:
            return np.minimum(g * sigmoid(alpha * g), limit) * (lin + beta)
        g = np.minimum(g, limit)
        return g * sigmoid(alpha * g) * (lin + beta)

    def mix(self, x, router, expert, mixing=None):
        """The weighted sum of the chosen experts' outputs, in input's shape and type;
        expert(e, rows) gives expert e's output for those rows (float32, [n, hidden])."""
        rows = self.tokens(x, router)
        top, weights = self.route(router, mixing)
        out = np.zeros(rows.shape, np.float32)
        for e in np.unique(top):
            hit, slot = np.nonzero(top == e)
            w = weights[hit, slot]
            keep = w > 0  # (onnxruntime skips a route of weight 0)
            if keep.any():
                y = expert(int(e), rows[hit[keep]].astype(np.float32))
                np.add.at(out, hit[keep], w[keep, None] * y)
        return out.reshape(x.shape).astype(x.dtype)

    def ffn(self, x, w1, b1, w2, b2, w3=None, b3=None):
        """fc2(act(fc1(x))) for rows x of one expert, each stage rounded to the input's type
        (the weights as float32 [out, in], the biases [out] or None)."""
        t = self.dtype
        h = rounded(x @ w1.T, t)
        if b1 is not None:
            h = rounded(h + b1, t)
        up = None
        if w3 is not None:
            up = rounded(x @ w3.T, t)
            if b3 is not None:
                up = rounded(up + b3, t)
        a = rounded(self.activate(h, up), t)
        y = rounded(a @ w2.T, t)
        if b2 is not None:
            y = rounded(y + b2, t)
        return y


class MoE(MoEBase):
    attrs = dict(MOE_ATTRS)
    n_inputs = (5, 8)
    optional_inputs = frozenset({3})  # fc1_experts_bias, before fc2's weights
    widens_small_floats = False  # (bfloat16 is rounded at each stage as the input's type)

    def run(self, x, router, fc1, b1, fc2, b2=None, fc3=None, b3=None, **_):
        for t in (x, router, fc1, b1, fc2, b2, fc3, b3):
            if t is not None and t.dtype != x.dtype:
                raise self.fail(f"takes one float type throughout: {x.dtype} and {t.dtype}")
        if x.dtype.name not in ("float16", "bfloat16", "float32"):
            raise self.fail(f"takes float16, bfloat16 or float32 tensors, not {x.dtype}")
        self.dtype = x.dtype
        self.tokens(x, router)
        hidden, experts = x.shape[-1], router.shape[1]
        inter = self.inter(hidden, experts, fc1, fc2)
        f = self.fused
        w1 = fc1.astype(np.float32).reshape(experts, f * inter, hidden)
        w2 = fc2.astype(np.float32).reshape(experts, hidden, inter)
        self.param(b1, (experts, f * inter), "fc1_experts_bias")
        self.param(b2, (experts, hidden), "fc2_experts_bias")
        w3 = None
        if fc3 is not None or b3 is not None:
            if f != 1 or self.kw["activation_type"] not in GATED:
                raise self.fail("FC3 is taken only by SwiGLU with swiglu_fusion 0")
            if fc3 is None or fc3.shape not in ((experts, inter, hidden),
                                                (experts, hidden, inter)):
                raise self.fail(f"fc3_experts_weights must be [{experts}, {inter}, {hidden}]")
            self.param(b3, (experts, inter), "fc3_experts_bias")
            w3 = fc3.astype(np.float32).reshape(experts, inter, hidden)

        def opt(b, e):
            return None if b is None else b[e].astype(np.float32)

        def expert(e, rows):
            return self.ffn(rows, w1[e], opt(b1, e), w2[e], opt(b2, e),
                            None if w3 is None else w3[e], opt(b3, e))
        return self.mix(x, router, expert)

    def inter(self, hidden, experts, fc1, fc2) -> int:
        """inter from fc2's shape, and fc1's and fc2's shapes checked (either layout)."""
        f = self.fused
        if fc1.ndim != 3 or fc2.ndim != 3:
            raise self.fail(f"the weights of shapes {list(fc1.shape)} and {list(fc2.shape)} "
                            "are not 3-D")
        d1, d2 = fc2.shape[1:]
        if hidden < 1 or d1 * d2 % hidden or d1 * d2 // hidden < 1:
            raise self.fail(f"fc2_experts_weights of shape {list(fc2.shape)} does not fit "
                            f"hidden = {hidden}")
        inter = d1 * d2 // hidden
        old = (hidden != inter and d1 == inter) or \
            (hidden == inter and f == 2 and fc1.shape[1] == hidden)
        want1 = (experts, hidden, f * inter) if old else (experts, f * inter, hidden)
        want2 = (experts, inter, hidden) if old else (experts, hidden, inter)
        for name, t, want in (("fc1", fc1, want1), ("fc2", fc2, want2)):
            if t.shape != want:
                raise self.fail(f"{name}_experts_weights of shape {list(t.shape)} is not "
                                f"{list(want)}")
        return inter

    def param(self, b, want, name):
        if b is not None and b.shape != want:
            raise self.fail(f"{name} of shape {list(b.shape)} is not {list(want)}")
