"""Writing the annotated graph: the user's graph with every inferred shape as an annotation."""
from __future__ import annotations

import copy
import json

from .errors import InputError


def annotated_dict(sol) -> dict:
    """The graph as given, plus an annotation with the inferred dtype and shape of each tensor
    the user did not annotate (nothing the user wrote is changed)."""
    source = sol.graph.source
    if not isinstance(source, dict):
        raise InputError("writing JSON is only supported for graphs read from JSON; "
                         "use an .onnx output for ONNX models")
    out = copy.deepcopy(source)
    annotations = out.setdefault("annotations", {})
    declared = set(out.get("inputs", {})) | set(out.get("outputs", {})) | \
        set(out.get("initializers", {}))
    # tensors of the file itself (not those of function calls or bodies, which the
    # solver instantiates in their own namespaces)
    own = declared | {t for nd in out.get("nodes", []) if isinstance(nd, dict)
                      for t in nd.get("outputs", [])}
    for t in sol.graph.tensors():
        if t in annotations or t in declared or t not in own:
            continue
        entry = {"shape": sol.shape(t)}
        if sol.dtype(t):
            entry["dtype"] = sol.dtype(t)
        annotations[t] = entry
    return out


def write_annotated(sol, path: str):
    if path.endswith(".onnx"):
        from .onnx_export import write_annotated_onnx

        write_annotated_onnx(sol, path)
        return
    try:
        with open(path, "w") as f:
            json.dump(annotated_dict(sol), f, indent=2)
            f.write("\n")
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path)
