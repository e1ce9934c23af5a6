"""A run's threads go to BLAS on a quiet machine and to our parts on a busy one
(kernels/run_threads.py)."""
import threading

import pytest
from threadpoolctl import threadpool_limits

from shape_logic.kernels import blas
from shape_logic.kernels import run_threads as rt
from shape_logic.kernels import workers


def blas_now() -> list:
    """The threads of the BLAS libraries the run sets: those loaded when it first set one
    (NumPy's; one another test's import loads later, scipy's or torch's, is not ours)."""
    return [i["num_threads"] for i in blas._controller().info() if i["user_api"] == "blas"]


def inside(threads, blas=rt.AUTO) -> tuple:
    """(our threads, BLAS's threads) within one run's context."""
    with rt.run_threads(threads, blas):
        return workers.current(), blas_now()


@pytest.fixture(autouse=True)
def each_run_reads(monkeypatch):
    monkeypatch.setattr(rt, "RECHECK", 0.0)  # (no answer taken from an earlier test)


@pytest.fixture
def two_cpus(monkeypatch):
    monkeypatch.setattr(workers, "available", lambda: 2)


@pytest.mark.parametrize("others, ours, blas", [(0, 1, 2), (1, 2, 1), (None, 2, 1)])
def test_the_machine_decides_who_gets_the_threads(monkeypatch, two_cpus, others, ours, blas):
    """Quiet (no other process's thread running): BLAS gets both threads and our parts
    none; one running elsewhere, or not knowing: our parts get them, BLAS one."""
    monkeypatch.setattr(rt, "others_running", lambda proc="/proc": others)
    with threadpool_limits(limits=1, user_api="blas"):
        got = inside(None)
        assert blas_now() == [1] * len(got[1])  # (restored after the run)
    assert got == (ours, [blas] * len(got[1]))


def test_a_number_of_blas_threads_is_kept_whatever_the_load(monkeypatch, two_cpus):
    monkeypatch.setattr(rt, "others_running", lambda proc="/proc": 0)
    ours, blas = inside(None, 1)
    assert ours == 2 and blas == [1] * len(blas)
    with threadpool_limits(limits=2, user_api="blas"):
        assert inside(None, None) == (2, blas_now())  # None: as configured
    assert inside(1) == (1, [1] * len(blas))  # one thread: nothing to give


def test_a_second_run_at_once_keeps_to_our_parts(monkeypatch, two_cpus):
    """While one run of the process has made its choice, another gets our parts (two
    runs each giving BLAS every CPU would oversubscribe them)."""
    monkeypatch.setattr(rt, "others_running", lambda proc="/proc": 0)
    entered, leave, seen = threading.Event(), threading.Event(), []

    def first():
        with rt.run_threads(None):
            seen.append(workers.current())
            entered.set()
            leave.wait(10)

    t = threading.Thread(target=first)
    t.start()
    try:
        assert entered.wait(10)
        seen.append(inside(None)[0])
    finally:
        leave.set()
        t.join()
    assert seen == [1, 2]


def fake_proc(tmp_path, loadavg: str, states: list) -> str:
    (tmp_path / "loadavg").write_text(loadavg)
    for i, state in enumerate(states):
        task = tmp_path / "self" / "task" / str(100 + i)
        task.mkdir(parents=True)
        # a thread's name may hold ") R" itself: the state follows the last ")"
        task.joinpath("stat").write_text(f"{100 + i} (py ) R x) {state} 1 2 3\n")
    return str(tmp_path)


def test_others_running_is_the_runnable_count_less_our_own(tmp_path):
    proc = fake_proc(tmp_path, "0.52 0.58 0.59 4/394 12345\n", ["R", "S", "R", "D"])
    assert rt.others_running(proc) == 2
    assert rt.quiet(2, proc) is (workers.available() - 2 >= 2)


def test_others_running_when_the_kernel_does_not_say(tmp_path):
    assert rt.others_running(str(tmp_path)) is None  # no loadavg (not Linux)
    assert not rt.quiet(1, str(tmp_path))
    proc = fake_proc(tmp_path, "garbled\n", ["R"])
    assert rt.others_running(proc) is None


def test_the_reading_thread_counts_as_ours(tmp_path):
    """The kernel counts the thread reading loadavg as runnable: with no thread of ours
    seen running (it went to sleep between the two readings), it is still ours."""
    assert rt.others_running(fake_proc(tmp_path, "0 0 0 1/50 7\n", ["S"])) == 0


def test_a_run_soon_after_takes_the_last_answer(monkeypatch, two_cpus):
    """Runs of a small graph in a loop read the machine once per RECHECK seconds."""
    readings = []
    monkeypatch.setattr(rt, "others_running", lambda proc="/proc": readings.append(0) or 0)
    monkeypatch.setattr(rt, "RECHECK", 60.0)
    monkeypatch.setattr(rt, "_last", (None, None, 0.0, False))
    assert [inside(None)[0] for _ in range(3)] == [1, 1, 1] and readings == [0]
    inside(3)  # another count of threads: read again
    assert readings == [0, 0]
