"""Adagrad (ai.onnx.preview.training): one ADAGRAD step of X_1..X_n with gradients
G_1..G_n and accumulated squared gradients H_1..H_n; gives X_new_1..n, H_new_1..n
(rules/Adagrad.lp; the inputs and outputs as kernels/optimizers.py describes)."""
import numpy as np

from .optimizers import Optimizer


class Adagrad(Optimizer):
    attrs = {"decay_factor": 0.0, "epsilon": 1e-6, "norm_coefficient": 0.0}
    n_inputs = (5, None)
    roles = ("X", "G", "H")
    n_results = 2

    def step(self, r, t, x, g, h, decay_factor, epsilon, norm_coefficient):
        rate = r / (1 + t * decay_factor)  # the decayed learning rate
        g_reg = norm_coefficient * x + g  # plus the gradient of the L2 term
        h_new = h + g_reg * g_reg
        return x - rate * g_reg / (np.sqrt(h_new) + epsilon), h_new
