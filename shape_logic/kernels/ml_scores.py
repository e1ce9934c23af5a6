"""The score transforms of ONNX's traditional-ML operators (post_transform: NONE, SOFTMAX,
LOGISTIC, SOFTMAX_ZERO, PROBIT), computed as onnxruntime's ml_common.h does, in float32;
and the attributes these operators share (class labels, the tree lists). Not an operator
(the name is lowercase: no rule file, no kernel of its own)."""
from __future__ import annotations

import numpy as np

from .base import KernelError

POST_TRANSFORMS = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT")
FEATURE_TYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.int64, np.int32))


def text(v) -> str:
    """A string attribute (bytes from onnx's helper, str from a graph file)."""
    return v.decode() if isinstance(v, bytes) else str(v)


def post_transform(op: str, value) -> str:
    name = text(value)
    if name not in POST_TRANSFORMS:
        raise KernelError(f"{op}: post_transform {name!r} is not one of "
                          f"{', '.join(POST_TRANSFORMS)}")
    return name


def floats(value, tensor=None) -> np.ndarray | None:
    """A list of floats given as FLOATS or as its *_as_tensor twin (None: neither)."""
    if tensor is not None:
        return np.asarray(tensor, np.float64).reshape(-1)
    return None if value is None else np.asarray(value, np.float64).reshape(-1)


def labels(op: str, ints, strings):
    """The class labels: strings when given (onnxruntime's choice when both are), else
    int64s, as an array; KernelError when neither is."""
    if strings is not None and len(strings):
        return np.array([text(s) for s in strings], dtype=object)
    if ints is not None and len(ints):
        return np.asarray(ints, np.int64)
    raise KernelError(f"{op}: one of the classlabels_* attributes must be given")


def logistic(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.float32)
    e = (1 / (1 + np.exp(-np.abs(v)))).astype(np.float32)
    return np.where(v < 0, np.float32(1) - e, e)


def probit(v: np.ndarray) -> np.ndarray:
    """sqrt(2) * erfinv(2v - 1), with Winitzki's erfinv as onnxruntime computes it, step
    by step in float32 (near v = 0.5 its cancellation shows)."""
    f = np.float32
    x = (f(2) * v.astype(f) - f(1)).astype(f)
    sign = np.where(x < 0, f(-1), f(1))
    with np.errstate(divide="ignore", invalid="ignore"):
        ln = np.log(((f(1) - x) * (f(1) + x)).astype(f)).astype(f)
        a = (f(2) / (f(3.14159) * f(0.147)) + f(0.5) * ln).astype(f)
        b = ((f(1) / f(0.147)) * ln).astype(f)
        r = sign * np.sqrt((-a + np.sqrt((a * a - b).astype(f))).astype(f))
    return (f(1.41421356) * r).astype(f)


def softmax(s: np.ndarray, zero: bool = False) -> np.ndarray:
    """Along the last axis; with `zero` (SOFTMAX_ZERO) a score within 1e-7 of 0 is not
    exponentiated but scaled by exp(-max), so that zeros stay (almost) zero."""
    s = s.astype(np.float32)
    top = s.max(axis=-1, keepdims=True)
    e = np.exp(s - top)
    if zero:
        e = np.where(np.abs(s) > 1e-7, e, s * np.exp(-top))
        total = np.where(np.abs(s) > 1e-7, e, 0).sum(axis=-1, keepdims=True)
    else:
        total = e.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (e / total).astype(np.float32)


def transform(scores: np.ndarray, how: str) -> np.ndarray:
    """post_transform on [N, E] scores of E >= 2 columns (each row on its own)."""
    if how == "LOGISTIC":
        return logistic(scores)
    if how == "PROBIT":
        return probit(scores)
    if how in ("SOFTMAX", "SOFTMAX_ZERO"):
        return softmax(scores, zero=how == "SOFTMAX_ZERO")
    return scores.astype(np.float32)


def two_columns(score: np.ndarray, how: str, mixed: bool) -> np.ndarray:
    """One score per row made two columns, as onnxruntime's binary case writes them:
    [1 - s, s] for weights all positive, [-s, s] (LOGISTIC: [logistic(-s), logistic(s)])
    for mixed ones."""
    s = score.astype(np.float32)
    if not mixed:
        return np.stack([np.float32(1) - s, s], axis=1)
    if how == "LOGISTIC":
        return np.stack([logistic(-s), logistic(s)], axis=1)
    return np.stack([-s, s], axis=1)


def linear(kernel, x: np.ndarray, coef: np.ndarray, intercepts, rows: int, what: str):
    """x @ W.T + intercepts in float32, W the first rows*F coefficients as [rows, F] (a 1-D
    x is one row); X's type and rank, and the coefficients' count, checked as onnxruntime
    does (`what`: "classes" or "targets", for the message)."""
    if x.dtype not in FEATURE_TYPES or x.ndim not in (1, 2):
        raise kernel.fail(f"X must be [N, F] or [F] of float, double, int64 or int32, not "
                          f"{x.dtype} {list(x.shape)}")
    x = x.reshape(1, -1) if x.ndim == 1 else x
    f = x.shape[1]
    if len(coef) < rows * f:
        raise kernel.fail(f"coefficients has {len(coef)} entries, fewer than "
                          f"{rows} {what} * {f} features")
    w = coef[: rows * f].reshape(rows, f)
    return (x.astype(np.float32) @ w.T + intercepts).astype(np.float32)
