"""The order in which conflicts are explained (shape_logic/place_order.py) follows the data
flow: a weight made from constants is placed where it is read, not where the model lists
its maker."""
import os

import shape_logic
from shape_logic.load import load_graph
from shape_logic.place_order import flow_positions


def _node(name, op, inputs, outputs, **attrs):
    return {"name": name, "op": op, "inputs": inputs, "outputs": outputs, "attrs": attrs}


def test_a_weight_made_from_a_shape_takes_the_place_where_it_is_read():
    # both weights' ConstantOfShape listed before the first Conv, as onnx's light models
    # list them; the bias, an initializer a Conv reads with data, keeps its place
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 3, 8, 8]"}},
         "initializers": {"s1": {"dtype": "i64", "data": [4, 3, 3, 3]},
                          "s2": {"dtype": "i64", "data": [2, 4, 1, 1]},
                          "b1": {"dtype": "f32", "shape": [4], "data": 0.0}},
         "nodes": [_node("c2", "ConstantOfShape", ["s2"], ["w2"]),
                   _node("c1", "ConstantOfShape", ["s1"], ["w1"]),
                   _node("conv1", "Conv", ["x", "w1", "b1"], ["y1"]),
                   _node("relu", "Relu", ["y1"], ["r"]),
                   _node("conv2", "Conv", ["r", "w2"], ["y2"])]}
    graph = load_graph(g)
    listed = {t: i for i, t in enumerate(graph.tensors())}
    at = flow_positions(graph)
    assert at["w1"] == at["s1"] == listed["y1"]
    assert at["w2"] == at["s2"] == listed["y2"]
    assert at["b1"] == listed["b1"] < listed["w2"]  # (read with data: where it is listed)
    assert all(at[t] == listed[t] for t in ("x", "y1", "r", "y2"))


def test_two_axes_of_one_operand_are_a_requirement_while_all_is_in_view():
    # Det's square matrices: both sizes are x's (clash_positions.positions_of); a pair within one
    # operand is not given while another operand's sizes are out of view
    # (tests/test_diagnostics_node_behind.py, Inception-v2's n124)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3, 4]"}},
         "nodes": [_node("det", "Det", ["x"], ["y"])]}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.message == 'Det "det" needs x.shape[1] == x.shape[2]'


def test_a_size_from_an_attribute_is_no_operand_pair():
    # a ViT's patch Conv whose weight is 5 high where kernel_shape says 4: the clash is
    # the weight's axis 2 against the attribute, not "w.shape[2] == w.shape[3]" (the
    # kernel need not be square), nor against the bias (out of the core), which holds 5
    g = {"inputs": {"img": {"dtype": "f32", "shape": "[n, 3, 16, 16]"},
                    "w": {"dtype": "f32", "shape": [5, 3, 5, 4]},
                    "b": {"dtype": "f32", "shape": [5]}},
         "nodes": [_node("patch", "Conv", ["img", "w", "b"], ["y"], kernel_shape=[4, 4],
                         strides=[4, 4])]}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.message == 'Conv "patch" gives axis 2 of `w` two sizes: 4 and 5'
    assert {c["name"] for c in d.core} == {"w", "patch"}
    # the same weight 5 wide beside a 4 high kernel_shape of [4, 5]: still no pair
    g["nodes"][0]["attrs"]["kernel_shape"] = [4, 5]
    g["inputs"]["w"]["shape"] = [5, 3, 5, 5]
    (d,) = shape_logic.solve(g).diagnostics
    assert "needs" not in d.message and "axis 2 of `w`" in d.message


def test_a_densenet_concat_along_the_height_is_its_own_error():
    # onnx's light DenseNet-121 with a Concat of its third block along the height (axis 2
    # for 1): its inputs' 320 and 32 channels clash. Every weight is made by ConstantOfShape,
    # all listed before the first Conv: in the model's order the conflicts at later layers'
    # weights came first, and five diagnostics without a minimal core there (6-8 s), none
    # naming the Concat. In the flow's order, the Concat's own error
    import onnx

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        "light_densenet121.onnx")
    model = onnx.load(path)
    node = next(n for n in model.graph.node if n.name == "n210")
    assert node.op_type == "Concat"
    next(a for a in node.attribute if a.name == "axis").i = 2
    (d,) = shape_logic.solve(model).diagnostics
    assert d.message == 'Concat "n210" needs r195.shape[1] == r209.shape[1]'
    assert d.notes[-1] == 'help: if Concat "n210" had axis = 1, the graph would solve'
    # (explained first where the clash is born, the Concat's place: born.py; blocked,
    # it leaves no other error - before, a second one went with it, "with n210 left out")
    assert not any("more error" in n for n in d.notes)


def test_a_constant_nodes_axes_are_no_side_of_a_clash():
    # a Squeeze of axis 0 where x has 3 there, its axes a Constant node's [0] (as exporters
    # write them): not "needs x.shape[0] == axes.shape[0]" (the axes list one axis)
    from onnx import TensorProto, helper

    nodes = [helper.make_node("Constant", [], ["axes"], value=helper.make_tensor(
                 "axes", TensorProto.INT64, [1], [0])),
             helper.make_node("Squeeze", ["x", "axes"], ["y"], name="sq")]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, "s"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    (d,) = shape_logic.solve(model).diagnostics
    assert "axes.shape" not in d.message and "x" in d.message, d.message


def test_a_far_end_of_a_core_carried_far_is_no_primary_node_unless_needed():
    # A core too long to shrink lists its near part; its last node may be a far end the
    # clash's values merely reached (a HF T5 with its encoder's heads wrong: the clash at
    # the relative attention table, "explained" five times at the decoder's last
    # LayerNorm's Div, Sqrt and Constant). Such a sink is the primary node only if the
    # core without it clears; else the core's reader of the place's tensor that is needed
    import clingo

    from shape_logic.describe import _primary_node

    g = load_graph({"inputs": {"idx": {"dtype": "i64", "shape": "[s]"},
                               "x": {"dtype": "f32", "shape": "[s, 8]"}},
                    "initializers": {"table": {"dtype": "f32", "shape": [10, 4], "data": 0.5}},
                    "nodes": [_node("gat", "Gather", ["table", "idx"], ["g"]),
                              _node("add", "Add", ["x", "g"], ["a"]),
                              _node("far", "Relu", ["a"], ["r"])]})

    def src(kind, name):
        return clingo.Function("src", [clingo.Function(kind), clingo.String(name),
                                       clingo.Function("all")])

    core = {src("init", "table"), src("input", "x"), src("node", "gat"), src("node", "add"),
            src("node", "far")}
    place = clingo.Function("dim", [clingo.String("table"), clingo.Number(1)])

    class Finder:  # the clash needs the Gather and the Add, not the Relu
        def conflict_places(self, active):
            nodes = {s.arguments[1].string for s in active if s.arguments[0].name == "node"}
            return {place} if {"gat", "add"} <= nodes else set()

    assert _primary_node(g, core, place).name == "far"  # (a minimal core: its sink)
    assert _primary_node(g, core, place, core, Finder(), minimal=False).name == "gat"


def test_a_clash_that_spread_is_explained_where_it_is_born():
    # onnx's light ResNet-50 with one Conv's pads [0, 0, 0, 1] (its output 15 wide for 14):
    # the residual Sum after it meets 15 and 14, and the Sums make every block's width one
    # class, so the clash reached back to the first block of the stage, the earliest place
    # in the flow: explained there (BatchNorm "n85" on r84, or Conv "n148"), the Sum unnamed.
    # The first prefix of the graph that conflicts ends at the Sum (born.py)
    import onnx

    from shape_logic.born import born_node

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        "light_resnet50.onnx")
    model = onnx.load(path)
    node = next(n for n in model.graph.node if n.name == "n116")
    next(a for a in node.attribute if a.name == "pads").ints[:] = [0, 0, 0, 1]
    (d,) = shape_logic.solve(model).diagnostics
    assert d.message == 'Sum "n118" needs r117.shape[3] == r109.shape[3]'
    assert d.notes[0] == "14 != 15"
    assert any(line.startswith("r117 : [") and "14, 15]" in line and "of r116" in line
               for line in d.labels)
    # the probe itself: the whole graph conflicts from the Sum on
    from shape_logic.solver import Problem

    problem = Problem.load(model, (), False)
    atoms, _ = problem.atoms()
    assert born_node(problem, atoms.conflicts).name == "n118"
