"""Feeding a graph's facts to clingo while they are written.

clingo releases Python's lock while it parses a text (`Control.add`), so a thread can
parse one chunk of facts while the main thread writes the next: on a large graph
writing the facts (Python) costs about a third of parsing them (C), and that third is
hidden. A graph whose facts are one chunk (up to facts.fact_chunks' 20,000 statements,
every model of bench/compare_peers) has nothing to overlap: its text is parsed in the
caller's thread (the thread's start and hand-over cost 0.3-2 ms a solve). The texts are
kept: explaining a conflict, or solving again, reuses them.
"""
from __future__ import annotations

import itertools
import queue
import threading
import time
from typing import Iterable

import clingo


def stream_facts(ctl: clingo.Control, chunks: Iterable[str],
                 part: str = "base") -> tuple[str, float]:
    """Add the texts of `chunks` to `ctl`'s program `part` as they come; (the whole text,
    the seconds spent writing it). clingo's error (RuntimeError) is raised here."""
    chunks = iter(chunks)
    t0 = time.perf_counter()
    first = next(chunks, None)
    second = next(chunks, None) if first is not None else None
    writing = time.perf_counter() - t0
    if second is None:  # one chunk (or none): nothing to overlap
        text = first or ""
        ctl.add(part, [], text)
        return text, writing
    text, more = _streamed(ctl, itertools.chain((first, second), chunks), part)
    return text, writing + more


def _streamed(ctl: clingo.Control, chunks: Iterable[str], part: str) -> tuple[str, float]:
    pending: queue.SimpleQueue = queue.SimpleQueue()
    failures: list[BaseException] = []

    def parse():
        while (text := pending.get()) is not None:
            if failures:
                continue  # (drain: the writer stops at the next chunk)
            try:
                ctl.add(part, [], text)
            except BaseException as e:  # re-raised in the caller's thread
                failures.append(e)

    worker = threading.Thread(target=parse, name="shape-logic facts", daemon=True)
    worker.start()
    written: list[str] = []
    writing = 0.0
    try:
        t0 = time.perf_counter()
        for text in chunks:
            writing += time.perf_counter() - t0
            written.append(text)
            pending.put(text)
            if failures:
                break
            t0 = time.perf_counter()
        writing += time.perf_counter() - t0
    finally:
        pending.put(None)
        worker.join()
    if failures:
        raise failures[0]
    return "".join(written), writing
