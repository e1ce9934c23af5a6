"""DynamicSlice (ONNX's default domain, an experimental operator onnx dropped: Slice-10
without steps, opsets 1 to 9): rules/DynamicSlice.lp (Slice.lp's shapes) on data cases, an
ONNX model and a JSON graph of it, and the rules and the kernel against onnxruntime's CPU
kernel on random inputs."""
import json

import numpy as np
from hypothesis import given, settings, strategies as st
from onnx import TensorProto, helper, numpy_helper

import shape_logic
from shape_logic.testing import infer, node_graph, random_array
from tests.contrib_ops import check_against_onnxruntime, check_whole_model
from tests.ops.cases import case_test

OP = "DynamicSlice"
OPSET = 9  # onnxruntime registers the operator up to opset 9
MAX = 2**63 - 1  # INT64_MAX: "to the end"


def i64(*v):
    return np.array(v, dtype=np.int64)


def i32(*v):
    return np.array(v, dtype=np.int32)


CASES = {
    "[:, 2:5]": ({"inputs": ["[n, 8, m]", i64(2), i64(5), i64(1)]}, {"y0": "[n, 3, m]"}),
    "int32 lists": ({"inputs": ["[n, 8, m]", i32(2), i32(5), i32(1)]}, {"y0": "[n, 3, m]"}),
    "negative start and end": ({"inputs": ["[n, 8, m]", i64(-3), i64(-1), i64(1)]},
                               {"y0": "[n, 2, m]"}),
    "negative axis": ({"inputs": ["[n, 8, m]", i64(1), i64(MAX), i64(-1)]},
                      {"y0": "[n, 8, m - 1]"}),
    "clamped: [-100:100]": ({"inputs": ["[n, 8, m]", i64(-100), i64(100), i64(1)]},
                            {"y0": "[n, 8, m]"}),
    "clamped on a symbol": ({"inputs": ["[n, 8, m]", i64(2), i64(5), i64(2)]},
                            {"y0": "[n, 8, max(0, min(5, m) - 2)]"}),
    "start past the end: empty": ({"inputs": ["[n, 8, m]", i64(10), i64(20), i64(1)]},
                                  {"y0": "[n, 0, m]"}),
    "start after the end: empty": ({"inputs": ["[n, 8, m]", i64(5), i64(2), i64(1)]},
                                   {"y0": "[n, 0, m]"}),
    "default axes": ({"inputs": ["[n, 8, m]", i64(0, 1), i64(MAX, -1)]},
                     {"y0": "[n, 6, m]"}),
    "empty lists keep the data": ({"inputs": ["[n, 8, m]", i64(), i64()]},
                                  {"y0": "[n, 8, m]"}),
    "two axes, in any order": ({"inputs": ["[n, 8, m]", i64(1, 0), i64(MAX, 4), i64(2, 1)]},
                               {"y0": "[n, 4, m - 1]"}),
    "opset 1": ({"inputs": ["[n, 8, m]", i64(2), i64(5), i64(1)], "opset": 1},
                {"y0": "[n, 3, m]"}),
    "dtype kept (strings)": ({"inputs": [("str", "[n, 4]"), i64(1), i64(3), i64(1)]},
                             {"y0": "[n, 2]", "dtypes": {"y0": "str"}}),
    # starts known only at run time: a fresh name (bounded by the axis), never a guess
    "starts from a graph input": ({"inputs": ["[n, 8, m]", ("i64", "[1]"), i64(5), i64(1)]},
                                  {"y0": "[n, _1, m]"}),
    "ends from a graph input, int32": ({"inputs": ["[n, 8, m]", i32(0), ("i32", "[1]"),
                                                   i32(2)]}, {"y0": "[n, 8, _1]"}),
    "backward from the output": ({"inputs": ["[n, s]", i64(1), i64(MAX), i64(1)],
                                  "outputs": {"y0": {"shape": "[n, 9]"}}},
                                 {"x0": "[n, 10]", "bindings": {"s": 10}}),
    "slicing a shape vector selects its values": (
        {"inputs": [i64(2, 3, 5, 7), i64(1), i64(3)]}, {"y0": "[2]"}),
    # errors (each one onnxruntime's, measured)
    "int32 starts, int64 ends": ({"inputs": ["[n, 8]", i32(0), i64(1), i64(0)]}, "error"),
    "int64 starts, int32 axes": ({"inputs": ["[n, 8]", i64(0), i64(1), i32(0)]}, "error"),
    "int16 lists": ({"inputs": ["[n, 8]", np.array([0], np.int16), np.array([1], np.int16)]},
                    "error"),
    "float lists": ({"inputs": ["[n, 8]", ("f32", "[1]"), ("f32", "[1]")]}, "error"),
    "axis out of range": ({"inputs": ["[n, 8]", i64(0), i64(1), i64(2)]}, "error"),
    "negative axis out of range": ({"inputs": ["[n, 8]", i64(0), i64(1), i64(-3)]}, "error"),
    "repeated axis": ({"inputs": ["[n, 8]", i64(0, 0), i64(1, 1), i64(1, -1)]}, "error"),
    "more starts than axes of the data": ({"inputs": ["[n, 8]", i64(0, 0, 0), i64(1, 1, 1)]},
                                          "error"),
    "starts and ends differ in length": ({"inputs": ["[n, 8]", i64(0, 0), i64(1)]}, "error"),
    "axes of another length": ({"inputs": ["[n, 8]", i64(0, 0), i64(1, 1), i64(0)]},
                               "error"),
    "scalar starts": ({"inputs": ["[n, 8]", np.array(0), np.array(1), np.array(0)]}, "error"),
    "scalar data": ({"inputs": ["[]", i64(0), i64(1), i64(0)]}, "error"),
    "scalar data, empty lists": ({"inputs": ["[]", i64(), i64()]}, "error"),
    "steps: a fifth input": ({"inputs": ["[n, 8]", i64(0), i64(1), i64(0), i64(1)]}, "error"),
    "no ends": ({"inputs": ["[n, 8]", i64(0)]}, "error"),
    "opset 10: no longer an operator": ({"inputs": ["[n, 8]", i64(0), i64(1)], "opset": 10},
                                        "error"),
}

test_case = case_test(OP, CASES, OPSET)


def test_runtime_starts_give_a_fresh_name_bounded_by_the_axis():
    sol = infer(OP, ["[n, 8, m]", ("i32", "[1]"), i32(5), i32(2)], opset=OPSET)
    assert sol.shape("y0") == "[n, 8, _1]" and sol.ranges == {"_1": [0, "m"]}


def test_a_shape_vector_sliced_gives_its_dims():
    """Shape -> DynamicSlice -> Reshape: slicing a shape vector selects its dims."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, h, 64]"}, "d": {"shape": "D"}},
         "initializers": {"st": {"dtype": "i64", "shape": [1], "data": [1]},
                          "en": {"dtype": "i64", "shape": [1], "data": [-1]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": OP, "inputs": ["sh", "st", "en"], "outputs": ["v"]},
                   {"op": "Reshape", "inputs": ["d", "v"], "outputs": ["r"]}]}
    sol = shape_logic.solve(g)
    assert sol.status == "ok" and sol.shape("r") == "[s, h]"


def ds_model(starts_given: bool):
    """data [n, 8, m] sliced on axis 1 up to -3, from starts 2 (an initializer) or from a
    graph input."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 8, "m"])
    inits = [numpy_helper.from_array(i64(-3), "en"), numpy_helper.from_array(i64(1), "ax")]
    inputs = [x]
    if starts_given:
        inits.append(numpy_helper.from_array(i64(2), "st"))
    else:
        inputs.append(helper.make_tensor_value_info("st", TensorProto.INT64, [1]))
    node = helper.make_node(OP, ["x", "st", "en", "ax"], ["y"])
    graph = helper.make_graph([node], "g", inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    return model


def test_an_onnx_model_solves_and_runs_as_onnxruntime(tmp_path):
    # onnx has no schema for the operator any more: the importer takes it as it is
    x = random_array((2, 8, 3), "f32")
    check_whole_model(ds_model(True), tmp_path / "ds.onnx", {"x": x}, ["[n, 3, m]"])
    check_whole_model(ds_model(False), tmp_path / "ds_in.onnx",
                      {"x": x, "st": i64(-7)}, ["[n, _1, m]"])


def test_a_json_graph(tmp_path):
    path = tmp_path / "ds.json"
    path.write_text(json.dumps(node_graph(OP, ["[n, 8, m]", i64(-2), i64(MAX), i64(2)],
                                          opset=OPSET)))
    sol = shape_logic.solve(str(path))
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    assert sol.shape("y0") == "[n, 8, min(2, m)]"


BOUNDS = st.integers(-7, 7) | st.sampled_from([MAX, -MAX, 2**31 - 1])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([0, 1, 2, 2, 3, 3, 3]), st.data(),
       st.sampled_from(["f32", "f32", "i64", "f16", "u8", "bool"]),
       st.sampled_from(["i64", "i64", "i64", "i32", "i32", "mixed"]), st.booleans())
def test_matches_onnxruntime(r, data, dtype, index, with_axes):
    # starts and ends anywhere (out of range, INT64_MAX), axes distinct and of either
    # sign, now and then out of range or repeated, one more list element than axes, ends
    # of another length, lists of mixed types, scalar data: onnxruntime's rejections must
    # be ours. The lists are constants (their values seen by the rules).
    shape = data.draw(st.lists(st.integers(0, 5), min_size=r, max_size=r))
    odd = data.draw(st.sampled_from(["", "", "", "", "", "", "axes", "ends", "longer"]))
    k = r + 1 if odd == "longer" else data.draw(st.integers(0, r))
    starts = data.draw(st.lists(BOUNDS, min_size=k, max_size=k))
    ends = data.draw(st.lists(BOUNDS, min_size=k, max_size=k))
    if odd == "ends":
        ends = ends[:-1] if ends else [0]
    if odd == "axes":
        axes = data.draw(st.lists(st.integers(-r - 1, r), min_size=k, max_size=k))
    else:
        axes = data.draw(st.permutations(range(max(r, k))))[:k]
        axes = [a - r if data.draw(st.booleans()) else a for a in axes]
    first, other = {"i64": (np.int64, np.int64), "i32": (np.int32, np.int32),
                    "mixed": (np.int64, np.int32)}[index]
    if index != "i64":  # int32 lists: INT64_MAX would not fit
        starts, ends = ([max(min(v, 2**31 - 1), -2**31) for v in s] for s in (starts, ends))
    arrays = [random_array(shape, dtype), np.array(starts, first), np.array(ends, other)]
    if with_axes:
        arrays.append(np.array(axes, other))
    check_against_onnxruntime(OP, arrays, domain="", opset=OPSET, const=(1, 2, 3),
                              rtol=0, atol=0)
