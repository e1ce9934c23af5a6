"""Less: y = a < b (broadcasting, bool)."""
import numpy as np

from .families import Compare


class Less(Compare):
    fn = np.less
