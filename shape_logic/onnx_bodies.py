"""ONNX model-local functions and subgraph attributes onto the graph format's mechanism.

A FunctionProto becomes an entry of "functions" and a GraphProto attribute (Scan,
Loop, If bodies) a graph object; then calls are expanded per call site
(calls.py) and bodies copied into their node's namespace (subgraphs.py), exactly
as for graph files.
"""
from __future__ import annotations

from .calls import expand_calls
from .errors import InputError
from .graph import TensorInfo, declaration, dtype_of_array
from .subgraphs import expand_bodies


def needs_expansion(model) -> bool:
    from .onnx_import import GRAPH, GRAPHS

    return bool(model.functions) or any(
        a.type == GRAPH or a.type == GRAPHS for n in model.graph.node for a in n.attribute)


def expand_model(reader, model, json_reader_cls):
    """(nodes, body nodes, extra initializers, annotations) of the model's main graph, with
    its function calls expanded and its bodies copied."""
    functions = {}
    for f in model.functions:
        functions[f.name] = {"inputs": list(f.input), "outputs": list(f.output),
                             "nodes": [node_dict(n, i, f"functions.{f.name}")
                                       for i, n in enumerate(f.node)]}
    data = {"nodes": [node_dict(n, i, "graph") for i, n in enumerate(model.graph.node)],
            "functions": functions}
    expanded = expand_calls(data)
    json_reader = json_reader_cls(expanded, reader.path)
    json_reader.symbols = reader.symbols
    nodes = json_reader.nodes(expanded["nodes"])
    json_reader.extra = {"initializers": dict(expanded.get("initializers") or {}),
                         "annotations": dict(expanded.get("annotations") or {})}
    body_nodes = expand_bodies(json_reader, nodes, functions)
    inits = json_reader.initializers(json_reader.extra["initializers"])
    annotations = json_reader.decls(json_reader.extra["annotations"], "annotations", cls=1)
    return nodes, body_nodes, inits, annotations


def node_name(n, i: int) -> str:
    """A NodeProto's name, "<op>_<index in its graph>" when it has none."""
    return n.name or f"{n.op_type}_{i}"


def node_dict(n, i: int, where: str) -> dict:
    from .onnx_import import attribute_value

    name = node_name(n, i)
    attrs = {}
    for a in n.attribute:
        place = f'{where}.node[{i}] "{name}".attrs.{a.name}'
        if a.ref_attr_name:
            raise InputError("function attributes referring to the caller's "
                             "(ref_attr_name) are not supported", place=place)
        attrs[a.name] = _converted(attribute_value(a, place), _kept_declarations(n))
    out = {"name": name, "op": n.op_type, "inputs": list(n.input), "outputs": list(n.output),
           "attrs": attrs}
    if n.domain not in ("", "ai.onnx"):
        out["domain"] = n.domain
    return out


# onnxruntime's generation operators read their decoder's declared inputs: the past's
# [2, batch, heads, past, head size] gives the heads and head size of the empty first cache
# (kernels/GreedySearch.py), as onnxruntime's subgraph validation reads them
READS_DECLARED = frozenset({"GreedySearch", "BeamSearch", "WhisperBeamSearch", "Sampling"})
EVERY = 1 << 30  # (the count of a body's first inputs that keeps all)


def _kept_declarations(n) -> int:
    """How many of a body's first inputs keep their declarations: all for onnxruntime's
    generation operators (READS_DECLARED); a Loop's iteration number, whose rank onnxruntime
    takes from its declaration (`[]` a scalar, `[1]` a vector of one: loop.cc), and so Loop.lp
    does; none otherwise (a body's declared sizes are those its exporter traced)."""
    if n.domain == "com.microsoft" and n.op_type in READS_DECLARED:
        return EVERY
    return 1 if n.op_type == "Loop" and n.domain in ("", "ai.onnx") else 0


def _converted(v, declared: int = 0):
    if isinstance(v, TensorInfo):  # a type attribute, as the JSON format writes it
        return declaration(v)
    if isinstance(v, dict) and "onnx_graph" in v:
        return body_dict(v["onnx_graph"], declared)
    if isinstance(v, list) and v and isinstance(v[0], dict) and "onnx_graph" in v[0]:
        return [body_dict(x["onnx_graph"], declared) for x in v]
    return v


def _declared(t) -> dict | None:
    """A body input's type as a declaration: its marks, dtype and sizes, each an integer or
    `?` (None: nothing declared)."""
    from .onnx_import import ONNX_DTYPES, unwrapped_type

    d = _marks(t)
    tt = unwrapped_type(t)
    if tt is not None and ONNX_DTYPES.get(tt.elem_type):
        d["dtype"] = ONNX_DTYPES[tt.elem_type]
    if tt is not None and tt.HasField("shape"):
        d["shape"] = [x.dim_value if x.HasField("dim_value") else "?" for x in tt.shape.dim]
    return d or None


def _marks(t) -> dict:
    """{"optional": True} and/or {"sequence": True} as a value type says."""
    from .onnx_import import unwrapped_type

    info = TensorInfo("", "")
    unwrapped_type(t, info)
    return {mark: True for mark in ("optional", "sequence") if getattr(info, mark)}


def body_dict(g, declared: int = 0) -> dict:
    """A GraphProto as a graph object; its `declared` first inputs with the sizes their
    declarations give (integers; a named or unknown size `?`: the body's names are not the
    graph's, and a body runs at other sizes, as a beam search's decoder at batch * beams)."""
    from onnx import numpy_helper

    inits = {}
    for init in g.initializer:
        arr = numpy_helper.to_array(init)
        inits[init.name] = {"dtype": dtype_of_array(arr), "shape": list(arr.shape),
                            "data": arr.tolist()}
    inputs = [vi.name for vi in g.input if vi.name not in inits]
    # sequences and optionals declared as such (the executor feeds them lists, and None)
    marks = {vi.name: _marks(vi.type) for vi in g.input}
    if declared:
        types = {vi.name: vi.type for vi in g.input}
        inputs = {n: (_declared(types[n]) if k < declared else marks.get(n)) or None
                  for k, n in enumerate(inputs)}
    elif any(marks.get(n) for n in inputs):
        inputs = {n: marks.get(n) or None for n in inputs}
    return {"inputs": inputs,
            "outputs": [vi.name for vi in g.output],
            "nodes": [node_dict(n, i, f"graph {g.name!r}") for i, n in enumerate(g.node)],
            "initializers": inits}
