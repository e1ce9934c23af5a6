"""IsInf: y = x is infinite (bool); detect_negative / detect_positive choose the signs."""
import numpy as np

from .base import Kernel


class IsInf(Kernel):
    attrs = {"detect_negative": 1, "detect_positive": 1}

    def run(self, x, detect_negative, detect_positive):
        return ((np.isneginf(x) & bool(detect_negative))
                | (np.isposinf(x) & bool(detect_positive)))
