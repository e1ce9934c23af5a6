"""Data-dependent dims (NonZero, Compress, TopK with a runtime k, Unique): a fresh symbol
each, with its bounds under "ranges", carried downstream; never a guess."""
import json

from shape_logic import solve

from .core.test_cli import cli

GRAPH = {
    "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 4]"},
               "c": {"dtype": "bool", "shape": "[s]"},
               "k": {"dtype": "i64", "shape": "[1]"}},
    "nodes": [
        {"name": "nz", "op": "NonZero", "inputs": ["x"], "outputs": ["idx"]},
        {"name": "t", "op": "Transpose", "inputs": ["idx"], "outputs": ["idx_t"]},
        {"name": "cx", "op": "Compress", "inputs": ["x", "c"], "outputs": ["kept"],
         "attrs": {"axis": 1}},
        {"name": "sm", "op": "Softmax", "inputs": ["kept"], "outputs": ["p"]},
        {"name": "cf", "op": "Compress", "inputs": ["x", "c"], "outputs": ["flat"]},
        {"name": "tk", "op": "TopK", "inputs": ["x", "k"], "outputs": ["v", "i"]},
    ],
}


def test_each_data_dependent_dim_is_a_fresh_symbol_with_bounds():
    sol = solve(GRAPH)
    assert sol.status == "ok"
    # (a count of the data's own, which may be 0, is `_c1`; so is TopK's k, a graph input)
    assert sol.shape("idx") == "[3, _c1]" and sol.shape("idx_t") == "[_c1, 3]"
    assert sol.shape("kept") == "[b, _c2, 4]" and sol.shape("p") == "[b, _c2, 4]"
    assert sol.shape("flat") == "[_c3]"
    assert sol.shape("v") == "[b, s, _c4]" and sol.shape("i") == "[b, s, _c4]"
    assert sol.to_json()["ranges"] == {"_c1": [0, "4*b*s"], "_c2": [0, "s"],
                                       "_c3": [0, "4*b*s"], "_c4": [0, 4]}


def test_a_known_k_is_not_data_dependent():
    g = json.loads(json.dumps(GRAPH))
    g["inputs"].pop("k")
    g["initializers"] = {"k": {"dtype": "i64", "data": [2]}}
    sol = solve(g)
    assert sol.shape("v") == "[b, s, 2]"
    assert "_c4" not in sol.to_json()["ranges"]


def test_ranges_in_text_output(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    r = cli("solve", p)
    assert r.returncode == 0
    assert "ranges: _c1 in 0..4*b*s, _c2 in 0..s, _c3 in 0..4*b*s, _c4 in 0..4" in r.stdout


def test_a_slice_or_split_by_runtime_values_is_at_most_its_axis():
    # starts and split sizes known only at run time: a slice's length is a fresh name in
    # 0..the axis it cuts (a start may be negative: no name of the input's start); the
    # split sizes, >= 0 where the graph runs, are names of their own (`_c1`, the first
    # size's), which add up to the axis; a slice by constants has its length and no range
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n, 64]"},
                    "start": {"dtype": "i64", "shape": "[1]"},
                    "sizes": {"dtype": "i64", "shape": "[2]"}},
         "initializers": {"end": {"dtype": "i64", "data": [64]},
                          "axis": {"dtype": "i64", "data": [1]},
                          "one": {"dtype": "i64", "data": [1]}},
         "nodes": [{"op": "Slice", "inputs": ["x", "start", "end", "axis"], "outputs": ["y"]},
                   {"op": "Slice", "inputs": ["x", "one", "end", "axis"], "outputs": ["z"]},
                   {"op": "Split", "inputs": ["x", "sizes"], "outputs": ["p", "q"],
                    "attrs": {"axis": 0}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("y") == "[n, _1]" and sol.shape("z") == "[n, 63]"
    assert sol.shape("p") == "[_c1, 64]" and sol.shape("q") == "[n - _c1, 64]"
    assert sol.to_json()["ranges"] == {"_1": [0, 64], "_c1": [0, "n"]}
    assert sol.input_values == {"_c1": "sizes[0]"}


def _gather_nd_model(perm):
    """x[x > 0] as torch exports it (NonZero, Transpose, GatherND), its output declared
    [P] as the exporter traced it; `perm` the Transpose's."""
    from onnx import TensorProto, helper

    nodes = [helper.make_node("Constant", [], ["zero"], value=helper.make_tensor(
                 "zero", TensorProto.FLOAT, [], [0.0])),
             helper.make_node("Greater", ["x", "zero"], ["mask"]),
             helper.make_node("NonZero", ["mask"], ["nz"]),
             helper.make_node("Transpose", ["nz"], ["idx"], perm=perm),
             helper.make_node("GatherND", ["x", "idx"], ["picked"])]
    graph = helper.make_graph(
        nodes, "pick",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "s", 4])],
        [helper.make_tensor_value_info("picked", TensorProto.FLOAT, ["P"])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_a_gather_nd_rank_the_data_decides_is_no_traced_rank():
    # indices [count, 3]: the picked elements, a rank-1 output, as declared
    sol = solve(_gather_nd_model([1, 0]))
    assert sol.status == "ok" and not sol.warnings
    assert sol.shape("picked") == "[P]"
    # indices [3, count] (the Transpose left out): the output's rank is 1 + 3 - count,
    # the data's; the declared rank 1 holds where 3 elements are picked only
    sol = solve(_gather_nd_model([0, 1]))
    assert sol.status == "ok"
    assert not sol.shape("picked").startswith("[")  # a shape of unknown rank (`_2`)
    (warning,) = sol.warnings
    assert "graph output picked is declared [P], which would give rank 1 that the graph " \
           "leaves open" in warning


def test_a_count_keeps_its_name_through_a_concat_at_a_negative_axis_and_same_convolutions():
    # (a fresh name each before: SuperPoint's keypoints joined at axis -1, FastSpeech2's
    # convolutions over the mel frames its predicted durations decide)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n, m]"}},
         "initializers": {"w": {"dtype": "f32", "shape": [4, 2, 3], "data": 0.5},
                          "zero": {"dtype": "i64", "shape": [1], "data": [0]}},
         "nodes": [{"op": "NonZero", "inputs": ["x"], "outputs": ["nz"]},
                   {"op": "Concat", "inputs": ["nz", "nz"], "outputs": ["pairs"],
                    "attrs": {"axis": -2}},
                   {"op": "Cast", "inputs": ["nz"], "outputs": ["frames"], "attrs": {"to": 1}},
                   {"op": "Unsqueeze", "inputs": ["frames", "zero"], "outputs": ["mel"]},
                   {"op": "Conv", "inputs": ["mel", "w"], "outputs": ["same"],
                    "attrs": {"kernel_shape": [3], "pads": [1, 1]}},
                   {"op": "Conv", "inputs": ["mel", "w"], "outputs": ["valid"],
                    "attrs": {"kernel_shape": [3]}},
                   {"op": "MaxPool", "inputs": ["same"], "outputs": ["pooled"],
                    "attrs": {"kernel_shape": [3], "pads": [1, 1]}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("nz") == "[2, _c1]" and sol.shape("pairs") == "[4, _c1]"
    assert sol.shape("same") == "[1, 4, _c1]" and sol.shape("pooled") == "[1, 4, _c1]"
    assert sol.shape("valid") == "[1, 4, _c1 - 2]"  # (a fresh name before: no arithmetic)


def _count_model():
    """x [a, b]: NonZero's count n (Shape -> Gather), then n + 1 and 2*n as sizes, and the
    transposed indices joined to themselves: onnxruntime's symbolic inference gives
    [n + 1], [n + 1, n + 1], [2*n] and [2*n, 2] (n its NonZero_0_o0__d1)."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from tests.onnx_graphs import N

    g = helper.make_graph([
        N("NonZero", "x", "nz"), N("Shape", "nz", "sh"), N("Gather", "sh one", "n"),
        N("Add", "n one", "n1"), N("Mul", "n two", "n2"), N("Unsqueeze", "n1 ax", "v1"),
        N("ConstantOfShape", "v1", "y1"), N("Concat", "v1 v1", "v2", axis=0),
        N("ConstantOfShape", "v2", "y2"), N("Range", "zero n2 one", "r"),
        N("Transpose", "nz", "nzt"), N("Concat", "nzt nzt", "c", axis=0),
        N("Compress", "x mask", "kept", axis=1), N("Concat", "kept x", "joined", axis=1)],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["a", "b"]),
              helper.make_tensor_value_info("mask", TensorProto.BOOL, ["b"])],
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, None)
         for k in ("y1", "y2", "joined")]
        + [helper.make_tensor_value_info(k, TensorProto.INT64, None) for k in ("r", "c")],
        [numpy_helper.from_array(np.array(v, np.int64), k)
         for k, v in (("one", 1), ("two", 2), ("zero", 0), ("ax", [0]))])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_what_is_computed_from_a_count_keeps_it():
    import numpy as np

    from tests.onnx_graphs import assert_runtime_shapes_binding_fresh

    model = _count_model()
    sol = solve(model)
    assert sol.status == "ok"
    assert sol.shape("nz") == "[2, _c1]" and sol.shape("nzt") == "[_c1, 2]"
    assert sol.shape("y1") == "[_c1 + 1]" and sol.shape("y2") == "[_c1 + 1, _c1 + 1]"
    assert sol.shape("r") == "[2*_c1]" and sol.shape("c") == "[2*_c1, 2]"
    assert sol.shape("kept") == "[a, _c2]" and sol.shape("joined") == "[a, _c2 + b]"
    assert sol.to_json()["ranges"] == {"_c1": [0, "a*b"], "_c2": [0, "b"]}
    rng = np.random.default_rng(0)
    feeds = [{"x": (rng.random((a, b)) < p).astype(np.float32),
              "mask": rng.random(b) < p} for a, b, p in ((2, 3, 0.5), (4, 5, 0.3),
                                                         (3, 2, 0.0), (1, 4, 1.0))]
    assert_runtime_shapes_binding_fresh(model, sol, feeds)
    for f in feeds:  # and our executor's run checks them (match_cast), at a count of 0 too
        from shape_logic import run
        run(model, f)


def test_a_count_the_rules_count_is_its_value():
    # NonZero of a constant: its count, 3, and the arithmetic on it an integer
    import numpy as np

    g = {"initializers": {"c": {"dtype": "i64", "shape": [5], "data": [0, 4, 0, 1, 2]}},
         "nodes": [{"op": "NonZero", "inputs": ["c"], "outputs": ["nz"]},
                   {"op": "Concat", "inputs": ["nz", "nz"], "outputs": ["both"],
                    "attrs": {"axis": 1}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("nz") == "[1, 3]" and sol.shape("both") == "[1, 6]"
    assert "ranges" not in sol.to_json() and not sol.bindings
    assert np.array_equal(np.nonzero([0, 4, 0, 1, 2])[0], [1, 3, 4])


def test_a_count_in_a_loop_body_stays_a_name_per_iteration():
    # each iteration's NonZero counts other data: the body's count takes no name of the
    # graph's, and the scan output of the counts' rows is not sized by one
    body = {"inputs": ["i", "c", "v"], "outputs": ["c_out", "v_out", "e"],
            "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c_out"]},
                      {"op": "Add", "inputs": ["v", "v"], "outputs": ["v_out"]},
                      {"op": "NonZero", "inputs": ["v"], "outputs": ["nz"]},
                      {"op": "ReduceSum", "inputs": ["nz"], "outputs": ["e"],
                       "attrs": {"keepdims": 0}}]}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"}},
         "initializers": {"m": {"dtype": "i64", "data": 3},
                          "t": {"dtype": "bool", "data": True}},
         "nodes": [{"op": "Loop", "inputs": ["m", "t", "x"], "outputs": ["y", "es"],
                    "attrs": {"body": body}},
                   {"op": "NonZero", "inputs": ["y"], "outputs": ["nz"]},
                   {"op": "Concat", "inputs": ["nz", "nz"], "outputs": ["both"],
                    "attrs": {"axis": 1}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("y") == "[n]" and sol.shape("es") == "[3]"
    assert sol.shape("nz") == "[1, _c1]" and sol.shape("both") == "[1, 2*_c1]"


def test_a_count_the_graph_fixes_is_said():
    # an MoE block's export (hf_models9's Mixtral): NonZero of the experts hit, transposed
    # and Split into the 4 its trace hit: the graph runs only where 4 are hit. The count is 4
    # there, and a warning says the graph fixes it; a constant's count, which the rules
    # count, is no warning
    g = {"inputs": {"hits": {"dtype": "bool", "shape": "[e]"}},
         "initializers": {"ones": {"dtype": "i64", "shape": [4], "data": [1, 1, 1, 1]},
                          "c": {"dtype": "i64", "shape": [3], "data": [0, 2, 1]}},
         "nodes": [{"name": "nz", "op": "NonZero", "inputs": ["hits"], "outputs": ["idx"]},
                   {"op": "Transpose", "inputs": ["idx"], "outputs": ["t"]},
                   {"op": "Split", "inputs": ["t", "ones"],
                    "outputs": ["e0", "e1", "e2", "e3"]},
                   {"name": "known", "op": "NonZero", "inputs": ["c"], "outputs": ["k"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("idx") == "[1, 4]" and sol.shape("k") == "[1, 2]"
    assert sol.warnings == ["axis 1 of idx, a count of the data's (NonZero \"nz\"), is 4 "
                            "wherever the graph runs: the graph fixes a size the data "
                            "decides (one traced at export, mostly)"]


def test_a_body_reads_a_count_of_the_graph_by_its_name():
    # a Loop's body joins the graph's NonZero indices to themselves and sizes a Range by
    # twice the count it reads from their Shape: the graph's count, one name in every
    # iteration; our executor checks each at a count of 2 and of 0
    import numpy as np

    from shape_logic import run

    body = {"inputs": ["i", "c", "v"], "outputs": ["c_out", "v_out", "e", "r"],
            "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c_out"]},
                      {"op": "Identity", "inputs": ["v"], "outputs": ["v_out"]},
                      {"op": "Concat", "inputs": ["nz", "nz"], "outputs": ["e"],
                       "attrs": {"axis": 1}},
                      {"op": "Shape", "inputs": ["nz"], "outputs": ["sh"]},
                      {"op": "Gather", "inputs": ["sh", "one"], "outputs": ["n"]},
                      {"op": "Add", "inputs": ["n", "n"], "outputs": ["n2"]},
                      {"op": "Range", "inputs": ["zero", "n2", "one"], "outputs": ["r"]}]}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"}},
         "initializers": {"m": {"dtype": "i64", "data": 3}, "t": {"dtype": "bool", "data": True},
                          "v0": {"dtype": "i64", "shape": [1], "data": [0]},
                          "one": {"dtype": "i64", "data": 1}, "zero": {"dtype": "i64", "data": 0}},
         "nodes": [{"op": "NonZero", "inputs": ["x"], "outputs": ["nz"]},
                   {"op": "Loop", "inputs": ["m", "t", "v0"], "outputs": ["y", "es", "rs"],
                    "attrs": {"body": body}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("nz") == "[1, _c1]" and sol.shape("es") == "[3, 1, 2*_c1]"
    assert sol.shape("rs") == "[3, 2*_c1]"
    for x, count in ((np.array([0, 1, 2], np.float32), 2), (np.zeros(3, np.float32), 0)):
        result = run(g, {"x": x})
        assert result["es"].shape == (3, 1, 2 * count) and result["rs"].shape == (3, 2 * count)
