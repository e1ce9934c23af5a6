"""`shape-logic import MODEL.onnx -o GRAPH.json`: an ONNX model in our graph format (INTERFACE §2).

Small integer constants (shape computations) and small float ones are written inline as
"data"; larger initializers go to `<GRAPH>.data/<name>.npy` beside the JSON file and are
referenced by "file".  dim_params that are not a NAME appear under their mapped NAME
(the mapping is printed).  Subgraph attributes (If/Loop/Scan bodies) become inline
graph objects.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .errors import InputError
from .graph import Graph, TensorInfo, declaration

MAX_INLINE_ELEMENTS = 1024


def add_import_parser(sub) -> None:
    p = sub.add_parser("import", help="convert an ONNX model to the graph format (.json)")
    p.add_argument("model")
    p.add_argument("-o", "--output", required=True, metavar="GRAPH.json")


def cmd_import(args) -> int:
    from .load import load_graph

    if not str(args.model).endswith(".onnx"):
        raise InputError("expected an ONNX model (.onnx)", args.model)
    graph = load_graph(args.model)
    out = Path(args.output)
    writer = _Writer(out.parent / (out.name + ".data"), out.parent)
    data = writer.graph(graph)
    try:
        out.write_text(json.dumps(data, indent=1) + "\n")
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", str(out))
    if graph.symbol_map:
        mapped = ", ".join(f"{k!r} -> {v}" for k, v in graph.symbol_map.items())
        print(f"dim_params renamed: {mapped}")
    print(f"wrote {out} ({len(graph.nodes)} nodes, {len(graph.initializers)} initializers"
          f"{', ' + str(writer.files) + ' in ' + str(writer.data_dir) if writer.files else ''})")
    return 0


def graph_to_dict(graph: Graph, data_dir: Path | None = None) -> dict:
    """The graph-format dict of a Graph (large initializers to .npy files in data_dir)."""
    base = data_dir.parent if data_dir is not None else Path(".")
    return _Writer(data_dir, base).graph(graph)


class _Writer:
    def __init__(self, data_dir: Path | None, base: Path):
        self.data_dir = data_dir
        self.base = base
        self.files = 0

    def graph(self, graph: Graph) -> dict:
        out: dict = {"name": graph.name, "opset": graph.opset}
        out["inputs"] = {n: declaration(i) for n, i in graph.inputs.items()}
        out["outputs"] = {n: declaration(i) for n, i in graph.outputs.items()}
        out["initializers"] = {n: self.initializer(i) for n, i in graph.initializers.items()}
        out["nodes"] = [self.node(n) for n in graph.nodes]
        if graph.annotations:
            out["annotations"] = {n: declaration(i) for n, i in graph.annotations.items()}
        return out

    def node(self, node) -> dict:
        d: dict = {"name": node.name, "op": node.op, "inputs": list(node.inputs),
                   "outputs": list(node.outputs)}
        if node.domain:
            d["domain"] = node.domain
        if node.attrs:
            d["attrs"] = {k: self.attr(v, node) for k, v in node.attrs.items()}
        return d

    def attr(self, value, node):
        if isinstance(value, TensorInfo):  # a type (Optional's): as a declaration
            return declaration(value)
        if isinstance(value, np.ndarray):
            return {"dtype": _dtype(value), "shape": list(value.shape), "data": _json_data(value)}
        if isinstance(value, dict) and "onnx_graph" in value:
            return self.subgraph(value["onnx_graph"])
        if isinstance(value, dict) and isinstance(value.get("nodes"), list):
            # a body read as a graph object (onnx_bodies.body_dict): its nodes' attributes
            # written as the graph's (a Constant's tensor in a branch)
            return {**value, "nodes": [dict(nd, attrs={k: self.attr(v, node) for k, v in
                                                       nd.get("attrs", {}).items()})
                                       for nd in value["nodes"]]}
        if isinstance(value, list) and value and isinstance(value[0], dict):
            return [self.attr(v, node) for v in value]
        return value

    def subgraph(self, proto) -> dict:
        from .onnx_import import subgraph_from_proto

        return self.graph(subgraph_from_proto(proto))

    def initializer(self, info: TensorInfo) -> dict:
        d = declaration(info)
        arr = info.data
        if arr is None:
            return d
        if arr.size <= MAX_INLINE_ELEMENTS or self.data_dir is None:
            d["data"] = _json_data(arr)
            return d
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.files += 1
        path = self.data_dir / f"{self.files}_{_file_name(info.name)}.npy"
        try:
            np.save(path, arr, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise InputError(f"cannot write initializer data: {e}", str(path))
        d["file"] = str(path.relative_to(self.base))
        return d


def _dtype(arr: np.ndarray) -> str:
    from .graph import dtype_of_array

    try:
        return dtype_of_array(arr)
    except ValueError:
        raise InputError(f"cannot write a tensor of numpy dtype {arr.dtype}")


def _json_data(arr: np.ndarray):
    if arr.dtype.kind in "OS":
        return np.vectorize(lambda v: v.decode("utf-8", "replace") if isinstance(v, bytes)
                            else str(v), otypes=[object])(arr).tolist()
    return arr.tolist()


def _file_name(tensor: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in tensor)[:80] or "t"
