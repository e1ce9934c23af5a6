"""The result of a solve: shapes in the shape language, bindings, diagnostics, renderings."""
from __future__ import annotations

from dataclasses import dataclass, field

from .decode import Decoded
from .graph import Graph
from .shapes import Shape
from .symbolic.expr import Expr


@dataclass
class Solution:
    graph: Graph
    decoded: Decoded
    diagnostics: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    timings: dict = field(default_factory=dict)

    def __post_init__(self):
        rename = {k: Expr.sym(v) for k, v in self.decoded.rename.items()}
        self._shapes: dict[str, str] = {}
        count = len(rename)
        for t in self.graph.tensors():
            sh = self.decoded.shapes.get(t)
            if sh is None:
                count += 1
                self._shapes[t] = f"_{count}"  # a fresh shape variable: rank unknown
            else:
                # an axis where values clash has no size to print: '?'
                dims = ["?" if (t, i) in self.decoded.conflicted else str(d.subs(rename))
                        for i, d in enumerate(sh.dims)]
                self._shapes[t] = "[" + ", ".join(dims) + "]"
        self._rename = rename

    # ----- the Python API of INTERFACE §6
    @property
    def status(self) -> str:
        return "error" if self.diagnostics else "ok"

    def shape(self, tensor: str) -> str:
        if tensor not in self._shapes:
            raise KeyError(f"no tensor named {tensor!r} in graph {self.graph.name!r}")
        return self._shapes[tensor]

    def dtype(self, tensor: str) -> str | None:
        return self.decoded.dtypes.get(tensor)

    def dims(self, tensor: str) -> tuple[Expr, ...] | None:
        """The dims as expressions (fresh names renumbered), or None when the rank is unknown."""
        sh: Shape | None = self.decoded.shapes.get(tensor)
        if sh is None:
            return None
        return tuple(d.subs(self._rename) for d in sh.dims)

    @property
    def bindings(self) -> dict[str, int | str]:
        return {s: _json_dim(e.subs(self._rename)) for s, e in sorted(self.decoded.bindings.items())}

    @property
    def ranges(self) -> dict:
        """symbol -> [lo, hi]: symbols an equation confines, and the fresh names of
        data-dependent dims (NonZero's count in 0..numel), whose bound may be an expression."""
        out = {s: [lo, hi] for s, (lo, hi) in sorted(self.decoded.ranges.items())}
        for name, (lo, hi) in self.decoded.data_ranges.items():
            shown = str(self._rename.get(name, Expr.sym(name)))
            out[shown] = [lo, _json_dim(hi.subs(self._rename))]
        return dict(sorted(out.items()))

    @property
    def constraints(self) -> list[str]:
        return [f"{a.subs(self._rename)} = {b.subs(self._rename)}"
                for a, b in self.decoded.constraints]

    def to_json(self) -> dict:
        tensors = {}
        for t in self.graph.tensors():
            entry = {"dtype": self.decoded.dtypes.get(t), "shape": self._shapes[t]}
            tensors[t] = entry
        out = {
            "status": self.status,
            "tensors": tensors,
            "bindings": self.bindings,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
        ranges = self.ranges
        if ranges:
            out["ranges"] = ranges
        if self.decoded.constraints:
            out["constraints"] = self.constraints
        if self.graph.symbol_map:  # ONNX dim_params that are not NAMEs -> the NAME used
            out["symbols"] = dict(self.graph.symbol_map)
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    # ----- text
    def to_text(self, color: bool = False) -> str:
        from .render_text import render_solution

        return render_solution(self, color)

    def origin(self, tensor: str) -> str:
        g = self.graph
        if tensor in g.inputs:
            return "input"
        if tensor in g.initializers:
            return "initializer"
        node = g.producer().get(tensor)
        if node is not None:
            return f'{node.op} "{node.name}"'
        return ""


def _json_dim(e: Expr) -> int | str:
    return e.value if e.is_int else str(e)
