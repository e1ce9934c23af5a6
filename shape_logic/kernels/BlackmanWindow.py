"""BlackmanWindow: 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N) (windows.py)."""
from .windows import Window


class BlackmanWindow(Window):
    terms = (0.42, -0.5, 0.08)
