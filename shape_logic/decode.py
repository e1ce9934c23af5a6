"""From the answer set back to shapes: pick each axis's most resolved value.

Every value the program derives for an axis is true (each rule is sound), so
any of them may be printed; after substituting the final bindings we print the
simplest.  Axes with no value get fresh names, shared along equal axes; tensors
of unknown rank get a fresh shape variable.  Fresh names are numbered in order
of appearance.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .scopes import is_scoped, name_scope, surely_running, unscoped_name
from .graph import Graph
from .shapes import Shape
from .symbolic.divisibility import (divisibility, joined_multiples,
                                    without_implied_by_divisors)
from .symbolic.equation import divided_out
from .symbolic.expr import Expr, ExprOverflow
from .symbolic.implied import independent
from .symbolic.orders import minimal
from .symbolic.values import function_of
from .answer_set import Atoms
from .requirements import (ONE_OF_SPAN, floor_origins, holds_at_every_point, inequalities,
                           range_origins, respelled_shapes, under_ranges)
from .conflicted import conflicted_axes
from .decode_rows import decode_rows
from .sequences import element_shapes, holdings
from .spellings import alike_shapes
from .void_classes import FreshNames, VoidClasses
from .asp.data_counts import count_names, input_values, is_printed_count
from .symbolic.bounds import COUNT_PREFIX


def simplicity(e: Expr):
    """Sort key: integers first, then fewer symbols, fewer terms, shorter text."""
    return (not e.is_int, len(e.symbols()), len(e.terms), len(str(e)), str(e))


class Resolver:
    """Substitutes the final bindings until no bound symbol is left."""

    def __init__(self, binds: dict[str, set[Expr]], counts: dict | None = None):
        self.best = {s: min(vs, key=simplicity) for s, vs in binds.items()}
        # a count's name C, unbound, is printed_count + 1 (asp/data_counts.py)
        self.best.update((c, e) for c, e in (counts or {}).items() if c not in self.best)
        self.memo: dict[Expr, Expr] = {}

    def __call__(self, e: Expr) -> Expr:
        hit = self.memo.get(e)
        if hit is not None:
            return hit
        out = e
        for _ in range(64):  # bindings are oriented, so this reaches a fixpoint
            if not (out.symbols() & self.best.keys()):
                break
            try:
                out = out.subs(self.best)
            except (ExprOverflow, ZeroDivisionError):  # bindings of an inconsistent graph
                out = e
                break
        self.memo[e] = out
        return out


@dataclass
class Decoded:
    shapes: dict  # tensor -> Shape | None
    dtypes: dict  # tensor -> str | None
    bindings: dict  # user symbol -> Expr
    ranges: dict  # symbol -> (lo, hi)
    constraints: list  # (Expr, Expr) that must hold
    rename: dict  # internal fresh name -> printed fresh name
    conflicted: set = field(default_factory=set)  # (tensor, axis) where values clash
    rows: dict = field(default_factory=dict)  # tensor of unknown rank -> Row (decode_rows)
    labels: dict = field(default_factory=dict)  # (tensor, axis) -> its one label
    data_ranges: dict = field(default_factory=dict)  # a data-dependent dim's name -> (0, Expr)
    met_constraints: list = field(default_factory=list)  # all met, the implied too (narrowing)
    sequences: dict = field(default_factory=dict)  # sequence -> its length (Expr) or None
    optionals: dict = field(default_factory=dict)  # optional -> holds an element (or None)
    floors: dict = field(default_factory=dict)  # symbol -> the least value it may take, > 1
    nonempty: set = field(default_factory=set)  # (tensor, axis) >= 1 wherever the graph runs
    open_ranks: set = field(default_factory=set)  # tensors whose rank the sizes decide
    one_of: dict = field(default_factory=dict)  # dim value (Expr) -> the values it may take
    # symbol -> the tensor whose node bounds it by its range's upper end, or the equation
    # (A, B) that confines it (range_from)
    range_origins: dict = field(default_factory=dict)
    # [(A, B, tensor)]: A <= B of several symbols, required by the node making the tensor
    inequalities: list = field(default_factory=list)
    # symbol -> what requires its floor (floor_from): a tensor whose node does, or an
    # equation (A, B)
    floor_origins: dict = field(default_factory=dict)
    # a graph input's element read as a size, by its name as decoded (counts.lp) -> its
    # place, `k` or `sizes[1]`
    input_values: dict = field(default_factory=dict)


def decode(graph: Graph, atoms: Atoms) -> Decoded:
    resolve = Resolver(atoms.binds, count_names(atoms.data_bounds, atoms.dims,
                                                atoms.size_values)
                       if atoms.data_bounds or atoms.size_values else None)
    void = VoidClasses(atoms)
    fresh = FreshNames(graph.fresh_count, atoms.void_names, void.find,
                       lambda names: min((resolve(e) for e in names), key=simplicity))
    shapes, dtypes, poly = {}, {}, []
    data_ranges: dict = {}
    tensors = graph.tensors()
    bound = bool(resolve.best)
    all_dims, all_ranks, all_dtypes = atoms.dims, atoms.rank, atoms.dtype
    shared: dict[tuple, Shape] = {}  # one Shape per distinct dims: most tensors repeat a few
    for t in tensors:
        ranks = all_ranks.get(t)
        held = all_dtypes.get(t)
        dtypes[t] = min(held) if held else None
        if not ranks:
            shapes[t] = None
            if t in atoms.min_rank:
                poly.append(t)
            continue
        rank = min(ranks)
        if len(ranks) > 1:  # ranks that clash (a shape error): the rank the user gave it,
            rank = _declared_rank(graph, t, ranks)  # else none (a fresh shape variable: the
            if rank is None:  # smallest rank printed `[]` for a tensor of [4, 5])
                shapes[t] = None
                continue
        dims = []
        for i in range(rank):
            values = all_dims.get((t, i))
            if values and len(values) == 1 and not bound:
                dims.append(next(iter(values)))  # the common case: one value, nothing bound
            elif values:
                dims.append(min((resolve(v) for v in values), key=simplicity))
                bounds = atoms.data_bounds.get((t, i)) if atoms.data_bounds else None
                if bounds and is_printed_count(dims[-1]):  # (a count: counts.lp)
                    _note_data_range(data_ranges, dims[-1], bounds, resolve)
            else:
                dims.append(fresh.for_class(void.find((t, i))))
                bounds = atoms.data_bounds.get((t, i))
                if bounds:
                    _note_data_range(data_ranges, dims[-1], bounds, resolve)
        key = tuple(dims)
        shape = shared.get(key)
        if shape is None:
            shape = shared[key] = Shape((key,))
        shapes[t] = shape
    sequences = element_shapes(atoms, shapes, resolve, simplicity) if atoms.seqs else {}
    rows = decode_rows(graph, atoms, poly, resolve, void, fresh) if poly else {}
    bindings = {s: resolve(Expr.sym(s)) for s in atoms.binds
                if graph.symbol_class.get(s, 2) < 2}
    ranges = {}
    for s, rs in atoms.ranges.items():  # (a body's own names: only where it runs)
        if resolve(Expr.sym(s)).symbols() == {s} and not is_scoped(s):
            ranges[s] = (max(lo for lo, _ in rs), min(hi for _, hi in rs))
    if ranges:
        shapes = under_ranges(shapes, ranges)
    one_of = _one_of(atoms.one_or, resolve, ranges) if atoms.one_or else {}
    met = _constraints(atoms.unsolved, resolve, surely_running(graph, atoms.runs)
                       if atoms.unsolved and graph.has_bodies else atoms.runs)
    if one_of:
        met = [ab for ab in met if not _implied_by_one_of(ab, one_of)]
    if atoms.conflicts:  # (`1 = 0` from colliding values is their error, said by it)
        met = [(a, b) for a, b in met if not (a.is_int and b.is_int)]
    else:
        shapes = alike_shapes(respelled_shapes(shapes, met), simplicity)
    floors = {s: v for s, v in sorted(atoms.floors.items()) if v > 1 and  # (floors.lp)
              graph.symbol_class.get(s, 2) < 2 and s not in bindings and
              (s not in ranges or ranges[s][0] < v)}
    # printed: those that the others do not imply through the orders that `max(x, y) = y`
    # states (symbolic/orders.py)
    constraints = sorted(minimal(without_implied_by_divisors(joined_multiples(met)),
                                 simplicity),
                         key=lambda ab: (str(ab[0]), str(ab[1])))
    conflicted = conflicted_axes(graph, atoms, shapes) if atoms.conflicts or \
        atoms.scope_conflicts else set()

    def stated(e1: Expr, e2: Expr):  # (an equation as the constraints state it: origins)
        return _stated(e1, e2, resolve)

    return Decoded(shapes, dtypes, bindings, ranges, constraints,
                   _renumber(tensors, shapes, [e for ab in constraints for e in ab] +
                             list(one_of), rows), conflicted, rows,
                   {k: min(v) for k, v in atoms.labels.items() if len(v) == 1}, data_ranges,
                   met, sequences, holdings(atoms.opts, shapes),
                   floors, atoms.nonempty, atoms.open_ranks,
                   one_of, range_origins(atoms.range_from, ranges, stated),
                   inequalities(atoms.le_required, resolve),
                   floor_origins(atoms.floor_from, floors, graph, stated),
                   input_values(graph, atoms.size_values, resolve))


def _declared_rank(graph, t: str, ranks: set) -> int | None:
    """The rank of t's declaration as an input or initializer, if it is among `ranks`."""
    info = graph.inputs.get(t) or graph.initializers.get(t)
    rank = info.shape.rank if info is not None and info.shape is not None else None
    return rank if rank in ranks else None


def _note_data_range(data_ranges: dict, name: Expr, bounds, resolve):
    """A data-dependent axis's fresh name lies in 0..the simplest of its upper bounds
    (each bound holds; an integer bound is kept as the smallest one)."""
    his = [resolve(b) for b in bounds]
    ints = [h.value for h in his if h.is_int]
    hi = Expr.const(min(ints)) if ints else min(his, key=simplicity)
    old = data_ranges.get(str(name))
    if old is None or (hi.is_int and (not old[1].is_int or hi.value < old[1].value)):
        data_ranges[str(name)] = (0, hi)


def _constraints(unsolved, resolve, runs: set) -> list:
    """The equations that must hold, one per difference of their sides (`s4 + max(3, s2) =
    s4 + 3` is `max(3, s2) = 3`), each as its simplest form: the same whatever order the
    answer set lists them in. An equation of the names of a body that may not run (a scope
    not in `runs`, the scopes that run whenever the graph does) holds only where it runs,
    even once its names are resolved to the graph's: `_i2_s0 = 1` in an If branch not
    taken is not `4 = 1`, nor in a Loop that surely runs inside it."""
    best: dict = {}
    for e1, e2 in unsolved:
        if any(name_scope(s) not in runs for s in e1.symbol_set() | e2.symbol_set()
               if is_scoped(s)):
            continue
        found = _stated_keyed(e1, e2, resolve)
        if found is None:
            continue
        # (a product of floor divisions against its numerators: the divisibility conditions
        # it amounts to, `h%4 = 0` and `w%4 = 0` for `16*(h//4)*(w//4) = h*w`)
        for pair, key in [((m, z), m) for m, z in divisibility(*found[0]) or ()] or [found]:
            rank = (simplicity(pair[0]), simplicity(pair[1]))
            if key not in best or rank < best[key][0]:
                best[key] = (rank, pair)
    # (without those the simpler ones imply: symbolic/implied.py)
    kept = independent([pair for _, pair in best.values()],
                       order=lambda ab: (simplicity(ab[0]), simplicity(ab[1])))
    return sorted(kept, key=lambda ab: (str(ab[0]), str(ab[1])))


def _stated(e1: Expr, e2: Expr, resolve) -> tuple | None:
    """(A, B): the equation e1 = e2 as the constraints state it, or None."""
    found = _stated_keyed(e1, e2, resolve)
    return None if found is None else found[0]


def _stated_keyed(e1: Expr, e2: Expr, resolve) -> tuple | None:
    """((A, B), key): e1 = e2 resolved (else as it is) with common factors divided out, the
    more complex side first, and its key (_constraint); None when it says nothing."""
    found = _constraint(resolve(e1), resolve(e2)) or _constraint(e1, e2)
    if found is None or found[2] is False:
        return None
    a, b, key = found
    return ((a, b) if simplicity(a) >= simplicity(b) else (b, a)), key


def _constraint(a: Expr, b: Expr):
    """(a, b, key) of the equation a = b after dividing out common factors, its key the
    difference of the sides (first coefficient positive); key False when it says nothing
    (a = b, or names of a body remain); None when the sides' arithmetic outgrows an
    expression (ExprOverflow: a Col2Im's block count, a product of floors, resolved by the
    bindings - its unresolved sides are tried next, and an equation too large either way is
    left out, which states less, never something wrong)."""
    try:
        if a == b or any(is_scoped(s) for s in (a - b).symbol_set()):
            return a, b, False
        a, b = divided_out(a, b)
        return a, b, (a - b) if (a - b).terms and (a - b).terms[0][1] > 0 else (b - a)
    except ExprOverflow:
        return None


def _one_of(one_or: dict, resolve, ranges: dict) -> dict:
    """Dim value -> the sorted values it may take (broadcast.lp's one_or(E, N): E is 1 or
    N, an integer or a value that cannot be 1), after the bindings: 1 and N, or 1 alone
    where E meets two values N. Left out: a value the bindings make an integer (it is one
    of them, or the rules clash), one with a name of a body (it holds only where that
    runs), an N that E is after the bindings (nothing to require), and one whose symbol's
    range keeps it among them already (`s//2` in {1, 3} where s in 2..3: s//2 is 1
    there)."""
    out: dict = {}
    for e, ns in one_or.items():
        r = resolve(e)
        values = {_int_or_expr(resolve(n)) if isinstance(n, Expr) else n for n in ns} - {r}
        if r.is_int or not values or any(
                is_scoped(s) for x in [e, r, *values] if isinstance(x, Expr)
                for s in x.symbol_set()):
            continue
        for n in sorted(values, key=one_of_order):
            out[r] = meet_one_of(out.get(r), {1, n})
    return {e: tuple(sorted(v, key=one_of_order))
            for e, v in sorted(out.items(), key=lambda ev: str(ev[0]))
            if not _within(e, v, ranges)}


def _implied_by_one_of(pair: tuple, one_of: dict) -> bool:
    """Whether the equation holds at every value its symbols may take where each is required
    to be one of a few integers (`max(5, s3) = 5` beside `s3 in {1, 5}`, from a declared
    output meeting a broadcast: a trial of narrowing.py took it for a new requirement)."""
    a, b = pair
    domains = {s: one_of.get(Expr.sym(s)) for s in (a - b).symbol_set()}
    if any(d is None or not all(isinstance(v, int) for v in d) for d in domains.values()):
        return False
    return holds_at_every_point(lambda at: a.subs(at) == b.subs(at), domains)


def meet_one_of(old: set | None, new: set) -> set:
    """Two requirements of one value, both held: what they allow together where all their
    values are integers (two N leave 1 alone), else one of them, the one of integers if
    either is (an expression N may be the other N: each requirement holds, and one is
    said)."""
    if old is None:
        return new
    if all(isinstance(v, int) for v in old | new):
        return old & new
    return old if all(isinstance(v, int) for v in old) else new


def one_of_values_at(values, at) -> set[int] | None:
    """A one_of requirement's values (integers, expressions) as integers, each expression
    mapped by `at` (a substitution of the symbols' values); None where one keeps a symbol."""
    out = set()
    for v in values:
        if not isinstance(v, int):
            v = at(v)
            if not v.is_int:
                return None
            v = v.value
        out.add(v)
    return out


def _int_or_expr(e: Expr) -> int | Expr:
    return e.value if e.is_int else e


def one_of_order(v) -> tuple:
    """A one_of value's place: integers first, then expressions (or their texts) by text."""
    return (0, v, "") if isinstance(v, int) else (1, 0, str(v))


def _within(e: Expr, values: set, ranges: dict) -> bool:
    """e takes only `values` over its one symbol's range (spanning at most ONE_OF_SPAN)."""
    syms = e.symbol_set()
    (s,) = syms if len(syms) == 1 else (None,)
    lo, hi = ranges.get(s, (1, 0))
    if not 0 <= hi - lo < ONE_OF_SPAN:
        return False
    if any(isinstance(n, Expr) and n.symbol_set() != syms for n in values):
        return False
    try:
        at = function_of(e, s)
        each = [function_of(n, s) if isinstance(n, Expr) else (lambda v, n=n: n)
                for n in values]
        return all(at(v) in {f(v) for f in each} for v in range(lo, hi + 1))
    except (ArithmeticError, ValueError):  # (a division by 0 there: say it all the same)
        return False


def _renumber(tensors: list, shapes: dict, exprs: list, rows: dict) -> dict:
    """Fresh names `_k` renumbered 1, 2, ... in order of first appearance."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(e: Expr):
        syms = e.symbol_set()
        if not syms:  # most dims
            return
        for s in sorted(syms, key=lambda n: (len(n), n)):
            if s.startswith("_") and s not in seen:
                seen.add(s)
                order.append(s)

    visited: set[int] = set()  # shapes are shared: each distinct one is visited once
    for t in tensors:
        sh = shapes.get(t)
        if sh is not None:
            if id(sh) not in visited:
                visited.add(id(sh))
                for d in sh.dims:
                    visit(d)
        elif t in rows:
            for d in rows[t].lead + rows[t].trail:
                visit(d)
    for e in exprs:  # (the constraints' sides, the values one_of names)
        visit(e)
    # a body's own name prints as the name it copies (scopes.py): the body's tensors
    # exist only when it runs, and then the two are equal
    rename: dict[str, str] = {}
    fresh: dict[str, str] = {}  # a fresh name -> its number
    counts: dict[str, str] = {}  # a count's name -> its number (`_c1`: may be 0)
    for old in order:
        base = unscoped_name(old)
        if base.startswith(COUNT_PREFIX):
            base = counts.setdefault(base, f"{COUNT_PREFIX}{len(counts) + 1}")
        elif base.startswith("_"):
            base = fresh.setdefault(base, f"_{len(fresh) + 1}")
        rename[old] = base
    return rename
