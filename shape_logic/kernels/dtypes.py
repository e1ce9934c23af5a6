"""ONNX element types (TensorProto.DataType numbers) as NumPy dtypes."""
from __future__ import annotations

import numpy as np

ONNX_TO_NUMPY = {
    1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
    7: np.int64, 8: np.object_, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32,
    13: np.uint64, 14: np.complex64, 15: np.complex128,
}
ONNX_NAMES = {16: "bfloat16", 17: "float8e4m3fn", 18: "float8e4m3fnuz", 19: "float8e5m2",
              20: "float8e5m2fnuz", 21: "uint4", 22: "int4", 23: "float4e2m1"}


def numpy_dtype(elem: int, op: str) -> np.dtype:
    """The NumPy dtype of ONNX element type `elem`; a ValueError naming `op` if none."""
    if elem in ONNX_TO_NUMPY:
        return np.dtype(ONNX_TO_NUMPY[elem])
    name = ONNX_NAMES.get(elem, f"element type {elem}")
    raise ValueError(f"{op}: {name} has no NumPy dtype (not supported by the executor)")
