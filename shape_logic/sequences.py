"""Sequences (ONNX seq(tensor(T)), encodings/sequences.lp) in a solution: what every
element has, and the length.

A sequence's dtype, rank and dims are what holds of EVERY element. An axis where the
elements differ, or where the solve knows nothing common, has no size to print: `?`,
not a fresh name (a fresh name is one unknown size; here each element may have its own).
"""
from __future__ import annotations

from .shapes import Shape
from .symbolic.expr import Expr

VARIES = Expr.sym("?")  # an axis the elements need not share


def element_shapes(atoms, shapes: dict, resolve, simplicity) -> dict:
    """{sequence: its simplest length (Expr) or None}; each sequence's axes without a
    value in `shapes` become `?`."""
    out = {}
    for t, lengths in atoms.seqs.items():
        if t not in shapes:  # (a virtual tensor, or one of a body's scopes)
            continue
        out[t] = min((resolve(e) for e in lengths), key=simplicity) if lengths else None
        shape = shapes.get(t)
        if shape is None:
            continue
        dims = [d if atoms.dims.get((t, i)) else VARIES for i, d in enumerate(shape.dims)]
        shapes[t] = Shape((tuple(dims),))
    return out


def columns(sol, t: str) -> tuple[str, str]:
    """A tensor's dtype and shape as the text table and pictures print them; a sequence's
    as `seq(f32)` and `{2 x [?, 3]}` (its length, and what every element has)."""
    seq = sol.sequence(t)
    if seq is None:
        return sol.dtype(t) or "?", sol.shape(t)
    length = "?" if seq["length"] is None else seq["length"]
    return f"seq({sol.dtype(t) or '?'})", f"{{{length} x {sol.shape(t)}}}"
