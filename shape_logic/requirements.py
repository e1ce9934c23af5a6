"""What a graph requires of its input dims beyond equations, as the decoder reads it back:
ranges and floors with the node that bounds them (range_from/3, floor_from/3), the shapes
printed under the ranges, and inequalities of several symbols (requires_le/3); and all a
solve requires of the inputs' symbols, as text (input_requirements: repair.py compares a
changed node's with the graph's own; new_requirements, by what they allow: narrowing.py a
declaration's).

A learned position table bounds the sequence a model runs: BERT's 64 positions sliced to
the sequence and added to it broadcast only where seq <= 64 (encodings/broadcast.lp's
@broadcast_range), GPT-2's gathered by arange(seq) only where seq <= 64 and, over a KV
cache, by arange(past, past + seq) only where past + seq <= 64 (floors.lp's at_most).
"""
from __future__ import annotations

from itertools import product
from math import prod

from .shapes import Shape
from .symbolic.bounds import bounds
from .symbolic.divisibility import condition_of
from .symbolic.expr import Expr, ExprOverflow
from .symbolic.respell import respelled, respelling_rules


def range_origins(found: dict, ranges: dict, as_constraint) -> dict:
    """Symbol -> the tensor whose node gives its range's upper end (the first by name of
    those that do: a BERT's position table added to the sequence, `seq <= 64`), or else
    the equation that confines it, (A, B) as `as_constraint` states it (fused DistilBERT's
    position ids against its input ids, `min(64, seq) = seq`)."""
    out = {}
    for s, (_, hi) in ranges.items():
        places = [p for h, p in found.get(s, ()) if h == hi]
        tensors = sorted(p for p in places if isinstance(p, str))
        equations = _equations(places, as_constraint)
        if tensors or equations:
            out[s] = tensors[0] if tensors else equations[0]
    return out


def floor_origins(found: dict, floors: dict, graph, as_constraint) -> dict:
    """Symbol -> what requires its floor: a tensor whose node does (a convolution's output:
    its window must fit), the earliest in the graph's order of those that do, or else an
    equation that could not be solved, (A, B) as `as_constraint` states it (a Reshape into
    windows of 4: `h >= 4` by `16*(h//4)*(w//4) = h*w`, printed as the condition on h it
    amounts to, `h%4 = 0`; such an equation has no one node, its values meet wherever the
    graph joins them again)."""
    made = {}  # tensor -> the place of its node in the graph's order
    for i, n in enumerate(graph.nodes):
        for t in n.outputs:
            if t:
                made.setdefault(t, i)
    out = {}
    for s, v in floors.items():
        places = [p for f, p in found.get(s, ()) if f == v]
        nodes = sorted((made[p], p) for p in places if isinstance(p, str) and p in made)
        if nodes:
            out[s] = nodes[0][1]
            continue
        equations = _equations(places, as_constraint)
        if equations:
            # (one that amounts to divisibility conditions: the symbol's own, `h >= 4` by
            # `h%4 = 0`, as the constraints print it)
            out[s] = condition_of(s, *equations[0]) or equations[0]
    return out


def _equations(places, as_constraint) -> list:
    """The equations among a requirement's places, ("equation", E1, E2), each (A, B) as
    `as_constraint` states it (those that state nothing left out), in a fixed order."""
    return sorted(filter(None, (as_constraint(p[1], p[2]) for p in places
                                if isinstance(p, tuple))), key=str)


def under_ranges(shapes: dict, ranges: dict) -> dict:
    """The shapes with the max and min arguments that the ranges dominate dropped: every
    run has each symbol in its range, so BERT's 64 learned positions sliced to the
    sequence, `min(64, seq)` rows, are `seq` rows where seq in 1..64 (asp/floors.py's
    simplification, under the ranges' ends as floors and ceilings)."""
    return each_dim(shapes, _under(ranges).simplified)


def _under(ranges: dict):
    """asp/floors.py's Floors of the ranges' ends (symbol -> (lo, hi), hi None: no upper
    end): the max and min arguments they dominate go."""
    from .asp.floors import Floors

    return Floors({s: lo for s, (lo, _) in ranges.items() if lo > 1},
                  {s: hi for s, (lo, hi) in ranges.items() if hi is not None and hi >= lo})


def respelled_shapes(shapes: dict, equations: list) -> dict:
    """The shapes with c times a coarser floor printed as the finer one where the graph
    requires them equal (symbolic/respell.py: YOLOv8's anchors of the stride-8 level,
    `4*((h + 15)//16)*((w + 15)//16)`, are `((h + 7)//8)*((w + 7)//8)`)."""
    rules = respelling_rules(equations)
    return each_dim(shapes, lambda d: respelled(d, rules)) if rules else shapes


def each_dim(shapes: dict, f) -> dict:
    """The shapes with f applied to each dim (once per distinct Shape: most tensors share
    a few), a Shape kept where nothing changed."""
    simpler: dict = {}  # id(Shape) -> the Shape simplified
    out = {}
    for t, shape in shapes.items():
        if shape is None or shape.dims is None:
            out[t] = shape
            continue
        new = simpler.get(id(shape))
        if new is None:
            try:
                dims = tuple(f(d) for d in shape.dims)
            except ExprOverflow:
                dims = shape.dims
            new = simpler[id(shape)] = shape if dims == shape.dims else Shape((dims,))
        out[t] = new
    return out


def inequalities(found: list, resolve) -> list:
    """[(A, B, tensor)]: each A <= B that some node requires (after the bindings), one per
    difference B - A, none that holds whatever the symbols (the bounds show B - A >= 0) or
    of integers alone (true, or the node's own reason said so), sorted by text."""
    out: dict = {}
    for a, b, t in found:
        try:
            a, b = resolve(a), resolve(b)
            d = b - a
            if d.is_int or bounds(d)[0] >= 0:
                continue
        except ExprOverflow:
            continue
        if d not in out:
            d = _spelled_before(d, out) or d
        # (of two spellings at one tensor, the one whose difference prints first)
        if d not in out or t < out[d][2] or (
                t == out[d][2] and str(b - a) < str(out[d][1] - out[d][0])):
            out[d] = (a, b, t)
    return sorted(out.values(), key=lambda abt: (str(abt[0]), str(abt[1])))


def _spelled_before(d: Expr, found: dict) -> Expr | None:
    """The difference among `found` that is d spelled otherwise: d - e an expression of one
    symbol that is 0 at each of its values (`32*((seq + 3*seq%4)//4)` is `32*seq -
    32*(3*seq//4)`: two paths of the arithmetic to one bound)."""
    from .symbolic.periodic import identically_zero

    for e in found:
        try:
            diff = d - e
        except ExprOverflow:
            continue
        names = diff.symbols()
        if len(names) == 1 and identically_zero(diff, next(iter(names)), 1):
            return e
    return None


def _input_bindings(graph, decoded) -> dict:
    return {s: v for s, v in decoded.bindings.items() if graph.symbol_class.get(s) == 0}


def input_requirements(graph, decoded, kinds=None) -> list[str]:
    """What a solve requires of the inputs' symbols: bindings, ranges, floors, the values a
    broadcast allows, inequalities, and equations among them alone that it could not solve
    (each as text: `seq = 5`, `h in 223..224`, `s in {1, 4}`, `past + seq <= 64`, `3*h*w =
    b`); only those of `kinds` if given (EQUATED). An equation that also names a declared
    output's own symbol (`m*n = k*l` for a declared `k*l`) names the dim; it requires
    nothing of the inputs."""
    return [text for text, _, kind in _requirements(graph, decoded)
            if kinds is None or kind in kinds]


# The kinds of requirement an equation makes: a declared output meets the graph in
# equations of its dims, so it requires the values of a broadcast or an inequality only
# by way of one of these (narrowing's first check reads them alone; a GPT-2 over a KV cache
# requires `past + seq <= 64` of itself, which its declarations do not change)
EQUATED = frozenset({"binding", "range", "floor", "equation"})


def new_requirements(graph, decoded, alone) -> list[str]:
    """The input_requirements of `decoded` that the solve `alone` (of the graph without a
    declaration) does not make already: neither among its own texts nor implied by the
    values it leaves each input symbol. A declared 4 meeting the broadcast of s with 4
    gives `s in 1..4` where the graph alone gives `s in {1, 4}`: nothing new (narrowing
    set such a declaration aside, fuzz seed 5701 graph 1305)."""
    free = set(input_requirements(graph, alone))
    domains = _Domains(graph, alone)
    return [text for text, holds, _ in _requirements(graph, decoded)
            if text not in free and not holds(domains)]


# the requirements a warning names, at most: a MaskFormer output declared with two names
# over its four axes required 40 restatements of one equation (15,000 characters)
SHOWN = 4


def requirements_text(texts: list[str]) -> str:
    """`texts` joined by "and", or the SHOWN shortest of them (in their order) and how many
    more there are: the shortest say it plainest (`max(batch, (h + 3)//4) = batch`)."""
    if len(texts) <= SHOWN:
        return " and ".join(texts)
    shortest = set(sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))[:SHOWN])
    return " and ".join(t for i, t in enumerate(texts) if i in shortest) + \
        f" (and {len(texts) - SHOWN} more requirements of the same sizes)"


def _requirements(graph, decoded) -> list[tuple]:
    """input_requirements as (text, whether a _Domains makes it hold, kind)."""
    inputs = graph.input_symbols()
    out = [(f"{s} = {v}", lambda d, s=s, v=v.value: d.implies(s, v, v), "binding")
           for s, v in _input_bindings(graph, decoded).items() if v.is_int]
    out += [(f"{s} = {v}", _never, "binding") for s, v in _input_bindings(graph, decoded).items()
            if not v.is_int]
    out += [(f"{s} in {lo}..{hi}", lambda d, s=s, lo=lo, hi=hi: d.implies(s, lo, hi), "range")
            for s, (lo, hi) in decoded.ranges.items() if s in inputs]
    # (a floor an equation requires that the solve no longer states: E = 2*E as s >= 4,
    # where E is 0 and the equation gone; a convolution's window is the graph's own, and
    # an equation stated below says as much as its floor)
    met = set(decoded.met_constraints)
    out += [(f"{s} >= {v}", lambda d, s=s, v=v: d.implies(s, v, None), "floor")
            for s, v in decoded.floors.items() if s in inputs and not (
                isinstance(origin := decoded.floor_origins.get(s), str) or
                isinstance(origin, tuple) and (origin in met or origin[::-1] in met))]
    for e, values in decoded.one_of.items():
        if _in_terms_of(inputs, e, *values):
            out.append((one_of_text(e, values), lambda d, e=e, values=values: d.holds(
                lambda at: _at(e, at) in {_at(v, at) for v in values} - {None}, e, *values),
                "one_of"))
    out += [(f"{a} <= {b}", lambda d, a=a, b=b: d.holds(
        lambda at: _compare(a, b, at, int.__le__), a, b), "inequality")
            for a, b, _ in decoded.inequalities if _in_terms_of(inputs, a, b)]
    out += [(f"{a} = {b}", lambda d, a=a, b=b: d.holds(
        lambda at: _compare(a, b, at, int.__eq__), a, b) or d.states(a, b), "equation")
            for a, b in decoded.met_constraints if _in_terms_of(inputs, a, b)]
    return out


def one_of_text(e, values) -> str:
    """A requirement of one_of as text: `s in {1, 3}`."""
    return f"{e} in {{{', '.join(map(str, values))}}}"


def _never(_domains) -> bool:
    return False


def _in_terms_of(inputs, *values) -> bool:
    return all(isinstance(v, int) or v.symbols() <= inputs for v in values)


def _proportional(d, e) -> bool:
    """Whether d is a nonzero rational multiple of e (both expressions)."""
    if e.is_int:
        return False
    mono, c = e.terms[0]
    k = dict(d.terms).get(mono, 0)
    if not k:
        return False
    try:
        return d * c == e * k
    except ExprOverflow:
        return False


def _compare(a, b, at: dict, op) -> bool:
    x, y = _at(a, at), _at(b, at)
    return x is not None and y is not None and op(x, y)


def _at(value, at: dict) -> int | None:
    """The integer a dim value (an integer or an Expr) takes at integer values of its
    symbols (None where it is none: a division by zero, an overflow)."""
    if isinstance(value, int):
        return value
    try:
        got = value.subs(at)
    except (ExprOverflow, ZeroDivisionError):
        return None
    return got.value if got.is_int else None


# the most points of the symbols' values a requirement is checked at (and the values of
# its one symbol over which a range is tried for a requirement it implies: decode._within)
ONE_OF_SPAN = 64


def holds_at_every_point(test, domains: dict) -> bool:
    """Whether `test` (of a substitution symbol -> Expr) is true at every point of the
    symbols' values (`domains`: symbol -> its integers), at most ONE_OF_SPAN points: False
    where there are more, where a symbol has none, or where a point has no value."""
    names = sorted(domains)
    values = [sorted(domains[s]) for s in names]
    if not names or not all(values) or prod(len(v) for v in values) > ONE_OF_SPAN:
        return False
    try:
        return all(test({s: Expr.const(v) for s, v in zip(names, point)})
                   for point in product(*values))
    except (ArithmeticError, ValueError):  # (no value at some of them: not implied)
        return False


class _Domains:
    """The values a solve leaves each input symbol: its binding, one_of (of the symbol
    alone, integers), range and floor met together (a symbol is at least 1)."""

    def __init__(self, graph, decoded):
        self.lo: dict = {}
        self.hi: dict = {}
        self.values: dict = {}
        for s, v in _input_bindings(graph, decoded).items():
            if v.is_int:
                self._meet(s, v.value, v.value)
        for s, (lo, hi) in decoded.ranges.items():
            self._meet(s, lo, hi)
        for s, v in decoded.floors.items():
            self._meet(s, v, None)
        for e, values in decoded.one_of.items():
            if not e.is_int and len(e.symbols()) == 1 and e == Expr.sym(next(iter(e.symbols()))) \
                    and all(isinstance(v, int) for v in values):
                s = next(iter(e.symbols()))
                old = self.values.get(s)
                self.values[s] = set(values) if old is None else old & set(values)
        for s, values in self.values.items():  # (its least and greatest value bound it too)
            if values:
                self._meet(s, min(values), max(values))
        # the max and min arguments the ranges and floors dominate (requirements.under_ranges)
        self.under = _under({s: (lo, self.hi.get(s)) for s, lo in self.lo.items()})
        inputs = graph.input_symbols()
        self.equations = [a - b for a, b in decoded.met_constraints
                          if _in_terms_of(inputs, a, b)]

    def _meet(self, s, lo, hi) -> None:
        self.lo[s] = max(self.lo.get(s, 1), lo)
        if hi is not None:
            self.hi[s] = min(self.hi.get(s, hi), hi)

    def _finite(self, s) -> set | None:
        lo, hi = self.lo.get(s, 1), self.hi.get(s)
        values = self.values.get(s)
        if values is not None:
            return {v for v in values if lo <= v and (hi is None or v <= hi)}
        if hi is not None and hi - lo < ONE_OF_SPAN:
            return set(range(lo, hi + 1))
        return None

    def implies(self, s, lo, hi) -> bool:
        """Whether every value left to s lies in lo..hi (hi None: no upper end)."""
        values = self._finite(s)
        if values is not None:
            return all(lo <= v and (hi is None or v <= hi) for v in values)
        return self.lo.get(s, 1) >= lo and (hi is None or self.hi.get(s, hi + 1) <= hi)

    def states(self, a, b) -> bool:
        """Whether a = b says what an equation of the solve says, or nothing, once the max
        and min arguments its symbols' values dominate are dropped: `s1*s3*max(5, s1) = 20`
        is `s1*s3 = 4` where s1 in 1..5 (fuzz seed 5622, graph 1292)."""
        try:
            d = self.under.simplified(a - b)
        except ExprOverflow:
            return False
        if d.is_int:
            return d.value == 0
        return any(_proportional(d, e) for e in self.equations)

    def holds(self, test, *values) -> bool:
        """Whether `test` is true at every point of the finite values left to the symbols
        of `values` (holds_at_every_point; False where one symbol's are not finite). A
        value undefined at a point (None) meets nothing."""
        domains = {s: self._finite(s) for v in values if not isinstance(v, int)
                   for s in v.symbols()}
        return None not in domains.values() and holds_at_every_point(test, domains)

