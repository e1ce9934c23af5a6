"""Progress on long work (solving a large graph, the conformance suite): a rich progress bar
on stderr, on a terminal only.

Off by default: code marks its phases with `phase("ground")` and its loops with
`steps(items, "cases")`, which cost one context-variable lookup when nobody is
watching. The CLI turns reporting on when both stdout and stderr are terminals and
the output is not `--format json`. The bar appears only once the work has taken
DELAY seconds, so quick commands print nothing extra, and it is erased when done.
"""
from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
import time

DELAY = 0.4  # seconds before the bar appears
SOLVE_PHASES = ("load", "facts", "ground", "solve", "decode", "explain")

_reporter: contextvars.ContextVar = contextvars.ContextVar("shape_logic_progress", default=None)


def on_terminal(quiet: bool = False) -> bool:
    """Whether to report: a person is watching a terminal and did not ask for JSON."""
    return not quiet and sys.stdout.isatty() and sys.stderr.isatty()


@contextlib.contextmanager
def reporting(enabled: bool):
    """Report the phases and steps of the work inside, when enabled."""
    if not enabled:
        yield
        return
    reporter = _Reporter()
    token = _reporter.set(reporter)
    try:
        yield
    finally:
        _reporter.reset(token)
        reporter.close()


@contextlib.contextmanager
def phase(name: str):
    """Mark a phase of the work (load, facts, ground, solve, decode, explain)."""
    reporter = _reporter.get()
    if reporter is None:
        yield
        return
    reporter.enter(name)
    try:
        yield
    finally:
        reporter.leave()


def steps(items, description: str):
    """Iterate over `items`, advancing a bar of len(items) when reporting."""
    reporter = _reporter.get()
    if reporter is None:
        return items
    items = list(items)
    return reporter.iterate(items, description)


class _Reporter:
    def __init__(self):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                                   TextColumn, TimeElapsedColumn)

        # rich writes to the real stderr; our own output goes through _StopOnWrite
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                 console=Console(file=sys.stderr), transient=True,
                                 redirect_stdout=False, redirect_stderr=False)
        self.streams = None  # (stdout, stderr) while the bar is shown
        self.stack: list[str] = []
        self.iterating = False  # a loop's bar is not replaced by the phases of its steps
        self.task = None
        self.lock = threading.RLock()
        self.started = False
        self.closed = False
        self.t0 = time.perf_counter()
        self.timer = threading.Timer(DELAY, self._start)
        self.timer.daemon = True
        self.timer.start()

    def _start(self):
        with self.lock:
            if not self.closed and not self.started:
                self.progress.start()
                self.started = True
                # the first thing the command prints (its result, an error) ends the bar,
                # so the bar never draws over the output nor sends it to the wrong stream
                self.streams = (sys.stdout, sys.stderr)
                sys.stdout = _StopOnWrite(sys.stdout, self)
                sys.stderr = _StopOnWrite(sys.stderr, self)

    def _describe(self, text: str, completed=None, total=None):
        if self.task is None:
            self.task = self.progress.add_task(text, total=total)
        self.progress.update(self.task, description=text, completed=completed, total=total)

    def enter(self, name: str):
        self.stack.append(name)
        if self.iterating:
            return
        # a solve's phases: the bar counts the phases passed (explaining is a sixth)
        top = self.stack[0]
        done = SOLVE_PHASES.index(top) if top in SOLVE_PHASES else 0
        self._describe(" › ".join(self.stack), completed=done, total=max(5, done + 1))

    def leave(self):
        self.stack.pop()

    def iterate(self, items, description):
        total = len(items)
        self._describe(description, completed=0, total=total)
        self.iterating = True
        try:
            for k, item in enumerate(items):
                yield item
                self._describe(description, completed=k + 1, total=total)
        finally:
            self.iterating = False

    def close(self):
        self.timer.cancel()
        with self.lock:
            self.closed = True
            if self.started:
                self.started = False
                self.progress.stop()
                out, err = self.streams
                if isinstance(sys.stdout, _StopOnWrite):
                    sys.stdout = out
                if isinstance(sys.stderr, _StopOnWrite):
                    sys.stderr = err


class _StopOnWrite:
    """A stream that closes the progress bar before the first write goes through."""

    def __init__(self, stream, reporter: _Reporter):
        self._stream = stream
        self._reporter = reporter

    def write(self, text):
        self._reporter.close()
        return self._stream.write(text)

    def __getattr__(self, name):  # isatty, fileno, flush, encoding...
        return getattr(self._stream, name)
