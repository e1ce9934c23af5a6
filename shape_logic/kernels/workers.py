"""Intra-op threads: one kernel's work split into parts run by the calling thread and a
small persistent pool (onnxruntime's intra-op thread pool, in Python).

    with threads(2):                  # the executor, around a run
        parallel(part, n_parts)       # a kernel: part(i) for i in range(n_parts)

NumPy releases Python's lock (the GIL) in BLAS and in large copies and ufunc loops, so
parts whose time is spent there run at the same time. BLAS itself runs on one thread
inside each part (kernels/blas.py): nothing spins. Parts are taken from one counter, the
caller too, so a worker the system does not schedule (a loaded machine) costs nothing:
the caller takes its parts, and only waits for parts a worker has started. Waking a
sleeping worker costs ~15-30 us on this 2-core VM, so kernels split only work large
enough to pay for it (`worth`).

Each worker is kept on a CPU of its own (worker k on the k-th of the process's CPUs),
and a run (`placed`, the executor's) keeps its calling thread off the workers' CPUs:
on a machine another process keeps busy, a sleeping worker woken by the caller is
otherwise put on the caller's CPU, and the two take turns there (a run on two threads
was slower than on one).

`threads(n)` sets how many threads (the caller included) a kernel may use in the current
thread's context (a ContextVar: another thread's run keeps its own setting; the parts
themselves run in a copy of the caller's context). One pool serves the process; a second
caller while it is busy (a part that splits again, another thread's run) runs its parts
alone.
"""
from __future__ import annotations

import contextlib
import contextvars
import itertools
import os
import threading

from . import blas

_threads = contextvars.ContextVar("shape_logic_threads", default=1)


def available() -> int:
    """The CPUs this process may run on (its affinity mask; os.cpu_count() elsewhere)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@contextlib.contextmanager
def threads(n: int | None):
    """Let kernels split their work over `n` threads (None: `available()`)."""
    n = available() if n is None else int(n)
    if n < 1:
        raise ValueError(f"threads must be at least 1, got {n}")
    token = _threads.set(n)
    try:
        yield n
    finally:
        _threads.reset(token)


def current() -> int:
    """How many threads a kernel may use now (1: run its work itself, in one part)."""
    return _threads.get()


# a part is at least this much work (multiply-adds, or their equivalent in copies): a
# parallel section costs ~50-100 us on this 2-core VM beyond waking a worker and joining
# it (the threads hand Python's lock back and forth between NumPy calls), so a call of
# ~300 us (~8 M multiply-adds of one thread's BLAS) barely breaks even (measured on the
# light models' convolutions: 3.6 M took 1.5-2x longer in two parts; 28 M 1.2x faster,
# 100 M+ 1.4-1.8x). That was with OpenBLAS's AVX2 (Haswell) kernels; its AVX-512 ones
# (SkylakeX) run the products ~1.7x as fast, so the same time is twice the work
# (interleaved in one process, 2 threads, median of 80 runs, load 2.6-3.1, 16 M against
# 8 M: SqueezeNet 11.70 -> 9.33 ms wall, 11.16 -> 9.16 CPU; DenseNet-121 134.9 -> 130.1
# wall, 72.5 -> 69.8 CPU). Picked by the kernels NumPy's BLAS runs (blas.column_unit)
NARROW_MIN_WORK = 1 << 23
WIDE_MIN_WORK = 1 << 24
MIN_WORK = None  # a number overrides the choice (tests: 1, to split everything)


def min_work() -> int:
    """A part's least work: MIN_WORK if set, else by the BLAS kernels (blas.column_unit,
    read once)."""
    if MIN_WORK is not None:
        return MIN_WORK
    return WIDE_MIN_WORK if blas.column_unit() == 16 else NARROW_MIN_WORK


def worth(work: int) -> int:
    """How many parts to split `work` units (multiply-adds, or elements copied) into: 1
    when there is one thread or the work is too small to pay for waking a worker."""
    n = current()
    least = min_work()
    if n <= 1 or work < least:
        return 1
    return min(n, max(1, work // least))


def parallel(part, n_parts: int) -> None:
    """Run part(i) for i in range(n_parts), on this thread and the pool's; return when
    every part has run. The first exception a part raises is raised here (after every
    part started has finished)."""
    n = current()
    if n_parts <= 1 or n <= 1:
        for i in range(n_parts):
            part(i)
        return
    _pool(n - 1).run(part, n_parts, n - 1)


class _Job:
    """One call of `parallel`: parts taken from a shared counter; the caller sleeps on
    `finished` (a lock it holds) until the last part is done. Workers run the parts in
    a copy of the caller's context (NumPy's error state, the threads setting: a part
    that splits again finds the pool busy and runs its parts alone)."""

    __slots__ = ("part", "count", "taken", "done", "error", "finished", "context")

    def __init__(self, part, count: int):
        self.part = part
        self.count = count
        self.taken = itertools.count()  # next() is atomic under the GIL
        self.done = itertools.count(1)  # (a lock would cost more)
        self.error = None
        self.finished = threading.Lock()
        self.finished.acquire()
        self.context = contextvars.copy_context()

    def work(self, caller: bool = False) -> None:
        """Take parts until none is left."""
        run = None if caller else self.context.copy().run  # (one context per thread)
        while True:
            i = next(self.taken)
            if i >= self.count:
                return
            try:
                if run is None:
                    self.part(i)
                else:
                    run(self.part, i)
            except BaseException as e:  # noqa: BLE001  (raised again in the caller)
                if self.error is None:
                    self.error = e
            if next(self.done) == self.count:
                self.finished.release()


class _Pool:
    def __init__(self):
        self.busy = threading.Lock()  # one job at a time; a second caller runs alone
        self.wake: list = []  # per worker: a lock it sleeps on, released to wake it
        self.job = None
        self.cpus = None  # the caller's CPUs when `placed` last kept it off the workers'

    def grow(self, n: int) -> None:
        while len(self.wake) < n:
            lock = threading.Lock()
            lock.acquire()
            self.wake.append(lock)
            # (the CPUs before `placed` kept the caller off some: a new thread has its mask)
            cpus = _cpus(self.cpus)
            cpu = cpus[len(self.wake) % len(cpus)]
            threading.Thread(target=self._worker, args=(lock, cpu), daemon=True,
                             name=f"shape_logic-worker-{len(self.wake)}").start()

    def _worker(self, wake, cpu) -> None:
        _pin(cpu)
        while True:
            wake.acquire()  # sleeps (no spinning) until a job wakes it
            job = self.job
            if job is not None:
                job.work()

    def run(self, part, n_parts: int, helpers: int) -> None:
        if not self.busy.acquire(blocking=False):
            for i in range(n_parts):
                part(i)
            return
        try:
            job = self.job = _Job(part, n_parts)
            for lock in self.wake[:min(helpers, n_parts - 1)]:
                if lock.locked():  # (a worker still finishing the last job's loop is
                    lock.release()  # woken by the release it has not taken yet)
            job.work(caller=True)
            job.finished.acquire()  # the parts a worker took are done
            self.job = None
        finally:
            self.busy.release()
        if job.error is not None:
            raise job.error


def _cpus(known=None) -> list:
    """The calling thread's CPUs, sorted (or `known`)."""
    if known is not None:
        return known
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [None]


def _pin(cpu) -> None:
    """Keep a worker on one CPU (worker k on the k-th of the caller's, k = 1, 2, ...):
    woken while another process runs there, it waits for that CPU instead of joining
    the caller's, where the two would take turns (the scheduler wakes a thread on its
    waker's CPU when the others are busy) and the caller's own part would take twice
    as long."""
    if cpu is not None:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setaffinity(0, {cpu})


_placed = threading.Lock()  # one caller at a time is kept off the workers' CPUs


@contextlib.contextmanager
def placed():
    """While a run splits work over the threads: keep the calling thread off the CPUs
    its workers are kept on (`_pin`), restoring its CPUs after. Only one caller at a
    time (a second concurrent run stays where it is)."""
    n = current()
    cpus = _cpus()
    if n <= 1 or len(cpus) < 2 or None in cpus or not _placed.acquire(blocking=False):
        yield
        return
    try:
        if _the_pool.cpus is None:
            _the_pool.cpus = cpus
        own = set(cpus) - set(cpus[1:n])
        try:
            os.sched_setaffinity(0, own)
        except OSError:
            own = None
        try:
            yield
        finally:
            if own is not None:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(0, set(cpus))
    finally:
        _placed.release()


_the_pool = _Pool()
_grow_lock = threading.Lock()


def _pool(helpers: int) -> _Pool:
    if len(_the_pool.wake) < helpers:
        with _grow_lock:
            _the_pool.grow(helpers)
    return _the_pool
