"""ONNX models built with onnx.helper the way exporters write them (no torch needed).

`kv_attention()`: one attention block with a KV cache, dynamic batch / seq / past_seq,
whose shapes all flow through exporter-style shape sub-graphs (Shape -> Gather ->
Unsqueeze -> Concat -> Reshape, a causal mask from Range / Where / Expand /
ConstantOfShape / Slice, with Add / Sub / Mul / Div / Cast / Equal / Min / Max on small
int64 tensors).
"""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

D, H = 16, 2  # model width, heads


def N(op, inputs, outputs, **attrs):
    """A node of space-separated input and output names."""
    return helper.make_node(op, inputs.split(), outputs.split(), **attrs)


class _Builder:
    def __init__(self):
        self.nodes, self.inits = [], []
        self.count = 0

    def const(self, value, dtype=np.int64) -> str:
        self.count += 1
        name = f"c{self.count}"
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, op, *inputs, n_out=1, **attrs):
        self.count += 1
        outs = [f"{op.lower()}{self.count}_{k}" for k in range(n_out)]
        self.nodes.append(helper.make_node(op, list(inputs), outs, name=f"{op}_{self.count}",
                                           **attrs))
        return outs[0] if n_out == 1 else outs

    def dim(self, x, axis) -> str:
        """Shape -> Gather(axis): a 0-D int64 holding one dim."""
        return self.op("Gather", self.op("Shape", x), self.const(axis), axis=0)

    def vec(self, *scalars) -> str:
        """Unsqueeze each 0-D value and Concat them into a 1-D shape vector."""
        parts = [self.op("Unsqueeze", s, self.const([0])) for s in scalars]
        return self.op("Concat", *parts, axis=0)


def kv_attention(opset: int = 17):
    b = _Builder()
    rng = np.random.default_rng(0)
    w = {k: b.const(rng.standard_normal((D, D)) * 0.1, np.float32) for k in "qkvo"}
    batch, seq = b.dim("x", 0), b.dim("x", 1)
    head_dim = b.op("Div", b.const(D), b.const(H))            # 16 / 2 = 8 (int64 Div)
    heads = b.op("Cast", b.const(H), to=TensorProto.INT64)

    def split_heads(t):
        shape = b.vec(batch, seq, heads, head_dim)
        return b.op("Transpose", b.op("Reshape", t, shape), perm=[0, 2, 1, 3])

    q = split_heads(b.op("MatMul", "x", w["q"]))
    k = b.op("Concat", "past_k", split_heads(b.op("MatMul", "x", w["k"])), axis=2)
    v = b.op("Concat", "past_v", split_heads(b.op("MatMul", "x", w["v"])), axis=2)
    scores = b.op("MatMul", q, b.op("Transpose", k, perm=[0, 1, 3, 2]))

    # causal mask over (seq, total): key j is visible to query i iff j <= past + i
    total = b.dim(k, 2)
    past = b.op("Sub", total, seq)
    rows = b.op("Add", b.op("Range", b.const(0), seq, b.const(1)), past)
    cols = b.op("Range", b.const(0), total, b.const(1))
    rows2 = b.op("Unsqueeze", rows, b.const([1]))
    cols2 = b.op("Unsqueeze", cols, b.const([0]))
    hidden = b.op("Greater", cols2, rows2)                      # [seq, total]
    neg = b.op("ConstantOfShape", b.vec(seq, total),
               value=numpy_helper.from_array(np.array([-1e4], np.float32)))
    zeros = b.op("Mul", neg, b.const(0.0, np.float32))
    mask = b.op("Where", hidden, neg, zeros)
    # Expand to [batch, 1, seq, total] with a shape from Max/Min/Equal/Where on int64s
    one = b.op("Max", b.const(1), b.op("Min", b.const(1), batch))  # = 1
    is_one = b.op("Equal", batch, b.const(1))
    bsz = b.op("Where", is_one, b.const(1), batch)               # = batch
    mask4 = b.op("Expand", mask, b.vec(bsz, one, seq, total))
    # the mask sliced to the last `seq` rows with ends from the shape (a no-op slice)
    start = b.op("Unsqueeze", b.op("Sub", b.dim(mask4, 2), seq), b.const([0]))
    end = b.op("Unsqueeze", b.dim(mask4, 2), b.const([0]))
    mask4 = b.op("Slice", mask4, start, end, b.const([2]))
    probs = b.op("Softmax", b.op("Add", scores, mask4), axis=-1)
    ctx = b.op("Transpose", b.op("MatMul", probs, v), perm=[0, 2, 1, 3])
    merged = b.op("Reshape", ctx, b.vec(batch, seq, b.op("Mul", heads, head_dim)))
    y = b.op("MatMul", merged, w["o"])
    # a Tile by a shape vector: [batch, seq, D] -> [batch, seq, 2*D]
    tiled = b.op("Tile", y, b.op("Concat", b.const([1]), b.const([1]), b.const([2]), axis=0))
    b.nodes.append(helper.make_node("Identity", [tiled], ["y"], name="out_y"))
    b.nodes.append(helper.make_node("Identity", [k], ["present_k"], name="out_k"))

    f32 = TensorProto.FLOAT
    inputs = [helper.make_tensor_value_info("x", f32, ["batch", "seq", D]),
              helper.make_tensor_value_info("past_k", f32, ["batch", H, "past_seq", D // H]),
              helper.make_tensor_value_info("past_v", f32, ["batch", H, "past_seq", D // H])]
    # onnx's checker wants a shape on outputs; present_k's is an expression dim_param
    outputs = [helper.make_tensor_value_info("y", f32, ["batch", "seq", None]),
               helper.make_tensor_value_info("present_k", f32,
                                             ["batch", H, "past_seq + seq", D // H])]
    graph = helper.make_graph(b.nodes, "kv_attention", inputs, outputs, initializer=b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def feeds(batch: int, seq: int, past: int) -> dict:
    rng = np.random.default_rng(1)
    return {"x": rng.standard_normal((batch, seq, D)).astype(np.float32),
            "past_k": rng.standard_normal((batch, H, past, D // H)).astype(np.float32),
            "past_v": rng.standard_normal((batch, H, past, D // H)).astype(np.float32)}


class Elements(tuple):
    """A sequence's value at run time: the shapes of its elements, in order."""


def _runtime_shape(value):
    """A tensor's shape; a sequence's Elements; None for an empty optional."""
    if value is None:
        return None
    if isinstance(value, list):
        return Elements(tuple(np.shape(e)) for e in value)
    return tuple(np.shape(value))


def each_shape(want) -> list:
    """The shapes a runtime_shapes value asks every stated dim to match: a tensor's own,
    each element's of a sequence, none of an empty optional."""
    return [] if want is None else list(want) if isinstance(want, Elements) else [want]


def runtime_shapes(model, feeds: dict) -> dict:
    """Every tensor's shape when onnxruntime runs the model (all values made outputs); of
    a sequence, its Elements; of an empty optional, None."""
    import onnx
    import onnxruntime as ort

    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for node in m.graph.node:
        for t in node.output:
            if t and t not in have:
                m.graph.output.append(helper.make_empty_tensor_value_info(t))
                have.add(t)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    values = sess.run(names, feeds)
    out = {n: _runtime_shape(v) for n, v in zip(names, values)}
    out.update({k: _runtime_shape(v) for k, v in feeds.items()})
    return out


def input_sizes(model, feed: dict) -> dict:
    """The inputs' dim_params -> their sizes at `feed` (Expr constants)."""
    from shape_logic.symbolic.expr import Expr

    return {d.dim_param: Expr.const(n) for vi in model.graph.input
            for d, n in zip(vi.type.tensor_type.shape.dim, feed[vi.name].shape)
            if d.dim_param}


def assert_runtime_shapes(model, sol, feed: dict) -> None:
    """Every tensor's inferred shape, at the sizes `feed` gives the inputs' dim_params, is
    onnxruntime's at `feed`."""
    subs = input_sizes(model, feed)
    for t, want in runtime_shapes(model, feed).items():
        got = tuple(d.subs(subs).value for d in sol.dims(t))
        assert got == want, f"{t}: {sol.shape(t)} vs {want}"


def open_tensors_checking_the_rest(model, sol, feeds: list) -> set:
    """The tensors with a dim in a name of their own (fresh, or a declared output's), after
    checking every other dim against onnxruntime at each of the feeds (sizes of the
    inputs' dim_params): a dim stated in the inputs' symbols is never wrong."""
    unknown = set()
    for f in feeds:
        subs = input_sizes(model, f)
        for t, want in runtime_shapes(model, f).items():
            _check_container(sol, t, want, subs)
            dims = sol.dims(t)
            for w in each_shape(want):
                assert dims is not None and len(dims) == len(w), f"{t}: {sol.shape(t)} vs {w}"
                for d, n in zip(dims, w):
                    if not d.symbols() <= subs.keys():
                        unknown.add(t)
                        continue
                    assert d.subs(subs).value == n, f"{t}: {sol.shape(t)} vs {w}"
    return unknown


def _check_container(sol, t: str, want, subs: dict) -> None:
    """A sequence's length and an optional's having an element, where stated, are the
    runtime's."""
    opt = sol.optional(t)
    if opt is not None and opt["has_element"] is not None:
        assert opt["has_element"] == (want is not None), f"{t}: {opt} vs {want}"
    length = sol.decoded.sequences.get(t)
    if isinstance(want, Elements) and length is not None:
        length = length.subs(sol._rename)
        if length.symbols() <= subs.keys():
            assert length.subs(subs).value == len(want), f"{t}: {length} vs {len(want)}"


def assert_every_dim_determined(sol) -> None:
    """Every tensor has a known rank and no dim left to a fresh name (`_N`)."""
    for t in sol.graph.tensors():
        dims = sol.dims(t)
        assert dims is not None, f"{t}: rank unknown"
        assert not any(s.startswith("_") for d in dims for s in d.symbols()), \
            f"{t}: {sol.shape(t)} has an undetermined dim"


def assert_same_outputs(model, feeds: list, atol: float = 1e-4) -> None:
    """Our executor runs the model at each feed and computes what onnxruntime does."""
    import onnxruntime as ort

    from shape_logic import run

    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    for f in feeds:
        got = run(model, f)
        for name, want in zip(names, session.run(None, f)):
            np.testing.assert_allclose(np.asarray(got[name], np.float64),
                                       np.asarray(want, np.float64), rtol=1e-3, atol=atol,
                                       err_msg=name)


def random_feeds(model, sizes: list, rng) -> list:
    """Random feeds at `sizes` (per feed, per input: [shape] or [shape, low, high], the
    range an integer input's elements are drawn from, else 0..4; floats standard normal),
    in the model's input types: bench/tf_export.py's sizes files."""
    types = {i.name: helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type)
             for i in model.graph.input}
    out = []
    for feed in sizes:
        f = {}
        for name, (shape, *bounds) in feed.items():
            f[name] = (rng.integers(*(bounds or (0, 5)), shape).astype(types[name])
                       if np.issubdtype(types[name], np.integer) else
                       rng.standard_normal(shape).astype(types[name]))
        out.append(f)
    return out


def yolo_neck():
    """A YOLOv8-like detector over images [batch, 3, height, width]: five stride-2
    convolutions (p3 at (height + 7)//8, p4 at (height + 15)//16, p5 at (height + 31)//32),
    p5 and then the joined p4 upsampled by 2 and each joined to its skip (so 2*((height +
    31)//32) = (height + 15)//16 and 2*((height + 15)//16) = (height + 7)//8 wherever it
    runs), downsampled back and joined again, three heads of 6 channels flattened and
    concatenated along their anchors, [batch, anchors, 6]."""
    b = _Builder()
    rng = np.random.default_rng(0)

    def conv(x, cin, stride, cout=4):
        w = f"w{b.count + 1}"
        b.count += 1
        b.inits.append(numpy_helper.from_array(
            rng.standard_normal((cout, cin, 3, 3)).astype(np.float32), w))
        return b.op("Conv", x, w, kernel_shape=[3, 3], strides=[stride, stride],
                    pads=[1, 1, 1, 1])

    def up(x):
        return b.op("Resize", x, "", b.const([1, 1, 2, 2], np.float32), mode="nearest")

    p3 = conv(conv(conv("images", 3, 2), 4, 2), 4, 2)
    p4 = conv(p3, 4, 2)
    p5 = conv(p4, 4, 2)
    n4 = b.op("Concat", up(p5), p4, axis=1)
    n3 = b.op("Concat", up(conv(n4, 8, 1)), p3, axis=1)
    d4 = b.op("Concat", conv(n3, 8, 2), conv(n4, 8, 1), axis=1)
    d5 = b.op("Concat", conv(d4, 8, 2), p5, axis=1)
    heads = [b.op("Reshape", conv(t, 8, 1, cout=6), b.const([0, 6, -1])) for t in (n3, d4, d5)]
    b.op("Transpose", b.op("Concat", *heads, axis=2), perm=[0, 2, 1])
    out = b.nodes[-1].output[0]
    graph = helper.make_graph(
        b.nodes, "yolo_neck",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT,
                                       ["batch", 3, "height", "width"])],
        [helper.make_value_info(out, helper.make_tensor_type_proto(TensorProto.FLOAT, None))],
        b.inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def solved_checked(model, feeds: list):
    """The Solution of `model`, which must be ok, every dim it states checked against
    onnxruntime at each of the feeds (open_tensors_checking_the_rest)."""
    from shape_logic import solve

    sol = solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    open_tensors_checking_the_rest(model, sol, feeds)
    return sol


def x_feeds(sizes=((5, 3), (2, 7)), lead: int = 0, **others) -> list:
    """Feeds of an x of shape [s, t] (after `lead` axes of 1) at each (s, t) of `sizes`,
    each with every run of the feeds `others` beside it (name -> a list of values)."""
    out = []
    for s, t in sizes:
        x = np.zeros((1,) * lead + (s, t), np.float32)
        for combo in (zip(*others.values()) if others else [()]):
            out.append({"x": x, **dict(zip(others, combo))})
    return out


def assert_runtime_shapes_binding_fresh(model, sol, feeds: list) -> None:
    """Every dim stated, in the inputs' symbols and fresh names (`_1`, a count's), is
    onnxruntime's at each of the feeds: a fresh name takes the size of the first axis it
    names alone, and every dim in it must then be the runtime's (`2*_1` twice that)."""
    from shape_logic.symbolic.expr import Expr

    for f in feeds:
        subs = input_sizes(model, f)
        shapes = {t: each_shape(w) for t, w in runtime_shapes(model, f).items()}
        for t, ws in shapes.items():  # the fresh names, each by an axis it names alone
            for w in ws:
                for d, n in zip(sol.dims(t) or (), w):
                    atom = d.single_atom()
                    if atom is not None and atom.kind == "sym" and d.terms[0][1] == 1 and \
                            atom.args[0] not in subs and d == Expr.sym(atom.args[0]):
                        subs.setdefault(atom.args[0], Expr.const(n))
        for t, ws in shapes.items():
            for w in ws:
                dims = sol.dims(t)
                assert dims is not None and len(dims) == len(w), f"{t}: {sol.shape(t)} vs {w}"
                for d, n in zip(dims, w):
                    if d.symbols() <= subs.keys():
                        assert d.subs(subs).value == n, f"{t}: {sol.shape(t)} vs {w} ({f})"
