"""The @-functions rule files call: pure arithmetic on canonical dimension terms.

Each function maps dim terms (see terms.py) to a dim term, or to no term at all
(an empty list: the rule does not fire) when the arguments are not dims, a
division by zero happens, or the result would exceed the caps.  They hold no
shape logic: which dims are related is said by the rules.
"""
from __future__ import annotations

import time
from fractions import Fraction
from functools import lru_cache
from typing import Callable

import clingo

from ..scopes import name_scope, rescope_expr, scope_expr
from ..limits import Abandoned
from ..symbolic import ops
from ..symbolic.expr import Expr
from ..symbolic.parse import compile_formula
from . import element_arith, float_ints
from .lifting import FAILURES, arithmetic, handles, integral_real, remembered
from .lifting import dims as _dims
from .budgets import AFTER_CONFLICT
from .relating import Relating, real_of as _real
from ..symbolic.bounds import not_one as _not_one
from .comparisons import Comparisons
from .data_counts import DataCounts
from .float_elements import FloatElements
from .iterations import Iterations
from .terms import expr_to_symbol, symbol_to_expr

Number, String, Function = clingo.Number, clingo.String, clingo.Function
MAX_VALUES = 400_000  # distinct arithmetic results per solve; past it no new value is made


@lru_cache(maxsize=4096)
def _formula(text: str):
    return compile_formula(text)


class Functions(Relating, Comparisons, FloatElements, Iterations, DataCounts):
    """The clingo context: every public method is callable as @name(...) from ASP."""

    def __init__(self, order: Callable[[str], object], deadline=None, normalize: bool = False,
                 allowance: int | None = None, give_up_at: float | None = None,
                 cancel=None, body_nodes: frozenset = frozenset(), floors=None,
                 distrust: frozenset = frozenset(), stamps=None,
                 floors_everywhere: bool = False, after_conflict: int = AFTER_CONFLICT):
        self.order = order
        # the symbols' lower bounds the graph requires (floors.py; fast mode, from the solve
        # before): bounds and results take them, as they take the bindings known so far;
        # explaining too when the graph conflicts only under them (floor_rounds.py)
        self.floors = floors if floors and (normalize or floors_everywhere) else None
        self.body_nodes = body_nodes  # the names of the nodes of bodies (@in_body)
        # an optional grounding (alternatives) gives up past this many computations, or
        # past this time (time.monotonic())
        self.allowance = allowance
        self.give_up_at = give_up_at
        self.cancel = cancel  # a threading.Event: set, the grounding gives up (narrowing.py)
        self.deadline = deadline  # limits.Deadline, checked at every computation
        # Fast mode (every source in force): arithmetic and equations work on their
        # arguments with the bindings found so far substituted (ASP-NOTES §1). Without it a
        # product of several symbols (an element count) equated with others yields bindings
        # z = 4*w, z = 2*w*w ... one per combination of values, and Slice's min/max formulas
        # combine every value an annotation's symbol had before it was bound, without end.
        # Every binding holds when all sources do, so this is sound there; explaining
        # (sources switched on and off) keeps the arguments as they are.
        self.known: dict[str, Expr] | None = {} if normalize else None
        # value -> a shorter value equal to it in every run (relating._rewrite; fast mode)
        self.rewrites: dict[Expr, Expr] = {}
        # the floors among them (an atom -> its value), rewritten inside other values too
        self.atom_rewrites: dict = {}
        # expression -> itself with `known` substituted; `known` only grows (setdefault),
        # so the entries are valid while its size is the one they were computed at
        self._known_cache: dict = {}
        self._known_size = 0
        self.failures: list[str] = []
        self._relate_cache: dict = {}
        self.memo: dict = {}  # pure functions: (function, args) -> result
        self._arith_gave: dict = {}  # (f, a, b) -> whether @arith gave a value (arith_open)
        self._calcs: dict = {}  # (formula, args, bindings known) -> (@calc's result, failure)
        self._pure: dict = {}  # the same for tests (not counted in the budget)
        # Once an equation has no solution the graph is inconsistent (ASP-NOTES §2: then
        # backward arithmetic can derive new values forever, z = y - z ...). Arithmetic
        # then gets a bounded allowance of new values (for the parts of the graph the
        # conflict does not touch) and stops: what is grounded stays, nothing false is added.
        self.halt_at: int | None = None
        self.after_conflict = after_conflict  # (budgets.after_conflict: by the graph's size)
        self.calls = 0
        self.refused = 0  # computations not done because of the above (or the budget)
        self.tainted: set = set()
        # compound value -> the compound values computed from it (taint_made: a conflict's
        # values taint what was made from them before it showed)
        self.made: dict = {}
        self.scope_clashes = 0  # integer pairs colliding in relate_in_scope: bodies' and graph's
        self.unsolved_pairs = 0  # pairs relate_in_scope left unsolved (UNSOLVED_PAIRS)
        self.picked: dict = {}  # If node -> its condition's first value (@branch)
        # What the fast mode took as known (a binding, a pick): (key, atoms one of which
        # makes it sound, the ground rules out by then); `stamps` watches the grounding,
        # `distrust`: what a solve before took too early (premises.py)
        self.premises: list = []
        self.stamps = stamps
        self.distrust = distrust

    def refuses_floor_search(self) -> bool:
        """Whether a search for floors (asp/floors.py: up to 256 values of a symbol each,
        and a floor raised again from the one found) finds none now: in the fast mode
        once the graph is known inconsistent (its floors say nothing more then, and the
        search is refused like arithmetic: `halted`); explaining, where a conflict holds
        under some sources only, and after a budget's halt (bodies' clashes, unsolved
        pairs: the graph may be consistent), once the computations allowed are spent. It
        makes no value, so the allowance never stopped it: a 6-node graph whose ranks
        collided spent 35 s in 23,000 searches, and one whose declared outputs shared a
        name for s0 and 3*s0 raised floors past every time limit (fuzz --kind ops
        --narrowing --seed 5623, graph 459). Every search checks the time limit too."""
        if self.deadline is not None:
            self.deadline.check()
        # (`tainted` holds values only once two collided at a place of the graph: relate)
        if self.halt_at is None or self.calls <= self.halt_at and not (
                self.tainted and self.known is not None):
            return False
        self.refused += 1
        return True

    @property
    def halted(self) -> bool:
        """Arithmetic refused some computation (values collided, or the budget was spent):
        some conflicts may not have shown. When nothing was refused, the answer set holds
        every consequence, so every conflict there is."""
        return self.refused > 0

    def exhausted(self, args=(), test: bool = False) -> bool:
        """No new value from these arguments: one of them collided with another value
        (an inconsistent graph), or the computations allowed are spent. A `test` (a
        comparison: 1 or 0) makes no new value to derive more from, so a collision does not
        stop it: a branch not taken that collides 1 with 4 left `Size(x) <= 1` unknown for
        an x of 80 elements, and the If it decides with it. (Computing such a count past a
        collision, in clingo's integers or past the taint, let an inconsistent graph grow
        its sizes for minutes where it stopped in 0.3 s: fuzz control 107, graph 63.)"""
        self.calls += 1  # every computation that may make a new value passes here
        if self.deadline is not None:
            self.deadline.check()
        if self.allowance is not None and self.calls > self.allowance:
            raise Abandoned()
        if self.give_up_at is not None and time.monotonic() > self.give_up_at:
            raise Abandoned()
        if self.cancel is not None and self.cancel.is_set():
            raise Abandoned()
        if test:
            return False
        if self.tainted and any(a in self.tainted for a in args):
            self.refused += 1
            return True
        if self.halt_at is not None and self.calls > self.halt_at:
            self.refused += 1
            return True
        if len(self.memo) > MAX_VALUES:
            if not self.failures or not self.failures[-1].startswith("budget"):
                self.failures.append(f"budget: more than {MAX_VALUES} distinct computations")
            self.refused += 1
            return True
        return False

    # ----- the shape language's operations
    add = arithmetic(lambda a, b: a + b)
    sub = arithmetic(lambda a, b: a - b)
    mul = arithmetic(lambda a, b: a * b)
    neg = arithmetic(lambda a: -a)
    div = arithmetic(ops.floordiv)  # floored division
    cdiv = arithmetic(ops.ceildiv)
    mod = arithmetic(ops.mod)
    max = arithmetic(ops.maximum)
    min = arithmetic(ops.minimum)
    # a body's copy of a dim, its symbols renamed to scope K's, and back (scopes.py)
    scope = arithmetic(lambda e, k: scope_expr(e, k.value))
    rescope = arithmetic(lambda e, k, p: rescope_expr(e, k.value, p.value))

    def calc(self, formula: clingo.Symbol, *args: clingo.Symbol):
        """@calc("(a + b - c)//d + 1", A, B, C, D): a formula over a, b, c... bound to the args.
        Remembered while no binding is added (the result reads the bindings known so far):
        a Conv's output size per axis is one call, and most are alike (DenseNet: 240 calls)."""
        if self.exhausted(args):
            return []
        key = (formula._rep, handles(args),
               len(self.known) + len(self.rewrites) if self.known is not None else -1)
        hit = self._calcs.get(key)
        if hit is None:
            hit = self._calcs[key] = self._calc(formula, args)
        out, failure = hit
        if failure is not None:
            self.failures.append(failure)
        return self.note_made(args, out)

    def _calc(self, formula: clingo.Symbol, args: tuple) -> tuple:
        """(the result, or [] with the failure's message)."""
        try:
            f = _formula(formula.string)
            names = [chr(ord("a") + i) for i in range(len(args))]
            return expr_to_symbol(self._known_result(
                f(dict(zip(names, self._known_all(_dims(*args))))))), None
        except (KeyError, ValueError) + FAILURES as e:
            return [], f"calc({formula}): {e}"

    def rank_up(self, r: clingo.Symbol, k: clingo.Symbol):
        """@rank_up(R, K): the rank R + K of a tensor raised from another's (a stack, an
        Unsqueeze), until the graph is known inconsistent. A tensor with two ranks feeds
        both through a cycle of equal and raised ranks (a Scan's stacked output back into
        its state through a broadcast), and clingo's own R + K would then raise them
        without end: a 6-node Scan/Loop graph of the fuzzer grew ranks past 50, with
        every axis of each, until the time limit. A conflict stands whatever is derived
        after it (as for `exhausted`'s halt); the ranks that follow it are not needed.
        Nor is a rank above MAX_RANK, whatever the graph: in a body that cannot run (an If
        branch not taken, a Scan over an axis its input lacks), a conflict halts nothing,
        and a fuzz graph's ranks grew there until the time limit (which clingo's grounding,
        calling no other function, never checked: the deadline is checked here too)."""
        if self.deadline is not None:
            self.deadline.check()
        if self.halt_at is not None or r.number + k.number > MAX_RANK:
            self.refused += 1
            return []
        return Number(r.number + k.number)

    def prod(self, *args: clingo.Symbol):
        """The product of any number of dims."""
        if self.exhausted(args):
            return []
        try:
            out = Expr.const(1)
            for e in self._known_all(_dims(*args)):
                out = out * e
            return self.note_made(args, expr_to_symbol(self._known_result(out)))
        except FAILURES:
            return []

    def bcast(self, a: clingo.Symbol, b: clingo.Symbol):
        """The numpy broadcast of two dims, when they are compatible.

        1 yields the other; equal dims yield themselves; a dim that cannot be 1
        (a literal other than 1, or provably >= 2 or <= 0) decides; otherwise the result
        is their max (as n = m, or one of them is 1) when both are >= 1. A dim that may
        be 0 (`min(1000, n) - 1`, a Slice of [n] from 1) broadcast with one that may be 1
        gives 0 where they are 0 and 1, not their max: no value then (the axis is open
        unless the rules link it). (max(x, y)*min(1, x, y) would be exact, but a pair met
        before a binding gives it in another spelling than the pair after it, and the two
        spellings' equation is a requirement on the inputs that no one can read:
        `L = max(0, L)*min(1, L)`, true of every L >= 0. Nor their product when one of
        them is 0 or 1, exact too: a product is not idempotent as max is, and a Loop's
        carried axis broadcast again each round grew x*y*y*... without end.)
        """
        if self.exhausted((a, b)):
            return []
        return self.note_made((a, b), self._bcast(a, b))

    def bcast_at_least_one(self, a: clingo.Symbol, b: clingo.Symbol, k: clingo.Symbol):
        """@bcast(A, B) with the side K (A, B, or the pair (A, B): both) taken as >= 1, as
        the rules prove it wherever the graph runs (broadcast.lp's at_least_one)."""
        sides = set(k.arguments) if k.type == clingo.SymbolType.Function and not k.name else {k}
        return [] if self.exhausted((a, b)) else \
            self.note_made((a, b), self._bcast(a, b, a in sides, b in sides))

    def _bcast(self, a: clingo.Symbol, b: clingo.Symbol, a_positive: bool = False,
               b_positive: bool = False):
        try:
            # (with the bindings known so far, as arithmetic takes them: two spellings of
            # one symbol - a body's copy _i1_s and s, bound - would otherwise make a max of
            # every combination of spellings along a chain of broadcasts)
            x, y = self._known_all(_dims(a, b))
            if x == 1 or x == y:
                return expr_to_symbol(y)
            if y == 1:
                return expr_to_symbol(x)
            # (both are dims of tensors, so >= 0: one that is the other clamped at 0 is the
            # other - a Range over a length computed from a convolution's, against it)
            if y == ops.maximum(_ZERO, x):
                return expr_to_symbol(x)
            if x == ops.maximum(_ZERO, y):
                return expr_to_symbol(y)
            x_fixed, y_fixed = _not_one(x, self._bounds), _not_one(y, self._bounds)
            if x_fixed and y_fixed:
                return []  # two different dims, neither 1: the rules report the clash
            if x_fixed:
                return expr_to_symbol(x)
            if y_fixed:
                return expr_to_symbol(y)
            if (not a_positive and self._bounds(x)[0] < 1) or \
                    (not b_positive and self._bounds(y)[0] < 1):
                return []
            return expr_to_symbol(self._known_result(ops.maximum(x, y)))
        except FAILURES:
            return []

    def arith(self, f: clingo.Symbol, a: clingo.Symbol, b: clingo.Symbol):
        """Integer element arithmetic with ONNX semantics: `div` truncates toward zero (C),
        `mod` is floored (the sign of the divisor, ONNX Mod's default), `fmod` truncated.
        `float(F, D)`: F on float elements of dtype D that hold integers (float_ints.py;
        an inexact quotient of known integers: the float D rounds it to, real(..)).
        `int(F, D)`: F on an integer type D narrower than 64 bits, whose results wrap
        around: no value where D does not hold the result (float_ints.type_holds)."""
        out = self._arith(f, a, b)
        self._arith_gave[(f, a, b)] = out != []
        return out

    def arith_open(self, f: clingo.Symbol, a: clingo.Symbol, b: clingo.Symbol):
        """1 where @arith(f, a, b) gives no value, for whatever reason (arithmetic the
        expressions cannot write, as Mod(1, s - 1) or s < t, a budget spent): the element
        is then one the graph leaves open, however a declared output may give it back
        (families.lp's value_open). No term otherwise, nor for a float operand that is an
        integer (real("5.0")): the element has that integer as a value too (floats.lp),
        and the pair of integers is the one that tells."""
        if integral_real(a) or integral_real(b):
            return []
        gave = self._arith_gave.get((f, a, b))
        if gave is None:
            gave = self.arith(f, a, b) != []
        return [] if gave else Number(1)

    def _arith(self, f: clingo.Symbol, a: clingo.Symbol, b: clingo.Symbol):
        if self.exhausted((a, b), test=element_arith.is_test(f)):
            return []
        try:
            x, y = self._known_all(_dims(a, b))
            # dim_dividend(F): a is a dim of the graph's, >= 0 wherever the graph runs
            # (encodings/families.lp)
            nonneg = f.name == "dim_dividend"
            if nonneg:
                f = f.arguments[0]
            name = f.name
            if name == "float":
                out = float_ints.arith(f.arguments[0].name, x, y, f.arguments[1].name)
                if isinstance(out, float):  # an inexact quotient: the float itself
                    return Function("real", [String(repr(out))])
                return [] if out is None else expr_to_symbol(out)
            if name == "int":  # a narrower type: only what it holds (it wraps around)
                out = element_arith.integer(f.arguments[0].name, x, y, nonneg, self._bounds)
                held = out is not None and float_ints.type_holds(out, f.arguments[1].name)
                return expr_to_symbol(self._floored(out)) if held else []
            out = element_arith.integer(name, x, y, nonneg, self._bounds)
            return [] if out is None else expr_to_symbol(self._floored(out))
        except (KeyError,) + FAILURES:
            return []

    def subst(self, e: clingo.Symbol, s: clingo.Symbol, v: clingo.Symbol):
        """e with symbol s replaced by v (equations.lp's rewrites), and with the bindings
        known so far (fast mode), as every function making a new value has them: a symbol
        bound before its equations were all met has several bindings (`_i2_s2 = s2`,
        `_i2_s2 = s0 - _i2_s1 + s2`...), and each rewrote a value into a spelling of its
        own; nested Scans fed those spellings to sums and broadcasts, each equal to every
        other (fuzz --kind all --seed 128, graph 352: 344 values at one axis, 60k
        equations at the time limit)."""
        if self.exhausted((e, v)):
            return []
        try:
            return self.note_made((e, v), expr_to_symbol(self._known_result(
                symbol_to_expr(e).subs({s.string: symbol_to_expr(v)}))))
        except FAILURES as err:
            self.failures.append(f"subst({e}, {s}, {v}): {err}")
            return []

    @remembered
    def lift(self, e: clingo.Symbol, k: clingo.Symbol, parent: clingo.Symbol):
        """e in scope `parent`'s names (0: the graph's) when every symbol of e is scope k's
        (a body's copy of a name around it); no term otherwise. As it is: a binding's own
        symbol is lifted, not its value (If.lp: what both branches require)."""
        try:
            x = symbol_to_expr(e)
        except FAILURES:
            return []
        if any(name_scope(s) != k.number for s in x.symbol_set()):
            return []
        return expr_to_symbol(rescope_expr(x, k.number, parent.number))

    @remembered
    def symbols(self, e: clingo.Symbol):
        try:
            return [String(s) for s in sorted(symbol_to_expr(e).symbols())]
        except FAILURES:
            return []

    # ----- reals (float attributes and constants, e.g. Resize scales)
    def floor_scale(self, d: clingo.Symbol, r: clingo.Symbol):
        """floor(d * r) for an integer dim d and a real r."""
        if self.exhausted((d,)):
            return []
        return self._floor_scale(d, r)

    @remembered
    def _floor_scale(self, d: clingo.Symbol, r: clingo.Symbol):
        """onnxruntime multiplies in f32 (torch in f64): the floor only where both products
        floor alike (float_ints.floor_scaled)."""
        try:
            out = float_ints.floor_scaled(symbol_to_expr(d), Fraction(_real(r)))
            return [] if out is None else expr_to_symbol(out)
        except (FAILURES + (ValueError, OverflowError)):
            return []


_ZERO = Expr.const(0)
# no rank is raised past this (numpy 1.x's limit on dims; numpy 2's is 64, which a body
# that cannot run reached in 13 s, against 1.5 s to 32): a tensor above it keeps no rank
MAX_RANK = 32


