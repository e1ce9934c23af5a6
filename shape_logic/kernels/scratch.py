"""Scratch buffers: temporaries a kernel fills and reads within one call (a convolution's
padded input and column matrices), kept from call to call instead of allocated anew.

A large new NumPy array is fresh memory from the system (glibc maps blocks over its
threshold and unmaps them when freed), so every call paid a page fault per 4 KiB
touched: measured ~1500 faults per ShuffleNet run, about 1.5 ms of its ~20. One buffer
per name and thread, grown to the largest request, up to LIMIT (beyond it: a new array,
so a thread keeps at most LIMIT bytes per name after a run).
A scratch array is only valid until the next request for the same name in the thread:
never return one from a kernel.
"""
from __future__ import annotations

import math
import threading

import numpy as np

LIMIT = 16 << 20  # bytes: larger temporaries are allocated and freed as before
_local = threading.local()


def scratch(name: str, shape: tuple, dtype) -> np.ndarray:
    """An uninitialized array of `shape` and `dtype`, reusing the buffer `name`."""
    views = getattr(_local, "views", None)
    if views is None:
        views = _local.views = {}  # (name, shape, dtype) -> (buffer, view): ~1 us a call
        _local.buffers = {}
    key = (name, shape, dtype)
    hit = views.get(key)
    buffers = _local.buffers
    if hit is not None and hit[0] is buffers.get(name):
        return hit[1]
    dtype = np.dtype(dtype)
    need = math.prod(shape) * dtype.itemsize
    if need > LIMIT:
        return np.empty(shape, dtype=dtype)
    buf = buffers.get(name)
    if buf is None or buf.nbytes < need:
        buf = buffers[name] = np.empty(max(need, 1), dtype=np.uint8)
    if len(views) > 256:  # shapes that keep changing: keep it small
        views.clear()
    view = buf[:need].view(dtype).reshape(shape)
    views[key] = (buf, view)
    return view
