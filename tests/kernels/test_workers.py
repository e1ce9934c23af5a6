"""The intra-op threads (kernels/workers.py): every part runs once, on the caller and the
pool; errors come back to the caller; one setting per thread's context; a part that
splits again, or a second caller while the pool is busy, runs its parts alone."""
import threading

import pytest

from shape_logic.kernels import workers


def test_every_part_runs_once_on_several_threads():
    seen, names = [], set()
    gate = threading.Barrier(2, timeout=10)  # two parts wait for each other: two threads

    def part(i):
        if i < 2:
            gate.wait()
        seen.append(i)
        names.add(threading.current_thread().name)

    with workers.threads(2):
        workers.parallel(part, 7)
    assert sorted(seen) == list(range(7))
    assert len(names) == 2


def test_one_thread_runs_the_parts_in_the_caller_in_order():
    seen = []
    with workers.threads(1):
        workers.parallel(lambda i: seen.append((i, threading.current_thread())), 4)
    assert seen == [(i, threading.current_thread()) for i in range(4)]


def test_default_is_one_thread_and_the_setting_is_restored():
    assert workers.current() == 1
    with workers.threads(3):
        assert workers.current() == 3
        with workers.threads(None):
            assert workers.current() == workers.available()
        assert workers.current() == 3
    assert workers.current() == 1
    with pytest.raises(ValueError):
        with workers.threads(0):
            pass


def test_the_setting_belongs_to_the_thread_that_made_it():
    seen = []
    with workers.threads(4):
        t = threading.Thread(target=lambda: seen.append(workers.current()))
        t.start()
        t.join()
    assert seen == [1]


def test_an_error_in_a_part_is_raised_in_the_caller_after_the_others():
    done = []

    def part(i):
        if i == 1:
            raise KeyError("part 1")
        done.append(i)

    with workers.threads(2), pytest.raises(KeyError, match="part 1"):
        workers.parallel(part, 5)
    assert sorted(done) == [0, 2, 3, 4]
    with workers.threads(2):  # the pool still works
        out = []
        workers.parallel(out.append, 3)
    assert sorted(out) == [0, 1, 2]


def test_a_part_that_splits_again_runs_its_parts_itself():
    seen = []

    def inner(i):
        seen.append(i)

    def outer(i):
        workers.parallel(lambda j: inner((i, j)), 3)

    with workers.threads(2):
        workers.parallel(outer, 2)
    assert sorted(seen) == [(i, j) for i in range(2) for j in range(3)]


def test_two_callers_at_once_both_finish():
    results = {}

    def caller(k):
        with workers.threads(2):
            out = []
            for _ in range(50):
                workers.parallel(out.append, 4)
            results[k] = sorted(out)

    threads = [threading.Thread(target=caller, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results == {k: sorted(list(range(4)) * 50) for k in range(3)}


def test_small_work_is_not_split():
    least = workers.min_work()
    with workers.threads(4):
        assert workers.worth(least - 1) == 1
        assert workers.worth(2 * least) == 2
        assert workers.worth(100 * least) == 4
    assert workers.worth(100 * least) == 1  # one thread


def test_least_work_by_the_blas_kernels(monkeypatch):
    """16 M multiply-adds a part with AVX-512 kernels (products ~1.7x as fast), 8 M
    else; MIN_WORK, when set, overrides."""
    from shape_logic.kernels import blas

    for unit, least in ((16, workers.WIDE_MIN_WORK), (8, workers.NARROW_MIN_WORK)):
        monkeypatch.setattr(blas, "column_unit", lambda unit=unit: unit)
        assert workers.min_work() == least
    monkeypatch.setattr(workers, "MIN_WORK", 5)
    assert workers.min_work() == 5


@pytest.mark.skipif(not hasattr(workers.os, "sched_setaffinity")
                    or len(workers._cpus()) < 2, reason="needs two CPUs and affinities")
def test_a_placed_run_keeps_off_the_workers_cpus_and_gets_its_own_back():
    """workers.placed (around a run): the caller leaves the CPUs its workers are kept on
    (each worker on one CPU, `_pin`) and has its CPUs back after; a second caller at the
    same time, and a run on one thread, stay where they are."""
    mine = set(workers._cpus())
    inside, other = [], []
    go = threading.Event()
    # (made before: a thread made during a placed run starts with the caller's CPUs)
    t = threading.Thread(target=lambda: go.wait(10) and other.append(_placed_cpus()))
    t.start()
    with workers.threads(2):
        workers.parallel(lambda i: None, 2)  # (the pool has its worker)
        with workers.placed():
            inside.append(set(workers._cpus()))
            go.set()
            t.join()
        assert set(workers._cpus()) == mine
        with workers.threads(1), workers.placed():
            assert set(workers._cpus()) == mine
    cpus = workers._the_pool.cpus
    assert inside == [set(cpus) - {cpus[1]}]
    assert other == [mine]


def _placed_cpus():
    with workers.threads(2), workers.placed():
        return set(workers._cpus())
