"""If: the outputs of then_branch or else_branch, as the condition says (rules/If.lp).
Branches run on this package's executor and must be self-contained."""
import numpy as np

from .base import REQUIRED, Kernel
from .bodies import Body


class If(Kernel):
    attrs = {"then_branch": REQUIRED, "else_branch": REQUIRED}
    n_inputs = (1, 1)

    def setup(self, then_branch, else_branch):
        self.branches = (Body(self, else_branch), Body(self, then_branch))

    def run(self, cond, then_branch, else_branch):
        outs = self.branches[bool(np.asarray(cond).reshape(-1)[0])]()
        return tuple(outs)
