"""Optional operators checked three ways on one small ONNX model: the rules (inputs' dims as
symbols of their own; what they infer of `y` must hold under the symbols' values), our
kernels (shape_logic.executor, every tensor checked against the inferred shapes) and onnx's
reference evaluator. A feed is an array (a tensor, or an optional's element), a list (a
sequence) or None (an empty optional)."""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from shape_logic.executor import Program
from shape_logic.solver import solve
from tests.ops.sequence_check import holds

DTYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64,
          np.dtype(np.int32): TensorProto.INT32, np.dtype(np.bool_): TensorProto.BOOL}


def value_type(value, optional: bool, dtype=TensorProto.FLOAT, dims=None):
    """The TypeProto of a feed: a tensor (dims: the feed's, or names), a sequence of the
    elements' type, maybe inside an optional."""
    if isinstance(value, list):
        elem = DTYPES[value[0].dtype] if value else dtype
        t = helper.make_sequence_type_proto(helper.make_tensor_type_proto(elem, None))
    elif value is None:
        t = helper.make_tensor_type_proto(dtype, dims)
    else:
        t = helper.make_tensor_type_proto(DTYPES[value.dtype],
                                          list(value.shape) if dims is None else dims)
    return helper.make_optional_type_proto(t) if optional else t


def model(nodes, feeds: dict, optional: set, symbolic: bool, opset: int = 18, out_type=None):
    """(the model, the symbols' values): inputs typed from the feeds, `optional` ones
    wrapped in optional types; with `symbolic`, a tensor's dims are names d<k>_<i>."""
    values, inputs = {}, []
    for k, (name, v) in enumerate(feeds.items()):
        dims = None
        if symbolic and isinstance(v, np.ndarray):
            dims = [f"d{k}_{i}" for i in range(v.ndim)]
            values.update({f"d{k}_{i}": n for i, n in enumerate(v.shape)})
        inputs.append(helper.make_value_info(name, value_type(v, name in optional, dims=dims)))
    out = helper.make_empty_tensor_value_info("y") if out_type is None else \
        helper.make_value_info("y", out_type)
    g = helper.make_graph(nodes, "g", inputs, [out])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), values


def check(nodes, feeds: dict, optional=frozenset(), ort_type=None):
    """The three agree on `y`; returns (our y, the symbolic solution). With `ort_type` (y's
    TypeProto), onnxruntime is the reference: onnx's gives Optional() as [None], an
    optional that holds None (ops/op_optional.py), where the spec and onnxruntime give an
    empty one."""
    m, _ = model(nodes, feeds, set(optional), symbolic=False, out_type=ort_type)
    if ort_type is not None:
        import onnxruntime

        session = onnxruntime.InferenceSession(m.SerializeToString(),
                                               providers=["CPUExecutionProvider"])
        want = session.run(None, feeds)[0]
    else:
        want = ReferenceEvaluator(m).run(None, feeds)[0]
    ours = Program(m).run(feeds)["y"]
    if isinstance(want, list) and len(want) == 1 and \
            (isinstance(ours, np.ndarray) or isinstance(want[0], list)) and \
            any(n.op_type == "Optional" and n.input for n in nodes):
        # onnx's reference holds Optional(x) as [x] (ops/op_optional.py), and so do the ops
        # after it (OptionalGetElement gives [x]): the spec's value is x
        want = want[0]
    if want is None or ours is None:
        assert want is None and ours is None, (want, ours)
    elif isinstance(want, list):
        assert isinstance(ours, list) and len(ours) == len(want)
        assert all(np.array_equal(a, b) for a, b in zip(ours, want))
    else:
        assert np.asarray(ours).dtype == np.asarray(want).dtype
        assert np.array_equal(ours, want)
    sm, values = model(nodes, feeds, set(optional), symbolic=True)
    sol = solve(sm)
    assert sol.status == "ok", sol.diagnostics
    if ours is not None:
        holds(sol, "y", ours, values)
    return ours, sol
