"""Testing ONNX's traditional-ML operators (ai.onnx.ml) against onnxruntime, the truth for
what shapes they produce: one node run by onnxruntime, by our kernel, and solved by the
rules from its input shapes (concrete, and every dim a symbol)."""
from __future__ import annotations

import numpy as np

from shape_logic.graph import dtype_of_array
from shape_logic.kernels import node_kernel
from shape_logic.symbolic.expr import Expr
from shape_logic.testing import infer

ML = "ai.onnx.ml"


def ort_ml(op, arrays, attrs, n_outputs=1, ml_opset=3):
    """onnxruntime's outputs for one ai.onnx.ml node (string arrays are fed as strings)."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    inputs, feeds = [], {}
    for k, a in enumerate(arrays):
        a = np.asarray(a)
        elem = TensorProto.STRING if a.dtype.kind in "OU" else \
            helper.np_dtype_to_tensor_dtype(a.dtype)
        inputs.append(helper.make_tensor_value_info(f"x{k}", elem, list(a.shape)))
        feeds[f"x{k}"] = a.astype(object) if a.dtype.kind == "U" else a
    outs = [helper.make_empty_tensor_value_info(f"y{k}") for k in range(n_outputs)]
    attrs = {k: numpy_helper.from_array(v, k) if isinstance(v, np.ndarray) else v
             for k, v in attrs.items()}
    node = helper.make_node(op, [f"x{k}" for k in range(len(arrays))],
                            [o.name for o in outs], domain=ML, **attrs)
    graph = helper.make_graph([node], "g", inputs, outs)
    model = helper.make_model(graph, ir_version=10, opset_imports=[
        helper.make_opsetid("", 21), helper.make_opsetid(ML, ml_opset)])
    so = ort.SessionOptions()
    so.log_severity_level = 4
    session = ort.InferenceSession(model.SerializeToString(), so,
                                   providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def run_kernel(op, arrays, attrs, n_outputs=1):
    return node_kernel(op, ML, attrs, 18, n_outputs)(*[np.asarray(a) for a in arrays])


def _shape(a) -> str:
    return "[" + ", ".join(map(str, np.shape(a))) + "]"


def _dtype(a) -> str:
    a = np.asarray(a)
    return "str" if a.dtype.kind in "OU" else dtype_of_array(a)


def check_ml(op, arrays, attrs, n_outputs=1, rtol=1e-5, atol=1e-6, compare=None,
             ort_fails_ok=False):
    """Where onnxruntime runs the node, our kernel gives its outputs (values: those numbered
    in `compare`, all by default), the rules infer their shapes and dtypes, and with every
    input dim a symbol each inferred dim naming no fresh symbol evaluates to onnxruntime's
    size. Where onnxruntime refuses the node, so must the rules (unless `ort_fails_ok`:
    its CPU provider lacks a kernel for these types, NOT_IMPLEMENTED). Returns
    onnxruntime's outputs, or None."""
    shapes = [(_dtype(a), _shape(a)) for a in arrays]
    try:
        want = ort_ml(op, arrays, attrs, n_outputs)
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        if "NOT_IMPLEMENTED" in str(e) and ort_fails_ok:
            return None
        sol = infer(op, shapes, attrs, n_outputs, domain=ML)
        assert sol.status == "error", \
            f"{op}: onnxruntime refuses ({str(e)[:300]}), the rules accept"
        return None
    got = run_kernel(op, arrays, attrs, n_outputs)
    if attrs.get("post_transform") == "PROBIT":
        # Winitzki's erfinv cancels near 0.5: a last-bit difference in a score (float32
        # sums in another order than onnxruntime's GEMM) moves it by up to ~1e-4
        atol = max(atol, 2e-3)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and _dtype(g) == _dtype(w), (op, k, g.shape, w.shape, g.dtype)
        if compare is not None and k not in compare:
            continue
        if w.dtype.kind in "OU":
            assert g.tolist() == w.tolist(), (op, k, g, w)
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol,
                                       atol=atol, err_msg=f"{op} output {k}")
    sol = infer(op, shapes, attrs, n_outputs, domain=ML)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for k, w in enumerate(want):
        assert sol.shape(f"y{k}") == _shape(w), (op, k, sol.shape(f"y{k}"), w.shape)
        assert sol.dtype(f"y{k}") == _dtype(w), (op, k, sol.dtype(f"y{k}"), w.dtype)
    _check_symbolic(op, arrays, attrs, n_outputs, want)
    return want


def _check_symbolic(op, arrays, attrs, n_outputs, want):
    if any(0 in np.shape(a) for a in arrays):
        return  # symbols stand for sizes >= 1
    inputs, env = [], {}
    for k, a in enumerate(arrays):
        names = [f"s{k}_{i}" for i in range(np.ndim(a))]
        env.update({n: Expr.const(d) for n, d in zip(names, np.shape(a))})
        inputs.append((_dtype(a), "[" + ", ".join(names) + "]"))
    sol = infer(op, inputs, attrs, n_outputs, domain=ML)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for k, w in enumerate(want):
        dims = sol.dims(f"y{k}")
        assert dims is not None and len(dims) == w.ndim, (op, k, dims, w.shape)
        for i, d in enumerate(dims):
            if not any(s.startswith("_") for s in d.symbols()):
                assert d.subs(env) == w.shape[i], (op, k, i, str(d), w.shape)


VALUES = [0.5, 1.0, 1.5, 2.0, 3.0]  # features and thresholds: ties happen
MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]


def random_forest(rng, n_trees, n_features, max_depth, n_columns, prefix, weights=None):
    """Trees in the nodes_* lists of ai.onnx.ml 1/3 (node ids from 0 in each tree, in the
    order they are grown) and their leaves' weights in `prefix`_* lists ("class" or
    "target"), each leaf giving one or two columns a weight from `weights`."""
    weights = weights or [-2.0, 0.5, 1.0, 4.0]
    nodes = {k: [] for k in ("treeids", "nodeids", "featureids", "modes", "values",
                             "truenodeids", "falsenodeids", "missing_value_tracks_true")}
    out = {k: [] for k in ("treeids", "nodeids", "ids", "weights")}

    def grow(tree, depth, counter):
        i = counter[0]
        counter[0] += 1
        k = len(nodes["treeids"])
        leaf = depth == max_depth or (depth > 0 and rng.random() < 0.3)
        for key, v in (("treeids", tree), ("nodeids", i),
                       ("featureids", int(rng.integers(n_features))),
                       ("modes", "LEAF" if leaf else MODES[int(rng.integers(6))]),
                       ("values", float(rng.choice(VALUES))), ("truenodeids", 0),
                       ("falsenodeids", 0), ("missing_value_tracks_true", int(rng.integers(2)))):
            nodes[key].append(v)
        if leaf:
            for c in rng.choice(n_columns, size=min(n_columns, int(rng.integers(1, 3))),
                                replace=False):
                for key, v in (("treeids", tree), ("nodeids", i), ("ids", int(c)),
                               ("weights", float(rng.choice(weights)))):
                    out[key].append(v)
            return i
        nodes["truenodeids"][k] = grow(tree, depth + 1, counter)
        nodes["falsenodeids"][k] = grow(tree, depth + 1, counter)
        return i

    for t in range(n_trees):
        grow(t, 0, [0])
    attrs = {f"nodes_{k}": v for k, v in nodes.items()}
    attrs.update({f"{prefix}_{k}": v for k, v in out.items()})
    return attrs
