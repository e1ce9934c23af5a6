"""The kernels of SVMClassifier and SVMRegressor (ai.onnx.ml 1): kernel_type (LINEAR, POLY,
RBF, SIGMOID) with kernel_params (gamma, coef0, degree: onnxruntime requires all three),
computed in float32 as onnxruntime does. Not an operator (lowercase name)."""
from __future__ import annotations

import numpy as np

from .base import KernelError
from .ml_scores import FEATURE_TYPES, text

KERNELS = ("LINEAR", "POLY", "RBF", "SIGMOID")


def kernel_setup(op: str, kernel_type, kernel_params) -> tuple[str, float, float, float]:
    kind = text(kernel_type)
    if kind not in KERNELS:
        raise KernelError(f"{op}: kernel_type {kind!r} is not one of {', '.join(KERNELS)}")
    if kernel_params is None or len(kernel_params) != 3:
        raise KernelError(f"{op}: kernel_params must be three numbers (gamma, coef0, degree)")
    gamma, coef0, degree = (float(v) for v in kernel_params)
    return kind, gamma, coef0, degree


def features(op: str, x: np.ndarray, count: int) -> np.ndarray:
    """X as float32 rows [N, F] (a 1-D X is one row), F checked against `count`."""
    if x.dtype not in FEATURE_TYPES or x.ndim not in (1, 2):
        raise KernelError(f"{op}: X must be [N, F] or [F] of float, double, int64 or int32, "
                          f"not {x.dtype} {list(x.shape)}")
    x = x.reshape(1, -1) if x.ndim == 1 else x
    if x.shape[1] != count:
        raise KernelError(f"{op}: X has {x.shape[1]} features, the model {count}")
    return x.astype(np.float32)


def kernel_dot(x: np.ndarray, vectors: np.ndarray, kind: str, gamma: float, coef0: float,
               degree: float, constant: float = 0.0) -> np.ndarray:
    """[N, V]: the kernel of each row of x [N, F] with each of vectors [V, F]; `constant`
    is added to a LINEAR kernel (onnxruntime's rho in liblinear mode)."""
    g, c = np.float32(gamma), np.float32(coef0)
    if kind == "RBF":
        d = x[:, None, :] - vectors[None, :, :]
        return np.exp(-g * (d * d).sum(axis=2, dtype=np.float32)).astype(np.float32)
    dot = (x @ vectors.T).astype(np.float32)
    if kind == "LINEAR":
        return (dot + np.float32(constant)).astype(np.float32)
    v = g * dot + c
    if kind == "POLY":
        return np.power(v, np.float32(degree)).astype(np.float32)
    return np.tanh(v).astype(np.float32)
