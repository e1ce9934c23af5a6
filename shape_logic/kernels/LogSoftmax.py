"""LogSoftmax: x - log(sum(e^x)) along an axis (see Softmaxish for the opset < 13 rule)."""
import numpy as np

from .families import Softmaxish


class LogSoftmax(Softmaxish):
    def finish(self, shifted, e, s):
        return shifted - np.log(s)
