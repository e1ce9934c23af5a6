"""solve: graph -> facts -> clingo (core encodings + the rule files of its operators) -> shapes.

The program is monotone (Horn, negation only on facts, but for the rules the
grounder leaves to the solver: asp/premises.py), so switching sources off only
removes consequences: the fast mode with every source on finds every conflict there
is, and a subset of sources can be solved the same way.
"""
from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable

import clingo

from .alternatives import (alternatives_seconds, enumerate_alternatives, may_be_ambiguous,
                           open_matmuls)
from .asp.floors import Floors
from .asp.functions import Functions
from .asp.budgets import after_conflict
from .asp.premises import Stamps, held_answer
from .asp.program import (CONDITIONS_FILE, ROWS_FILE, SCOPES_FILE, VOIDS_FILE, VOIDS_PART,
                          add_program_files, core_encodings, is_shipped)
from .answer_set import Atoms, grounded_values
from .decode import decode
from .diagnosis import diagnosed
from .clingo_messages import program_error, undefined_error
from .errors import InputError
from .asp.feed import stream_facts
from .scopes import is_scoped, scope_warnings, split_conflicts, unscoped_name
from .facts import declares_rows, fact_chunks, graph_facts
from .floor_prefix import prefix_floors
from .floor_rounds import answer_under, under_floors
from .graph import Graph
from .limits import (Abandoned, Expired, TimeLimit, budget, current,
                     largest_contributors, stop_if_expired)
from .load import load_graph
from .loop_induction import loop_values, with_invariant_loops
from .loop_unrolling import with_unrolled_loops
from .narrowing import narrowing_solves, without_narrowing
from .progress import phase
from .rule_selection import select_rules, unknown_op_warnings
from .asp.data_counts import fixed_counts
from .solution import Solution
from .validate import validate
from .void_classes import void_edge, void_join


def elimination_order(graph: Graph):
    """Bind a body's own names first (copies of others: scopes.py), then solver-made names,
    then annotation names, then input names; then by name. A body's own names go in the
    same order among themselves, by the names they copy: its copy of a solver-made name
    is bound to its copy of an input's (`_i2__2 = _i2_b`, not `_i2_b = _i2__2`), so that
    its tensors print with the input's name (`[b, 3]`; else `[_1, 3]` where `_2 = b`)."""
    cls = graph.symbol_class

    def key(name: str):
        if is_scoped(name):
            return (3, cls.get(unscoped_name(name), 2), name)
        return (cls.get(name, 2), 0, name)

    return key


@dataclass
class Problem:
    """A loaded, validated graph with its rule files and facts: ready to solve in any mode."""

    graph: Graph
    rule_files: list
    facts: str | None  # the declared facts written directly (solving); None: not yet
    # written (the first control writes them while clingo parses them: asp/feed.py)
    rules: tuple = ()
    timings: dict = field(default_factory=dict)
    context: str = ""  # sourced facts beyond the graph's (neighbourhood.py)
    unknown: list = field(default_factory=list)  # nodes whose operator has no rule file
    foreign: frozenset = frozenset()  # those of them with a rule file for another domain
    # symbol -> the least value the graph lets it take, where above 1 (encodings/floors.lp):
    # found by a fast solve, used by the next (Problem.atoms)
    floors: dict = field(default_factory=dict)
    # symbol -> the greatest value it may take (an If branch's own names: conditions.lp)
    ceilings: dict = field(default_factory=dict)
    distrust: frozenset = frozenset()  # taken as known too early (asp/premises.py)
    # the floors of the part of the graph that makes them, solved first (floor_prefix.py):
    # None until asked, kept by the solves that narrowing makes of the same graph
    prefix: dict | None = None
    # every solve takes the floors, explaining too (a conflict that only they show)
    floors_everywhere: bool = False
    # sources every solve switches off (the graph an error table shows: error_table.py)
    off: frozenset = frozenset()
    # what explaining switched off so that no conflict is left (diagnose.py); None: some
    # error was not explained
    switched_off: frozenset | None = None
    # the nodes explaining named as what may be the mistake (node_behind.py)
    suspects: tuple = ()
    # Loops' carried values assumed (a trial) or proven to keep their shape or to count the
    # iterations, as facts (loop_induction.py), in every solve
    loop_facts: str = ""
    _sourced: str | None = None

    @cached_property
    def rows_possible(self) -> bool:
        """Whether a tensor of unknown rank (a row, encodings/rows.lp) can occur when solving:
        a declaration gives one, a rule file seeds them (Loop's carried values), or a
        user's rule file might. Every rule of rows.lp needs one, and leaving the file out
        saves ~4% of the grounding of a graph without them (callgrind: DenseNet-121,
        a GPT-2 block)."""
        return declares_rows(self.graph) or any(
            rf.seeds_rows or not is_shipped(rf.path) for rf in self.rule_files)

    @property
    def sourced_facts(self) -> str:
        """The facts with a source for each declaration (explaining), built on demand."""
        if self._sourced is None:
            self._sourced = graph_facts(self.graph, sourced=True,
                                        foreign=self.foreign) + self.context
        return self._sourced

    @staticmethod
    def load(source: Any, rules=(), strict: bool = False) -> "Problem":
        t0 = time.perf_counter()
        current().phase = "reading the graph"
        with phase("load"):
            graph = load_graph(source)
            validate(graph)
            rule_files, unknown, foreign = select_rules(graph, rules, strict)
        t1 = time.perf_counter()
        return Problem(graph, rule_files, None, tuple(rules), {"load": t1 - t0},
                       unknown=unknown, foreign=foreign)

    def of_part(self, sub) -> "Problem":
        """A problem of `sub`, a part of this one's graph (its rule files selected anew, this
        one's users' rules and timings): floor_prefix.py's first solve, loop_induction.py's
        and loop_unrolling.py's trials."""
        rule_files, unknown, foreign = select_rules(sub, self.rules, False)
        return Problem(sub, rule_files, None, self.rules, self.timings, unknown=unknown,
                       foreign=foreign)

    def _add_facts(self, ctl: clingo.Control, sourced: bool) -> float:
        """The facts into `ctl` (written while clingo parses them, the first time); the
        seconds spent writing them."""
        if sourced:
            ctl.add("base", [], self.sourced_facts)
        elif self.facts is not None:
            ctl.add("base", [], self.facts)
        else:
            stop_if_expired("writing the facts")
            with phase("facts"):
                self.facts, writing = stream_facts(ctl, fact_chunks(self.graph,
                                                                    foreign=self.foreign))
            self.timings["facts"] = writing
            return writing
        return 0.0

    def control(self, extra: str, args=("--models=1",), sourced: bool = True,
                observer=None, choices: bool = False, allowance: int | None = None,
                voids: bool = False, give_up_at: float | None = None, cancel=None,
                stamps: Stamps | None = None, distrust: frozenset | None = None
                ) -> tuple[clingo.Control, Functions]:
        """A grounded control for the program plus `extra` (the activation of sources);
        `observer` (clingo's Observer) sees the ground rules (lineage). With `choices`,
        `extra` holds choice rules (alternatives.lp): answer sets differ. Past `allowance`
        computations or past the time `give_up_at` (time.monotonic()), the grounding is
        abandoned (limits.Abandoned). With `voids`, the equal axes without a value are
        grounded too (else `ground_voids` does it later). Once `cancel` (a threading.Event)
        is set, the grounding is abandoned at its next computation. `stamps`, `distrust`:
        asp/premises.py (default: the problem's)."""
        messages: list[str] = []
        undefined: list[str] = []

        def log(code, msg):
            (undefined if code == clingo.MessageCode.AtomUndefined else messages).append(msg)

        ctl = clingo.Control(list(args), logger=log, message_limit=1000)
        for watcher in filter(None, (observer, stamps)):
            ctl.register_observer(watcher)
        deadline = current()
        deadline.phase = "parsing the program (rule files and facts)"
        # Computing with the bindings found so far is sound whenever the sources in force
        # are fixed when grounding (facts): not when they are assumptions (#external,
        # explaining), where the ground program must hold under every subset of them, nor
        # with choices (alternatives), where a binding of one case does not hold in another.
        funcs = Functions(elimination_order(self.graph), deadline if deadline.end else None,
                          normalize="#external" not in extra and not choices,
                          allowance=allowance, give_up_at=give_up_at, cancel=cancel,
                          body_nodes=frozenset(n.name for n in self.graph.body_nodes),
                          floors=Floors(self.floors, self.ceilings)
                          if self.floors or self.ceilings else None,
                          floors_everywhere=self.floors_everywhere,
                          distrust=self.distrust if distrust is None else distrust,
                          stamps=stamps, after_conflict=after_conflict(
                              len(self.graph.nodes) + len(self.graph.body_nodes)))
        t0 = time.perf_counter()
        try:
            paths = core_encodings() + [rf.path for rf in self.rule_files] + [VOIDS_FILE]
            if extra == "" and not sourced and not self.rows_possible:
                paths.remove(ROWS_FILE)  # nothing can start a row: its rules never fire
            if not self.graph.has_bodies:
                paths.remove(SCOPES_FILE)  # no body: no scope (scopes.py)
                paths.remove(CONDITIONS_FILE)  # nor an If's condition
            writing = self._add_facts(ctl, sourced)
            ctl.add("base", [], extra + self.loop_facts)
            # the rules that cannot fire on these facts are left out (asp/relevance.py)
            selected = add_program_files(ctl, paths, relevant_to=(
                self.sourced_facts if sourced else self.facts, extra + self.loop_facts))
        except RuntimeError:
            raise program_error(messages)
        stop_if_expired(deadline.phase)
        t1 = time.perf_counter()
        deadline.phase = "grounding"
        try:
            with phase("ground"):
                parts = [("base", [])] + ([(VOIDS_PART, [])] if voids else [])
                ctl.ground(parts, context=funcs)
        except Abandoned:
            raise
        except (RuntimeError, Expired):  # clingo re-raises a callback's exception, or wraps it
            if deadline.expired_in:
                raise TimeLimit(deadline.seconds, deadline.phase,
                                largest_contributors(ctl, self.rule_files))
            raise program_error(messages, self.rule_files)
        if deadline.expired():
            raise TimeLimit(deadline.seconds, deadline.phase,
                            largest_contributors(ctl, self.rule_files))
        # (a selected program's kept rules may read what only left-out rules derive)
        if undefined and not selected:
            raise undefined_error(undefined)
        # (parsing, less the writing of the facts that it overlapped)
        self.timings["parse"] = self.timings.get("parse", 0) + t1 - t0 - writing
        self.timings["ground"] = self.timings.get("ground", 0) + time.perf_counter() - t1
        return ctl, funcs

    def atoms(self, active: Iterable[clingo.Symbol] | None = None,
              off: Iterable[clingo.Symbol] = (), cancel=None,
              allowance: int | None = None, facts: str = "") -> tuple[Atoms, Functions]:
        """The answer set's shown atoms with every source on, or only `active` ones, or all
        but those `off` (`facts` added; `cancel`: see control); each grounding within
        `allowance` computations, when given (Abandoned past it)."""
        off = list(off)
        if active is not None:
            return self.fast_answer("".join(f"act({s})." for s in active), active=active)
        if off or facts:
            return self.fast_answer(_switched_off(self.off.union(off)) + facts,
                                    allowance=allowance)
        if self.prefix is None:
            self.prefix = prefix_floors(self)
        atoms, funcs = answer_under(self, self.prefix, cancel, allowance)
        return under_floors(self, atoms, funcs, cancel, allowance)

    def fast_answer(self, extra: str = "", cancel=None, active=None,
                    allowance: int | None = None) -> tuple[Atoms, Functions]:
        """The answer set with the sources facts (every one; or as `extra` switches them on
        or off, `active` those on), with nothing taken as known before it was
        (asp/premises.py: held_answer). The problem's own `off` sources are off unless
        `extra` or `active` says otherwise."""
        if self.off and not extra and active is None:
            extra = _switched_off(self.off)
        return held_answer(self, extra, cancel, active, allowance)

    def _answer(self, ctl, funcs, active) -> tuple[Atoms, Functions]:
        """The shown atoms of the grounded `ctl`'s answer set."""
        t0 = time.perf_counter()
        with phase("solve"):
            symbols = _solve_once(ctl, current())
        t1 = time.perf_counter()
        if symbols is None:
            if active is None:  # with every source on the program always has its answer set
                raise InputError("the rule files admit no answer set ("
                                 + ", ".join(str(rf.path) for rf in self.rule_files) + ")")
            symbols = []
        atoms = Atoms.read(symbols)
        # what a body requires fails only if it runs: not an error of the graph, unless the
        # body surely runs
        split_conflicts(self.graph, atoms)
        # the decoder asks for the equal axes without a value when it meets one
        atoms.void_loader = lambda: ground_voids(ctl, funcs)
        atoms.value_loader = lambda: grounded_values(ctl)
        self.timings["solve"] = self.timings.get("solve", 0) + t1 - t0
        self.timings["read"] = self.timings.get("read", 0) + time.perf_counter() - t1
        return atoms, funcs


def _switched_off(sources) -> str:
    """The extra program that switches `sources` off and every other source on."""
    return "act(S) :- source(S), not off(S).\n" + "".join(f"off({s})." for s in sources)


def ground_voids(ctl: clingo.Control, funcs: Functions) -> tuple[list, list]:
    """The edges between equal axes without a value and the broadcasts of such axes
    (voids.lp), grounded after the base program: its atoms are facts (the program is Horn,
    its sources facts), read as such."""
    ctl.ground([(VOIDS_PART, [])], context=funcs)
    atoms = ctl.symbolic_atoms
    return ([void_edge(a.symbol.arguments) for a in atoms.by_signature("eqvoid", 4) if a.is_fact],
            [void_join(a.symbol.arguments) for a in atoms.by_signature("bcvoid", 6) if a.is_fact])


def _absurd_dims(shapes: dict, limit: int = 2**62) -> list[str]:
    """Computed dims no runtime can hold (inputs beyond 2^62 are rejected when read)."""
    out = []
    seen: dict = {}  # id(Shape) -> its (axis, size) beyond the limit: decode shares Shapes
    for t, shape in shapes.items():
        beyond = seen.get(id(shape)) if shape is not None else ()
        if beyond is None:
            beyond = seen[id(shape)] = [(i, d.value) for i, d in enumerate(shape.dims or ())
                                        if d.is_int and d.value > limit]
        if beyond:  # (rarely: most shapes are checked once, and hold nothing beyond)
            out.extend(f"{t}: axis {i} is {v}, beyond 2^62 (no runtime can hold it)"
                       for i, v in beyond)
            if len(out) >= 5:
                break
    return out[:5]


def _solve_once(ctl: clingo.Control, deadline) -> list | None:
    """The shown atoms of the (only) answer set, None without one; within the budget."""
    deadline.phase = "solving"
    found: list = []

    def on_model(model):
        found.append(model.symbols(shown=True))

    if deadline.end is None:
        ctl.solve(on_model=on_model)
    else:
        with ctl.solve(on_model=on_model, async_=True) as handle:
            if not handle.wait(deadline.remaining()):
                handle.cancel()
                raise TimeLimit(deadline.seconds, "solving")
    return found[-1] if found else None


def solve(source: Any, rules=(), explain: bool = True, timeout: float | None = None,
          strict: bool = False) -> Solution:
    """Infer every tensor's dtype, rank and dims; on a shape error, explain it.
    With `timeout` (seconds), raise `limits.TimeLimit` past it. An operator without a
    rule file is a warning (its outputs stay unknown), or with `strict` an InputError."""
    # Python's cyclic GC rescans the millions of small objects a large graph makes (facts,
    # terms, expressions) again and again; nothing here creates cycles worth collecting.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with budget(timeout):
            return _solve(source, rules, explain, strict)
    finally:
        if collecting:
            gc.enable()


def _solve(source: Any, rules, explain: bool, strict: bool) -> Solution:
    started = time.perf_counter()
    problem = Problem.load(source, rules, strict)
    with narrowing_solves(problem) as solves:  # (narrowing's, trials two at a time)
        atoms, funcs = problem.atoms()
        t0 = time.perf_counter()
        with phase("decode"):
            values = loop_values(problem.graph, atoms)  # (decoding lets the control go)
            decoded = decode(problem.graph, atoms)
        atoms, funcs, decoded = with_invariant_loops(problem, atoms, funcs, decoded, values)
        atoms, funcs, decoded = with_unrolled_loops(problem, atoms, funcs, decoded)
        atoms.release_control()  # (nothing needs the grounded control now)
        # an ONNX model's declared outputs that disagree with the graph are set aside
        problem, atoms, decoded, funcs, narrowed, set_aside = without_narrowing(
            problem, atoms, decoded, funcs, solves)
    if narrowed:
        atoms.release_control()
    problem.timings["decode"] = time.perf_counter() - t0
    diagnostics = []
    if atoms.conflicts:
        diagnostics, decoded = diagnosed(problem, atoms, decoded, funcs, explain)
    warnings = unknown_op_warnings(problem.unknown)
    warnings += scope_warnings(atoms)
    warnings += [f"arithmetic gave up: {f}" for f in funcs.failures[:5]]
    warnings += _absurd_dims(decoded.shapes)
    warnings += fixed_counts(problem.graph, atoms, problem.rule_files)
    warnings += narrowed
    sol = Solution(problem.graph, decoded, diagnostics, warnings)
    sol.set_aside = set_aside
    open_mm = open_matmuls(problem.graph, atoms)
    if explain and not atoms.conflicts and (open_mm or may_be_ambiguous(
            sol._shapes, [f"{a} = {b}" for a, b in decoded.met_constraints], decoded)):
        t2 = time.perf_counter()
        # (an extra: within the time limit's last fifth they give up, and are said capped)
        seconds, left = alternatives_seconds(t2 - started), current().remaining()
        if left is not None:
            seconds = min(seconds, 0.8 * left)
        try:
            sol.alternatives, sol.cases, sol.alternatives_capped = enumerate_alternatives(
                problem, open_mm, spent=funcs.calls, seconds=seconds, fixed=atoms.binds)
        except TimeLimit:  # (grounding past the limit between two checks)
            sol.alternatives, sol.cases, sol.alternatives_capped = {}, [], True
        problem.timings["alternatives"] = time.perf_counter() - t2
    sol.timings = dict(problem.timings)
    sol.computations = funcs.calls
    return sol
