"""Equal sizes print alike: one spelling for the dims that are the same size written two ways.

The arithmetic keeps a normal form of polynomials over floors, mods, maxes and mins, and
some sizes have more than one: a sequence padded to a multiple of 8 is `n + 7*n%8` after
the Pad and `8*((n + 7*n%8)//8)` after a Reshape that splits it into blocks of 8 and one
that joins them again (bench/zoo_sequence.py's pad_multiple). Both are right, and a reader
comparing the two tensors would take them for different sizes. INTERFACE §1 promises equal
expressions print identically; so the decoder looks, among the dims it prints, for pairs
that differ by a multiple of an expression of one symbol that is 0 at every value the
symbol takes (symbolic/periodic.py's exact test), and prints the simpler of each such pair
everywhere. Pairs are only tested where their values agree at a few sample sizes.
"""
from __future__ import annotations

from .symbolic.expr import Expr, ExprOverflow
from .symbolic.ops import without_symbol_content
from .symbolic.periodic import identically_zero

# sizes each symbol takes in turn to tell apart the dims that cannot be equal (a dim's
# values there: its fingerprint)
SAMPLES = ((3, 5, 7, 11), (16, 24, 40, 56), (97, 61, 45, 33))
MOST_DIMS = 2000  # distinct dims beyond which the spellings are left as they are


def alike(dims, simplicity) -> dict:
    """{dim: the simplest dim equal to it} for the dims (Exprs) that have another spelling
    among `dims`; `simplicity` is decode's sort key."""
    distinct = sorted({d for d in dims if not d.is_int}, key=simplicity)
    if len(distinct) > MOST_DIMS:
        return {}
    groups: dict = {}
    for d in distinct:
        names = tuple(sorted(d.symbols()))
        key = (names, _fingerprint(d, names))
        if key[1] is not None:
            groups.setdefault(key, []).append(d)
    out: dict = {}
    for (names, _), same in groups.items():
        kept: list = []  # the simplest of each class found so far
        for d in same:  # (simplest first)
            first = next((k for k in kept if _equal(d, k)), None)
            if first is None:
                kept.append(d)
            else:
                out[d] = first
    return out


def _fingerprint(d: Expr, names: tuple):
    try:
        values = []
        for sample in SAMPLES:
            at = {s: Expr.const(sample[i % len(sample)] + i // len(sample))
                  for i, s in enumerate(names)}
            v = d.subs(at)
            if not v.is_int:
                return None
            values.append(v.value)
        return tuple(values)
    except (ExprOverflow, ZeroDivisionError, ValueError):
        return None


def _equal(a: Expr, b: Expr) -> bool:
    """a = b at every size: their difference, its symbols common to every term divided out
    (a factor 0 or not, the rest being 0 makes it 0), is an expression of one symbol that is
    0 wherever it is a size: from 1 on for a name of the inputs', from 0 on for one the
    solver made (a count `_c` may be 0, and so may an axis without a value)."""
    try:
        diff = without_symbol_content(a - b)
    except ExprOverflow:
        return False
    names = diff.symbols()
    if len(names) != 1:
        return False
    s = next(iter(names))
    try:
        return identically_zero(diff, s, 0 if s.startswith("_") else 1)
    except (ExprOverflow, ZeroDivisionError, ValueError):
        return False


def alike_shapes(shapes: dict, simplicity) -> dict:
    """The shapes (tensor -> Shape or None) with each dim that has a simpler spelling among
    them printed so."""
    from .requirements import each_dim

    dims = [d for shape in {id(s): s for s in shapes.values() if s is not None}.values()
            if shape.dims is not None for d in shape.dims]
    simpler = alike(dims, simplicity)
    return each_dim(shapes, lambda d: simpler.get(d, d)) if simpler else shapes
