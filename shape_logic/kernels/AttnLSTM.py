"""AttnLSTM (com.microsoft): an LSTM wrapped in Bahdanau attention over a memory M
[batch, steps, depth], as onnxruntime's CPU kernel (contrib_ops/cpu/attnlstm) runs it.

Each step's cell input is X_t concatenated with the previous attention state A (zeros at
first): W [d, 4h, input + attention size]. After the cell gives H_t, the attention takes
it as the query: keys = M @ MW, score = sum(V * tanh(keys + H_t @ QW)) over the steps of
the row's memory_seq_lens (every step without it), softmax (onnxruntime's: no max taken
off, a sum of 0 a uniform weight), context = align @ M; A = [H_t, context] @ AW with AW,
the context without. Sequence lengths, directions and the cell are LSTM's (kernels/LSTM);
onnxruntime's activations take their alpha and beta in order, only the functions that
use them, with its own defaults (Affine and ScaledTanh 0)."""
import numpy as np

from .LSTM import LSTM
from .rnn import Recurrent, _activation

# onnxruntime's activations (rnn_helpers.cc, names in any case): the ONNX name, the
# default alpha and beta of the functions that take them (None: takes none)
ORT_ACTIVATIONS = {
    "sigmoid": ("Sigmoid", None, None), "tanh": ("Tanh", None, None),
    "relu": ("Relu", None, None), "softsign": ("Softsign", None, None),
    "softplus": ("Softplus", None, None), "affine": ("Affine", 0.0, 0.0),
    "leakyrelu": ("LeakyRelu", 0.01, None), "thresholdedrelu": ("ThresholdedRelu", 0.0, None),
    "scaledtanh": ("ScaledTanh", 0.0, 0.0), "hardsigmoid": ("HardSigmoid", 0.2, 0.5),
    "elu": ("Elu", 1.0, None),
}


class AttnLSTM(LSTM):
    domains = ("com.microsoft",)
    attrs = {k: v for k, v in LSTM.attrs.items() if k != "layout"}
    n_inputs = (12, 14)
    optional_inputs = frozenset({3, 4, 5, 6, 7})
    n_states = 3  # h, c and the attention state
    widens_small_floats = False

    def run(self, x, w, r, b=None, seq_lens=None, h0=None, c0=None, p=None, qw=None,
            mw=None, v=None, m=None, mem_lens=None, aw=None, *, hidden_size,
            direction="forward", clip=None, **attrs):
        if any(t is None for t in (qw, mw, v, m)):
            raise self.fail("QW, MW, V and M are required (onnxruntime crashes without them)")
        floats = [t for t in (x, w, r, b, h0, c0, p, qw, mw, v, m, aw) if t is not None]
        if x.dtype not in (np.float32, np.float64) or any(t.dtype != x.dtype for t in floats):
            raise self.fail("takes one type, float32 or float64, for its float inputs")
        if any(t is not None and t.dtype != np.int32 for t in (seq_lens, mem_lens)):
            raise self.fail("sequence_lens and memory_seq_lens are int32")
        if hidden_size <= 0 or (clip is not None and clip <= 0):
            raise self.fail(f"hidden_size ({hidden_size}) and clip ({clip}) must be positive")
        if direction not in ("forward", "reverse", "bidirectional"):
            raise self.fail(f"unknown direction {direction!r}")
        d = 2 if direction == "bidirectional" else 1
        acts = attrs.get("activations")
        if acts is not None and len(acts) != 3 * d:
            raise self.fail(f"takes {3 * d} activations, not {len(acts)}")
        h = hidden_size
        self._check(x, w, r, b, seq_lens, h0, c0, p, qw, mw, v, m, mem_lens, aw, d, h)
        t_len, batch, i = x.shape
        steps, depth = m.shape[1:]
        lens = np.full(batch, steps) if mem_lens is None else mem_lens.astype(np.int64)
        self.mask = np.arange(steps) < lens[:, None]  # [batch, steps]
        self.memory, self.qw, self.v, self.aw, self.h = m, qw, v, aw, h
        self.keys = [m @ mw[k] for k in range(d)]  # [batch, steps, am size] per direction
        self.wa = w[:, :, i:]
        self.peep = p
        width = depth if aw is None else aw.shape[2]
        a0 = np.zeros((d, batch, width), x.dtype)
        return Recurrent.run(self, x, w[:, :, :i], r, b, seq_lens, h0, c0, a0,
                             hidden_size=h, direction=direction, clip=clip, **attrs)

    def _check(self, x, w, r, b, seq_lens, h0, c0, p, qw, mw, v, m, mem_lens, aw, d, h):
        """onnxruntime's ValidateInputs, and the empty sizes it crashes on."""
        if x.ndim != 3 or m.ndim != 3 or 0 in x.shape or 0 in m.shape:
            raise self.fail(f"X {list(x.shape)} and M {list(m.shape)} must be 3-D, not empty")
        t_len, batch, i = x.shape
        steps, depth = m.shape[1:]
        am = mw.shape[-1]
        width = depth if aw is None else aw.shape[-1]
        want = {"M": (m, (batch, steps, depth)), "MW": (mw, (d, depth, am)),
                "QW": (qw, (d, h, am)), "V": (v, (d, am)),
                "AW": (aw, (d, depth + h, width)), "W": (w, (d, 4 * h, i + width)),
                "R": (r, (d, 4 * h, h)), "B": (b, (d, 8 * h)),
                "sequence_lens": (seq_lens, (batch,)), "initial_h": (h0, (d, batch, h)),
                "initial_c": (c0, (d, batch, h)), "P": (p, (d, 3 * h)),
                "memory_seq_lens": (mem_lens, (batch,))}
        for name, (t, shape) in want.items():
            if t is not None and t.shape != shape:
                raise self.fail(f"{name} {list(t.shape)} must be {list(shape)}")
        if width == 0:
            raise self.fail("AW's attention size must not be 0")
        for name, lens, top in (("sequence_lens", seq_lens, t_len),
                                ("memory_seq_lens", mem_lens, steps)):
            if lens is not None and ((lens <= 0) | (lens > top)).any():
                raise self.fail(f"{name} {lens.tolist()} must lie in 1..{top}")

    def activations_for(self, d, activations, alpha, beta):
        """Direction d's f, g, h, alpha and beta consumed as onnxruntime does."""
        names = activations or ["Sigmoid", "Tanh", "Tanh"] * 2
        alphas, betas = list(alpha or []), list(beta or [])
        fns = []
        for k, name in enumerate(names[:3 * (d + 1)]):
            if name.lower() not in ORT_ACTIVATIONS:
                raise self.fail(f"unknown activation {name!r}")
            onnx_name, a, b = ORT_ACTIVATIONS[name.lower()]
            a = None if a is None else alphas.pop(0) if alphas else a
            b = None if b is None else betas.pop(0) if betas else b
            if k >= 3 * d:
                fns.append(_activation(onnx_name, a, b))
        return fns

    def cell(self, xw_t, r, rb, state, fns, clip, d, input_forget=0):
        h_prev, c_prev, a_prev = state
        h, c = super().cell(xw_t + a_prev @ self.wa[d].T, r, rb, [h_prev, c_prev], fns,
                            clip, d, input_forget)
        return [h, c, self.attend(h, d)]

    def attend(self, h, d):
        """The attention state after the query h [batch, hidden] (rows past their length
        give states no later step reads)."""
        query = h @ self.qw[d]
        score = np.sum(self.v[d] * np.tanh(self.keys[d] + query[:, None, :]), axis=-1)
        e = np.where(self.mask, np.exp(np.where(self.mask, score, 0)), 0).astype(h.dtype)
        total = e.sum(axis=1, keepdims=True, dtype=np.float64)
        uniform = self.mask / self.mask.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            align = np.where(total == 0, uniform, e / total).astype(h.dtype)
        context = np.einsum("bt,btd->bd", align, self.memory)
        if self.aw is None:
            return context
        return h @ self.aw[d][:self.h] + context @ self.aw[d][self.h:]
