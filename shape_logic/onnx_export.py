"""`solve model.onnx -o annotated.onnx`: the model with every inferred shape in value_info.

Everything else of the model is kept as it was.  A dim is written as dim_value when it
is an integer and as a dim_param string otherwise: the expression in the shape language
(`past_seq + seq`), a mapped dim_param under its original text, and a dim nothing
determines under its fresh name (`_3`, shared by equal dims) - in value_info only: a
graph output keeps its own unnamed dims rather than gaining names.  Tensors whose rank
is unknown get only their elem_type (or nothing).
"""
from __future__ import annotations

from .errors import InputError
from .onnx_bodies import node_name
from .onnx_import import DTYPE_TO_ONNX
from .sequences import VARIES
from .subgraphs import body_prefix
from .symbolic.expr import Expr


def annotated_model(sol):
    """A copy of the solved ONNX model with the inferred dtypes and shapes written in: the
    main graph's tensors in its value_info, a body's (If, Loop, Scan) in the body's own."""
    import onnx

    source = sol.graph.source
    if type(source).__name__ != "ModelProto":
        raise InputError("writing ONNX is only supported for graphs read from ONNX models; "
                         "use a .json output")
    model = onnx.ModelProto()
    model.CopyFrom(source)
    original = {v: k for k, v in sol.graph.symbol_map.items()}
    main = _Entries(model.graph)
    bodies = {k: _Entries(g) for k, g in _body_graphs(model.graph).items()}
    for node in sol.graph.nodes:
        for t in node.outputs:
            if t in main.made:
                main.annotate(t, sol, t, original)
    # a function's inner tensors (its calls are expanded under the call's name) are in no
    # graph of the model: left out, as is anything else not made by a node of its body
    for node in sol.graph.body_nodes:
        parent, key, _ = node.scope[-1]
        body = bodies.get((parent, key))
        if body is None:
            continue
        prefix = body_prefix(parent, key)
        for t in node.outputs:
            if t.startswith(prefix) and t[len(prefix):] in body.made:
                body.annotate(t[len(prefix):], sol, t, original)
    return model


def _body_graphs(graph, prefix: str = "") -> dict:
    """{(node name as the graph format has it, attribute): GraphProto} of every body,
    nested ones too (onnx_bodies.node_name, subgraphs.body_prefix)."""
    from .onnx_import import GRAPH

    out = {}
    for i, n in enumerate(graph.node):
        name = prefix + node_name(n, i)
        for a in n.attribute:
            if a.type == GRAPH:
                out[(name, a.name)] = a.g
                out.update(_body_graphs(a.g, body_prefix(name, a.name)))
    return out


class _Entries:
    """One graph of the model (the main graph or a body): the tensors its nodes make, its
    declared outputs and value_info entries by name, indexed once."""

    def __init__(self, g):
        self.g = g
        self.made = {t for n in g.node for t in n.output if t}
        self.outputs = {vi.name: vi for vi in g.output}
        self.existing = {vi.name: vi for vi in g.value_info}

    def annotate(self, name: str, sol, t: str, original: dict) -> None:
        """Tensor t's inferred type written in, where this graph calls it `name`."""
        if name in self.outputs:
            _fill_output(self.outputs[name], sol, t, original)
            return
        vi = self.existing.get(name)
        if vi is None:
            if sol.dtype(t) is None and sol.dims(t) is None:
                return  # nothing known: no entry
            vi = self.existing[name] = self.g.value_info.add()
            vi.name = name
        _write_type(vi, sol, t, original)


def write_annotated_onnx(sol, path: str):
    import onnx

    model = annotated_model(sol)
    try:
        onnx.save(model, path)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot write: {e}", path)


def _write_type(vi, sol, t: str, original: dict):
    """Our dtype and dims replace what the entry said (kept where we know nothing)."""
    dtype, dims = sol.dtype(t), sol.dims(t)
    tt = _tensor_type(vi, sol, t)
    if dtype in DTYPE_TO_ONNX:
        tt.elem_type = DTYPE_TO_ONNX[dtype]
    if dims is None:
        return
    tt.shape.Clear()
    for d in dims:
        _set_dim(tt.shape.dim.add(), d, original, fresh_ok=True)


def _fill_output(vi, sol, t: str, original: dict):
    """A declared graph output: fill in its elem_type, rank and dims where it gives none."""
    dtype, dims = sol.dtype(t), sol.dims(t)
    tt = _tensor_type(vi, sol, t)
    if not tt.elem_type and dtype in DTYPE_TO_ONNX:
        tt.elem_type = DTYPE_TO_ONNX[dtype]
    if dims is None:
        return
    if not tt.HasField("shape"):
        tt.shape.SetInParent()
        for _ in dims:
            tt.shape.dim.add()
    if len(tt.shape.dim) != len(dims):
        return  # a rank clash is a shape error, reported by the solve
    for proto, d in zip(tt.shape.dim, dims):
        if proto.WhichOneof("value") is None:
            _set_dim(proto, d, original, fresh_ok=False)


def _tensor_type(vi, sol, t: str):
    """The TypeProto.Tensor to write t's type in: a sequence's is its elements', an
    optional's its element's (unless the entry declares another type: onnx's loop16_seq_none
    carries an optional sequence into a sequence)."""
    tp = vi.type
    if sol.optional(t) is not None and tp.WhichOneof("value") in (None, "optional_type"):
        tp = tp.optional_type.elem_type
    return tp.sequence_type.elem_type.tensor_type if sol.sequence(t) is not None \
        else tp.tensor_type


def _set_dim(proto, d: Expr, original: dict, fresh_ok: bool):
    if d == VARIES:  # a sequence's axis its elements need not share: no value, no name
        return
    if d.is_int:
        proto.dim_value = d.value
        return
    if not fresh_ok and any(s.startswith("_") for s in d.symbols()):
        return
    syms = d.symbols()
    if len(syms) == 1 and d == Expr.sym(next(iter(syms))) and str(d) in original:
        proto.dim_param = original[str(d)]
    else:
        proto.dim_param = str(d)
