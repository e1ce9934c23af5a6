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
    assert sol.shape("idx") == "[3, _1]" and sol.shape("idx_t") == "[_1, 3]"
    assert sol.shape("kept") == "[b, _2, 4]" and sol.shape("p") == "[b, _2, 4]"
    assert sol.shape("flat") == "[_3]"
    assert sol.shape("v") == "[b, s, _4]" and sol.shape("i") == "[b, s, _4]"
    assert sol.to_json()["ranges"] == {"_1": [0, "4*b*s"], "_2": [0, "s"],
                                       "_3": [0, "4*b*s"], "_4": [0, 4]}


def test_a_known_k_is_not_data_dependent():
    g = json.loads(json.dumps(GRAPH))
    g["inputs"].pop("k")
    g["initializers"] = {"k": {"dtype": "i64", "data": [2]}}
    sol = solve(g)
    assert sol.shape("v") == "[b, s, 2]"
    assert "_4" not in sol.to_json()["ranges"]


def test_ranges_in_text_output(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(GRAPH))
    r = cli("solve", p)
    assert r.returncode == 0
    assert "ranges: _1 in 0..4*b*s, _2 in 0..s, _3 in 0..4*b*s, _4 in 0..4" in r.stdout


def test_a_slice_or_split_by_runtime_values_is_at_most_its_axis():
    # starts and split sizes known only at run time: each length is a fresh name in
    # 0..the axis it cuts; a slice by constants has its length and no range
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
    assert sol.shape("p") == "[_2, 64]" and sol.shape("q") == "[_3, 64]"
    assert sol.to_json()["ranges"] == {"_1": [0, 64], "_2": [0, "n"], "_3": [0, "n"]}


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
    assert sol.shape("nz") == "[2, _1]" and sol.shape("pairs") == "[4, _1]"
    assert sol.shape("same") == "[1, 4, _1]" and sol.shape("pooled") == "[1, 4, _1]"
    assert sol.shape("valid") == "[1, 4, _2]"  # (_1 - 2: no arithmetic on a count)
