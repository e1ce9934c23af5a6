"""Values the input shapes decide, made once per plan and reused by its later runs.

Exporters compute shapes at run time: Shape -> Gather -> Unsqueeze -> Concat -> Reshape,
Range and Trilu for a causal mask, Equal/Where on shape values. For one signature of
input shapes (a plan: executor.Plan) those tensors have the same values in every run, so
the first run of a plan records them and its later runs skip the steps that make them,
starting with the values (bench/hf_exec.py's models, one thread, min of 100 runs: a BERT
of hidden size 32 exported by torch skips 61 of its 144 steps, 1.72 -> 1.28 ms a run;
GPT-2 over a KV cache 48 of 151, 2.53 -> 1.57 ms; a LLaMA block 47 of 191, 2.0 -> 1.6).

A step is skipped in a plan when:
- its operator gives the same outputs for the same inputs (not exec_rewrite.NOT_FOLDED:
  Dropout, random operators) and it runs no body (a body reads tensors of its own);
- no rewrite left tensors in its place (aliases), and none of its outputs is a graph
  output (the caller gets arrays of its own);
- each output's expected shape in the plan is concrete, of at most MAX_ELEMENTS elements
  (a big tensor is cheaper to make again than to keep per plan);
- each tensor it reads is a constant or an output of a step skipped before it - or, for
  Shape and Size, which read a shape only, any tensor whose expected shape is concrete
  (not decided by the data, as NonZero's count is). An input's values are never one:
  a small integer input's are part of the plan's signature (exec_feeds.small_int_bytes),
  but what a run computes from its inputs' values it computes (token ids through a whole
  BERT would otherwise be one plan's values, the run a lookup).
A group of parallel branches with such steps runs its steps one after the other (they are
small, and a branch of them costs more to start on a thread than to run). The recorded
values are read-only copies, and nothing is checked of them in later runs: their checks
passed in the first, and a concrete expected shape binds no symbol.
"""
from __future__ import annotations

import numpy as np

from .exec_rewrite import NOT_FOLDED

# an output of more elements is made in every run
MAX_ELEMENTS = 1 << 12
# operators that read their input's shape, never its values
SHAPE_READERS = frozenset({"Shape", "Size"})


def skipped_in(plan, items, constants: dict, outputs, env: dict) -> tuple[set, dict | None]:
    """(the ids of the steps a run of `plan` skips or records, {} to record their outputs
    into on the plan's first run - None: the plan's values are in `env` now). No plan (a
    run unchecked): nothing skipped."""
    if plan is None:
        return set(), None
    if plan.skips is None:
        plan.skips = plan_skips(items, plan.expected, constants, set(outputs))
    if not plan.skips:
        return plan.skips, None
    if plan.values is None:
        return set(plan.skips), {}  # (a copy: a value that is no array drops its step)
    env.update(plan.values)
    return plan.skips, None


def record_step(step, env: dict, record: dict, skips: set) -> None:
    """A skipped step's outputs kept for the plan's later runs; a step with an output that
    is no array is run in them after all (and its id left out of this run's `skips`,
    which the plan takes with the values)."""
    kept = {t: recorded(env[t]) for t in step.node.outputs if t}
    if any(v is None for v in kept.values()):
        skips.discard(id(step))
        return
    record.update(kept)


def plan_skips(items, expected: dict, constants: dict, outputs) -> set:
    """The ids of the steps of `items` (steps and groups of branches, in order) a plan
    skips once its first run has recorded their outputs; `outputs` the graph's output
    names."""
    known = set(constants)
    skips = set()
    for step in (s for item in items for s in getattr(item, "steps", (item,))):
        node = step.node  # (a group's steps in their sequential order)
        if node.op in NOT_FOLDED or step.aliases or getattr(step.kernel, "outer_names", None):
            continue
        made = [t for t in node.outputs if t]
        if not made or any(t in outputs or not _small(expected.get(t)) for t in made):
            continue
        read = [t for t in node.inputs if t]
        if node.op in SHAPE_READERS and node.domain in ("", "ai.onnx"):
            ready = all(t in known or _concrete(expected.get(t)) for t in read)
        else:
            ready = all(t in known for t in read)
        if ready:
            skips.add(id(step))
            known.update(made)
    return skips


def recorded(value):
    """A read-only copy of a step's output to keep for a plan (a NumPy scalar as a 0-d
    array; None: not an array - a sequence - not kept: the step is not skipped after all)."""
    if type(value) is not np.ndarray and not isinstance(value, np.generic):
        return None
    kept = np.array(value, copy=True)
    kept.flags.writeable = False
    return kept


def _concrete(exp) -> bool:
    return exp is not None and exp.concrete


def _small(exp) -> bool:
    return _concrete(exp) and int(np.prod(exp.dims, dtype=np.int64)) <= MAX_ELEMENTS
