"""Value propagation on exporter shape sub-graphs: every intermediate shape of a KV-cache
attention block is exact and symbolic, and right at two concrete sizes (onnxruntime)."""
import pytest

from shape_logic import solve
from shape_logic.symbolic.expr import Expr

from .onnx_graphs import assert_every_dim_determined, feeds, kv_attention, runtime_shapes

SIZES = [dict(batch=2, seq=3, past_seq=4), dict(batch=1, seq=5, past_seq=1)]


@pytest.fixture(scope="module")
def solved():
    model = kv_attention()
    return model, solve(model)


def evaluated(sol, tensor, sizes):
    subs = {k: Expr.const(v) for k, v in sizes.items()}
    dims = sol.dims(tensor)
    return tuple(d.subs(subs) for d in dims)


def test_every_shape_is_exact_and_symbolic(solved):
    _, sol = solved
    assert sol.status == "ok" and not sol.warnings
    assert_every_dim_determined(sol)
    for t in sol.graph.tensors():
        assert sol.dtype(t) is not None, t
    # the shapes the shape sub-graphs feed
    assert sol.shape("present_k") == "[batch, 2, past_seq + seq, 8]"
    assert sol.shape("y") == "[batch, seq, 32]"
    consumers = {n.op: n.outputs[0] for n in sol.graph.nodes
                 if n.op in ("Expand", "ConstantOfShape", "Range", "Slice", "Tile")}
    assert sol.shape(consumers["Expand"]) == "[batch, 1, seq, past_seq + seq]"
    assert sol.shape(consumers["ConstantOfShape"]) == "[seq, past_seq + seq]"
    assert sol.shape(consumers["Slice"]) == "[batch, 1, seq, past_seq + seq]"


@pytest.mark.parametrize("sizes", SIZES, ids=lambda s: "-".join(map(str, s.values())))
def test_shapes_match_onnxruntime(solved, sizes):
    model, sol = solved
    got = runtime_shapes(model, feeds(sizes["batch"], sizes["seq"], sizes["past_seq"]))
    checked = 0
    for t, shape in got.items():
        ours = evaluated(sol, t, sizes)
        assert all(d.is_int for d in ours), (t, ours)
        assert tuple(d.value for d in ours) == shape, f"{t}: {sol.shape(t)} vs {shape}"
        checked += 1
    assert checked > 60


def test_where_of_an_equality_test_on_dims():
    # torch's expand: Where(b == 1, 1, b) is b whatever b is; a decided test picks a branch
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 3]"}},
         "initializers": {"zero": {"dtype": "i64", "data": 0},
                          "one": {"dtype": "i64", "data": 1}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
                   {"op": "Gather", "inputs": ["s", "zero"], "outputs": ["b"]},
                   {"op": "Gather", "inputs": ["s", "one"], "outputs": ["three"]},
                   {"op": "Equal", "inputs": ["b", "one"], "outputs": ["t"]},
                   {"op": "Where", "inputs": ["t", "one", "b"], "outputs": ["w"]},
                   {"op": "Where", "inputs": ["t", "b", "one"], "outputs": ["w2"]},
                   {"op": "Equal", "inputs": ["three", "one"], "outputs": ["f"]},
                   {"op": "Where", "inputs": ["f", "b", "three"], "outputs": ["w3"]},
                   {"op": "Unsqueeze", "inputs": ["w", "zero1"], "outputs": ["wv"]},
                   {"op": "Unsqueeze", "inputs": ["w3", "zero1"], "outputs": ["w3v"]},
                   {"op": "Concat", "inputs": ["wv", "w3v"], "outputs": ["shape"],
                    "attrs": {"axis": 0}},
                   {"op": "ConstantOfShape", "inputs": ["shape"], "outputs": ["y"]},
                   {"op": "Unsqueeze", "inputs": ["w2", "zero1"], "outputs": ["w2v"]},
                   {"op": "ConstantOfShape", "inputs": ["w2v"], "outputs": ["y2"]}]}
    g["initializers"]["zero1"] = {"dtype": "i64", "data": [0]}
    sol = solve(g)
    assert sol.shape("y") == "[b, 3]"   # Where(b == 1, 1, b) = b; Where(3 == 1, b, 3) = 3
    # Where(b == 1, b, 1) is 1 either way
    assert sol.shape("y2") == "[1]"


def test_torch_expand_pattern_on_a_shape_vector():
    # torch's expand(b, t): Where(shape == -1 * ConstantOfShape(len, 1), ones, shape)
    one = {"dtype": "i64", "shape": [1], "data": [1]}
    g = {"inputs": {"ids": {"dtype": "i64", "shape": "[b, t]"},
                    "row": {"dtype": "i64", "shape": "[1, t]"}},
         "initializers": {"minus": {"dtype": "i64", "data": -1}},
         "nodes": [{"op": "Shape", "inputs": ["ids"], "outputs": ["shape"]},
                   {"op": "Shape", "inputs": ["shape"], "outputs": ["len"]},
                   {"op": "ConstantOfShape", "inputs": ["len"], "outputs": ["ones"],
                    "attrs": {"value": one}},
                   {"op": "Mul", "inputs": ["ones", "minus"], "outputs": ["neg"]},
                   {"op": "Equal", "inputs": ["shape", "neg"], "outputs": ["is_neg"]},
                   {"op": "Where", "inputs": ["is_neg", "ones", "shape"], "outputs": ["to"]},
                   {"op": "Expand", "inputs": ["row", "to"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.shape("y") == "[b, t]"


def _sum_as_shape(dtype, a, b, x="[n]", op="Add"):
    """x reshaped to [a + b] (a - b with op Sub), computed in `dtype`, then cast to int64."""
    return {"inputs": {"x": {"dtype": "f32", "shape": x}},
            "initializers": {"a": {"dtype": dtype, "shape": [1], "data": [a]},
                             "b": {"dtype": dtype, "shape": [1], "data": [b]}},
            "nodes": [{"op": op, "inputs": ["a", "b"], "outputs": ["s"]},
                      {"op": "Cast", "inputs": ["s"], "outputs": ["s64"], "attrs": {"to": 7}},
                      {"op": "Reshape", "inputs": ["x", "s64"], "outputs": ["y"]}]}


@pytest.mark.parametrize("dtype, a, b", [("u8", 200, 100), ("i16", 30000, 30000),
                                         ("i32", 2**30, 2**30)])
def test_a_sum_a_narrow_type_wraps_is_not_followed(dtype, a, b):
    """200 + 100 in uint8 is 44 at run time: the sum is not 300, so x is not bound to it
    (the graph runs with x of 44 elements)."""
    import numpy as np

    from shape_logic import run

    sol = solve(_sum_as_shape(dtype, a, b))
    assert sol.status == "ok" and sol.shape("x") == "[n]"
    assert sol.shape("y") != f"[{a + b}]"
    dt = {"u8": np.uint8, "i16": np.int16, "i32": np.int32}[dtype]
    wrapped = int((np.array([a], dt) + np.array([b], dt))[0])  # numpy wraps as runtimes do
    if wrapped > 0:  # the executor runs it, with the wrapped sum
        out = run(_sum_as_shape(dtype, a, b), {"x": np.zeros(wrapped, np.float32)})
        assert out["y"].shape == (wrapped,)


@pytest.mark.parametrize("dtype", ["u8", "i32", "i64"])
def test_a_sum_the_type_holds_is_followed(dtype):
    sol = solve(_sum_as_shape(dtype, 3, 4, x="[7]"))
    assert sol.status == "ok" and sol.shape("y") == "[7]"


@pytest.mark.parametrize("dtype, a, b", [("u8", 3, 5), ("u32", 3, 5), ("i16", -30000, 30000)])
def test_a_difference_a_narrow_type_wraps_is_not_followed(dtype, a, b):
    """3 - 5 in uint8 is 254 at run time, -30000 - 30000 in int16 is 5536: not -2 or -60000
    (a shape error, for a graph that runs)."""
    import numpy as np

    from shape_logic import run

    g = _sum_as_shape(dtype, a, b, op="Sub")
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("x") == "[n]"
    dt = {"u8": np.uint8, "u32": np.uint32, "i16": np.int16}[dtype]
    with np.errstate(over="ignore"):
        wrapped = int((np.array([a], dt) - np.array([b], dt))[0])
    if wrapped < 10**6:
        out = run(g, {"x": np.zeros(wrapped, np.float32)})
        assert out["y"].shape == (wrapped,)


@pytest.mark.parametrize("dtype", ["u8", "i16", "i32", "u32", "i64"])
def test_a_difference_the_type_holds_is_followed(dtype):
    sol = solve(_sum_as_shape(dtype, 10, 3, x="[7]", op="Sub"))
    assert sol.status == "ok" and sol.shape("y") == "[7]"


INT64_MAX, INT64_MIN = 2**63 - 1, -2**63


def _slice_to(end_op: str, a: int, b: int | None) -> dict:
    """x[0:end] where end = end_op(a, b) (or end_op(a)) is computed in int64."""
    inits = {"a": {"dtype": "i64", "shape": [1], "data": [a]},
             "zero": {"dtype": "i64", "shape": [1], "data": [0]}}
    ins = ["a"]
    if b is not None:
        inits["b"] = {"dtype": "i64", "shape": [1], "data": [b]}
        ins.append("b")
    return {"inputs": {"x": {"dtype": "f32", "shape": "[10]"}}, "initializers": inits,
            "nodes": [{"op": end_op, "inputs": ins, "outputs": ["end"]},
                      {"op": "Slice", "inputs": ["x", "zero", "end"], "outputs": ["y"]}]}


@pytest.mark.parametrize("op, a, b", [("Add", INT64_MAX, 1), ("Sub", INT64_MIN, 1),
                                      ("Mul", INT64_MAX, 2), ("Neg", INT64_MIN, None)])
def test_int64_arithmetic_past_its_range_is_not_followed(op, a, b):
    """INT64_MAX (a Slice end exporters write) + 1 wraps around to INT64_MIN at run time,
    so x[0:end] is empty there, not x: the end is not taken as 2^63."""
    import numpy as np

    from shape_logic import run

    sol = solve(_slice_to(op, a, b))
    assert sol.status == "ok" and sol.shape("y") != "[10]"
    out = run(_slice_to(op, a, b), {"x": np.zeros(10, np.float32)})  # as the runtime does
    with np.errstate(over="ignore"):
        end = int({"Add": np.add, "Sub": np.subtract, "Mul": np.multiply}[op](
            np.int64(a), np.int64(b)) if b is not None else -np.int64(a))
    assert out["y"].shape == (len(range(10)[0:end]),)


@pytest.mark.parametrize("op, a, b, end", [("Add", INT64_MAX - 1, 1, INT64_MAX),
                                           ("Sub", 12, 5, 7), ("Mul", 2, 3, 6)])
def test_int64_arithmetic_within_its_range_is_followed(op, a, b, end):
    sol = solve(_slice_to(op, a, b))
    assert sol.status == "ok" and sol.shape("y") == f"[{min(end, 10)}]"


@pytest.mark.parametrize("k,size", [(1, 2), (10, 0)])
def test_relu_and_cast_to_bool_of_a_dim(k, size):
    # ONNX's Range function computes a trip count as Cast(Relu(Ceil(...))) and its
    # condition as Cast(..., to=BOOL): Relu is max(d - k, 0) of a known dim, a cast to
    # bool is 1 where the value is not 0
    g = {"opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[3, 5]"}},
         "initializers": {"zero": {"dtype": "i64", "shape": [], "data": 0},
                          "k": {"dtype": "i64", "shape": [], "data": k},
                          "axes": {"dtype": "i64", "shape": [1], "data": [0]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "zero"], "outputs": ["d"]},
                   {"op": "Sub", "inputs": ["d", "k"], "outputs": ["diff"]},
                   {"op": "Relu", "inputs": ["diff"], "outputs": ["n"]},
                   {"op": "Cast", "inputs": ["n"], "outputs": ["nonzero"], "attrs": {"to": 9}},
                   {"op": "Unsqueeze", "inputs": ["n", "axes"], "outputs": ["shape"]},
                   {"op": "ConstantOfShape", "inputs": ["shape"], "outputs": ["y"]},
                   {"op": "If", "inputs": ["nonzero"], "outputs": ["z"], "attrs": {
                       "then_branch": {"inputs": [], "outputs": ["y"], "nodes": []},
                       "else_branch": {"inputs": [], "outputs": ["x"], "nodes": []}}}]}
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y") == f"[{size}]"
    assert sol.shape("z") == (f"[{size}]" if size else "[3, 5]")


def test_a_slice_from_a_start_of_unknown_sign_is_not_guessed():
    # MPT (transformers, TorchScript export): the ALiBi table [heads, 1, max_len] is sliced
    # from max_len - seq to the end. That is seq positions only while seq <= max_len: at
    # seq = 65 the start -1 counts from the end and takes 1 position. onnxruntime's
    # symbolic inference says [4, 1, seq]; the length is a fresh name here, and the
    # executor finds 1 at 65 (and the scores' broadcast still gives [1, 4, 65, 65])
    import numpy as np

    from shape_logic.executor import Program

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 4, seq, seq]"}},
         "outputs": {"bias": {}, "y": {}},
         "initializers": {"alibi": {"dtype": "f32", "shape": [4, 1, 64],
                                    "data": np.linspace(-1, 0, 256).reshape(4, 1, 64).tolist()},
                          "two": {"dtype": "i64", "data": 2},
                          "max_len": {"dtype": "i64", "data": 64},
                          "end": {"dtype": "i64", "data": [2**63 - 1]},
                          "axis": {"dtype": "i64", "data": [2]},
                          "zero": {"dtype": "i64", "data": [0]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["shape"]},
                   {"op": "Gather", "inputs": ["shape", "two"], "outputs": ["seq"]},
                   {"op": "Sub", "inputs": ["max_len", "seq"], "outputs": ["start0"]},
                   {"op": "Unsqueeze", "inputs": ["start0", "zero"], "outputs": ["start"]},
                   {"op": "Slice", "inputs": ["alibi", "start", "end", "axis"],
                    "outputs": ["bias"]},
                   {"op": "Add", "inputs": ["x", "bias"], "outputs": ["y"]}]}
    sol = solve(g)
    dims = sol.dims("bias")
    assert [str(d) for d in dims[:2]] == ["4", "1"]
    assert dims[2].symbols() and "seq" not in dims[2].symbols()  # a fresh name, not seq
    assert sol.to_json()["ranges"] == {str(dims[2]): [0, 64]}  # at most the table's axis
    # the scores keep seq: the slice is seq long where 64 - seq >= 0, and elsewhere seq is
    # no 1 (encodings/broadcast.lp's case_dim)
    assert sol.shape("y") == "[b, 4, seq, seq]"
    for seq, length in ((5, 5), (64, 64), (65, 1)):
        run = Program(g).run({"x": np.zeros((1, 4, seq, seq), np.float32)})
        assert run["bias"].shape == (4, 1, length)
        assert run["y"].shape == (1, 4, seq, seq)
