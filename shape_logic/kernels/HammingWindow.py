"""HammingWindow: 25/46 - 21/46 cos(2 pi n / N) (windows.py; onnx's alpha, not 0.54)."""
from .windows import Window


class HammingWindow(Window):
    terms = (25 / 46, -21 / 46)
