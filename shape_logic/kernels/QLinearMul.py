"""QLinearMul (com.microsoft): c = quantize(dequantize(a) * dequantize(b)), as QLinearAdd."""
import numpy as np

from .QLinearAdd import QLinearAdd


class QLinearMul(QLinearAdd):
    combine = staticmethod(np.multiply)
