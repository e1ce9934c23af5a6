"""Softmax: e^x / sum(e^x) along an axis (see Softmaxish for the opset < 13 rule)."""
from .families import Softmaxish


class Softmax(Softmaxish):
    def finish(self, shifted, e, s):
        return e / s
