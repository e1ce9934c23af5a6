"""Running one step of a run: its kernel, then the shape checks of what it made.

Every output is checked against its inferred shape (match_cast), and so is every tensor
a rewrite left unmade in its place (a step's `aliases`: a fused Conv's own output, the
tensors of a fused channel shuffle). Which checks a step needs depends only on the plan
(the expected shapes for one signature of input shapes), so they are worked out once per
plan and step (`compile_checks`):

- an output whose expected shape is concrete is checked by one tuple and one dtype
  comparison, in line; only a mismatch (or a symbolic shape, which binds symbols) goes
  through `Binder.check`, which raises with the whole message;
- an alias whose expected shape and dtype are the concrete ones its output was checked
  against is checked by that check: it is dropped (a Conv with a Relu and a BN fused in
  had three checks of one array); a shape a rewrite recorded (exec_shuffle: the
  Reshape -> Transpose -> Reshape in between) is compared once, when compiled, and then
  only the dtype, as its output's.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from .exec_rewrite import give_outer


@dataclasses.dataclass
class Shaped:
    """What a shape check reads of an array, for a tensor a rewrite left unmade."""

    shape: tuple
    dtype: np.dtype


def compile_checks(step, expected: dict) -> tuple[list, list]:
    """(outputs, aliases): [(index, tensor, origin, Expected or None)] for the outputs
    to store (None: nothing to check), [(index, tensor, origin, Expected, shape or None)]
    for the aliases still to check."""
    outs = []
    own = {}  # output index -> its concrete Expected (what its check establishes)
    for k, (t, origin) in enumerate(zip(step.node.outputs, step.origins)):
        if t:
            exp = expected.get(t)
            outs.append((k, t, origin, exp))
            if exp is not None and exp.concrete and exp.dtype is not None:
                own[k] = exp
    aliases = []
    for k, pairs in enumerate(step.aliases):
        for t, origin, *shape in pairs:
            exp = expected.get(t)
            if exp is None:
                continue
            o = own.get(k)
            if o is not None and exp.concrete and exp.dtype == o.dtype and \
                    (tuple(shape[0]) if shape else o.dims) == exp.dims:
                continue  # the output's own check is this one
            aliases.append((k, t, origin, exp, tuple(shape[0]) if shape else None))
    return outs, aliases


class StepRunner:
    """Runs one step: its kernel, then the checks of what it made (under `lock` when
    branches run at the same time); its profile times. `checks`: the plan's compiled
    checks (id(step) -> compile_checks), filled as steps first run; `failure(node,
    args, exc)` makes the error for a kernel that fails."""

    def __init__(self, env, binder, expected, checks: dict, prof, failure):
        self.env, self.binder, self.expected, self.prof = env, binder, expected, prof
        self.checks, self.failure = checks, failure

    def __call__(self, step, lock) -> None:
        env, prof = self.env, self.prof
        node = step.node
        args = [env[t] if t else None for t in node.inputs]
        if prof is not None:  # in a branch: this thread's CPU (the other branch's is not
            clock = time.process_time if lock is None else time.thread_time  # this node's)
            t0, c0 = time.perf_counter(), clock()
        give_outer(step.kernel, env)
        try:
            outs = step.kernel(*args)
        except Exception as e:  # noqa: BLE001  (any kernel failure: one line naming
            # the node and op, never a NumPy traceback)
            raise self.failure(node, args, e) from None
        if prof is not None:
            prof.add(node, time.perf_counter() - t0, clock() - c0)
        compiled = self.checks.get(id(step))
        if compiled is None:  # (two branches compiling one step at once: equal results)
            compiled = self.checks[id(step)] = compile_checks(step, self.expected)
        if lock is None:
            self.store(compiled, outs)
        else:
            with lock:
                self.store(compiled, outs)

    def store(self, compiled, outs) -> None:
        env, check = self.env, self.binder.check
        checked, aliases = compiled
        n = len(outs)
        for k, t, origin, exp in checked:
            if k >= n:  # (a kernel giving fewer outputs: as zip, the ones it gave)
                break
            arr = outs[k]
            env[t] = arr
            if exp is None or arr is None or (exp.concrete and arr.shape == exp.dims and
                               (exp.dtype is None or arr.dtype == exp.dtype)):
                continue  # (in line: the common case)
            check(t, origin, exp, arr)
        for k, t, origin, exp, shape in aliases:
            check(t, origin, exp, outs[k] if shape is None else Shaped(shape, outs[k].dtype))
