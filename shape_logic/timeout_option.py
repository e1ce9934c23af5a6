"""`--timeout SECONDS` for the commands that solve (solve, check): a budget for the whole
command, enforced inside the solver (limits.py) and, as a backstop, by a watchdog."""
from __future__ import annotations

import argparse
import contextlib

from .limits import DEFAULT_TIMEOUT, budget, watchdog


def add_timeout_argument(parser) -> None:
    parser.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"stop after this many seconds with exit status 3 "
                             f"(default {DEFAULT_TIMEOUT:g}; 0 for no limit)")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


@contextlib.contextmanager
def time_budget(args):
    """The command's budget (none for commands without --timeout, or --timeout 0)."""
    seconds = getattr(args, "timeout", None) or None
    with budget(seconds) as deadline:
        done = watchdog(deadline)
        try:
            yield deadline
        finally:
            if done is not None:
                done.set()
