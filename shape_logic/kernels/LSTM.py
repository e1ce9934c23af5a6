"""LSTM: gates i, o, f, c (that order in W, R, B), peepholes P [D, 3H] (i, o, f);
input_forget = 1 couples f = 1 - i. Outputs Y, Y_h, Y_c."""
import numpy as np

from .rnn import Recurrent, clipped


class LSTM(Recurrent):
    attrs = {**Recurrent.attrs, "input_forget": 0}
    n_inputs = (3, 8)
    gates = 4
    n_states = 2
    default_activations = ("Sigmoid", "Tanh", "Tanh")

    def run(self, x, w, r, b=None, seq_lens=None, h0=None, c0=None, p=None, **attrs):
        self.peep = p
        return super().run(x, w, r, b, seq_lens, h0, c0, **attrs)

    def cell(self, xw_t, r, rb, state, fns, clip, d, input_forget=0):
        f, g, h = fns
        h_prev, c_prev = state
        z = xw_t + h_prev @ r.T + rb
        zi, zo, zf, zc = np.split(z, 4, axis=1)
        if self.peep is not None:
            pi, po, pf = np.split(self.peep[d], 3)
            zi, zf = zi + pi * c_prev, zf + pf * c_prev
        i = f(clipped(zi, clip))
        fg = 1 - i if input_forget else f(clipped(zf, clip))
        c = fg * c_prev + i * g(clipped(zc, clip))
        if self.peep is not None:
            zo = zo + po * c
        o = f(clipped(zo, clip))
        return [o * h(c), c]
