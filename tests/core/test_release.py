"""asp/release.py frees grounded controls off the solve's path: each is dropped, on the
background thread, and a solve still gives its answer when its control is released."""
import threading
import time

import shape_logic
from shape_logic.asp.release import release


class Owner:
    """Stands for a control: records where its last reference went."""

    freed_on: list = []

    def __del__(self):
        Owner.freed_on.append(threading.current_thread().name)


def test_a_released_object_is_dropped_on_the_background_thread():
    Owner.freed_on.clear()
    for _ in range(3):
        release(None)  # nothing to release: no effect (a solve may have none left)
        release(Owner())
    deadline = time.monotonic() + 10
    while len(Owner.freed_on) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert Owner.freed_on == ["shape-logic-release"] * 3


def test_solving_many_graphs_releases_each_control_and_answers_the_same():
    graph = {"inputs": {"x": {"dtype": "f32", "shape": "[n, 3]"}},
             "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}]}
    shapes = {shape_logic.solve(graph).shape("y") for _ in range(20)}
    assert shapes == {"[n, 3]"}


def test_an_object_its_caller_still_holds_is_dropped_on_the_background_thread():
    # the caller holds its argument until release returns; with the thread quick enough
    # to take it first (switching threads every microsecond here; seen on a loaded
    # machine in this file's first test), the caller dropped the last reference, and
    # clingo would free the control on the caller's thread: 5 of 3000 times
    import sys

    Owner.freed_on.clear()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(3000):
            release(Owner())
    finally:
        sys.setswitchinterval(interval)
    deadline = time.monotonic() + 20
    while len(Owner.freed_on) < 3000 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert Owner.freed_on == ["shape-logic-release"] * 3000

