"""Freeing grounded clingo controls off the solve's path.

Freeing a control takes clingo ~5% of what grounding it took (a few ms for a model of a
few hundred nodes, ~20 ms for DenseNet-121), and nothing waits for it: once the answer set
is read, a solve hands its control to one background thread, which drops it while the
caller goes on. clingo releases Python's lock while it frees, so that work runs on another
core. Controls are independent of each other (clingo's symbol table, which they share, is
locked), and the thread frees them in order; at exit it finishes before clingo goes.
"""
from __future__ import annotations

import atexit
import queue
import sys
import threading
import time

_pending: queue.SimpleQueue = queue.SimpleQueue()
_thread: threading.Thread | None = None
_lock = threading.Lock()
_STOP = object()


def release(owner) -> None:
    """Let `owner` (a control, or whatever holds the last reference to one) go in the
    background. None is nothing to release."""
    global _thread
    if owner is None:
        return
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_drop, name="shape-logic-release", daemon=True)
            _thread.start()
    _pending.put(owner)


def _drop() -> None:
    while True:
        owner = _pending.get()
        if owner is _STOP:
            return
        # the caller may hold it a moment longer (the argument of its call to release):
        # then the last reference would be the caller's, and clingo would free the control
        # on its thread (seen on a loaded machine). Wait for it, 50 ms at most.
        patience = time.monotonic() + 0.05
        while sys.getrefcount(owner) > 2 and time.monotonic() < patience:
            time.sleep(0.0005)
        del owner  # the last reference: clingo frees the control here


@atexit.register
def _finish() -> None:
    """Free what is pending before the interpreter (and clingo's library) goes away."""
    if _thread is not None and _thread.is_alive():
        _pending.put(_STOP)
        _thread.join()
