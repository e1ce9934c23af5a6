"""Helpers to test rule files: solve one node, compare with onnx's reference implementation.

    from shape_logic.testing import infer, check_against_reference
    sol = infer("MatMul", ["[n, k]", "[k, m]"])
    assert sol.shape("y0") == "[n, m]"
    check_against_reference("Add", [np.zeros((2, 3)), np.zeros((3,))])

Inputs of a node are given in order, each one of:
  None                      an absent optional input
  "[b, 3]" or [2, "n"]      a runtime f32 input of that shape
  ("i64", "[3]")            a runtime input of that dtype and shape
  np.ndarray                a constant (initializer): its values are known
Outputs are named y0, y1, ...; inputs x0, x1, ...
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .errors import InputError
from .graph import NUMPY_DTYPES, dtype_of_array
from .onnx_import import DTYPE_TO_ONNX
from .solver import solve
from .symbolic.expr import Expr

ONNX_ELEM = DTYPE_TO_ONNX  # our dtype name -> TensorProto element type


def node_graph(op: str, inputs: Sequence[Any], attrs: dict | None = None, n_outputs: int = 1,
               opset: int = 18, outputs: dict | None = None, domain: str = "") -> dict:
    """The graph-format dict of a single node (of `domain`: "com.microsoft" for a contrib op)."""
    g: dict = {"name": op, "opset": opset, "inputs": {}, "initializers": {}, "nodes": []}
    names = []
    for k, item in enumerate(inputs):
        name = f"x{k}"
        if item is None:
            names.append("")
            continue
        names.append(name)
        if isinstance(item, np.ndarray):
            g["initializers"][name] = {"dtype": dtype_of_array(item), "shape": list(item.shape),
                                       "data": item.tolist()}
        elif isinstance(item, tuple):
            g["inputs"][name] = {"dtype": item[0], "shape": item[1]}
        else:
            g["inputs"][name] = {"dtype": "f32", "shape": item}
    node = {"name": "n", "op": op, "inputs": names,
            "outputs": [f"y{k}" for k in range(n_outputs)]}
    if attrs:
        node["attrs"] = _json_attrs(attrs)
    if domain:
        node["domain"] = domain
    g["nodes"].append(node)
    if outputs:
        g["outputs"] = outputs
    return g


def _json_attrs(attrs: dict) -> dict:
    out = {}
    for k, v in attrs.items():
        if isinstance(v, np.ndarray):
            out[k] = {"dtype": dtype_of_array(v), "shape": list(v.shape), "data": v.tolist()}
        else:
            out[k] = v
    return out


def infer(op: str, inputs: Sequence[Any], attrs: dict | None = None, n_outputs: int = 1,
          opset: int = 18, rules=(), outputs: dict | None = None, domain: str = ""):
    """Solve a single-node graph; returns the Solution."""
    return solve(node_graph(op, inputs, attrs, n_outputs, opset, outputs, domain), rules=rules)


# ----- the reference: onnx.reference.ReferenceEvaluator

def onnx_node_model(op: str, arrays: Sequence[Any], attrs: dict | None, n_outputs: int,
                    opset: int, const: Sequence[int] = (), domain: str = ""):
    from onnx import TensorProto, helper, numpy_helper

    inputs, inits, names = [], [], []
    for k, a in enumerate(arrays):
        if a is None:
            names.append("")
            continue
        name = f"x{k}"
        names.append(name)
        if k in const:
            inits.append(numpy_helper.from_array(np.asarray(a), name))
        else:
            elem = ONNX_ELEM[dtype_of_array(np.asarray(a))]
            inputs.append(helper.make_tensor_value_info(name, elem, list(np.shape(a))))
    outs = [helper.make_tensor_value_info(f"y{k}", TensorProto.UNDEFINED, None)
            for k in range(n_outputs)]
    # a tensor attribute is given as an array (node_graph writes it so too)
    attrs = {k: numpy_helper.from_array(v, k) if isinstance(v, np.ndarray) else v
             for k, v in (attrs or {}).items()}
    node = helper.make_node(op, names, [o.name for o in outs], domain=domain, **attrs)
    graph = helper.make_graph([node], "g", inputs, outs, initializer=inits)
    # a contrib op's domain (version 1) comes with ONNX's opset
    imports = [helper.make_opsetid("", opset)]
    if domain:
        imports.append(helper.make_opsetid(domain, 1))
    model = helper.make_model(graph, opset_imports=imports)
    model.ir_version = 8
    return model


def reference_outputs(op: str, arrays: Sequence[Any], attrs: dict | None = None,
                      n_outputs: int = 1, opset: int = 18, const: Sequence[int] = (),
                      domain: str = ""):
    """Run onnx's reference evaluator on one node; returns the output arrays."""
    from onnx.reference import ReferenceEvaluator

    model = onnx_node_model(op, arrays, attrs, n_outputs, opset, const, domain)
    feeds = {f"x{k}": np.asarray(a) for k, a in enumerate(arrays)
             if a is not None and k not in const}
    return ReferenceEvaluator(model).run(None, feeds)


def check_against_reference(op: str, arrays: Sequence[Any], attrs: dict | None = None,
                            n_outputs: int = 1, opset: int = 18, const: Sequence[int] = (),
                            symbolic: bool = True, reference_fails_ok: bool = False,
                            domain: str = ""):
    """The rule's inferred shapes equal the reference's output shapes.

    Inputs listed in `const` are constants (their values known to the solver).
    With concrete input shapes every output shape must be inferred exactly; with
    `symbolic`, every input dim is replaced by a symbol, and each inferred dim
    that mentions no fresh name must evaluate to the reference's value.  When the
    reference rejects the inputs, the solver must report a shape error.
    """
    try:
        expected = reference_outputs(op, arrays, attrs, n_outputs, opset, const, domain)
    except Exception as e:  # the kernel rejected the inputs: so must the rules
        sol = infer(op, _concrete_inputs(arrays, const), attrs, n_outputs, opset, domain=domain)
        if sol.status != "error" and not reference_fails_ok:
            raise AssertionError(f"{op}: reference raised {type(e).__name__}: {e}, "
                                 f"but the rules accept it: {_shapes(sol, n_outputs)}")
        return None
    _check_kernel(op, arrays, attrs, n_outputs, opset, expected, domain)
    sol = infer(op, _concrete_inputs(arrays, const), attrs, n_outputs, opset, domain=domain)
    assert sol.status == "ok", (
        f"{op}: rules reject inputs the reference accepts: "
        f"{[d.to_text() for d in sol.diagnostics]}")
    for k, out in enumerate(expected):
        got = sol.shape(f"y{k}")
        want = "[" + ", ".join(str(d) for d in np.shape(out)) + "]"
        assert got == want, f"{op} output {k}: inferred {got}, reference {want}"
        want_dtype = dtype_of_array(np.asarray(out))
        got_dtype = sol.dtype(f"y{k}")
        assert got_dtype == want_dtype, \
            f"{op} output {k}: dtype {got_dtype}, reference {want_dtype}"
    if symbolic:
        _check_symbolic(op, arrays, attrs, n_outputs, opset, const, expected, domain)
    return sol


def _check_kernel(op, arrays, attrs, n_outputs, opset, expected, domain=""):
    """Rule <-> kernel: where the reference accepts the inputs, our NumPy kernel gives
    outputs of the same shapes and dtypes (the rule was checked against the reference)."""
    from .kernels import KernelError, load_kernel

    try:
        kernel = load_kernel(op)(dict(attrs or {}), opset=opset, n_outputs=n_outputs,
                                 domain=domain)
    except KernelError:
        return  # an operator without a kernel (the executor cannot run it)
    got = kernel(*[None if a is None else np.asarray(a) for a in arrays])
    for k, (g, want) in enumerate(zip(got, expected)):
        if g is None or want is None:
            continue
        assert np.shape(g) == np.shape(want), (
            f"{op} output {k}: kernel shape {list(np.shape(g))}, reference {list(np.shape(want))}")
        g_dt, want_dt = np.asarray(g).dtype, np.asarray(want).dtype
        # (strings are str, whether object or unicode arrays)
        assert g_dt == want_dt or g_dt.kind in "OUS" and want_dt.kind in "OUS", (
            f"{op} output {k}: kernel dtype {g_dt}, reference {want_dt}")


def _concrete_inputs(arrays, const):
    out = []
    for k, a in enumerate(arrays):
        if a is None:
            out.append(None)
        elif k in const:
            out.append(np.asarray(a))
        else:
            a = np.asarray(a)
            out.append((dtype_of_array(a), list(a.shape)))
    return out


def _check_symbolic(op, arrays, attrs, n_outputs, opset, const, expected, domain=""):
    if any(0 in np.shape(a) for k, a in enumerate(arrays) if a is not None and k not in const):
        return  # symbols stand for dims >= 1: a zero-sized axis is outside their meaning
    inputs, env = [], {}
    for k, a in enumerate(arrays):
        if a is None or k in const:
            inputs.append(None if a is None else np.asarray(a))
            continue
        a = np.asarray(a)
        dims = []
        for i, d in enumerate(a.shape):
            name = f"s{k}_{i}"
            env[name] = Expr.const(d)
            dims.append(name)
        inputs.append((dtype_of_array(a), "[" + ", ".join(dims) + "]"))
    sol = infer(op, inputs, attrs, n_outputs, opset, domain=domain)
    if sol.status != "ok":
        raise AssertionError(f"{op}: symbolic inputs rejected: "
                             f"{[d.to_text() for d in sol.diagnostics]}")
    for k, out in enumerate(expected):
        dims = sol.dims(f"y{k}")
        if dims is None:
            continue
        assert len(dims) == np.ndim(out), f"{op} output {k}: symbolic rank {len(dims)}"
        for i, d in enumerate(dims):
            if any(s.startswith("_") for s in d.symbols()):
                continue
            v = d.subs(env)
            assert v == np.shape(out)[i], (
                f"{op} output {k} axis {i}: symbolic {d} gives {v}, reference {np.shape(out)[i]}")


def _shapes(sol, n):
    return [sol.shape(f"y{k}") for k in range(n)]


def random_array(shape, dtype: str = "f32", rng=None) -> np.ndarray:
    rng = rng or np.random.default_rng(0)
    np_dtype = NUMPY_DTYPES[dtype]
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("i", "u")):
        return rng.integers(0, 5, size=shape).astype(np_dtype)
    return rng.standard_normal(shape).astype(np_dtype)


def check_case(op: str, spec: dict, expected, rules=()):
    """A data-driven case: spec has "inputs" and optionally "attrs", "n_outputs", "opset",
    "outputs" (annotations on y0...), "domain" (a contrib op's: "com.microsoft"); expected
    maps tensors to shapes (and optionally "bindings" to a dict), or is "error" for a graph
    the rules must reject, "input error" for one refused before solving (an attribute its
    operator does not have: attributes.py). `rules`: extra rule directories, as `--rules
    DIR` (a custom operator's)."""
    if expected == "input error":
        try:
            infer(op, spec["inputs"], spec.get("attrs"), spec.get("n_outputs", 1),
                  spec.get("opset", 18), outputs=spec.get("outputs"), rules=rules,
                  domain=spec.get("domain", ""))
        except InputError as e:
            return e
        raise AssertionError(f"{op}: expected an input error")
    sol = infer(op, spec["inputs"], spec.get("attrs"), spec.get("n_outputs", 1),
                spec.get("opset", 18), outputs=spec.get("outputs"), rules=rules,
                domain=spec.get("domain", ""))
    if expected == "error":
        assert sol.status == "error", f"{op}: expected a shape error, got " + ", ".join(
            f"{t}: {sol.shape(t)}" for t in sol.graph.tensors())
        return sol
    assert sol.status == "ok", f"{op}: unexpected error: {[d.to_text() for d in sol.diagnostics]}"
    for tensor, want in expected.items():
        if tensor == "bindings":
            assert sol.bindings == want, f"{op}: bindings {sol.bindings}, expected {want}"
        elif tensor == "dtypes":
            for t, dt in want.items():
                assert sol.dtype(t) == dt, f"{op}: dtype of {t} is {sol.dtype(t)}, expected {dt}"
        else:
            assert sol.shape(tensor) == want, \
                f"{op}: {tensor} is {sol.shape(tensor)}, expected {want}"
    return sol
