"""How many threads NumPy's BLAS (OpenBLAS) uses while a graph runs.

One by default: a graph node's products are small enough that OpenBLAS's threads cost
more than they give (measured on onnx's light models: single-threaded runs were 1.5-6x
faster in wall time on a loaded 2-core machine, where OpenBLAS's idle threads spin and
take CPU from the thread doing the work).  `threadpoolctl` finds and sets the BLAS
library NumPy loaded; the previous setting comes back when the run ends.
"""
from __future__ import annotations

import contextlib
from functools import cache


@cache
def _controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def blas_threads(threads: int | None):
    """A context running BLAS on `threads` threads (None: as configured, untouched)."""
    if threads is None:
        return contextlib.nullcontext()
    return _controller().limit(limits=threads, user_api="blas")
