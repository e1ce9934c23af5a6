"""GRU: gates z, r, h (that order in W, R, B). linear_before_reset = 1 applies R_h before
the reset gate: h~ = g(x W_h + r * (H R_h + Rb_h) + Wb_h). Outputs Y, Y_h."""
import numpy as np

from .rnn import Recurrent, clipped


class GRU(Recurrent):
    attrs = {**Recurrent.attrs, "linear_before_reset": 0}
    n_inputs = (3, 6)
    gates = 3
    default_activations = ("Sigmoid", "Tanh")

    def cell(self, xw_t, r, rb, state, fns, clip, d, linear_before_reset=0):
        f, g = fns
        (h_prev,) = state
        hs = h_prev.shape[1]
        xz, xr, xh = np.split(xw_t, 3, axis=1)
        rz, rr, rh = r[:hs], r[hs:2 * hs], r[2 * hs:]
        bz, br, bh = rb[:hs], rb[hs:2 * hs], rb[2 * hs:]
        z = f(clipped(xz + h_prev @ rz.T + bz, clip))
        rg = f(clipped(xr + h_prev @ rr.T + br, clip))
        if linear_before_reset:
            cand = xh + rg * (h_prev @ rh.T + bh)
        else:
            cand = xh + (rg * h_prev) @ rh.T + bh
        hh = g(clipped(cand, clip))
        return [(1 - z) * hh + z * h_prev]
