"""Momentum (ai.onnx.preview.training): one step of stochastic gradient descent with
momentum (mode "standard") or Nesterov's momentum ("nesterov") of X_1..X_n with
gradients G_1..G_n and momenta V_1..V_n; gives X_new_1..n, V_new_1..n (rules/Momentum.lp;
the inputs and outputs as kernels/optimizers.py describes)."""
from .base import REQUIRED
from .optimizers import Optimizer


class Momentum(Optimizer):
    attrs = {"alpha": REQUIRED, "beta": REQUIRED, "mode": REQUIRED, "norm_coefficient": REQUIRED}
    n_inputs = (5, None)
    roles = ("X", "G", "V")
    n_results = 2

    def setup(self, mode, **_):
        if mode not in ("standard", "nesterov"):
            raise self.fail(f"mode must be 'standard' or 'nesterov', not {mode!r}")

    def step(self, r, t, x, g, v, alpha, beta, mode, norm_coefficient):
        g_reg = norm_coefficient * x + g  # plus the gradient of the L2 term
        v_new = alpha * v + (beta if t > 0 else 1) * g_reg  # beta is 1 at the first step
        if mode == "standard":
            return x - r * v_new, v_new
        return x - r * (g_reg + alpha * v_new), v_new
