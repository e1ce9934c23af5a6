"""Reading ONNX models into a `Graph` (INTERFACE §6), with the onnx package.

Tensor names are the model's value names; symbols are the inputs' dim_param
names.  A dim_param that is an expression of the shape language is read as
that expression; any other is mapped to a NAME (the mapping is kept in
`graph.symbol_map`).  A dim with neither value nor name gets a fresh name.
Intermediate value_info is ignored: we infer it.
"""
from __future__ import annotations

import re

import numpy as np

from .errors import InputError
from .graph import Graph, Node, TensorInfo, dtype_of_array
from .onnx_bodies import expand_model, needs_expansion, node_name
from .load_json import SymbolTable, check_dims
from .sequences import VARIES
from .shapes import Shape, has_fresh_name, is_name
from .symbolic.expr import Expr
from .symbolic.parse import parse_dim

# dim_params that say a size is unknown rather than name it (paddle2onnx writes `?` for
# every such dim of an input, the height and the width of an image alike): each occurrence
# is a fresh name, as `?` is in the shape language, not one symbol shared by all of them
UNKNOWN_DIMS = frozenset({"?", "*"})
# onnx TensorProto element types -> our dtype names
ONNX_DTYPES = {1: "f32", 2: "u8", 3: "i8", 4: "u16", 5: "i16", 6: "i32", 7: "i64", 8: "str",
               9: "bool", 10: "f16", 11: "f64", 12: "u32", 13: "u64", 14: "c64", 15: "c128",
               16: "bf16", 17: "f8e4m3fn", 18: "f8e4m3fnuz", 19: "f8e5m2", 20: "f8e5m2fnuz",
               21: "u4", 22: "i4", 23: "f4e2m1", 24: "f8e8m0", 25: "u2", 26: "i2"}
DTYPE_TO_ONNX = {v: k for k, v in ONNX_DTYPES.items()}
# plain numeric types whose inline raw bytes are the array (little-endian, as ONNX stores them)
_RAW_DTYPES = {1: "<f4", 2: "u1", 3: "i1", 4: "<u2", 5: "<i2", 6: "<i4", 7: "<i8", 9: "?",
               10: "<f2", 11: "<f8", 12: "<u4", 13: "<u8"}
# types whose typed field holds the elements as they are (float_data, int32_data, int64_data...)
_FIELD_DTYPES = {1: ("float_data", np.float32), 6: ("int32_data", np.int32),
                 7: ("int64_data", np.int64), 11: ("double_data", np.float64)}
# onnx's AttributeProto types (fixed by onnx.proto), as ints: a model has thousands of
# attributes, and looking the enum up in onnx for each cost ~2 us
FLOAT, INT, STRING, TENSOR, GRAPH, FLOATS, INTS, STRINGS, GRAPHS, SPARSE_TENSOR, TYPE_PROTO = (
    1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13)


def read_onnx_file(path: str) -> Graph:
    import onnx

    try:
        model = onnx.load(path, load_external_data=True)
    except FileNotFoundError:
        raise InputError("no such file", path)
    except Exception as e:  # protobuf raises its own DecodeError; onnx raises ValueError...
        raise InputError(f"not a readable ONNX model ({type(e).__name__}: {e})", path)
    if not model.HasField("graph"):  # an empty or unrelated protobuf parses as an empty model
        raise InputError("not an ONNX model: it has no graph", path)
    g = graph_from_model(model, path)
    return g


def graph_from_model(model, path: str | None = None) -> Graph:
    try:
        return _ModelReader(model, path).read()
    except InputError as e:
        raise e.located(path)


class _ModelReader:
    def __init__(self, model, path):
        self.model = model
        self.path = path
        self.symbols = SymbolTable()
        self.symbol_map: dict[str, str] = {}

    def read(self) -> Graph:
        m = self.model
        opset = 18
        for imp in m.opset_import:
            if imp.domain in ("", "ai.onnx"):
                opset = imp.version
        graph = self.read_graph(m.graph, opset)
        graph.source = m
        return graph

    def read_graph(self, g, opset: int) -> Graph:
        """A GraphProto (the model's, or a subgraph attribute's) as a Graph."""
        initializers = {}
        for init in g.initializer:
            initializers[init.name] = self.initializer(init)
        inputs = {}
        for vi in g.input:
            if vi.name in initializers:
                continue  # IR < 4 lists initializers as inputs: the data decides
            inputs[vi.name] = self.value_info(vi, f"graph.input[{vi.name}]", cls=0)
        outputs = {vi.name: self.value_info(vi, f"graph.output[{vi.name}]", cls=1)
                   for vi in g.output}
        body_nodes, annotations = [], {}
        m = self.model  # the model's graph expands its functions and bodies (onnx_bodies.py)
        nodes = self.plain_nodes(g) if m is not None and g is m.graph else self.nodes(g.node)
        if nodes is None:
            from .load_json import _GraphReader

            nodes, body_nodes, extra, annotations = expand_model(self, m, _GraphReader)
            initializers.update(extra)
        graph = Graph(name=g.name or "model", opset=opset, inputs=inputs, outputs=outputs,
                      initializers=initializers, nodes=nodes, annotations=annotations,
                      path=self.path, symbol_class=self.symbols.cls,
                      fresh_count=self.symbols.count, source=g, body_nodes=body_nodes)
        graph.symbol_map = self.symbol_map
        return graph

    def initializer(self, init) -> TensorInfo:
        place = f"graph.initializer[{init.name}]"
        try:
            arr = tensor_array(init)
        except Exception as e:
            raise InputError(f"cannot read initializer data ({e})", place=place)
        info = TensorInfo(init.name, place, dtype=ONNX_DTYPES.get(init.data_type),
                          shape=Shape.of(arr.shape), data=arr)
        return info

    def value_info(self, vi, place: str, cls: int) -> TensorInfo:
        info = TensorInfo(vi.name, place)
        tt = unwrapped_type(vi.type, info)
        if tt is None:
            return info
        if tt.elem_type:
            info.dtype = ONNX_DTYPES.get(tt.elem_type)
        if tt.HasField("shape"):
            dims = []
            for d in tt.shape.dim:
                which = d.WhichOneof("value")
                if which == "dim_value" and d.dim_value >= 0:
                    dims.append(Expr.const(d.dim_value))
                # (in a sequence's element type a dim_param is no common size: onnx's
                # node tests declare seq(tensor([N])) of elements of 6, 9 and 1)
                elif which == "dim_param" and d.dim_param and not info.sequence:
                    dims.append(self.dim_param(d.dim_param))
                else:
                    dims.append(self.symbols.fresh())
            info.shape = Shape((tuple(dims),))
            check_dims(info.shape, place)
            self.symbols.note(info.shape, cls)
        return info

    def dim_param(self, text: str) -> Expr:
        if text.strip() in UNKNOWN_DIMS:  # (the shape language's `?`: a fresh name each)
            return self.symbols.fresh()
        if text in self.symbol_map:
            return Expr.sym(self.symbol_map[text])
        try:
            e = parse_dim(text)
            if not has_fresh_name(e):
                return e
        except ValueError:
            pass
        name = re.sub(r"\W", "_", text).lstrip("_") or "dim"
        if name[0].isdigit():
            name = "d" + name
        base, k = name, 1
        while name in self.symbol_map.values():
            k += 1
            name = f"{base}_{k}"
        self.symbol_map[text] = name
        return Expr.sym(name)

    def plain_nodes(self, g) -> list[Node] | None:
        """The model graph's nodes, or None when the model needs its functions and bodies
        expanded (onnx_bodies.needs_expansion), found while reading them: a pass of its own
        over every attribute's type cost ~1% of a DenseNet-121 solve. A node that cannot be
        read is reported as the expansion would report it, when the model needs one."""
        if self.model.functions:
            return None
        try:
            return self.nodes(g.node, stop_at_bodies=True)
        except Exception:  # (what the expansion's reading would have met first)
            if needs_expansion(self.model):
                return None
            raise

    def nodes(self, protos, stop_at_bodies: bool = False) -> list[Node] | None:
        out = []
        used: set[str] = set()
        for i, n in enumerate(protos):
            name = node_name(n, i)
            if name in used:
                name = f"{name}_{i}"
            used.add(name)
            attrs = {}
            for a in n.attribute:
                if stop_at_bodies and (a.type == GRAPH or a.type == GRAPHS):
                    return None
                attrs[a.name] = attribute_value(a, _Place(i, name, a.name))
            domain = "" if n.domain in ("", "ai.onnx") else n.domain
            out.append(Node(name, n.op_type, list(n.input), list(n.output), attrs, i, domain))
        return out


class _Place:
    """`nodes[i] "name".attrs.key`, written only if an error names it (a model's thousands
    of attributes are read without one)."""

    __slots__ = ("i", "name", "key")

    def __init__(self, i, name, key):
        self.i, self.name, self.key = i, name, key

    def __str__(self):
        return f'nodes[{self.i}] "{self.name}".attrs.{self.key}'


def tensor_array(proto) -> np.ndarray:
    """onnx's numpy_helper.to_array, with a direct path for most of a model's tensors (inline
    data of a plain numeric type): to_array's type lookups cost more than small tensors'
    data (the light models hold thousands of 4-element shapes)."""
    if proto.data_location != 1 and not proto.HasField("segment"):  # 1: EXTERNAL
        shape = tuple(proto.dims)
        if proto.HasField("raw_data"):
            dt = _RAW_DTYPES.get(proto.data_type)
            if dt is not None:
                return np.frombuffer(proto.raw_data, dtype=dt).reshape(shape)
        else:
            field, dt = _FIELD_DTYPES.get(proto.data_type, (None, None))
            if field is not None:
                return np.array(getattr(proto, field), dtype=dt).reshape(shape)
    from onnx import numpy_helper

    return numpy_helper.to_array(proto)


def unwrapped_type(t, info: TensorInfo | None = None):
    """The TypeProto.Tensor inside an optional and/or sequence type (marking `info` so, when
    given), or None for any other type (a map...)."""
    if t.WhichOneof("value") == "optional_type":  # its element's type, when it has one
        t = t.optional_type.elem_type
        if info is not None:
            info.optional = True
    if t.WhichOneof("value") == "sequence_type":  # its elements' type, every one's
        t = t.sequence_type.elem_type
        if info is not None:
            info.sequence = True
    return t.tensor_type if t.WhichOneof("value") == "tensor_type" else None


def type_declaration(tp, place: str) -> TensorInfo:
    """A TypeProto attribute as a declaration: its dtype, sequence and optional marks, and its
    shape (a dim_param kept as its name where it is one, else `?`). A type's names are no
    symbols of the graph: facts.type_attr_facts gives only its integer dims."""
    info = TensorInfo("type", place)
    tt = unwrapped_type(tp, info)
    if tt is None:
        raise InputError("unsupported type (only tensors, sequences and optionals of them)",
                         place=place)
    info.dtype = ONNX_DTYPES.get(tt.elem_type) if tt.elem_type else None
    if tt.HasField("shape"):
        info.shape = Shape((tuple(_type_dim(d) for d in tt.shape.dim),))
    return info


def _type_dim(d) -> Expr:
    if d.WhichOneof("value") == "dim_value" and d.dim_value >= 0:
        return Expr.const(d.dim_value)
    return Expr.sym(d.dim_param) if is_name(d.dim_param) else VARIES


def subgraph_from_proto(proto, opset: int = 18) -> Graph:
    """A subgraph attribute (If/Loop/Scan body, stored as {"onnx_graph": GraphProto}) as a
    Graph of its own; the tensors it reads from the enclosing graph stay names."""
    return _ModelReader(None, None).read_graph(proto, opset)


def attribute_value(a, place: str):
    t = a.type
    if t == INT:
        return int(a.i)
    if t == FLOAT:
        return float(a.f)
    if t == STRING:
        return a.s.decode("utf-8", errors="replace")
    if t == INTS:
        return [int(x) for x in a.ints]
    if t == FLOATS:
        return [float(x) for x in a.floats]
    if t == STRINGS:
        return [s.decode("utf-8", errors="replace") for s in a.strings]
    if t == TENSOR:
        try:
            arr = tensor_array(a.t)
        except Exception as e:
            raise InputError(f"cannot read tensor attribute ({e})", place=str(place))
        dtype_of_array(arr) if arr.dtype.kind != "O" else None
        return arr
    if t == GRAPH:
        return {"onnx_graph": a.g}
    if t == GRAPHS:
        return [{"onnx_graph": g} for g in a.graphs]
    if t == TYPE_PROTO:  # (Optional's element type) as a declaration
        return type_declaration(a.tp, str(place))
    if t == SPARSE_TENSOR:
        from onnx import numpy_helper as nh

        return np.asarray(nh.to_array(a.sparse_tensor.values))
    raise InputError(f"unsupported attribute type {t}", place=str(place))
