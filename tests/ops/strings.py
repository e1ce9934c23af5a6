"""Random string tensors for the string operators' tests (words from a small vocabulary,
some with spaces, dashes and capitals, some empty)."""
import numpy as np
from hypothesis import strategies as st

WORDS = ["monday", "Tuesday", "a b", "x-y-z", "", "HELLO", "the  end", "it's", "tue"]


def string_array(rng, shape):
    return np.array(rng.choice(WORDS, size=shape), dtype=object).reshape(shape)


shapes = st.lists(st.integers(0, 3), max_size=3)


def assert_dims_fit(sol, tensor, want):
    """The inferred shape of `tensor` has want's rank, and each dim is want's or a fresh
    name (where the strings decide)."""
    dims = sol.dims(tensor)
    assert dims is not None and len(dims) == len(want), (sol.shape(tensor), want)
    for d, w in zip(dims, want):
        assert str(d).startswith("_") or int(str(d)) == w, (sol.shape(tensor), want)
