"""The recurrent family (LSTM, GRU): layouts, directions, sequence lengths and the
activation functions, shared; each op gives only its cell. The input projection of
all time steps is one matmul; the loop over time steps is the only Python loop."""
from __future__ import annotations

import numpy as np

from .base import REQUIRED, Kernel
from .Sigmoid import sigmoid


def _activation(name: str, alpha, beta):
    """An ONNX RNN activation by name, with its alpha/beta (None: the op's default)."""
    table = {
        "Sigmoid": lambda x: sigmoid(x),
        "Tanh": np.tanh,
        "Relu": lambda x: np.maximum(x, 0),
        "Affine": lambda x: (1.0 if alpha is None else alpha) * x + (0.0 if beta is None else beta),
        "LeakyRelu": lambda x: np.where(x >= 0, x, (0.01 if alpha is None else alpha) * x),
        "ThresholdedRelu": lambda x: np.where(x > (1.0 if alpha is None else alpha), x, 0),
        "ScaledTanh": lambda x: (1.0 if alpha is None else alpha) * np.tanh(
            (1.0 if beta is None else beta) * x),
        "HardSigmoid": lambda x: np.clip((0.2 if alpha is None else alpha) * x
                                         + (0.5 if beta is None else beta), 0, 1),
        "Elu": lambda x: np.where(x > 0, x, (1.0 if alpha is None else alpha) * np.expm1(
            np.minimum(x, 0))),
        "Softsign": lambda x: x / (1 + np.abs(x)),
        "Softplus": lambda x: np.logaddexp(0, x),
    }
    if name not in table:
        raise ValueError(name)
    return table[name]


class Recurrent(Kernel):
    """X [T, B, I] (layout 0) or [B, T, I] (layout 1); W [D, G*H, I]; R [D, G*H, H];
    B [D, 2*G*H]; sequence_lens [B]; initial states [D, B, H]. Outputs Y [T, D, B, H]
    (layout 1: [B, T, D, H]) and the last states [D, B, H] (layout 1: [B, D, H])."""

    attrs = {"activation_alpha": None, "activation_beta": None, "activations": None,
             "clip": None, "direction": "forward", "hidden_size": REQUIRED, "layout": 0}
    gates = 1  # G: gates per cell
    default_activations: tuple[str, ...] = ()
    n_states = 1  # 1 (h) or 2 (h, c)

    def activations_for(self, d, activations, alpha, beta):
        names = activations or list(self.default_activations) * 2
        per = len(self.default_activations)
        fns = []
        for k, name in enumerate(names[d * per:(d + 1) * per]):
            i = d * per + k
            a = alpha[i] if alpha and i < len(alpha) else None
            b = beta[i] if beta and i < len(beta) else None
            try:
                fns.append(_activation(name, a, b))
            except ValueError:
                raise self.fail(f"unknown activation {name!r}") from None
        return fns

    def run(self, x, w, r, b=None, seq_lens=None, *states, activation_alpha=None,
            activation_beta=None, activations=None, clip=None, direction="forward",
            hidden_size=None, layout=0, **cell_attrs):
        if layout:
            x = x.transpose(1, 0, 2)
            states = tuple(None if s is None else s.transpose(1, 0, 2) for s in states)
        t_len, batch, _ = x.shape
        dirs = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}
        if direction not in dirs:
            raise self.fail(f"unknown direction {direction!r}")
        h = hidden_size
        gh = self.gates * h
        if w.shape[0] != len(dirs[direction]) or w.shape[1] != gh or r.shape[1:] != (gh, h):
            raise self.fail(f"W {list(w.shape)} / R {list(r.shape)} do not fit hidden_size "
                            f"{h}, {self.gates} gates, direction {direction}")
        lens = np.full(batch, t_len, np.int64) if seq_lens is None else seq_lens.astype(np.int64)
        ys, lasts = [], [[] for _ in range(self.n_states)]
        for d, backward in enumerate(dirs[direction]):
            bias = b[d] if b is not None else np.zeros(2 * gh, x.dtype)
            init = [np.zeros((batch, h), x.dtype) if k >= len(states) or states[k] is None
                    else states[k][d] for k in range(self.n_states)]
            fns = self.activations_for(d, activations, activation_alpha, activation_beta)
            xw = x @ w[d].T + bias[:gh]  # every time step's input projection at once
            y, last = self.scan(xw, r[d], bias[gh:], init, lens, backward, fns, clip,
                                d, **cell_attrs)
            ys.append(y)
            for k in range(self.n_states):
                lasts[k].append(last[k])
        y = np.stack(ys, axis=1)  # [T, D, B, H]
        outs = [np.stack(s) for s in lasts]  # [D, B, H]
        if layout:
            y = y.transpose(2, 0, 1, 3)
            outs = [s.transpose(1, 0, 2) for s in outs]
        return tuple(a.astype(x.dtype, copy=False) for a in [y] + outs)

    def scan(self, xw, r, rb, state, lens, backward, fns, clip, d, **cell_attrs):
        """Run the cell over time; steps past a sequence's length leave its state and
        give zeros. Backward, each sequence is read from its own last step."""
        t_len, batch = xw.shape[:2]
        rows = np.arange(batch)
        y = np.zeros((t_len, batch, state[0].shape[1]), xw.dtype)
        for t in range(t_len):
            valid = (t < lens)[:, None]
            at = np.where(lens - 1 - t >= 0, lens - 1 - t, 0) if backward else \
                np.full(batch, t)
            new = self.cell(xw[at, rows], r, rb, state, fns, clip, d, **cell_attrs)
            state = [np.where(valid, n, s) for n, s in zip(new, state)]
            y[at, rows] = np.where(valid, new[0], y[at, rows])
        return y, state

    def cell(self, xw_t, r, rb, state, fns, clip, d, **cell_attrs):
        raise NotImplementedError


def clipped(v: np.ndarray, clip) -> np.ndarray:
    return v if clip is None else np.clip(v, -clip, clip)
