"""SwiGLU: y = swish(a) * b = a * sigmoid(alpha * a) * b, on two tensors of one shape."""
import numpy as np

from .base import Kernel


class SwiGLU(Kernel):
    attrs = {"alpha": 1.0}
    n_inputs = (2, 2)

    def run(self, a, b, alpha):
        if a.dtype.kind != "f" or b.dtype != a.dtype:
            raise self.fail(f"needs two inputs of one float type, got {a.dtype} and {b.dtype}")
        if a.shape != b.shape:
            raise self.fail(f"needs two inputs of one shape, got {list(a.shape)} and "
                            f"{list(b.shape)}")
        z = a * a.dtype.type(alpha)
        gate = a * np.exp(-np.logaddexp(np.zeros((), a.dtype), -z))
        return (gate * b).astype(a.dtype, copy=False)
