"""Unique: distinct elements (or slices along `axis`), first-occurrence indices, inverse
indices and counts, all int64 but Y; sorted = 0 keeps the order of first occurrence.
onnxruntime's com.microsoft Unique(x) -> y, idx, counts (no attributes, all three outputs,
x a vector) keeps that order and counts each NaN apart, as its hash map does."""
import numpy as np

from .base import Kernel, KernelError

MS = "com.microsoft"


class Unique(Kernel):
    domains = ("", MS)
    attrs = {"axis": None, "sorted": 1}

    def __init__(self, attrs: dict | None = None, opset: int = 18, n_outputs: int = 1,
                 domain: str = ""):
        if domain == MS and attrs:  # (ONNX's attributes: the base class would take them)
            raise KernelError(f"Unique: com.microsoft's has no attribute(s) "
                              f"{', '.join(sorted(attrs))}")
        super().__init__(attrs, opset, n_outputs, domain)

    def run(self, x, axis=None, sorted=1):
        if self.domain == MS:
            return self._contrib(x)
        if axis is not None:
            if x.ndim == 0:
                raise self.fail("a scalar has no axis to take slices along")
            axis = self.axis(axis, x.ndim)
            flat = np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
        else:
            flat = x.reshape(-1, 1)
        _, first, inverse, counts = np.unique(flat, axis=0, return_index=True,
                                              return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        if not sorted:
            first, inverse, counts = by_first_occurrence(first, inverse, counts)
        y = np.take(x.reshape(-1), first) if axis is None else np.take(x, first, axis=axis)
        return (y, first.astype(np.int64), inverse.astype(np.int64),
                counts.astype(np.int64))

    def _contrib(self, x):
        if self.n_outputs != 3:
            raise self.fail(f"com.microsoft's Unique gives 3 outputs, the node asks for "
                            f"{self.n_outputs}")
        if x.ndim != 1:
            raise self.fail(f"x must be a vector, not of shape {list(x.shape)}")
        # (equal_nan=False: each NaN is its own element, as in onnxruntime's hash map)
        nan = {"equal_nan": False} if x.dtype.kind in "fc" else {}
        _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                              return_counts=True, **nan)
        first, inverse, counts = by_first_occurrence(first, inverse.reshape(-1), counts)
        return x[first], inverse.astype(np.int64), counts.astype(np.int64)


def by_first_occurrence(first, inverse, counts):
    """The distinct elements (first, inverse, counts of np.unique's sorted ones) renumbered
    in the order they first occur."""
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return first[order], rank[inverse], counts[order]
