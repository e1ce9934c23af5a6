"""Testing com.microsoft contrib ops: one node solved by us, run by onnxruntime."""
from __future__ import annotations

import re

import numpy as np
from onnx import helper, numpy_helper

from shape_logic import solve
from shape_logic.testing import node_graph

MS = "com.microsoft"


def infer_contrib(op, inputs, attrs=None, n_outputs=1, outputs=None):
    """Like shape_logic.testing.infer, with the node in the com.microsoft domain."""
    g = node_graph(op, inputs, attrs, n_outputs, outputs=outputs)
    g["nodes"][0]["domain"] = MS
    return solve(g)


def ort_contrib(op, arrays, attrs=None, n_outputs=1):
    """onnxruntime's outputs for one contrib node (None entries are absent inputs)."""
    import onnxruntime as ort

    names, inputs, feeds = [], [], {}
    for k, a in enumerate(arrays):
        if a is None:
            names.append("")
            continue
        names.append(f"x{k}")
        a = np.asarray(a)
        elem = helper.np_dtype_to_tensor_dtype(a.dtype)
        inputs.append(helper.make_tensor_value_info(f"x{k}", elem, list(a.shape)))
        feeds[f"x{k}"] = a
    outs = [helper.make_empty_tensor_value_info(f"y{k}") for k in range(n_outputs)]
    node = helper.make_node(op, names, [o.name for o in outs], domain=MS, **(attrs or {}))
    graph = helper.make_graph([node], "g", inputs, outs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def check_against_ort(op, arrays, attrs=None, n_outputs=1, compare_shapes=(0,), const=()):
    """Our inferred shapes (inputs as concrete shapes; the inputs numbered in `const` as
    constants whose values the rules see) equal onnxruntime's output shapes."""
    want = ort_contrib(op, arrays, attrs, n_outputs)
    from shape_logic.graph import dtype_of_array

    shapes = [None if a is None else np.asarray(a) if k in const else
              (dtype_of_array(np.asarray(a)), list(np.shape(a))) for k, a in enumerate(arrays)]
    sol = infer_contrib(op, shapes, attrs, n_outputs)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for k in compare_shapes:
        got = sol.shape(f"y{k}")
        assert got == "[" + ", ".join(map(str, want[k].shape)) + "]", (op, k, got, want[k].shape)
    return want


def numpy_from(arrays):
    return [None if a is None else numpy_helper.to_array(numpy_helper.from_array(a))
            for a in arrays]


def check_contrib_case(op, inputs, attrs, n_outputs, want):
    """A shape case as data: `want` is "error", or {tensor: shape} where a shape is a text
    (`_` in it stands for any fresh name) or the name of another tensor of the same shape."""
    sol = infer_contrib(op, inputs, attrs, n_outputs=n_outputs)
    if want == "error":
        assert sol.status == "error"
        return
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for t, shape in want.items():
        if shape in want:  # the same shape as another tensor's (fresh names and all)
            assert sol.shape(t) == sol.shape(shape), (t, shape)
        else:
            assert re.fullmatch(re.escape(shape).replace("_", "_[0-9]+"), sol.shape(t)), \
                (t, sol.shape(t), shape)
