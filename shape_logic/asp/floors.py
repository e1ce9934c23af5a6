"""Lower bounds of input symbols that the graph requires (`floor(S, L)`, encodings/floors.lp):
pure arithmetic on dimension expressions under `S >= L`.

A convolution over `s` with a kernel of 10 and no padding runs only where s >= 10 (its
output axis would be empty or negative: onnxruntime fails, the rules call it an error), so
every shape of a run of the graph is one with s >= 10. Symbols are otherwise only known to
be >= 1 (symbolic/bounds.py), and a Slice of what such convolutions leave, `max(0, f - 1)`,
or an integer Div of `s//80 - 3`, whose truncation is a floor only where it is >= 0, stay
undecided at s = 1 although no run has s = 1 (Wav2Vec2's and SEW-D's frames).

`least(e)`: the least value of e's one symbol at which e >= 1, found by trying each value
from 1 up: every smaller one was tried and gives e < 1, so the bound is exact whatever the
form of e (no monotonicity needed).

`Floors`: the floors a solve found (solver.Problem.atoms solves again with them): bounds
with each floored symbol s written s' + (L - 1), s' >= 1 (a change of variable, so exact),
and expressions with the max and min arguments those bounds prove dominated dropped.
"""
from __future__ import annotations

from functools import lru_cache

from ..symbolic import ops
from ..symbolic.bounds import bounds, not_zero
from ..symbolic.ceilings import least_value
from ..symbolic.expr import Expr, ExprOverflow
from ..symbolic.values import function_of

# the values of its symbol tried for a floor; when e < 1 for all of them, the floor is one
# above (sound: every value tried fails)
LEAST_CAP = 4096


@lru_cache(maxsize=4096)  # (pure; a model's convolutions ask it once per solve)
def least(e: Expr) -> tuple[str, int] | None:
    """(s, L): e's one symbol s, and the least L >= 1 with e(L) >= 1, when L > 1; else None
    (e has several symbols, or e >= 1 already at s = 1)."""
    syms = e.symbol_set()
    if len(syms) != 1 or bounds(e)[0] >= 1:
        return None
    (s,) = syms
    at = function_of(e, s)
    for v in range(1, LEAST_CAP + 1):
        if at(v) >= 1:
            return (s, v) if v > 1 else None
    return s, LEAST_CAP + 1


def least_nonnegative(e: Expr) -> tuple[str, int] | None:
    """(s, L) as `least` gives it for e + 1 >= 1, that is e >= 0 (a cropped axis may be
    empty, not negative)."""
    return least(e + 1)


@lru_cache(maxsize=1024)  # (pure; an If's condition asks it once per solve)
def most(e: Expr) -> tuple[str, int] | None:
    """(s, H): e's one symbol s, and the greatest H >= 1 with e(H) >= 1, where e < 1 at
    every s > H: proven by the bounds of e at s = H + s' (s' >= 1), so whatever the form
    of e. None where e has several symbols, is >= 1 past the values tried, or the bounds
    do not show it below 1 past H (a ceiling: an If's else-branch of t > 4 runs where
    5 - t >= 1, so t <= 4)."""
    syms = e.symbol_set()
    if len(syms) != 1 or bounds(e)[0] >= 1:
        return None
    (s,) = syms
    at = function_of(e, s)
    if at(LEAST_CAP) >= 1:  # (the last value tried runs: no ceiling below it)
        return None
    top = max((v for v in range(1, LEAST_CAP) if at(v) >= 1), default=None)
    if top is None:
        return None
    try:
        past = bounds(e.subs({s: Expr.sym(s) + top}))
    except ExprOverflow:
        return None
    return (s, top) if past[1] < 1 else None


# the values of a symbol an unsolved equation is tried at for a floor (each one a proof
# by bounds; the first that proves nothing ends the search)
ROOT_CAP = 256
# the greatest floor equations of one symbol give each other (least_root_from)
JOINT_CAP = 1024


@lru_cache(maxsize=1024)  # (pure; an equation is asked once per solve)
def least_roots(d: Expr) -> tuple[tuple[str, int], ...]:
    """((s, L), ...) for the symbols s of an equation d = 0 that could not be solved, where
    d is provably not 0 at each value of s below L whatever the other symbols are (each
    >= 1: the bounds of d at s = v), and L > 1. So every run has s >= L: Swin2SR's
    windows, `16*(h//4)*(w//4) = h*w` (a Reshape into windows of 4 that torch.export
    leaves), fail at h = 1..3, where 16*(h//4)*(w//4) is 0 and h*w is not: h >= 4, and
    then h//4 >= 1. Sound for each value tried, whatever the form of d; not always the
    least value with a root (the bounds may prove nothing at a value without one)."""
    found = []
    for s in sorted(d.symbol_set()):
        v = _first_root(d, s, least_value(s))
        if v > 1:
            found.append((s, v))
    return tuple(found)


@lru_cache(maxsize=1024)
def least_root_from(d: Expr, s: str, floor: int) -> int | None:
    """The least value of s from `floor` on at which the equation d = 0 of s alone may
    hold (None if that is `floor`): where the graph requires s >= floor, it requires that
    too. YOLOv8's neck joins each upsampled size to its skip's, 2*((h + 15)//16) =
    (h + 7)//8 (which holds from h = 9 on, at h%16 = 0 or past 8) and 2*((h + 31)//32) =
    (h + 15)//16 (from h = 17); from 17 the first holds next at 25, so h >= 25. (A floor
    of an equation of several symbols is least_roots' alone.)"""
    if d.symbol_set() != {s} or floor >= JOINT_CAP:
        return None
    v = _first_root(d, s, floor)
    # (none where no root was found: equations that never hold together, h%2 = 0 beside
    # h%2 = 1, would otherwise raise each other's floor without end)
    return v if floor < v <= min(floor + ROOT_CAP, JOINT_CAP) else None


def _first_root(d: Expr, s: str, v: int) -> int:
    """The first value from v on (within ROOT_CAP) at which d = 0 is not proven false by
    bounds, whatever d's other symbols are."""
    top = v + ROOT_CAP
    while v <= top:
        try:
            if not not_zero(d.subs({s: Expr.const(v)})):
                break
        except (ExprOverflow, ZeroDivisionError, ValueError):
            break
        v += 1
    return v


class Floors:
    """Symbol -> its floor L > 1, and symbol -> its ceiling H (an If branch's own names:
    encodings/conditions.lp), for one solve; its bounds and simplifications."""

    def __init__(self, floors: dict[str, int], ceilings: dict[str, int] | None = None):
        self.floors = dict(floors)
        self.ceilings = dict(ceilings or {})
        self._shift = {s: Expr.sym(s) + (v - 1) for s, v in self.floors.items()}
        # s <= H is s = H + 1 - s' with s' >= 1 (s' unbounded: s may then go below 1 too,
        # so the interval holds all the more); the floored symbols shifted beside them
        self._mirror = {**self._shift, **{s: Expr.const(v + 1) - Expr.sym(s)
                                          for s, v in self.ceilings.items()}}
        self._bounded = self._shift.keys() | self.ceilings.keys()
        # (without ceilings the mirror is the shift: one change of variable)
        self._changes = (self._shift, self._mirror) if self.ceilings else (self._shift,)
        self._bounds: dict = {}
        self._simple: dict = {}

    def __bool__(self) -> bool:
        return bool(self.floors or self.ceilings)

    def mentioned(self, e: Expr) -> bool:
        return not self._bounded.isdisjoint(e.symbol_set())

    def bounds(self, e: Expr) -> tuple[float, float]:
        """e's interval with each floored symbol s >= its floor and each ceiled one <= its
        ceiling (else as bounds(e)): the intersection of the intervals under each change
        of variable, each of which holds."""
        if not self.mentioned(e):
            return bounds(e)
        hit = self._bounds.get(e)
        if hit is None:
            hit = bounds(e)
            for change in self._changes:
                try:
                    lo, hi = bounds(e.subs(change))
                except ExprOverflow:
                    continue
                hit = (max(hit[0], lo), min(hit[1], hi))
            if hit[0] > hit[1]:  # (a floor above a ceiling: no run; say what e alone says)
                hit = bounds(e)
            self._bounds[e] = hit
        return hit

    def vanishes(self, e: Expr) -> bool:
        """e is 0 at every value of its one symbol from that symbol's floor (else 1) to its
        ceiling, a range of at most LEAST_CAP values, each tried: where the bounds of a
        floor division are looser than the range (an If's else-branch of 2*(t//4) - 1 != 15
        runs where 32 <= t <= 35, and there 2*(t//4) - 1 is 15: ViTDet's relative position
        table, resized unless it has that size already)."""
        syms = e.symbol_set()
        if len(syms) != 1:
            return False
        (s,) = syms
        hi = self.ceilings.get(s)
        lo = self.floors.get(s, 1)
        if hi is None or hi - lo > LEAST_CAP:
            return False
        at = function_of(e, s)
        return all(at(v) == 0 for v in range(lo, hi + 1))

    def simplified(self, e: Expr) -> Expr:
        """e without the max and min arguments that others dominate under the floors
        (`max(0, f - 1)` is `f - 1` where f >= 2); the other atoms as they are."""
        if not self.mentioned(e) or not _has_extremum(e):
            return e
        hit = self._simple.get(e)
        if hit is None:
            out = Expr.const(0)
            for mono, c in e.terms:
                term = Expr.const(c)
                for atom, p in mono:
                    a = self._atom(atom)
                    for _ in range(p):
                        term = term * a
                out = out + term
            hit = self._simple[e] = out
        return hit

    def _atom(self, atom) -> Expr:
        if atom.kind == "sym" or atom.kind == "ragged":
            return Expr.atom(atom)
        args = [self.simplified(a) for a in atom.args]
        if atom.kind in ("max", "min"):
            args = self._undominated(atom.kind, args)
        return ops.apply(atom.kind, args)

    def _undominated(self, kind: str, args: list[Expr]) -> list[Expr]:
        """The arguments no other one provably dominates (of equal ones, the first)."""
        sign = 1 if kind == "max" else -1
        kept = []
        for i, a in enumerate(args):
            beaten = False
            for j, b in enumerate(args):
                if j == i:
                    continue
                lo, hi = self.bounds(b - a) if sign > 0 else self.bounds(a - b)
                if lo > 0 or (lo >= 0 and (hi > 0 or j < i)):
                    beaten = True
                    break
            if not beaten:
                kept.append(a)
        return kept


def _has_extremum(e: Expr) -> bool:
    return any(_atom_has_extremum(a) for mono, _ in e.terms for a, _ in mono)


def _atom_has_extremum(atom) -> bool:
    if atom.kind in ("max", "min"):
        return True
    if atom.kind == "sym":
        return False
    return any(_has_extremum(a) for a in atom.args)
