"""Cast: x converted to the element type `to`. Floats to integers truncate; strings
are parsed as numbers and numbers printed as strings."""
import numpy as np

from .base import REQUIRED, Kernel
from .dtypes import numpy_dtype


def cast(kernel: Kernel, x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    try:
        if dtype == np.object_:
            return np.array([str(v) for v in x.reshape(-1).tolist()],
                            dtype=object).reshape(x.shape) if x.size else x.astype(object)
        if x.dtype == np.object_:
            return x.astype(np.float64).astype(dtype) if dtype.kind != "b" else x.astype(dtype)
        with np.errstate(invalid="ignore", over="ignore"):
            return x.astype(dtype)
    except (ValueError, TypeError) as e:
        raise kernel.fail(f"cannot cast {x.dtype} to {dtype}: {e}") from None


class Cast(Kernel):
    attrs = {"to": REQUIRED, "saturate": 1, "round_mode": "up"}

    def setup(self, to, **_):
        try:
            self.dtype = numpy_dtype(int(to), self.op)
        except ValueError as e:
            raise self.fail(str(e).split(": ", 1)[1]) from None

    def run(self, x, **_):
        return cast(self, x, self.dtype)
