"""If: the outputs of then_branch or else_branch, as the condition says (rules/If.lp).
Branches run on this package's executor (kernels/bodies.py)."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body


class If(Kernel):
    attrs = {"then_branch": REQUIRED, "else_branch": REQUIRED}
    n_inputs = (1, 1)

    def setup(self, then_branch, else_branch):
        self.branches = (Body(self, else_branch), Body(self, then_branch))
        self.outer_names = list(dict.fromkeys(self.branches[0].outer + self.branches[1].outer))
        self.outer_values = {}

    def run(self, cond, then_branch, else_branch):
        outs = self.branches[bool(np.asarray(cond).reshape(-1)[0])](outer=self.outer_values)
        return tuple(outs)
