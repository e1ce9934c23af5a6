"""Scatter (opsets 9 and 10): ScatterElements without a reduction."""
from .ScatterElements import ScatterElements


class Scatter(ScatterElements):
    attrs = {"axis": 0}

    def run(self, x, indices, updates, axis):
        return super().run(x, indices, updates, axis, "none")
