"""Decoding tensors of unknown rank as rows: `[n]@s@[c]` (encodings/rows.lp).

A tensor whose rank stays unknown has min_rank K: its first and last axes up to
K in all exist. We print the leading axes that have values, the rest of the K
as trailing axes (a fresh name where nothing determines one), and a shape
variable for the unknown part between them.

Shape variables name rows: (T, P, J) is T without its first P and last J axes.
same_row(A, JA, B, JB) says (A, 0, JA) = (B, 0, JB); dropping as many more axes
from both sides keeps them equal, so the decoder closes the atoms under that and
joins them into classes (as fresh dim names are shared along equal axes). A
class gets the user's variable when an annotation names one of its rows, else a
fresh one.
"""
from __future__ import annotations

from dataclasses import dataclass

from .facts import row_parts
from .symbolic.expr import Expr


@dataclass(frozen=True)
class Row:
    lead: tuple  # Expr, the first axes
    var: str  # the user's shape variable, or "~k" for a fresh one (numbered when printed)
    trail: tuple  # Expr, the last axes

    def is_fresh(self) -> bool:
        return self.var.startswith("~")


def decode_rows(graph, atoms, poly: list, resolve, void, fresh) -> dict:
    from .decode import simplicity
    from .void_classes import UnionFind

    minr = atoms.min_rank
    classes = UnionFind()
    for a, ja, b, jb in atoms.same_rows:
        ka, kb = minr.get(a, ja), minr.get(b, jb)
        for p in range(max(0, min(ka - ja, kb - jb)) + 1):
            for e in range(min(ka - ja, kb - jb) - p + 1):
                classes.union((a, p, ja + e), (b, p, jb + e))
    names: dict = {}
    for decls in (graph.inputs, graph.outputs, graph.annotations):
        for info in decls.values():
            if info.shape is not None and info.shape.dims is None:
                lead, var, trail = row_parts(info.shape)
                if var.startswith("_"):
                    continue  # a function's variable, renamed per call: printed as a fresh one
                root = classes.find((info.name, len(lead), len(trail)))
                names[root] = min(names.get(root, var), var)
    fresh_vars: dict = {}
    rows = {}
    for t in poly:
        k = minr[t]
        lead = []
        while len(lead) < k and atoms.dims.get((t, len(lead))):
            lead.append(_best(atoms.dims[(t, len(lead))], resolve, simplicity))
        trail = []
        for j in range(k - len(lead), 0, -1):
            values = atoms.dims.get((t, -j))
            trail.append(_best(values, resolve, simplicity) if values
                         else fresh.for_class(void.find((t, -j))))
        root = classes.find((t, len(lead), len(trail)))
        var = names.get(root) or fresh_vars.setdefault(root, f"~{len(fresh_vars) + 1}")
        rows[t] = Row(tuple(lead), var, tuple(trail))
    return rows


def _best(values, resolve, simplicity) -> Expr:
    return min((resolve(v) for v in values), key=simplicity)
