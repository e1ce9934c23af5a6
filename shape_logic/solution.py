"""The result of a solve: shapes in the shape language, bindings, diagnostics, renderings."""
from __future__ import annotations

from dataclasses import dataclass, field

from .decode import Decoded, meet_one_of, one_of_order, one_of_values_at
from .diagnostics import with_printed_names
from .graph import Graph
from .requirements import one_of_text
from .shapes import Shape, format_shape, has_fresh_name
from .symbolic.bounds import COUNT_PREFIX
from .symbolic.expr import Expr


@dataclass
class Solution:
    graph: Graph
    decoded: Decoded
    diagnostics: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    # tensor -> its shapes in the cases the graph leaves open (alternatives.py)
    alternatives: dict = field(default_factory=dict)
    cases: list = field(default_factory=list)  # the bindings of each case
    alternatives_capped: bool = False
    # the arithmetic's computations in the solve (the allowance of a later grounding with
    # sources as assumptions: limits.allowance, as `why`'s lineage takes it)
    computations: int = 0
    # an ONNX model's declared outputs that disagree with the graph (narrowing.py):
    # name -> (declared shape, why it is set aside, check's status)
    set_aside: dict = field(default_factory=dict)

    def __post_init__(self):
        self._producer_map = None  # (_producers)
        rename = {k: Expr.sym(v) for k, v in self.decoded.rename.items()}
        self._shapes: dict[str, str] = {}
        count = len({v for v in self.decoded.rename.values()  # fresh (not a count's `_c1`)
                     if v.startswith("_") and not v.startswith(COUNT_PREFIX)})
        row_vars: dict[str, str] = {}
        conflicted = self.decoded.conflicted
        texts: dict[int, str] = {}  # decoded shapes are shared objects: each printed once
        for t, sh in self.decoded.shapes.items():  # every tensor, in the graph's order
            row = self.decoded.rows.get(t)
            if sh is None and row is not None:  # rank unknown: a row, `[n]@s@[c]`
                if row.var not in row_vars:
                    if row.is_fresh():
                        count += 1
                    row_vars[row.var] = f"_{count}" if row.is_fresh() else row.var
                lead = [[d.subs(rename) for d in row.lead]] if row.lead else []
                trail = [[d.subs(rename) for d in row.trail]] if row.trail else []
                parts = lead + [row_vars[row.var]] + trail
                lead_labels = [[self._label(t, i) for i in range(len(row.lead))]] \
                    if row.lead else []
                trail_labels = [[self._label(t, j - len(row.trail))
                                 for j in range(len(row.trail))]] if row.trail else []
                labels = lead_labels + [None] + trail_labels
                self._shapes[t] = format_shape(parts, labels)
            elif sh is None:
                count += 1
                self._shapes[t] = f"_{count}"  # a fresh shape variable: rank unknown
            else:
                # an axis where values clash has no size to print: '?' (a graph input's
                # or an initializer's but the one its declaration gives: the user's own)
                if conflicted:
                    given = self._given(t, len(sh.dims))
                    dims = [(given[i] if given[i] is not None else "?") if (t, i) in conflicted
                            else str(d.subs(rename)) for i, d in enumerate(sh.dims)]
                elif not self.decoded.labels:
                    text = texts.get(id(sh))
                    # (subs returns the dim itself when there is nothing to rename)
                    if text is None:
                        text = texts[id(sh)] = "[" + ", ".join(str(d.subs(rename))
                                                               for d in sh.dims) + "]"
                    self._shapes[t] = text
                    continue
                else:
                    dims = [str(d.subs(rename)) for d in sh.dims]
                if self.decoded.labels:
                    dims = [f"{lab}:{d}" if (lab := self._label(t, i)) else d
                            for i, d in enumerate(dims)]
                self._shapes[t] = "[" + ", ".join(dims) + "]"
        self._rename = rename
        if self.diagnostics:
            self.diagnostics = with_printed_names(self.diagnostics, self.decoded.rename, count)

    def _given(self, t: str, rank: int) -> list:
        """Per axis, the dim a graph input's or an initializer's declaration gives it as
        text (None: none, or a `?`), for one of that rank; else Nones."""
        info = self.graph.inputs.get(t) or self.graph.initializers.get(t)
        dims = info.shape.dims if info is not None and info.shape is not None else None
        if dims is None or len(dims) != rank:
            return [None] * rank
        return [None if has_fresh_name(d) else str(d) for d in dims]

    def _label(self, t: str, i: int) -> str | None:
        return self.decoded.labels.get((t, i))

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

    def sequence(self, tensor: str) -> dict | None:
        """Of a sequence (ONNX seq(tensor(T))): {"length": int, expression text or None};
        its dtype and shape are what every element has. None for a tensor."""
        if tensor not in self.decoded.sequences:
            return None
        length = self.decoded.sequences[tensor]
        return {"length": None if length is None else _json_dim(length.subs(self._rename))}

    def length(self, tensor: str) -> Expr | None:
        """A sequence's length as an expression (fresh names renumbered), or None: not a
        sequence, or a length the graph does not give."""
        length = self.decoded.sequences.get(tensor)
        return None if length is None else length.subs(self._rename)

    def optional(self, tensor: str) -> dict | None:
        """Of an optional (ONNX optional(T)): {"has_element": True, False or None (either)};
        its dtype and shape are its element's. None for a tensor or sequence."""
        if tensor not in self.decoded.optionals:
            return None
        return {"has_element": self.decoded.optionals[tensor]}

    def dims(self, tensor: str) -> tuple[Expr, ...] | None:
        """The dims as expressions (fresh names renumbered), or None when the rank is unknown."""
        sh: Shape | None = self.decoded.shapes.get(tensor)
        if sh is None:
            return None
        return tuple(d.subs(self._rename) for d in sh.dims)

    @property
    def bindings(self) -> dict[str, int | str]:
        return {s: _json_dim(e.subs(self._rename))
                for s, e in sorted(self.decoded.bindings.items())}

    @property
    def ranges(self) -> dict:
        """symbol -> [lo, hi]: symbols an equation or a broadcast confines (a position
        table of 64 rows sliced to s positions and added to them: s in 1..64), and the
        fresh names of data-dependent dims (NonZero's count in 0..numel), whose bound may
        be an expression."""
        out = {s: [lo, hi] for s, (lo, hi) in sorted(self.decoded.ranges.items())}
        for name, (lo, hi) in self.decoded.data_ranges.items():
            shown = str(self._rename.get(name, Expr.sym(name)))
            out[shown] = [lo, _json_dim(hi.subs(self._rename))]
        return dict(sorted(out.items()))

    @property
    def input_values(self) -> dict[str, str]:
        """name -> the element of a graph input it stands for (`_c1` -> `k`, `sizes[0]`):
        an element the graph reads as a size (TopK's k, a ConstantOfShape's shape), >= 0
        wherever the graph runs, its value known at run time only; only the names printed."""
        out = {}
        for name, place in self.decoded.input_values.items():
            shown = self._rename.get(name) if name.startswith("_") else name
            if shown is not None:
                out[str(shown)] = place
        return dict(sorted(out.items()))

    @property
    def floors(self) -> dict[str, int]:
        """symbol -> the least value the graph lets it take, where above 1 and not in a
        range already: a convolution over s with a kernel of 10 runs only where s >= 10."""
        return dict(self.decoded.floors)

    @property
    def one_of(self) -> dict[str, list]:
        """dim expression -> the values it may take, where a broadcast requires it: [s] + [3]
        runs only at s = 1 or 3, {"s": [1, 3]}; against a value that cannot be 1, that
        value (as shapes' dims are: an expression's text), {"(h + 15)//16": [1, "2*((h +
        31)//32)"]} (the expressions renamed as in shapes)."""
        out: dict = {}
        for e, values in self.decoded.one_of.items():
            key = str(e.subs(self._rename))
            values = {v if isinstance(v, int) else str(v.subs(self._rename)) for v in values}
            kept = meet_one_of(set(out[key]) if key in out else None, values)
            out[key] = sorted(kept, key=one_of_order)
        return dict(sorted(out.items()))

    @property
    def inequalities(self) -> list[str]:
        """What nodes require of several symbols together, as text: `past + seq <= 64` (GPT-2
        over a KV cache reads positions past..past + seq - 1 of its 64 learned rows)."""
        return [f"{a.subs(self._rename)} <= {b.subs(self._rename)}"
                for a, b, _ in self.decoded.inequalities]

    def unmet(self, values: dict) -> list[str]:
        """What the graph requires of its symbols (ranges, floors, one_of, inequalities,
        constraints) that these values of them break, as text: `s in 1..64`, `s >= 25`, `s
        in {1, 3}`, `past + seq <= 64`, `h%4 = 0` (the executor's error says it)."""
        out = [f"{s} in {lo}..{hi}" for s, (lo, hi) in self.decoded.ranges.items()
               if isinstance(values.get(s), int) and not lo <= values[s] <= hi]
        out += [f"{s} >= {v}" for s, v in self.floors.items()
                if isinstance(values.get(s), int) and values[s] < v]
        subst = {s: Expr.const(v) for s, v in values.items() if isinstance(v, int)}
        for e, allowed in self.decoded.one_of.items():
            e = e.subs(self._rename)
            at = e.subs(subst)
            allowed = [v if isinstance(v, int) else v.subs(self._rename) for v in allowed]
            each = one_of_values_at(allowed, lambda v: v.subs(subst))
            if at.is_int and each is not None and at.value not in each:
                out.append(one_of_text(e, allowed))
        for (a, b, _), text in zip(self.decoded.inequalities, self.inequalities):
            d = (b - a).subs(self._rename).subs(subst)
            if d.is_int and d.value < 0:
                out.append(text)
        for (a, b), text in zip(self.decoded.constraints, self.constraints):
            d = (a - b).subs(self._rename).subs(subst)
            if d.is_int and d.value != 0:
                out.append(text)
        return out

    @property
    def constraints(self) -> list[str]:
        return ["{} = {}".format(*self.renamed(a, b)) for a, b in self.decoded.constraints]

    def renamed(self, *dims: Expr) -> tuple:
        """The dims with the solver's fresh names as printed (`_1`)."""
        return tuple(d.subs(self._rename) for d in dims)

    def to_json(self) -> dict:
        dtypes = self.decoded.dtypes
        tensors = {t: {"dtype": dtypes.get(t), "shape": shape} for t, shape in self._shapes.items()}
        for t in self.decoded.sequences:  # (what every element has, and how many)
            if t in tensors:
                tensors[t]["sequence"] = self.sequence(t)
        for t in self.decoded.optionals:  # (its element's, and whether it holds one)
            if t in tensors:
                tensors[t]["optional"] = self.optional(t)
        out = {
            "status": self.status,
            "tensors": tensors,
            "bindings": self.bindings,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
        ranges = self.ranges
        if ranges:
            out["ranges"] = ranges
        input_values = self.input_values
        if input_values:
            out["input_values"] = input_values
        if self.decoded.floors:
            out["floors"] = self.floors
        if self.decoded.constraints:
            out["constraints"] = self.constraints
        if self.decoded.one_of:
            out["one_of"] = self.one_of
        if self.decoded.inequalities:
            out["inequalities"] = self.inequalities
        if self.alternatives:
            out["alternatives"] = dict(self.alternatives)
            if any(self.cases):
                out["cases"] = list(self.cases)
        if self.alternatives_capped:
            out["alternatives_capped"] = True
        if self.graph.symbol_map:  # ONNX dim_params that are not NAMEs -> the NAME used
            out["symbols"] = dict(self.graph.symbol_map)
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    # ----- text
    def to_text(self, color: bool = False) -> str:
        from .render_text import render_solution

        return render_solution(self, color)

    def _producers(self) -> dict:
        """Tensor -> the node that makes it (the graph's nodes first, then the bodies'),
        made once: the text lists every tensor's origin (DenseNet-121's 2,595 tensors
        asked a map of its 910 nodes made anew each time: 0.29 s of a 0.85 s command)."""
        made = self._producer_map
        if made is None:
            made = {}
            for n in self.graph.nodes + self.graph.body_nodes:
                for t in n.outputs:
                    if t:
                        made.setdefault(t, n)
            self._producer_map = made
        return made

    def origin(self, tensor: str) -> str:
        g = self.graph
        if tensor in g.inputs:
            return "input"
        if tensor in g.initializers:
            return "initializer"
        node = self._producers().get(tensor)
        if node is not None:
            return f'{node.op} "{node.name}"'
        return ""


def _json_dim(e: Expr) -> int | str:
    return e.value if e.is_int else str(e)
