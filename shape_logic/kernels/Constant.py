"""Constant: the tensor given by exactly one of its attributes."""
import numpy as np

from .base import Kernel

# attribute -> the dtype of a value given as a Python number or list
KINDS = {"value": None, "sparse_value": None, "value_float": np.float32,
         "value_floats": np.float32, "value_int": np.int64, "value_ints": np.int64,
         "value_string": object, "value_strings": object}


class Constant(Kernel):
    attrs = {k: None for k in KINDS}
    n_inputs = (0, 0)

    def setup(self, **attrs):
        given = [k for k, v in attrs.items() if v is not None]
        if len(given) != 1:
            raise self.fail(f"needs exactly one value attribute, got {given or 'none'}")
        kind = given[0]
        self.value = np.asarray(attrs[kind], dtype=KINDS[kind])

    def run(self, **_):
        return self.value
