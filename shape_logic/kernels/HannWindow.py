"""HannWindow: sin^2(pi n / N) = 0.5 - 0.5 cos(2 pi n / N) (windows.py)."""
from .windows import Window


class HannWindow(Window):
    terms = (0.5, -0.5)
