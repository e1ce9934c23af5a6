"""StringNormalizer, as ONNX specifies it (and onnxruntime computes it): the strings of x [C]
or [1, C] that are not stop words (compared ignoring case unless is_case_sensitive), then
lower-, upper- or unchanged-cased; [""] ([1, 1]) when none is left. (onnx's reference
removes stop words inside each string and drops empty strings instead.)"""
import numpy as np

from .base import Kernel
from .strings import strings

CASES = {"NONE": lambda s: s, "LOWER": str.lower, "UPPER": str.upper}


class StringNormalizer(Kernel):
    attrs = {"case_change_action": "NONE", "is_case_sensitive": 0, "locale": "",
             "stopwords": None}

    def run(self, x, case_change_action, is_case_sensitive, locale, stopwords):
        x = strings(self, x)
        if x.ndim not in (1, 2) or (x.ndim == 2 and x.shape[0] != 1):
            raise self.fail(f"input {list(x.shape)} is neither [C] nor [1, C]")
        if case_change_action not in CASES:
            raise self.fail(f"case_change_action {case_change_action!r} is none of "
                            f"{', '.join(CASES)}")
        words = list(x.reshape(-1))
        if stopwords:
            fold = (lambda s: s) if is_case_sensitive else str.lower
            stops = {fold(w) for w in stopwords}
            words = [w for w in words if fold(w) not in stops]
        words = [CASES[case_change_action](w) for w in words] or [""]
        out = np.array(words, dtype=object)
        return out.reshape(1, -1) if x.ndim == 2 else out
