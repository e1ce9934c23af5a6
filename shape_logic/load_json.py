"""Reading graph files (INTERFACE §2) into a `Graph`, with a precise place for every error."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .calls import expand_calls
from .subgraphs import expand_bodies, resolve_bodies
from .errors import InputError
from .graph import DTYPES, NUMPY_DTYPES, Graph, Node, TensorInfo, canonical_dtype, dtype_of_array
from .sequences import VARIES
from .shapes import Shape, shape_from_json
from .symbolic.bounds import bounds
from .symbolic.expr import Expr, ExprOverflow
from .symbolic.parse import ShapeSyntaxError

TOP_KEYS = {"name", "opset", "inputs", "outputs", "initializers", "nodes", "annotations",
            "functions", "doc"}
NODE_KEYS = {"name", "op", "inputs", "outputs", "attrs", "domain", "doc"}
# "sequence": true declares an ONNX sequence, its dtype and shape every element's;
# "optional": true an ONNX optional, its dtype and shape its element's when it has one
DECL_KEYS = {"dtype", "shape", "doc", "sequence", "optional"}
TYPE_KEYS = {"dtype", "shape", "sequence"}  # a type attribute (Optional's "type")
INIT_KEYS = {"dtype", "shape", "data", "file", "doc"}
MAX_DIM = 2**62


class SymbolTable:
    """Names of the graph's symbols, their class (input 0, annotation 1, fresh 2), fresh names."""

    def __init__(self):
        self.cls: dict[str, int] = {}
        self.count = 0

    def fresh(self) -> Expr:
        self.count += 1
        name = f"_{self.count}"
        self.cls[name] = 2
        return Expr.sym(name)

    def note(self, shape: Shape, cls: int):
        for s in shape.symbols():
            if s.startswith("_"):  # a fresh name (or a function's, renamed per call) stays fresh
                self.cls[s] = 2
                continue
            if s not in self.cls or self.cls[s] > cls:
                self.cls[s] = cls


def read_json_file(path: str) -> Graph:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise InputError(f"cannot read the file ({e.strerror})", path)
    except UnicodeDecodeError:
        raise InputError("not a text file (is it an ONNX model? use the .onnx extension)", path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"malformed JSON: {e.msg}", path, f"line {e.lineno} column {e.colno}")
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", path)
    return graph_from_dict(data, path)


def graph_from_dict(data: Any, path: str | None = None) -> Graph:
    try:
        return _GraphReader(data, path).read()
    except InputError as e:
        raise e.located(path)


class _GraphReader:
    def __init__(self, data: Any, path: str | None):
        self.data = data
        self.path = path
        self.base = Path(path).parent if path else Path(".")
        self.symbols = SymbolTable()
        # one namespace for shape variables and dim names (INTERFACE §1): where each was used
        self.variables: dict[str, str] = {}
        self.dim_names: dict[str, str] = {}

    def read(self) -> Graph:
        d = self.data
        if not isinstance(d, dict):
            raise InputError("not a graph: the top level must be a JSON object")
        _check_keys(d, TOP_KEYS, "top level")
        if "nodes" not in d:
            raise InputError("not a graph: no \"nodes\" list")
        self.given = d
        d = self.data = expand_calls(d)
        functions = d.get("functions", {})
        if isinstance(functions, dict) and isinstance(d["nodes"], list):
            d = self.data = dict(d, nodes=[dict(nd) if isinstance(nd, dict) else nd
                                           for nd in d["nodes"]])
            resolve_bodies(d["nodes"], functions)
        opset = d.get("opset", 18)
        if isinstance(opset, bool) or not isinstance(opset, int) or not 1 <= opset <= 99:
            raise InputError(f"opset must be an integer between 1 and 99, not {opset!r}",
                             place="opset")
        name = d.get("name", Path(self.path).stem if self.path else "graph")
        if not isinstance(name, str):
            raise InputError("name must be a string", place="name")
        inputs = self.decls(d.get("inputs", {}), "inputs", cls=0)
        initializers = self.initializers(d.get("initializers", {}))
        nodes = self.nodes(d["nodes"])
        functions = d.get("functions", {})
        if not isinstance(functions, dict):
            raise InputError("functions must be an object", place="functions")
        self.extra = {"initializers": {}, "annotations": {}}
        body_nodes = expand_bodies(self, nodes, functions)
        initializers.update(self.initializers(self.extra["initializers"]))
        outputs = self.decls(d.get("outputs", {}), "outputs", cls=1)
        annotations = self.decls(d.get("annotations", {}), "annotations", cls=1)
        annotations.update(self.decls(self.extra["annotations"], "annotations", cls=1))
        return Graph(name=name, opset=opset, inputs=inputs, outputs=outputs,
                     initializers=initializers, nodes=nodes, annotations=annotations,
                     functions=functions, path=self.path, symbol_class=self.symbols.cls,
                     fresh_count=self.symbols.count, source=self.given,
                     body_nodes=body_nodes)

    # ----- tensors declared with dtype/shape
    def decls(self, section: Any, where: str, cls: int) -> dict[str, TensorInfo]:
        if not isinstance(section, dict):
            raise InputError(f"{where} must be an object mapping tensor names to declarations",
                             place=where)
        out = {}
        for tname, decl in section.items():
            place = f"{where}.{tname}"
            if decl is None:
                decl = {}
            if not isinstance(decl, dict):
                raise InputError("a declaration must be an object with \"dtype\" and/or \"shape\"",
                                 place=place)
            _check_keys(decl, DECL_KEYS, place)
            info = TensorInfo(tname, place)
            info.dtype = self.dtype(decl.get("dtype"), place)
            info.shape = self.shape(decl.get("shape"), place, cls)
            _marks(info, decl, place)
            out[tname] = info
        return out

    def dtype(self, value: Any, place: str) -> str | None:
        if value is None:
            return None
        dt = canonical_dtype(value) if isinstance(value, str) else None
        if dt is None:
            raise InputError(f"unknown dtype {value!r} (expected one of {', '.join(DTYPES)})",
                             place=f"{place}.dtype")
        return dt

    def shape(self, value: Any, place: str, cls: int) -> Shape | None:
        if value is None:
            return None
        shape = _parsed_shape(value, place, self.symbols.fresh)
        self.check_namespace(shape, f"{place}.shape")
        self.symbols.note(shape, cls)
        return shape

    def check_namespace(self, shape: Shape, place: str):
        """A name is a shape variable or a dim everywhere in the graph, never both."""
        variables = {p for p in shape.parts if isinstance(p, str)}
        for name in variables:
            self.variables.setdefault(name, place)
        for name in shape.symbols():
            self.dim_names.setdefault(name, place)
        for name in variables | shape.symbols():
            if name in self.variables and name in self.dim_names:
                raise InputError(f"{name!r} is used as a shape variable ({self.variables[name]}) "
                                 f"and as a dimension ({self.dim_names[name]})", place=place)

    # ----- initializers: constant tensors with data
    def initializers(self, section: Any) -> dict[str, TensorInfo]:
        if not isinstance(section, dict):
            raise InputError("initializers must be an object", place="initializers")
        out = {}
        for tname, decl in section.items():
            place = f"initializers.{tname}"
            if not isinstance(decl, dict):
                raise InputError("an initializer must be an object", place=place)
            _check_keys(decl, INIT_KEYS, place)
            info = TensorInfo(tname, place)
            info.dtype = self.dtype(decl.get("dtype"), place)
            info.shape = self.shape(decl.get("shape"), place, cls=0)
            info.data = self.init_data(decl, info, place)
            if info.data is not None:
                info.dtype = info.dtype or dtype_of_array(info.data)
                if info.shape is None:
                    info.shape = Shape.of(info.data.shape)
            out[tname] = info
        return out

    def init_data(self, decl: dict, info: TensorInfo, place: str):
        if "data" in decl and "file" in decl:
            raise InputError("give either \"data\" or \"file\", not both", place=place)
        if "file" in decl:
            fpath = self.base / str(decl["file"])
            try:
                arr = np.load(fpath, allow_pickle=False)
            except (OSError, ValueError) as e:
                raise InputError(f"cannot read {fpath}: {e}", place=f"{place}.file")
        elif "data" in decl:
            np_dtype = NUMPY_DTYPES.get(info.dtype or "f32")
            try:
                arr = np.array(decl["data"], dtype=np_dtype)
            except (ValueError, TypeError, OverflowError) as e:
                raise InputError(f"data is not a rectangular array of {info.dtype or 'f32'}: {e}",
                                 place=f"{place}.data")
            declared = info.shape.dims if info.shape is not None else None
            if declared is not None and all(d.is_int for d in declared):
                want = [d.value for d in declared]
                if arr.ndim == 0 and want:  # a scalar fills the declared shape
                    arr = np.full(want, arr, dtype=np_dtype)
                elif arr.size == 0 and int(np.prod(want)) == 0:  # JSON's [] has no shape
                    arr = arr.reshape(want)
        else:
            return None
        if info.dtype is not None and arr.dtype != NUMPY_DTYPES[info.dtype]:
            raise InputError(f"data has dtype {arr.dtype}, declared {info.dtype}",
                             place=f"{place}.dtype")
        if info.shape is not None:
            dims = info.shape.dims
            if dims is None or any(not d.is_int for d in dims) or \
                    tuple(d.value for d in dims) != arr.shape:
                raise InputError(f"data has shape {list(arr.shape)}, declared {info.shape}",
                                 place=f"{place}.shape")
        return arr

    # ----- nodes
    def nodes(self, section: Any, place: str = "nodes") -> list[Node]:
        if not isinstance(section, list):
            raise InputError("nodes must be a list", place=place)
        where = place
        out = []
        names: dict[str, int] = {}
        for i, nd in enumerate(section):
            place = f"{where}[{i}]"
            if not isinstance(nd, dict):
                raise InputError("a node must be an object", place=place)
            _check_keys(nd, NODE_KEYS, place)
            op = nd.get("op")
            if not isinstance(op, str) or not op:
                raise InputError("a node needs an \"op\" (an operator name)", place=place)
            name = nd.get("name", f"{op}_{i}")
            if not isinstance(name, str) or not name:
                raise InputError("a node name must be a non-empty string", place=f"{place}.name")
            if name in names:
                raise InputError(f"node name {name!r} is also used by nodes[{names[name]}]",
                                 place=f"{place}.name")
            names[name] = i
            ins = _name_list(nd.get("inputs", []), f"{place}.inputs", allow_empty=True)
            outs = _name_list(nd.get("outputs", []), f"{place}.outputs", allow_empty=True)
            attrs = nd.get("attrs", {})
            if not isinstance(attrs, dict):
                raise InputError("attrs must be an object", place=f"{place}.attrs")
            if attrs:
                attrs = {k: _attr_value(v, f"{place}.attrs.{k}") for k, v in attrs.items()}
            domain = nd.get("domain", "")
            if not isinstance(domain, str):
                raise InputError("domain must be a string", place=f"{place}.domain")
            out.append(Node(name, op, ins, outs, attrs, i, domain))
        return out


def _marks(info: TensorInfo, decl: dict, place: str) -> None:
    """A declaration's "sequence" and "optional" (true or false)."""
    for key in ("sequence", "optional"):
        value = decl.get(key, False)
        if not isinstance(value, bool):
            raise InputError(f"\"{key}\" must be true or false", place=f"{place}.{key}")
        setattr(info, key, value)


def _type_value(value: dict, place: str) -> TensorInfo:
    """A type attribute {"dtype", "shape"?, "sequence"?} (Optional's element type) as a
    declaration; a `?` in its shape is a dim without a value (a type names no graph symbol)."""
    _check_keys(value, TYPE_KEYS, place)
    info = TensorInfo("type", place, dtype=canonical_dtype(str(value["dtype"])))
    if info.dtype is None:
        raise InputError(f"unknown dtype {value['dtype']!r}", place=f"{place}.dtype")
    _marks(info, value, place)
    if value.get("shape") is not None:
        info.shape = _parsed_shape(value["shape"], place, lambda: VARIES)
    return info


def _parsed_shape(value: Any, place: str, fresh) -> Shape:
    """A declaration's "shape" read (`fresh()` for each `?`), or an InputError naming it."""
    try:
        shape = shape_from_json(value, fresh)
    except (ShapeSyntaxError, ExprOverflow) as e:
        raise InputError(f"bad shape: {e}", place=f"{place}.shape")
    except RecursionError:
        raise InputError("bad shape: nested too deeply", place=f"{place}.shape")
    check_dims(shape, f"{place}.shape")
    return shape


def _attr_value(value: Any, place: str) -> Any:
    """Attribute values are JSON; a tensor attribute is {"dtype", "shape"?, "data"}, a type
    attribute {"dtype", "shape"?, "sequence"?}."""
    if isinstance(value, dict) and "dtype" in value and not {"data", "nodes"} & set(value):
        return _type_value(value, place)
    if isinstance(value, dict) and "data" in value and "nodes" not in value:
        dt = canonical_dtype(str(value.get("dtype", "f32")))
        if dt is None:
            raise InputError(f"unknown dtype {value.get('dtype')!r}", place=f"{place}.dtype")
        try:
            arr = np.array(value["data"], dtype=NUMPY_DTYPES[dt])
            if "shape" in value:
                arr = arr.reshape(value["shape"])
        except (ValueError, TypeError, OverflowError) as e:
            raise InputError(f"bad tensor attribute: {e}", place=place)
        return arr
    if value is None:
        raise InputError("attribute value cannot be null", place=place)
    return value


def _name_list(value: Any, place: str, allow_empty: bool) -> list[str]:
    # (the types of the names in one pass at C speed: a graph has hundreds of thousands)
    if not isinstance(value, list) or not (set(map(type, value)) <= _STR_TYPE
                                           or all(isinstance(v, str) for v in value)):
        raise InputError("must be a list of tensor names", place=place)
    if not allow_empty and any(v == "" for v in value):
        raise InputError("an output name cannot be empty", place=place)
    return list(value)


_STR_TYPE = {str}


def _check_keys(d: dict, allowed: set[str], place: str):
    if d.keys() <= allowed:
        return
    for k in d:
        if k not in allowed:
            raise InputError(f"unknown key {k!r} (expected one of {', '.join(sorted(allowed))})",
                             place=place)


def check_dims(shape: Shape, place: str):
    """Reject dims that cannot be sizes: provably negative, or beyond 2^62."""
    for part in shape.parts:
        if isinstance(part, str):
            continue
        for i, d in enumerate(part):
            lo, hi = bounds(d)
            if hi < 0:
                raise InputError(f"dim {i} is negative ({d})", place=place)
            if d.is_int and d.value > MAX_DIM:
                raise InputError(f"dim {i} is absurdly large ({d} > 2^62)", place=place)
