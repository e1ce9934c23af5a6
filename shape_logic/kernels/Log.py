"""Log: y = ln x."""
import numpy as np

from .families import UnaryFloat


class Log(UnaryFloat):
    fn = np.log
