"""Unique: distinct elements (or slices along `axis`), first-occurrence indices, inverse
indices and counts, all int64 but Y; sorted = 0 keeps the order of first occurrence."""
import numpy as np

from .base import Kernel


class Unique(Kernel):
    attrs = {"axis": None, "sorted": 1}

    def run(self, x, axis=None, sorted=1):
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
        if not sorted:  # renumber by first occurrence
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            first, counts, inverse = first[order], counts[order], rank[inverse]
        y = np.take(x.reshape(-1), first) if axis is None else np.take(x, first, axis=axis)
        return (y, first.astype(np.int64), inverse.astype(np.int64),
                counts.astype(np.int64))
