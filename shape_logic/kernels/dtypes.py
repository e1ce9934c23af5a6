"""ONNX element types (TensorProto.DataType numbers) as NumPy dtypes."""
from __future__ import annotations

import numpy as np

from ..graph import NUMPY_DTYPES
from ..onnx_import import ONNX_DTYPES

# the float types onnxruntime's newer contrib kernels take (their type constraints: no
# float64): GatedRMSNorm, ScaledSiLU, QMoE...
NARROW_FLOATS = ("float16", "bfloat16", "float32")


def numpy_dtype(elem: int, op: str) -> np.dtype:
    """The NumPy dtype of ONNX element type `elem`; a ValueError naming `op` if none."""
    name = ONNX_DTYPES.get(elem)
    if name is None:
        raise ValueError(f"{op}: element type {elem} is not one the executor knows")
    return np.dtype(NUMPY_DTYPES[name])
