"""Values of the fuzzer's graphs (bench/fuzz.py): tensors, sequences and optionals."""
from __future__ import annotations

import numpy as np


def value(o):
    """A kernel's output as the Builder keeps it: an array; a sequence (a list of arrays)
    and an empty optional (None) as they are."""
    return o if isinstance(o, list) or o is None else np.asarray(o)


def empty(o) -> bool:
    """Whether o is or holds an empty tensor (a sequence of none is not one)."""
    return any(map(empty, o)) if isinstance(o, list) else o is not None and 0 in np.shape(o)


def is_tensor(b, t: str) -> bool:
    """t is a tensor (not a sequence, not an optional: --kind seq)."""
    return isinstance(b.values[t], (np.ndarray, np.generic)) and t not in b.optionals
