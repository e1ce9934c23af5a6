"""SequenceEmpty: a sequence of no elements (of the `dtype` attribute's type)."""
from .base import Kernel, Seq
from .dtypes import numpy_dtype


class SequenceEmpty(Kernel):
    attrs = {"dtype": 1}
    n_inputs = (0, 0)

    def run(self, dtype):
        return Seq(elem=numpy_dtype(int(dtype), "SequenceEmpty"))
