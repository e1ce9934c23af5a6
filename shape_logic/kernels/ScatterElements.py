"""ScatterElements: a copy of x where, along `axis`, y[.., indices[.., i, ..], ..] is
updates[.., i, ..], or combined with it by `reduction` (add, mul, max, min; duplicates all
combine, and with none the last one wins)."""
import numpy as np

from .base import Kernel

REDUCE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


class ScatterElements(Kernel):
    attrs = {"axis": 0, "reduction": "none"}
    n_inputs = (3, 3)

    def run(self, x, indices, updates, axis, reduction):
        ax = self.axis(axis, x.ndim)
        if indices.ndim != x.ndim or indices.shape != updates.shape:
            raise self.fail(f"indices {list(indices.shape)} and updates {list(updates.shape)} "
                            f"must share a shape of the data's rank {x.ndim}")
        for k, (i, d) in enumerate(zip(indices.shape, x.shape)):
            if k != ax and i > d:
                raise self.fail(f"indices {list(indices.shape)} are longer than the data "
                                f"{list(x.shape)} at axis {k}")
        if reduction != "none" and reduction not in REDUCE:
            raise self.fail(f"unknown reduction {reduction!r}")
        idx = self.indices(indices, x.shape[ax], axis)
        # the full coordinates of every update: its own, with `axis` replaced by the index
        where = list(np.indices(idx.shape, sparse=True))
        where[ax] = idx
        where = tuple(where)
        y = x.copy()
        if reduction == "none":
            y[where] = updates
        else:
            REDUCE[reduction].at(y, where, updates)
        return y
