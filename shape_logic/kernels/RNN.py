"""RNN: the simple recurrent cell H = f(x W + H R + Wb + Rb), f = Tanh by default.
Outputs Y and Y_h."""
from .rnn import Recurrent, clipped


class RNN(Recurrent):
    n_inputs = (3, 6)
    gates = 1
    default_activations = ("Tanh",)

    def cell(self, xw_t, r, rb, state, fns, clip, d):
        (f,) = fns
        (h_prev,) = state
        return [f(clipped(xw_t + h_prev @ r.T + rb, clip))]
