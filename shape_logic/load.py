"""Any graph source - a path (.json or .onnx), a dict, an onnx.ModelProto - as a Graph."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import InputError
from .graph import Graph
from .load_json import graph_from_dict, read_json_file


def load_graph(source: Any) -> Graph:
    if isinstance(source, Graph):
        return source
    if isinstance(source, dict):
        return graph_from_dict(source)
    if isinstance(source, (str, Path)):
        path = str(source)
        if path.endswith(".onnx"):
            from .onnx_import import read_onnx_file

            return read_onnx_file(path)
        if not Path(path).exists():
            raise InputError("no such file", path)
        return read_json_file(path)
    if type(source).__name__ == "ModelProto":
        from .onnx_import import graph_from_model

        return graph_from_model(source)
    raise InputError(f"cannot read a graph from a {type(source).__name__}")
