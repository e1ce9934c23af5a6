"""Writing a folded graph: the source graph with the folded nodes removed, their sinks
added as initializers, and initializers nothing reads any more dropped.

A graph read from JSON is written as JSON (small constants inline as "data", larger or
non-finite ones as .npy files next to OUT, referenced by "file"; the source's relative
"file" paths are rebased on OUT's directory). An ONNX model is written as ONNX.
"""
from __future__ import annotations

import copy
import json
import os
import re

import numpy as np

from ..errors import InputError
from ..graph import dtype_of_array
from .folding import Folding

INLINE_ELEMENTS = 1024


def write_folded(folding: Folding, out: str) -> None:
    source = folding.graph.source
    want_onnx = out.endswith(".onnx")
    if isinstance(source, dict) and not want_onnx:
        _write_json(folding, source, out)
    elif type(source).__name__ == "ModelProto" and want_onnx:
        _write_onnx(folding, source, out)
    else:
        kind = "JSON" if isinstance(source, dict) else "ONNX"
        raise InputError(f"a graph read from {kind} is written as {kind}: give an output "
                         f"ending in {'.json' if kind == 'JSON' else '.onnx'}", out)


def _still_read(folding: Folding) -> set:
    removed = {id(n) for n in folding.removed}
    kept = [n for n in folding.graph.nodes if id(n) not in removed]
    return {t for n in kept for t in n.inputs if t} | set(folding.graph.outputs)


def _write_json(folding: Folding, source: dict, out: str) -> None:
    g = folding.graph
    data = copy.deepcopy(source)
    removed = {n.index for n in folding.removed}
    data["nodes"] = [nd for i, nd in enumerate(data["nodes"]) if i not in removed]
    if not g.outputs:  # the outputs were the tensors nothing reads: keep them so
        read = {t for n in g.nodes for t in n.inputs}
        data["outputs"] = {t: {} for n in g.nodes for t in n.outputs if t and t not in read}
    read = _still_read(folding)
    inits = {}
    src_dir = os.path.dirname(os.path.abspath(g.path)) if g.path else os.getcwd()
    out_dir = os.path.dirname(os.path.abspath(out))
    for name, decl in data.get("initializers", {}).items():
        if name not in read:
            continue
        if isinstance(decl, dict) and "file" in decl and not os.path.isabs(decl["file"]):
            decl["file"] = os.path.relpath(os.path.join(src_dir, decl["file"]), out_dir)
        inits[name] = decl
    stem = os.path.splitext(os.path.basename(out))[0]
    try:
        for name, arr in folding.values.items():
            entry = {"dtype": dtype_of_array(arr), "shape": list(arr.shape)}
            if arr.size <= INLINE_ELEMENTS and (arr.dtype.kind not in "fc"
                                                or np.isfinite(arr).all()):
                entry["data"] = arr.tolist()
            else:
                file = f"{stem}.{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.npy"
                np.save(os.path.join(out_dir, file), arr, allow_pickle=False)
                entry["file"] = file
            inits[name] = entry
        data["initializers"] = inits
        with open(out, "w") as f:
            f.write(_dumps(data))
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", out)


def _dumps(data: dict) -> str:
    """JSON with one line per top-level key, per initializer and per node."""
    parts = []
    for key, value in data.items():
        if isinstance(value, dict) and value:
            items = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            parts.append(f"  {json.dumps(key)}: {{\n{items}\n  }}")
        elif isinstance(value, list) and value:
            items = ",\n".join(f"    {json.dumps(v)}" for v in value)
            parts.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _write_onnx(folding: Folding, model, out: str) -> None:
    import onnx
    from onnx import numpy_helper

    m = copy.deepcopy(model)
    g = m.graph
    removed = {n.index for n in folding.removed}
    kept = [n for i, n in enumerate(g.node) if i not in removed]
    del g.node[:]
    g.node.extend(kept)
    read = _still_read(folding)
    inits = [i for i in g.initializer if i.name in read]
    inits += [numpy_helper.from_array(arr, name) for name, arr in folding.values.items()]
    del g.initializer[:]
    g.initializer.extend(inits)
    init_names = {i.name for i in g.initializer}
    dropped = {i.name for i in model.graph.initializer} - init_names
    inputs = [vi for vi in g.input if vi.name not in dropped]  # IR < 4 lists them as inputs
    del g.input[:]
    g.input.extend(inputs)
    try:
        onnx.save(m, out)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot write: {e}", out)
