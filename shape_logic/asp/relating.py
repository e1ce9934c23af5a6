"""Equations between two values at one place of the graph (`@relate`), and the bindings
they find, which the fast mode substitutes in arithmetic's arguments and results.

A mixin of `Functions` (functions.py): it shares the solve's state - the known bindings,
the taint and halt on collisions, the computations' budget (`exhausted`).
"""
from __future__ import annotations

from math import floor

import clingo

from ..symbolic.bounds import bounds
from ..symbolic.ceilings import proofs_tried
from ..symbolic.equation import relate
from ..symbolic.expr import Expr
from .budgets import AFTER_SCOPE_CLASHES, EXPLAIN_DEPTH, SCOPE_CLASHES, UNSOLVED_PAIRS, depth
from .lifting import FAILURES, remembered
from .terms import NotADim, expr_to_symbol, symbol_to_expr

String, Function, Number = clingo.String, clingo.Function, clingo.Number
String_type = clingo.SymbolType.String
# the atoms whose pair @relate is called on (encodings/equations.lp, scopes.lp): a binding
# it finds holds when one of them does
EQUATIONS = ("eqn", "eqn_in_scope", "eqn_in_body")


def _bare(e: Expr) -> bool:
    """e is a single symbol."""
    a = e.single_atom()
    return a is not None and a.kind == "sym"


def _plain_pair(x: Expr, y: Expr) -> bool:
    """A bare symbol against an integer or a bare symbol."""
    return (_bare(x) and (y.is_int or _bare(y))) or (_bare(y) and (x.is_int or _bare(x)))


def _int_valued(sym: clingo.Symbol) -> bool:
    """sym is an integer: a number, or one too large for clingo's (a string, expr_to_symbol).
    Two different ones are a conflict however large: `2147483648 = 2`, from a size that an
    If branch not taken multiplied until arithmetic stopped, was printed as the graph's
    constraint (fuzz --kind control --seed 8103, graph 56)."""
    if sym.type == clingo.SymbolType.Number:
        return True
    try:
        return sym.type == String_type and symbol_to_expr(sym).is_int
    except FAILURES:
        return False


class Relating:
    """@relate and @relate_in_scope, and the known bindings (fast mode)."""

    def relate(self, a: clingo.Symbol, b: clingo.Symbol):
        """Two values at one place of the graph: a conflict means the graph is inconsistent,
        and the colliding values compute nothing more (that is where an inconsistent system
        would otherwise derive new values forever, z = y - z ...)."""
        hit = self.relate_in_scope(a, b)
        if hit.name in ("unsolved", "same") and a != b and self.known is not None:
            self._rewrite(a, b, hit.name == "same")
        if hit.name == "conflict" and not (a in self.tainted and b in self.tainted):
            self.tainted.update((a, b))
            self.taint_made((a, b))
            if self.halt_at is None:
                self.halt_at = self.calls + self.after_conflict
        return hit

    def _rewrite(self, a: clingo.Symbol, b: clingo.Symbol, same: bool = False) -> None:
        """An integer and an expression at one place that no equation solves (fast mode):
        the expression is that integer in every run, and arithmetic takes it so from now
        on (`rewrites`, applied with the bindings by `_known`). Both stay at the place;
        without this each feeds the arithmetic after it with its own spelling and a
        Reshape's element count multiplies the spellings of every axis: HF SegFormer with a
        Transpose left out, 8 = ((h + 3)//4)*((w + 3)//4), made 190,000 pairs of them in 19 s
        of grounding and went on (now 0.4 s, every size after it an integer). Two
        expressions are left as they are: either spelling may be the one a later rule
        needs (a Reshape dividing out Swin's (h//4)*(w//4) beside ((h//2 + 1)//2)*(w//4)),
        unless they are of one symbol and
        - one function of it (`same`: symbolic/periodic.py): the simpler is taken for the
          other, in every run;
        - or one of them is a floor of it (equal where the graph runs only): the floor is
          taken for the other wherever it occurs, inside other values too (`atom_rewrites`,
          so a sum that 4 divides stays one), and only when the other's bounds say as
          much (Swin's h//4 is >= 1 only as (h + 2)//4 is: the h//4 is rewritten).
        The first rewrite of a value stays, as a binding does."""
        try:
            x, y = self._known(_integer(a)), self._known(_integer(b))
        except NotADim:
            return
        if x == y or (x.is_int and y.is_int):
            # (two integers are a collision, not a value to rewrite: after an earlier
            # rewrite an equation's sides can both be - `_i2_s2` was 5, and a branch that
            # cannot run required it 1, which made every 5 of the graph 1: fuzz --kind
            # control --seed 4041, graph 421)
            return
        if not x.is_int and not y.is_int:
            if len(x.symbol_set() | y.symbol_set()) != 1:
                return
            if same:  # (one function: the simpler spelling is kept)
                small, large = sorted((x, y), key=_spelling_order)
            else:
                # (the one kept: the one whose bounds say more - a Reshape to a quarter
                # of it needs them - then not the floor; a bare symbol stays: taken as
                # its own floor, h = 4*((h + 3)//4), the U-Net's floors got weaker)
                small, large = sorted((x, y), key=lambda e: (-self._bounds(e)[0],
                                                             e.single_atom() is not None,
                                                             _spelling_order(e)))
                atom = large.single_atom()
                if atom is None or atom.kind == "sym":
                    return
        else:
            small, large = (x, y) if x.is_int else (y, x)
        if large in self.rewrites or ("rewrite", large) in self.distrust:
            return
        self.rewrites[large] = small
        atom = large.single_atom()
        if not small.is_int and atom is not None and atom.kind != "sym" and \
                small.subs_atoms({atom: small}) is small:  # (not in the value it takes)
            self.atom_rewrites[atom] = small
        self.premise(("rewrite", large), tuple(Function(name, [a, b]) for name in EQUATIONS))

    def note_made(self, args, out):
        """`out` (a result of arithmetic on `args`), noting it as made from each compound
        argument (taint_made)."""
        if type(out) is clingo.Symbol and out.type == String_type:
            for a in args:
                if a.type == String_type and a != out:
                    self.made.setdefault(a, set()).add(out)
        return out

    def taint_made(self, values) -> None:
        """Taint what was computed from colliding compound values before they collided.
        Grounding makes a value and its consequences in one pass, so a value that meets
        another at an axis has often fed arithmetic already: MaxPool's s//2, equated with
        its input's s through a broadcast, had made s//4, and each half fed the next
        (s//8, s//16 ... each paired with all before: 8 s of grounding, fuzz --narrowing
        --kind base --seed 7, graph 227). A bare symbol's are left: they are the graph's
        values everywhere, as an integer's are."""
        todo = [v for v in values if v.type == String_type and not _bare(symbol_to_expr(v))]
        while todo:
            for made in self.made.pop(todo.pop(), ()):
                if made not in self.tainted:
                    self.tainted.add(made)
                    todo.append(made)

    def premise(self, key: tuple, atoms: tuple) -> None:
        """Note what a binding or pick was taken from (asp/premises.py): `atoms`, one of
        which holds when it is sound, and how many ground rules were out by then."""
        self.premises.append((key, atoms, self.stamps.count if self.stamps else 0))

    @remembered  # (clingo asks once per clash pair at the place: 1.4 million times for one
    # place set in an explaining grounding, fuzz --kind control --seed 4061, graph 138)
    def in_body(self, place: clingo.Symbol):
        """1 if a place (a virtual tensor of a rule file: target(N), batch(N, T)...) names
        a node of a body, else 0: what it requires then holds only where the body runs,
        as for the body's own tensors (in_scope facts; encodings/scopes.lp). A tensor's
        name (a string place) is not looked up: in_scope says which are a body's."""
        if place.type != clingo.SymbolType.Function:
            return Number(0)
        todo = list(place.arguments)
        while todo:
            sym = todo.pop()
            if sym.type == clingo.SymbolType.String:
                if sym.string in self.body_nodes:
                    return Number(1)
            elif sym.type == clingo.SymbolType.Function:
                todo.extend(sym.arguments)
        return Number(0)

    def branch(self, n: clingo.Symbol, v: clingo.Symbol):
        """@branch(N, V): the branch of If N that its condition's value V (1 or 0) picks
        (If.lp's if_taken), unless the condition had the other value first (fast mode): a
        tensor of a graph that runs has one value, so a second is a collision, which only a
        body that cannot run survives (an If in it whose condition compares a size its
        Squeeze requires to be 1 with the size it has). Taking both branches there made
        each surely run and the If's output both, a branch Concat(x, w) equal to x: x's
        axis grew by w's size without end (fuzz --kind control --seed 130, graph 212).
        Taking the first is sound (what follows from it holds whenever the If runs, and
        it cannot) and derives less. Explaining and alternatives take both: they switch
        sources off, and the value that came first may be one that goes."""
        taken = String("then_branch" if v.number == 1 else "else_branch")
        if self.known is not None:
            if ("branch", n, v) in self.distrust:  # (a value the condition has not)
                return []
            if n not in self.picked:
                self.picked[n] = v
                self.premise(("branch", n, v), (Function("if_cond", [n, v]),))
            elif self.picked[n] != v:
                return []
        return taken

    def relate_in_scope(self, a: clingo.Symbol, b: clingo.Symbol):
        """Two values at one place of a body (encodings/equations.lp): a conflict there may
        only mean that the body does not run (an If branch not taken), so it taints no
        value (the graph around the body computes with the same integers). Only past
        SCOPE_CLASHES pairs of integers does arithmetic get an allowance, as in an
        inconsistent graph: what is grounded stays, nothing false is added, some sizes may be
        left without a value."""
        key = (a, b)
        hit = self._relate_cache.get(key)
        if hit is None:
            # solving makes new expressions too: past the allowance, a new pair says nothing.
            # (A ceiling's proofs are computations too, counted after each pair that may
            # try them: an explaining grounding related 1,945 pairs of a Gemm's sizes and
            # an annotation's, each with ~14 proofs of ~1 ms, for 14 s within its allowance.)
            if _int_valued(a) and _int_valued(b):  # two different integers (past 2^30 too)
                hit = Function("conflict")
                self.scope_clashes += 1
                if self.scope_clashes > SCOPE_CLASHES and self.halt_at is None:
                    self.halt_at = self.calls + AFTER_SCOPE_CLASHES
            elif self.exhausted(key):
                # (no new value from it. Explaining, still a collision where the two
                # differ: a value that met another stays comparable - t1 annotated s0*s1*s1
                # + 2 met 1 from a Reshape, and its clash with the graph's s0*s1*s1 through a
                # MatMul said nothing, so the core held both routes to the error, 10 sources
                # where 5 force it: fuzz --narrowing seed 5624, graph 633. The fast mode
                # lists the collisions it found first: a GPT-2 block's keys' cache joined
                # along the batch then led with a weight's 32 against 64, far from it.)
                explaining = self.known is None
                tried = proofs_tried()
                hit = Function("conflict" if explaining and self._collide(a, b) else "unsolved")
                self.calls += proofs_tried() - tried
            else:
                tried = proofs_tried()
                hit = self._relate(a, b)
                self.calls += proofs_tried() - tried
                if hit.name == "unsolved":
                    self.unsolved_pairs += 1
                    if self.unsolved_pairs > UNSOLVED_PAIRS and self.halt_at is None:
                        self.halt_at = self.calls + AFTER_SCOPE_CLASHES
                        self.failures.append(f"budget: more than {UNSOLVED_PAIRS} equations "
                                             "the rules cannot solve")
            self._relate_cache[key] = hit
        return hit

    def _collide(self, a, b) -> bool:
        """Whether two values at one place cannot be equal (relate's conflict, under the
        floors; explaining substitutes no binding): no binding is made, nothing new."""
        try:
            x, y = _integer(a), _integer(b)
        except NotADim:
            return real_of(a) != real_of(b)
        if max(depth(x), depth(y)) > EXPLAIN_DEPTH:
            return False
        try:
            return relate(self._floored(x), self._floored(y), self.order).kind == "conflict"
        except FAILURES:
            return False

    def _relate(self, a, b):
        try:
            x, y = _integer(a), _integer(b)
        except NotADim:
            return Function("same" if real_of(a) == real_of(b) else "conflict")
        if self.known is None and max(depth(x), depth(y)) > EXPLAIN_DEPTH:
            return Function("unsolved")
        try:
            substituted = self._substituting and not _plain_pair(x, y)
            if substituted:
                # (a bare symbol against an integer or another symbol still gives its own
                # binding: an inconsistent graph then shows each value the symbol got;
                # against a compound expression it is substituted too, or a bound symbol
                # would get a second binding, s1 = max(4, s0) beside s1 = 4, to be
                # substituted everywhere again, without end)
                x0, y0 = x, y
                x, y = self._known(x, False), self._known(y, False)
            # (under the floors the graph requires: max(0, f - 1) = f - 1 is no equation)
            x, y = self._floored(x), self._floored(y)
            r = relate(x, y, self.order)
            if r.kind == "unsolved" and substituted and self.atom_rewrites:
                # (the floors rewritten inside the values too, a pair of products of
                # their spellings is the same value; the equation as it was solves
                # first: 2*((w + 2)//4) = w binds w = 2, which rewritten inside it, as
                # 4*((w + 2)//8) = w, only conflicts - the note that w = 2 is the one
                # size a Concat holds at would be lost)
                deep = relate(self._floored(self._known(x0)), self._floored(self._known(y0)),
                              self.order)
                r = deep if deep.kind == "same" else r
        except FAILURES:
            return Function("unsolved")
        if r.kind in ("bind", "range") and self._under_floor(r):
            return Function("conflict")
        if r.kind == "bind":
            # (a symbol once bound from an equation that was no fact yet is not
            # substituted: distrusting the pair only, the same equation came back in other
            # spellings, solve after solve - a scripted greedy decoder's loop)
            if self.known is not None and ("bind", r.symbol) not in self.distrust \
                    and r.symbol not in self.known:
                # oriented: the value only mentions symbols eliminated later, so
                # substituting the known bindings repeatedly terminates
                self.known[r.symbol] = r.value
                self.premise(("bind", r.symbol),
                             tuple(Function(name, [a, b]) for name in EQUATIONS))
            return Function("bind", [String(r.symbol), expr_to_symbol(r.value)])
        if r.kind == "range":
            return Function("range", [String(r.symbol), expr_to_symbol(Expr.const(r.lo)),
                                      expr_to_symbol(Expr.const(r.hi))])
        return Function(r.kind)

    @property
    def _substituting(self) -> bool:
        """Whether `_known` has anything to put in (fast mode, a binding or a rewrite)."""
        return bool(self.known or self.rewrites)

    def _known(self, e: Expr, deep: bool = True) -> Expr:
        """e with the bindings known so far substituted, and the values rewritten
        (`_rewrite`; fast mode only); the floors inside it too unless not `deep`."""
        known, rewrites = self.known, self.rewrites
        inner = self.atom_rewrites if deep else None
        if len(known) + len(rewrites) != self._known_size:
            self._known_cache.clear()
            self._known_size = len(known) + len(rewrites)
        hit = self._known_cache.get((e, deep))
        if hit is not None:
            return hit
        out = e
        for _ in range(16):
            shorter = rewrites.get(out)
            if shorter is not None:
                out = shorter
                continue
            if not known.keys().isdisjoint(out.symbol_set()):
                out = out.subs(known)
                continue
            deeper = out.subs_atoms(inner) if inner else out
            if deeper is out:
                break
            out = deeper
        self._known_cache[(e, deep)] = out
        return out

    def _under_floor(self, r) -> bool:
        """The equation's solutions are all below its symbol's floor or above its ceiling:
        no run has them (a branch's own name `_i1_t >= 5`, as its condition t > 4 says,
        bound to 3 where it reshapes x to 3 rows: that branch cannot run)."""
        if not self.floors:
            return False
        low, high = self.floors.floors.get(r.symbol), self.floors.ceilings.get(r.symbol)
        if low is None and high is None:
            return False
        lo, hi = (r.lo, r.hi) if r.kind == "range" else self._bounds(r.value)
        return (low is not None and hi < low) or (high is not None and lo > high)

    def _bounds(self, e: Expr) -> tuple:
        """e's interval, with the symbols' floors the solve knows (asp/floors.py)."""
        return self.floors.bounds(e) if self.floors else bounds(e)

    def _floored(self, e: Expr) -> Expr:
        """e without the max and min arguments the floors prove dominated."""
        return self.floors.simplified(e) if self.floors else e

    def _known_result(self, e: Expr) -> Expr:
        """A result with the bindings known so far substituted (fast mode only): a body's
        copy of `s` renamed to its scope's `_i1_s` is `s` again once the two are bound
        (a body that surely runs), so that arithmetic does not combine both spellings of
        one symbol into ever new values (nested bodies: their mixtures grew without end)."""
        return self._floored(self._known(e) if self._substituting else e)

    def _known_all(self, dims: list) -> list:
        if not self._substituting:
            return dims
        return [self._known(d) if isinstance(d, Expr) else d for d in dims]


def _spelling_order(e: Expr):
    """The simpler of two spellings of one size first: shallower, shorter, then by key."""
    depth = max((a.depth for mono, _ in e.terms for a, _ in mono), default=0)
    return depth, len(str(e)), e.key


def _integer(sym: clingo.Symbol) -> Expr:
    """A dim, or the integer a real(..) is (an integer-valued float element); else NotADim."""
    if sym.type == clingo.SymbolType.Function and sym.name == "real":
        r = real_of(sym)
        if not (r == r and abs(r) != float("inf") and r == floor(r)):
            raise NotADim(str(sym))
        return Expr.const(int(r))
    return symbol_to_expr(sym)


def real_of(sym: clingo.Symbol) -> float:
    """The float a number, real(..) or integer dim term stands for; else NotADim."""
    if sym.type == clingo.SymbolType.Number:
        return float(sym.number)
    if sym.type == clingo.SymbolType.Function and sym.name == "real":
        return float(sym.arguments[0].string)
    if sym.type == clingo.SymbolType.String:
        return float(symbol_to_expr(sym).value) if symbol_to_expr(sym).is_int else float("nan")
    raise NotADim(str(sym))
