"""Time limits: a solve that runs past its budget stops with the phase and what grew most.

Grounding is clingo's C code; it comes back to Python at every @-call, where
`Deadline.check` raises `Expired` (clingo then abandons the grounding). A
grounding that makes no @-calls is stopped by the command's watchdog
(`watchdog`), which prints the same line and exits. Solving is asynchronous and
cancelled when the budget is spent. Exit status 3 (INTERFACE §3 extended):
neither a shape error (1) nor an unreadable input (2) - the answer is unknown.
"""
from __future__ import annotations

import os
import re
import sys
import threading
import time
from pathlib import Path

DEFAULT_TIMEOUT = 60.0  # seconds, for `solve` and `check`
EXIT_TIMEOUT = 3


class TimeLimit(Exception):
    """The solve ran past its time budget (exit 3)."""

    def __init__(self, seconds: float, phase: str, contributors: list[str] | None = None):
        self.seconds, self.phase, self.contributors = seconds, phase, contributors or []
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"time limit of {self.seconds:g} s reached while {self.phase}"
        if self.contributors:
            text += "; largest: " + ", ".join(self.contributors)
        return text + " (raise it with --timeout SECONDS)"


class Expired(Exception):
    """Raised inside an @-call to make clingo abandon the grounding."""


class Abandoned(Exception):
    """Raised inside an @-call when an optional grounding (alternatives, explaining) spent
    its allowance of computations: the caller does without it."""


ALLOWANCE_FACTOR = 10  # computations per computation of the graph's own solve


def allowance(spent: int) -> int:
    """The computations a grounding beyond the graph's own solve may make: a bounded
    multiple of what that solve made (`spent`). Those groundings compute without the
    bindings known so far (cases of alternatives, or sources that are assumptions), and
    on an inconsistent graph that can run without end (ASP-NOTES §2)."""
    return ALLOWANCE_FACTOR * spent + 2000


class Deadline:
    """A budget of seconds from creation; `phase` says what the solver is doing."""

    def __init__(self, seconds: float | None, clock=time.monotonic):
        self.seconds = seconds
        self.clock = clock  # time.process_time for a CPU budget (a fuzzer under `nice`)
        self.end = None if seconds is None else clock() + seconds
        self.phase = "loading"
        self.expired_in: str | None = None

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - self.clock())

    def check(self):
        """Called from @-functions while grounding: stop once the budget is spent."""
        if self.end is not None and self.clock() > self.end:
            self.expired_in = self.phase
            raise Expired()

    def expired(self) -> bool:
        return self.end is not None and self.clock() > self.end


_NO_LIMIT = Deadline(None)
_current: list[Deadline] = [_NO_LIMIT]


def current() -> Deadline:
    """The budget in force (none unless a command or `solve(timeout=...)` set one)."""
    return _current[-1]


class budget:
    """`with budget(seconds):` - everything solved inside shares one time budget (the
    tighter one when nested). `None` adds no limit."""

    def __init__(self, seconds: float | None, clock=time.monotonic):
        outer = current()
        if seconds is None:
            self.deadline = outer
        else:
            if seconds <= 0:
                raise ValueError("the time limit must be positive")
            inner = Deadline(seconds, clock)
            tighter = outer.end is None or outer.clock is not clock or inner.end < outer.end
            self.deadline = inner if tighter else outer

    def __enter__(self) -> Deadline:
        _current.append(self.deadline)
        return self.deadline

    def __exit__(self, *exc):
        _current.pop()
        return False


def stop_if_expired(phase: str):
    """Between solver calls (explaining): raise TimeLimit once the budget is spent."""
    d = current()
    d.phase = phase
    if d.expired():
        raise TimeLimit(d.seconds, phase)


def largest_contributors(ctl, rule_files, top: int = 3, cap: int = 100_000,
                         seconds: float = 2.0) -> list[str]:
    """The predicates with most ground atoms so far, each with the file that defines it.
    Counting is slow in Python (~10 us an atom): each count stops at `cap` ("100000+"),
    and the whole at `seconds` - the rule files' own predicates are counted first."""
    counts = []
    stop = time.monotonic() + seconds
    owner = _owners(rule_files)
    try:
        # the graph's own facts (node/2, input/3...) grow with it and tell nothing
        signatures = sorted((sig for sig in ctl.symbolic_atoms.signatures
                             if sig[0] in owner and sig[0] not in _INPUT),
                            key=lambda sig: not owner[sig[0]].endswith(".lp"))
        for name, arity, _ in signatures:
            n = 0
            for _ in ctl.symbolic_atoms.by_signature(name, arity):
                n += 1
                if n >= cap:
                    break
            counts.append((n, name, arity))
            if time.monotonic() > stop:
                break
    except RuntimeError:
        return []
    counts.sort(reverse=True)
    return [f"{name}/{arity} {n}{'+' if n >= cap else ''} atoms ({owner[name]})"
            for n, name, arity in counts[:top] if n]


_INPUT = {"tensor", "node", "op", "input", "output", "ninputs", "noutputs", "attr", "attr_len",
          "attr_char", "has_attr", "attr_dtype", "attr_rank", "attr_dim", "attr_value", "opset"}


def _owners(rule_files) -> dict[str, str]:
    """Predicate name -> the rule file whose rule heads define it."""
    out: dict[str, str] = {}
    head = re.compile(r"^([a-z_][A-Za-z0-9_]*)\s*\(", re.M)
    for rf in rule_files:
        for m in head.finditer(rf.text):
            out.setdefault(m.group(1), str(Path(rf.path).name))
    for core in ("dim", "rank", "dtype", "value", "same_dim", "same_rank", "same_dtype",
                 "same_shape", "same_value", "invalid", "equal", "conflict", "bind", "eqn",
                 "valued", "numel", "broadcast"):
        out[core] = "encodings/ and rule files"
    return out


def watchdog(deadline: Deadline, grace: float = 5.0) -> threading.Event | None:
    """For the command line: when the in-solver checks cannot stop a grounding (a stretch
    without @-calls), print the one line and exit with status 3 `grace` seconds after the
    budget. Set the returned event when the command is done."""
    if deadline.end is None:
        return None
    done = threading.Event()

    def watch():
        if done.wait(deadline.end + grace - time.monotonic()):
            return
        print(f"shape-logic: {TimeLimit(deadline.seconds, deadline.phase)}", file=sys.stderr,
              flush=True)
        os._exit(EXIT_TIMEOUT)

    threading.Thread(target=watch, daemon=True, name="shape-logic-watchdog").start()
    return done
