"""Testing com.microsoft contrib ops: one node solved by us, run by onnxruntime."""
from __future__ import annotations

import re

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.testing import node_graph

MS = "com.microsoft"


def ms_case(inputs, attrs=None, outputs=None):
    """A check_case spec of one com.microsoft node: its inputs, attributes and declared
    outputs (if any)."""
    spec = {"inputs": inputs, "attrs": attrs or {}, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


def infer_contrib(op, inputs, attrs=None, n_outputs=1, outputs=None):
    """Like shape_logic.testing.infer, with the node in the com.microsoft domain."""
    g = node_graph(op, inputs, attrs, n_outputs, outputs=outputs)
    g["nodes"][0]["domain"] = MS
    return solve(g)


def ort_contrib(op, arrays, attrs=None, n_outputs=1, domain=MS, const=(), absent=(),
                opset=21):
    """onnxruntime's outputs for one contrib node (None entries are absent inputs; `domain`
    "" for the ones onnxruntime registers in ONNX's, SimplifiedLayerNormalization). The
    inputs numbered in `const` are initializers (onnxruntime takes no int4 or float8 feeds);
    the outputs numbered in `absent` are left out (named "": not among those returned);
    `opset` is ONNX's default domain's (onnxruntime runs the experimental operators onnx
    dropped, ImageScaler..., up to 9 only)."""
    import onnxruntime as ort

    names, inputs, feeds, inits = [], [], {}, []
    for k, a in enumerate(arrays):
        if a is None:
            names.append("")
            continue
        names.append(f"x{k}")
        a = np.asarray(a)
        if k in const:
            inits.append(numpy_helper.from_array(a, f"x{k}"))
            continue
        elem = helper.np_dtype_to_tensor_dtype(a.dtype)
        inputs.append(helper.make_tensor_value_info(f"x{k}", elem, list(a.shape)))
        feeds[f"x{k}"] = a
    outs = [helper.make_empty_tensor_value_info(f"y{k}") for k in range(n_outputs)
            if k not in absent]
    node = helper.make_node(op, names, ["" if k in absent else f"y{k}" for k in range(n_outputs)],
                            domain=domain, **(attrs or {}))
    graph = helper.make_graph([node], "g", inputs, outs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset),
                                                    helper.make_opsetid(MS, 1)])
    model.ir_version = 10  # int4 and uint4 (GatherBlockQuantized's data)
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
            # (`_`: a fresh name, `_1`, or a count of the data's, `_c1`)
            assert re.fullmatch(re.escape(shape).replace("_", "_c?[0-9]+"), sol.shape(t)), \
                (t, sol.shape(t), shape)


def check_against_onnxruntime(op, arrays, attrs=None, n_outputs=1, domain=MS, const=(),
                              rtol=1e-3, atol=1e-4, ort_fails_ok=False, opset=None):
    """One node against onnxruntime: where it runs, our kernel gives its outputs (values,
    shapes, dtypes), the rules infer its output shapes and dtypes from the input shapes
    (the inputs numbered in `const` as constants), and with every input dim a symbol each
    inferred dim without a fresh name evaluates to its size. Where onnxruntime rejects the
    inputs, so must the rules (unless ort_fails_ok: a limit of its CPU kernel, not of the
    operator). `opset`: ONNX's default domain's, for onnxruntime and our rules (ort_contrib's
    and infer's defaults without it). Returns onnxruntime's outputs, or None when it
    rejected the inputs."""
    from shape_logic.graph import dtype_of_array
    from shape_logic.kernels import load_kernel
    from shape_logic.testing import infer

    shapes = [None if a is None else np.asarray(a) if k in const else
              (dtype_of_array(np.asarray(a)), list(np.shape(a))) for k, a in enumerate(arrays)]
    try:
        want = ort_contrib(op, arrays, attrs, n_outputs, domain, const,
                           **({} if opset is None else {"opset": opset}))
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        assert ort_fails_ok or rejected(op, shapes, attrs, n_outputs, domain, opset), \
            f"{op}: onnxruntime rejects the inputs ({str(e)[:300]}), the rules accept them"
        return None
    got = load_kernel(op)(attrs or {}, n_outputs=n_outputs, domain=domain,
                          **({} if opset is None else {"opset": opset}))(*arrays)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, (op, k, g.shape, w.shape, g.dtype)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol,
                                   atol=atol, err_msg=f"{op} output {k}")
    sol = infer(op, shapes, attrs, n_outputs, opset or 18, domain=domain)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for k, w in enumerate(want):
        assert sol.shape(f"y{k}") == "[" + ", ".join(map(str, w.shape)) + "]", \
            (op, k, sol.shape(f"y{k}"), w.shape)
        assert sol.dtype(f"y{k}") == dtype_of_array(w), (op, k, sol.dtype(f"y{k}"), w.dtype)
    _check_symbolic(op, arrays, attrs, n_outputs, domain, const, want, opset or 18)
    return want


def rejected(op, inputs, attrs, n_outputs, domain=MS, opset=None) -> bool:
    """Whether we refuse the node: a shape error, or an input error before solving (an
    attribute its operator does not have, or of another type: attributes.py)."""
    from shape_logic.errors import InputError
    from shape_logic.testing import infer

    try:
        return infer(op, inputs, attrs, n_outputs, opset or 18,
                     domain=domain).status == "error"
    except InputError:
        return True


def _check_symbolic(op, arrays, attrs, n_outputs, domain, const, want, opset=18):
    """Every input dim a symbol (s<input>_<axis>): each inferred output dim that names no
    fresh symbol evaluates to onnxruntime's size."""
    from shape_logic.graph import dtype_of_array
    from shape_logic.symbolic.expr import Expr
    from shape_logic.testing import infer

    if any(0 in np.shape(a) for k, a in enumerate(arrays) if a is not None and k not in const):
        return  # symbols stand for sizes >= 1
    inputs, env = [], {}
    for k, a in enumerate(arrays):
        if a is None or k in const:
            inputs.append(None if a is None else np.asarray(a))
            continue
        names = [f"s{k}_{i}" for i in range(np.ndim(a))]
        env.update({n: Expr.const(d) for n, d in zip(names, np.shape(a))})
        inputs.append((dtype_of_array(np.asarray(a)), "[" + ", ".join(names) + "]"))
    sol = infer(op, inputs, attrs, n_outputs, opset, domain=domain)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for k, w in enumerate(want):
        dims = sol.dims(f"y{k}")
        if dims is None:
            continue
        assert len(dims) == w.ndim, (op, k, dims, w.shape)
        for i, d in enumerate(dims):
            if not any(s.startswith("_") for s in d.symbols()):
                assert d.subs(env) == w.shape[i], (op, k, i, str(d), w.shape)


def onnxruntime_verdict(op, arrays, attrs=None, n_outputs=1):
    """"runs", "no kernel" (its CPU provider lacks the operator: the graph passed its shape
    inference and checks) or "rejected" (they failed)."""
    try:
        ort_contrib(op, arrays, attrs, n_outputs)
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        return "no kernel" if "NOT_IMPLEMENTED" in str(e) else "rejected"
    return "runs"


def gqa_lengths(mask: str = "mask", one: str = "one") -> list:
    """The nodes giving GroupQueryAttention's `seqlens` (int32: each row's count of the
    attention mask, less one) and `tot` (int32: the mask's width) from a [batch, total]
    mask, as onnxruntime-genai's model builder computes them; `one` is an int64 [1]."""
    return [
        helper.make_node("ReduceSum", [mask, one], ["len"], keepdims=0),
        helper.make_node("Sub", ["len", one], ["seqlens64"]),
        helper.make_node("Cast", ["seqlens64"], ["seqlens"], to=TensorProto.INT32),
        helper.make_node("Shape", [mask], ["ms"], start=1, end=2),
        helper.make_node("Squeeze", ["ms"], ["tot64"]),
        helper.make_node("Cast", ["tot64"], ["tot"], to=TensorProto.INT32),
    ]


SEARCH_OUTPUTS = ["sequences", "sequences_scores", "scores"]


def search_model(op, first, values: dict, **attrs):
    """A model of one onnxruntime search node (BeamSearch, WhisperBeamSearch): its first
    input the graph's input `first` (a ValueInfoProto), the next ones initializers of
    `values` (name -> array, in order), its outputs sequences, sequences_scores, scores."""
    node = helper.make_node(op, [first.name, *values], SEARCH_OUTPUTS, domain=MS, **attrs)
    graph = helper.make_graph(
        [node], "g", [first], [helper.make_empty_tensor_value_info(n) for n in SEARCH_OUTPUTS],
        [numpy_helper.from_array(np.asarray(v), n) for n, v in values.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18),
                                                   helper.make_opsetid(MS, 1)])


def search_values(max_length, min_length, beams, returns, length_penalty=1.0) -> dict:
    """A search node's constant inputs 1 to 5, by name (search_model's `values`)."""
    i32 = lambda v: np.array([v], np.int32)  # noqa: E731
    return {"max_length": i32(max_length), "min_length": i32(min_length),
            "num_beams": i32(beams), "num_return_sequences": i32(returns),
            "length_penalty": np.array([length_penalty], np.float32)}


def check_whole_model(model, path, feeds: dict, shapes: list):
    """The model saved at `path` solves to `shapes` (its outputs', in order) and runs on our
    executor as on onnxruntime (values, shapes, dtypes)."""
    import onnx
    import onnxruntime as ort

    import shape_logic

    onnx.save(model, path)
    sol = shape_logic.solve(str(path))
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    names = [o.name for o in model.graph.output]
    assert [sol.shape(n) for n in names] == shapes
    want = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(None, feeds)
    out = shape_logic.run(str(path), feeds)
    for k, name in enumerate(names):
        assert out[name].shape == want[k].shape and out[name].dtype == want[k].dtype
        np.testing.assert_allclose(out[name], want[k], rtol=1e-4, atol=1e-4)


# a search node's inputs the rules see as constants (their values): max_length,
# min_length, num_beams, num_return_sequences, logits_processor
SEARCH_VALUED = (1, 2, 3, 4, 11)


def check_search(op, arrays, proto, n_outputs, unset=None):
    """One search node (BeamSearch, WhisperBeamSearch) against onnxruntime: onnxruntime and
    our kernel take the subgraphs as GraphProtos (`proto`, the node's attributes), our rules
    as the importer's graph objects; values, shapes, dtypes, rejections, and with every size
    a symbol each inferred dim without a fresh name evaluates to the size. Where the search
    stops early, onnxruntime leaves the scores unwritten: our kernel refuses them and the
    first two outputs are compared. `unset`: a refusal of our kernel where onnxruntime reads
    unset inputs (nothing compared). Returns onnxruntime's outputs (None where it rejected
    the inputs)."""
    from shape_logic.graph import dtype_of_array
    from shape_logic.kernels import load_kernel
    from shape_logic.kernels.base import KernelError
    from shape_logic.kernels.GreedySearch import body_of

    ours = {k: body_of(v) if k in ("encoder", "decoder") else v for k, v in proto.items()}
    shapes = [None if a is None else a if k in SEARCH_VALUED else
              (dtype_of_array(a), list(a.shape)) for k, a in enumerate(arrays)]
    sol = infer_contrib(op, shapes, ours, n_outputs)
    try:
        want = ort_contrib(op, arrays, proto, n_outputs)
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        assert sol.status == "error", f"onnxruntime rejects ({str(e)[-300:]}), the rules accept"
        return None
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    try:
        got = load_kernel(op)(proto, n_outputs=n_outputs, domain=MS)(*arrays)
    except KernelError as e:
        if unset is not None and unset in str(e):
            got = want
        else:
            assert n_outputs == 3 and "stops before max_length" in str(e), str(e)
            got = load_kernel(op)(proto, n_outputs=2, domain=MS)(*arrays)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, (k, g.shape, w.shape, g.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4, err_msg=f"output {k}")
    for k, w in enumerate(want):
        assert sol.shape(f"y{k}") == "[" + ", ".join(map(str, w.shape)) + "]", \
            (k, sol.shape(f"y{k}"), w.shape)
        assert sol.dtype(f"y{k}") == dtype_of_array(w)
    _check_symbolic(op, arrays, ours, n_outputs, MS, SEARCH_VALUED, want)
    return want
