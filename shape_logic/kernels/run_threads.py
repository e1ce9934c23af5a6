"""How a run spends its threads: on BLAS's products when the machine is quiet, on our
own parts when another process keeps a CPU busy (`blas_threads="auto"`, the default).

    with run_threads(threads, blas):   # the executor, around each run
        ...                            # kernels read workers.current()

Two ways to use n threads, each the better one somewhere (bench/executor.py, the light
models' geometric mean to onnxruntime, both in turns in one process):

- **BLAS's** (n OpenBLAS threads, our parts 1): OpenBLAS's idle threads spin in C
  between products, so even small products split at no cost (SqueezeNet's and
  DenseNet's, which our parts leave on one thread) and its threads share the packed
  weights. On a quiet machine 1.85 against 2.04 (DenseNet-121 1.83 against 2.50,
  SqueezeNet 3.18 against 3.99; VGG19 1.73 against 1.65). But with one other process
  keeping a core busy (four of the models), 3.09 against 2.16: each product waits for a
  thread the system does not schedule, and the spinning takes the core the other
  process needs.
- **Ours** (BLAS 1 thread, our parts n: workers.py, exec_branches.py): nothing spins,
  and a worker the system does not schedule costs nothing (the caller takes its parts).

So each run looks at the machine first: when no thread of another process is running
(Linux: the kernel's count of runnable threads, /proc/loadavg's fourth field, less this
process's own, /proc/self/task/*/stat; ~20-30 us, read again after RECHECK), BLAS gets
the threads; otherwise, or where that cannot be read, or while another run of this
process is going on, our parts do. The choice is per run, and the two can round a
product's last bit differently (DESIGN.md, "The executor's threads").
"""
from __future__ import annotations

import contextlib
import os
import threading
import time

from . import workers
from .blas import blas_threads

AUTO = "auto"

# how the automatic choices went in this process, {"blas": runs, "ours": runs} (the bench
# reports them)
choices = {"blas": 0, "ours": 0}
_running = threading.Lock()  # held by the run choosing (a second one at once: our parts)


@contextlib.contextmanager
def run_threads(threads: int | None, blas: int | str | None = AUTO):
    """One run's threads: `threads` (None: the CPUs the process may use) over BLAS or our
    parts by the machine's load when `blas` is AUTO; else our parts get `threads` and BLAS
    `blas` (None: as configured)."""
    n = workers.available() if threads is None else int(threads)
    auto = blas == AUTO and n > 1
    alone = auto and _running.acquire(blocking=False)
    try:
        if alone and quiet(n):
            choices["blas"] += 1
            with blas_threads(n), workers.threads(1):
                yield
        else:
            choices["ours"] += auto
            with blas_threads(1 if blas == AUTO else blas), workers.threads(n), \
                    workers.placed():
                yield
    finally:
        if alone:
            _running.release()


def quiet(n: int, proc: str = "/proc") -> bool:
    """Whether n threads of this process would find their CPUs free now: no more
    threads of other processes running than the CPUs it may use leave beside n. Asked
    again within RECHECK seconds, the last answer (runs of a small graph in a loop)."""
    global _last
    now = time.monotonic()
    if _last[:2] == (n, proc) and now - _last[2] < RECHECK:
        return _last[3]
    others = others_running(proc)
    answer = others is not None and others <= workers.available() - n
    _last = (n, proc, now, answer)
    return answer


# the reading costs ~20-30 us (a run of a one-node graph ~85 us): a run within this many
# seconds of the last reading takes its answer
RECHECK = 0.02
_last: tuple = (None, None, 0.0, False)  # (n, proc, when, answer)


def others_running(proc: str = "/proc") -> int | None:
    """Threads of other processes running or ready to run now (None: not known here)."""
    try:
        with open(os.path.join(proc, "loadavg"), "rb") as f:
            # "0.52 0.58 0.59 3/394 12345": runnable / all, this reading thread included
            runnable = int(f.read().split()[3].split(b"/")[0])
        own = 0
        tasks = os.path.join(proc, "self", "task")
        for tid in os.listdir(tasks):
            with contextlib.suppress(OSError):  # (a thread that ended meanwhile)
                with open(os.path.join(tasks, tid, "stat"), "rb") as f:
                    stat = f.read()
                # "tid (name) S ...": the state follows the name's closing parenthesis
                end = stat.rindex(b")")
                own += stat[end + 2:end + 3] == b"R"
    except (OSError, ValueError, IndexError):
        return None
    return max(0, runnable - max(own, 1))
