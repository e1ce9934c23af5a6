"""Sequences (ONNX seq(tensor(T)), encodings/sequences.lp) in a solution: what every
element has, and the length; and optionals (opt/1): whether one holds an element.

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


def holdings(opts: dict, shapes: dict) -> dict:
    """{optional: True if it surely holds an element, False if surely none, else None}."""
    return {t: True if "opt_some" in marks else False if "opt_none" in marks else None
            for t, marks in opts.items() if "opt" in marks and t in shapes}


def columns(sol, t: str) -> tuple[str, str]:
    """A tensor's dtype and shape as the text table and pictures print them; a sequence's
    as `seq(f32)` and `{2 x [?, 3]}` (its length, and what every element has); an optional's
    as `opt(f32)` and its element's shape (`none`: it surely holds no element)."""
    seq = sol.sequence(t)
    dtype, shape = sol.dtype(t) or "?", sol.shape(t)
    if seq is not None:
        length = "?" if seq["length"] is None else seq["length"]
        dtype, shape = f"seq({dtype})", f"{{{length} x {shape}}}"
    opt = sol.optional(t)
    if opt is not None:
        dtype, shape = f"opt({dtype})", "none" if opt["has_element"] is False else shape
    return dtype, shape
