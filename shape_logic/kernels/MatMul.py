"""MatMul: NumPy's matmul (batch axes broadcast; a 1-D operand is a vector)."""
import numpy as np

from .base import Kernel


class MatMul(Kernel):
    n_inputs = (2, 2)

    def run(self, a, b):
        if a.ndim == 0 or b.ndim == 0:
            raise self.fail(f"operands must not be scalars: {list(a.shape)} @ {list(b.shape)}")
        try:
            return np.matmul(a, b)
        except ValueError:
            raise self.fail(f"shapes {list(a.shape)} and {list(b.shape)} do not "
                            "multiply") from None
