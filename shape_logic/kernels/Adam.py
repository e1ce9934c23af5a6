"""Adam (ai.onnx.preview.training): one Adam step of X_1..X_n with gradients G_1..G_n,
averaged gradients V_1..V_n and averaged squared gradients H_1..H_n; gives
X_new_1..n, V_new_1..n, H_new_1..n (rules/Adam.lp; the inputs and outputs as
kernels/optimizers.py describes)."""
import numpy as np

from .optimizers import Optimizer


class Adam(Optimizer):
    attrs = {"alpha": 0.9, "beta": 0.999, "epsilon": 1e-6, "norm_coefficient": 0.0,
             "norm_coefficient_post": 0.0}
    n_inputs = (6, None)
    roles = ("X", "G", "V", "H")
    n_results = 3

    def step(self, r, t, x, g, v, h, alpha, beta, epsilon, norm_coefficient,
             norm_coefficient_post):
        g_reg = norm_coefficient * x + g  # plus the gradient of the L2 term
        v_new = alpha * v + (1 - alpha) * g_reg
        h_new = beta * h + (1 - beta) * (g_reg * g_reg)
        # the bias correction of the averages, from the second step on
        rate = r * np.sqrt(1 - beta**t) / (1 - alpha**t) if t > 0 else r
        x_new = x - rate * (v_new / (np.sqrt(h_new) + epsilon))
        return (1 - norm_coefficient_post) * x_new, v_new, h_new
