"""Running a graph on NumPy arrays: `shape_logic.run(graph, {"x": array})` (INTERFACE §6).

    outputs = shape_logic.run("graph.json", {"x": x})   # {output name: array}
    program = Program("model.onnx")                      # solve once ...
    outputs = program.run({"x": x}, profile=True)        # ... run many times

A run (1) solves the graph's shapes, (2) checks the inputs - names, dtypes and ranks
(`BadInput`, exit 2) - and binds their symbols, (3) closes the shapes: every symbol the
inputs leave open is resolved by solving again with the inputs' concrete shapes (and
small integer inputs' values); a symbol still open then is data-dependent (NonZero's
count) and is bound when its tensor appears, (4) runs the nodes in topological order,
freeing each intermediate after its last use and checking every tensor against its
inferred shape (`match_cast`).  Shape mismatches and kernel failures raise
`ExecutionError` (exit 1) with one line naming the tensor or node.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np

from .errors import InputError
from .exec_rewrite import (
    assign_frees,
    drop_unused_constants,
    fold_constants,
    fuse_batchnorm_affine,
    fuse_conv_add,
    fuse_conv_batchnorm,
    fuse_conv_relu,
    pool_after_relu,
    push_conv_bias,
)
from .exec_branches import Group, branch_groups, run_group
from .exec_concat import chain_concats
from .exec_fold import scale_into_conv
from .exec_shuffle import fuse_conv_shuffle
from .exec_feeds import BadInput, feed_key, small_int_bytes, typed_input
from .exec_plan import Plan, closed_plan, diagnostic_line as _diagnostic_line
from .exec_shape_values import record_step, skipped_in
from .exec_step import StepRunner
from .graph import NUMPY_DTYPES, Graph
from .kernels import KernelError, graph_kernel
from .kernels.base import Seq
from .kernels.run_threads import AUTO, run_threads
from .load import load_graph
from .match_cast import Binder, ExecutionError, Expected, ShapeMismatch
from .validate import validate

__all__ = ["BadInput", "ExecutionError", "Program", "RunResult", "ShapeMismatch", "run"]

class RunResult(dict):
    """{output name: array}, with what the run learned:
    `bindings` every symbol's value, `data_dependent` the symbols that only the data
    decided (their values), `unchecked` dims no binding could decide, and `profile`."""

    bindings: dict
    data_dependent: dict
    unchecked: list
    profile: Any = None


@dataclasses.dataclass
class Step:
    node: Any
    kernel: Any
    origins: list  # per output: 'output k of Op node "name"'
    free: list  # tensors whose last use is this step
    aliases: list = dataclasses.field(default_factory=list)  # per output: [(tensor, origin)]
    # of tensors a rewrite left unmade whose shape is this output's: checked with it; or
    # (tensor, origin, shape): its dtype is the output's, its shape this one (exec_shuffle)


def run(graph, inputs: dict, check: bool = True, profile: bool = False,
        threads: int | None = None, blas_threads: int | str | None = AUTO,
        **kwargs) -> RunResult:
    """Execute `graph` (a path, dict, Graph or onnx.ModelProto) on `inputs`."""
    return Program(graph, check=check, threads=threads, blas_threads=blas_threads).run(
        inputs, profile=profile, **kwargs)


class Program:
    def __init__(self, source, check: bool = True, rules=(), threads: int | None = None,
                 blas_threads: int | str | None = AUTO):
        """`threads`: how many threads a run may use, this one included (None: the CPUs
        the process may use, 1: none but this one). `blas_threads`: "auto" (the default)
        gives them to NumPy's BLAS when the machine is quiet, else to our parts of a
        node's work (kernels/run_threads.py); a number keeps BLAS at that many inside
        each of our parts (1: nothing spins; None: as configured)."""
        self.graph: Graph = load_graph(source)
        order = validate(self.graph)
        self.check = check
        self.threads = threads
        self.blas_threads = blas_threads
        self.rules = rules
        self.solution = None
        if check:
            from .solver import solve

            self.solution = solve(self.graph, rules=rules)
            if self.solution.status == "error":
                raise ExecutionError(_diagnostic_line(self.solution))
            # (the graph as solved: an ONNX model's declared outputs that would narrow its
            # inputs are set aside there, narrowing.py, and closing the symbols must too)
            self.graph = self.solution.graph
        self.outputs = _output_names(self.graph)
        self.constants = {}
        for name, info in self.graph.initializers.items():
            if info.data is None:
                raise InputError(f"initializer {name!r} has no data to run with",
                                 self.graph.path, info.place)
            self.constants[name] = np.asarray(info.data)
        self.steps = self._steps(order)
        self.folded: dict[str, str] = {}  # tensor computed once from constants -> origin
        self._rewrite()
        self._plans: dict = {}

    # ----- building
    def _steps(self, order) -> list[Step]:
        steps = []
        for node in order:
            origins = [f'output {k} of {node.op} node "{node.name}"'
                       for k in range(len(node.outputs))]
            steps.append(Step(node, graph_kernel(self.graph, node), origins, []))
        return steps

    def _rewrite(self):
        """Constant folding, fusions, freeing (exec_rewrite.py)."""
        outputs = set(self.outputs)
        self.steps = fold_constants(self.steps, self.constants, self.folded,
                                    lambda node, args, e: ExecutionError(
                                        _kernel_failure(node, args, e)))
        self.steps = fuse_batchnorm_affine(self.steps, self.constants, outputs, self._rank)
        self.steps = fuse_conv_batchnorm(self.steps, self.constants, outputs)
        self.steps = fuse_conv_relu(self.steps, outputs)
        self.steps = fuse_conv_shuffle(self.steps, self.constants, outputs, self._concrete)
        self.steps = push_conv_bias(self.steps, self.constants, outputs)
        self.steps = fuse_conv_add(self.steps, outputs, self._concrete)
        self.steps = fuse_conv_relu(self.steps, outputs)  # a Relu after a fused Add
        self.steps = pool_after_relu(self.steps, outputs)
        self.steps = chain_concats(self.steps, self._concrete)
        self.steps = scale_into_conv(self.steps, self.constants, outputs)
        assign_frees(self.steps, outputs)
        drop_unused_constants(self.steps, self.constants, outputs)
        self.items = branch_groups(self.steps, self.constants, outputs, self._cost)

    def _cost(self, step) -> int:
        """A step's work, roughly: its output's elements, times a Conv's or Gemm's
        multiply-adds per output element (to run the longest branch first)."""
        dims = self._concrete(step.node.outputs[0]) if step.node.outputs[0] else None
        size = int(np.prod(dims)) if dims else 1
        w = self.constants.get(step.node.inputs[1]) if len(step.node.inputs) > 1 else None
        if step.node.op in ("Conv", "Gemm", "MatMul") and w is not None and w.ndim:
            size *= max(1, w.size // max(1, w.shape[0]))
        return size

    def _concrete(self, tensor: str) -> tuple | None:
        """The solved dims of `tensor` as ints, or None (not solved, or not all known)."""
        dims = self.solution.dims(tensor) if self.solution else None
        if dims is None or not all(e.is_int for e in dims):
            return None
        return tuple(e.value for e in dims)

    def _rank(self, tensor: str) -> int | None:
        dims = self.solution.dims(tensor) if self.solution else None
        return None if dims is None else len(dims)

    # ----- inputs
    def _feeds(self, inputs: dict) -> dict[str, np.ndarray]:
        g = self.graph
        # an optional input not given is empty (None)
        missing = [n for n in g.inputs if n not in inputs and not g.inputs[n].optional]
        extra = [n for n in inputs if n not in g.inputs]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing input(s) {', '.join(map(repr, missing))}")
            if extra:
                parts.append(f"unknown input(s) {', '.join(map(repr, extra))} (the graph's "
                             f"inputs: {', '.join(map(repr, g.inputs)) or 'none'})")
            raise BadInput("; ".join(parts), g.path)
        feeds = {n: None for n in g.inputs if inputs.get(n) is None}  # (empty optionals)
        for name, value in inputs.items():
            if value is None:
                if g.inputs[name].optional:
                    continue
                raise BadInput(f"input {name!r} is None: only an optional input may be empty",
                               g.path)
            want = g.inputs[name].dtype or (self.solution.dtype(name) if self.solution else None)
            if g.inputs[name].sequence or type(value) is Seq:  # (Seq: a body's outer value)
                if not isinstance(value, (list, tuple)):
                    raise BadInput(f"input {name!r} is a sequence: give a list of arrays (on "
                                   "the command line, a .npz of its elements 0, 1, ...)", g.path)
                feeds[name] = Seq((typed_input(f"{name!r}[{k}]", v, want, g.path)
                                   for k, v in enumerate(value)),
                                  elem=NUMPY_DTYPES.get(want))  # (an empty one's type)
                continue
            arr = typed_input(repr(name), value, want, g.path)
            dims = self.solution.dims(name) if self.solution else None
            if dims is not None and len(dims) != arr.ndim:
                raise BadInput(f"input {name!r}: shape {list(arr.shape)} has rank {arr.ndim}, "
                               f"the graph wants rank {len(dims)} "
                               f"({self.solution.shape(name)})", g.path)
            feeds[name] = arr
        return feeds

    # ----- closing the shapes
    def _plan(self, feeds: dict, binder: Binder) -> Plan:
        sol = self.solution
        key = tuple((n, feed_key(a)) if type(a) is Seq or a is None else
                    (n, a.shape, a.dtype.str, small_int_bytes(a))
                    for n, a in sorted(feeds.items()))
        plan = self._plans.get(key)
        if plan is not None:  # inputs of these shapes were checked: what they bound
            binder.bindings.update(plan.input_bindings)
            binder.unchecked.extend(plan.input_unchecked)
            return plan
        for name, arr in feeds.items():  # (Binder.check passes an empty optional by)
            binder.check(name, "input", Expected.of(sol.dims(name), None,
                                                    length=sol.length(name)), arr)
        plan = closed_plan(self.graph, sol, self.rules, feeds, binder.bindings)
        plan.input_bindings, plan.input_unchecked = dict(binder.bindings), list(binder.unchecked)
        self._plans[key] = plan  # (whole before another thread's run can find it)
        return plan

    # ----- running
    def run(self, inputs: dict, profile: bool = False, warmup: int = 2,
            repeat: int = 1) -> RunResult:
        feeds = self._feeds(inputs)
        binder = Binder()
        plan = self._plan(feeds, binder) if self.check else None
        with run_threads(self.threads, self.blas_threads):
            return self._run(feeds, binder, plan, profile, warmup, repeat)

    def _run(self, feeds, binder, plan, profile, warmup, repeat) -> RunResult:
        prof = None
        if profile:
            from .profile import Profile

            for _ in range(warmup):
                self._execute(feeds, Binder(dict(binder.bindings)), plan, None)
            prof = Profile()
            for _ in range(max(repeat - 1, 0)):
                self._execute(feeds, Binder(dict(binder.bindings)), plan, prof)
        env = self._execute(feeds, binder, plan, prof)
        result = RunResult((name, env[name]) for name in self.outputs)
        result.bindings = dict(binder.bindings)
        opened = plan.open_symbols if plan else set()
        result.data_dependent = {s: binder.bindings.get(s) for s in sorted(opened)}
        result.unchecked = list(binder.unchecked)
        if prof is not None:
            prof.finish(repeat, result.data_dependent)
        result.profile = prof
        return result

    @staticmethod
    def _failure(node, args, e) -> ExecutionError:
        return ExecutionError(_kernel_failure(node, args, e))

    def _execute(self, feeds: dict, binder: Binder, plan: Plan | None, prof) -> dict:
        env = dict(self.constants)
        env.update(feeds)
        expected = plan.expected if plan else {}
        if plan is None or not plan.folded_checked:  # (computed at build time)
            for t, origin in self.folded.items():
                if t in expected and t in env:
                    binder.check(t, origin, expected[t], env[t])
            # checked once per plan where no check binds a symbol (BERT's 64 folded
            # Constants: ~0.1 ms of each ~1 ms run)
            if plan is not None:
                plan.folded_checked = all(expected[t].concrete for t in self.folded
                                          if t in expected)
        skips, record = skipped_in(plan, self.items, self.constants, self.outputs, env)
        start = time.perf_counter()
        with np.errstate(all="ignore"):
            run_step = StepRunner(env, binder, expected, plan.checks if plan else {}, prof,
                                  self._failure)
            for item in self.items:
                if isinstance(item, Group) and not skips.intersection(map(id, item.steps)):
                    run_group(item, run_step, env)  # independent branches (exec_branches.py)
                else:  # (a group with a plan's values: its steps one after the other)
                    for step in item.steps if isinstance(item, Group) else (item,):
                        if id(step) not in skips:
                            run_step(step, None)
                        elif record is not None:
                            run_step(step, None)
                            record_step(step, env, record, skips)
                        elif prof is not None:  # (its outputs' values are the plan's)
                            prof.add(step.node, 0.0, 0.0)
                for t in item.free:
                    env.pop(t, None)
        if record is not None:  # (the steps this run did not drop, and their values)
            plan.skips, plan.values = skips, record
        if prof is not None:
            prof.add_run(time.perf_counter() - start)
        return env


def _output_names(graph: Graph) -> list[str]:
    """The declared outputs; without any, the node outputs no node uses."""
    if graph.outputs:
        return list(graph.outputs)
    used = {t for n in graph.nodes for t in n.inputs}
    return [t for n in graph.nodes for t in n.outputs if t and t not in used]


def _kernel_failure(node, args, e: Exception) -> str:
    msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    prefix = f"{node.op}: "
    if msg.startswith(prefix):
        msg = msg[len(prefix):]
    elif not isinstance(e, KernelError):
        msg = f"{type(e).__name__}: {msg}"
    shapes = ", ".join("absent" if a is None else f"{t} {_described(a)}"
                       for t, a in zip(node.inputs, args))
    return f'{node.op} node "{node.name}": {msg} (inputs: {shapes or "none"})'


def _described(a) -> str:
    """An input's shape and dtype in a message (a sequence's elements')."""
    if a is None:
        return "empty optional"
    if type(a) is Seq:
        return "sequence of " + (", ".join(f"{list(e.shape)} {e.dtype}" for e in a) or "none")
    return f"{list(a.shape)} {a.dtype}"
