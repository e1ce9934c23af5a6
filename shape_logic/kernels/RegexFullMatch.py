"""RegexFullMatch: whether each string matches `pattern` as a whole (Python's re, which
takes the RE2 syntax ONNX names for the patterns both share)."""
import re

import numpy as np

from .base import Kernel
from .strings import strings


class RegexFullMatch(Kernel):
    attrs = {"pattern": None}

    def run(self, x, pattern):
        if pattern is None:
            raise self.fail("attribute 'pattern' is required")
        try:
            regex = re.compile(pattern)
        except re.error as e:
            raise self.fail(f"pattern {pattern!r}: {e}") from None
        x = strings(self, x)
        return np.vectorize(lambda s: regex.fullmatch(s) is not None, otypes=[np.bool_])(x) \
            if x.size else np.zeros(x.shape, np.bool_)
