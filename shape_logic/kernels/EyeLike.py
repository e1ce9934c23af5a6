"""EyeLike: ones on the diagonal shifted by k (above it for k > 0), zeros elsewhere, in
the input's 2-D shape; of type `dtype` (a TensorProto code), the input's when not given."""
import numpy as np

from ..graph import NUMPY_DTYPES
from .base import Kernel


class EyeLike(Kernel):
    attrs = {"dtype": None, "k": 0}

    def run(self, x, dtype, k):
        if x.ndim != 2:
            raise self.fail(f"needs a 2-D input, got {list(x.shape)}")
        out = x.dtype if dtype is None else np.dtype(NUMPY_DTYPES[code_dtype(self, dtype)])
        return np.eye(x.shape[0], x.shape[1], k=k, dtype=out)


def code_dtype(kernel, code: int) -> str:
    """Our dtype name of a TensorProto element type code."""
    from ..onnx_import import DTYPE_TO_ONNX

    for name, c in DTYPE_TO_ONNX.items():
        if c == code:
            return name
    raise kernel.fail(f"unknown element type code {code}")
