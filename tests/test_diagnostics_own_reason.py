"""A node's own reason is the diagnostic where its rules also work a size back to its
input (place_order: a node sorts at its last input; own_reason.own_reason_behind: a clash
whose core forces a reason of one of its nodes is that reason), and an empty output is a
node's own only by its own arithmetic (a 0 carried to it through equal axes is another's
error)."""
import pytest

import shape_logic
from shape_logic.diagnose import LOCAL_FROM_NODES
from tests.single_diagnostic import f32, i64, one


def _messages(graph) -> list[str]:
    return [d.message for d in shape_logic.solve(graph).diagnostics]


def test_space_to_depth_says_the_blocksize_does_not_divide():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 2, 5, 6]"}},
         "nodes": [{"name": "s", "op": "SpaceToDepth", "inputs": ["x"], "outputs": ["y"],
                    "attrs": {"blocksize": 2}}]}
    assert _messages(g) == ['SpaceToDepth "s": blocksize 2 does not divide axis 2 of the '
                            'input, of size 5']


def test_split_says_the_axis_does_not_split_evenly():
    g = {"opset": 13, "inputs": {"x": {"dtype": "f32", "shape": "[7]"}},
         "nodes": [{"name": "s", "op": "Split", "inputs": ["x"], "outputs": ["a", "b"],
                    "attrs": {"axis": 0}}]}
    assert _messages(g) == ['Split "s": its axis of size 7 does not split into 2 equal pieces']


def test_a_zero_carried_to_a_convolution_is_not_its_empty_output():
    # x's height is 3: the convolution's own output is 3; the Concat with a declared 0-high
    # tensor makes it 0 by equal axes - the Concat's clash, not an empty convolution
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 3, 3]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 3, 3]"},
                    "z": {"dtype": "f32", "shape": "[1, 1, 0, 3]"}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"pads": [1, 1, 1, 1]}},
                   {"name": "cat", "op": "Concat", "inputs": ["y", "z"], "outputs": ["s"],
                    "attrs": {"axis": 1}}]}
    (m,) = _messages(g)
    assert "empty" not in m and m.startswith('Concat "cat"'), m


def test_an_empty_convolution_of_its_own_is_said():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 2, 3]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 3, 3]"}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"]}]}
    assert _messages(g) == ['Conv "conv": the output is empty along spatial axis 0 (from 0): '
                            'the dilated window is larger than the padded input']


def test_a_transposed_convolution_whose_pads_take_everything():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 1, 3]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 2, 2]"}},
         "nodes": [{"name": "t", "op": "ConvTranspose", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"pads": [1, 0, 1, 0]}}]}
    assert _messages(g) == ['ConvTranspose "t": the output is empty along spatial axis 0 (from '
                            '0): its pads take all the transposed convolution makes']


# Each node's rules also work a size or a rank back to an input from what it reads, so
# its reason comes with a clash at that input (two sizes, two ranks); the reason is said.
WORKED_BACK = {
    # 6 pads give x rank 3 (two per axis), declared 4; its axes, read against rank 3, are
    # out of range too: the pads are said
    "Pad: pads for another rank": (
        one("Pad", {"x": f32("[b, 3, h, w]")}, inits={"pads": i64(0, 0, 1, 0, 0, 1)}),
        'Pad "n": it has 6 pads for 4 padded axes: it needs two per axis, the begins then '
        "the ends"),
    "Slice: fewer ends than starts": (
        one("Slice", {"x": f32("[b, 3, h, w]")},
            inits={"starts": i64(0, 1), "ends": i64(2), "axes": i64(2, 3)}),
        'Slice "n": ends has 1 elements where starts has 2: they must be as many'),
    "Slice: fewer axes than starts": (
        one("Slice", {"x": f32("[4, 5, 6]")},
            inits={"starts": i64(0, 1), "ends": i64(2, 3), "axes": i64(1)}),
        'Slice "n": axes has 1 elements where starts has 2: they must be as many'),
    "BiasSplitGelu: an odd width": (
        one("BiasSplitGelu", {"x": f32("[2, 4, 5]"), "b": f32("[5]")}, domain="com.microsoft"),
        'BiasSplitGelu "n": the input\'s last axis has 5 elements: it must be even, to split '
        "in two halves"),
    "DepthToSpace: channels the block does not divide": (
        one("DepthToSpace", {"x": f32("[1, 6, 2, 2]")}, blocksize=2),
        'DepthToSpace "n": blocksize 2 squared does not divide its 6 channels'),
    # a 3-D input: its axis 1 is no channel axis - the rank is the reason, said first
    # among the node's (diagnostics.reason_order)
    "DepthToSpace: a 3-D input": (
        one("DepthToSpace", {"x": f32("[8, 2, 2]")}, blocksize=2),
        'DepthToSpace "n": takes 4-D inputs only, not rank 3'),
    "SpaceToDepth: a 3-D input": (
        one("SpaceToDepth", {"x": f32("[8, 2, 2]")}, blocksize=2),
        'SpaceToDepth "n": takes 4-D inputs only, not rank 3'),
    "Col2Im: channels the block does not divide": (
        one("Col2Im", {"x": f32("[1, 10, 4]")}, inits={"s": i64(3, 3), "k": i64(2, 2)}),
        'Col2Im "n": the block\'s 4 elements do not divide the input\'s 10 channels'),
    "NegativeLogLikelihoodLoss: a target of the input's rank": (
        one("NegativeLogLikelihoodLoss",
            {"x": f32("[2, 3, 4]"), "t": {"dtype": "i64", "shape": "[2, 4, 5]"}},
            opset=13, reduction="none"),
        'NegativeLogLikelihoodLoss "n": the target has rank 3 where an input of rank 3 needs '
        "one less (the input without its class axis)"),
    "GRU: a gates axis no multiple of 3": (
        one("GRU", {"x": f32("[5, 2, 4]"), "w": f32("[1, 8, 4]"), "r": f32("[1, 9, 3]")},
            n_outputs=2, opset=14, hidden_size=3),
        'GRU "n": the size 8 of its gates axis is no multiple of 3: it must be 3 times the '
        "hidden size"),
}


@pytest.mark.parametrize("graph, message", WORKED_BACK.values(), ids=WORKED_BACK.keys())
def test_a_reason_its_rules_also_work_back_to_an_input(graph, message):
    assert _messages(graph) == [message]


def test_a_clash_between_two_declarations_is_not_a_nodes_reason():
    # the Add's inputs [3] and [4] do not broadcast: the node is in the clash's core, but
    # it has no reason of its own beside it - the clash is said
    g = {"inputs": {"a": f32("[3]"), "b": f32("[4]")},
         "nodes": [{"name": "add", "op": "Add", "inputs": ["a", "b"], "outputs": ["y"]}]}
    assert _messages(g) == ['Add "add" needs a.shape[0] == b.shape[0]']


def test_a_large_graph_says_the_reason_too():
    # past diagnose.LOCAL_FROM_NODES the error is explained in a neighbourhood of it
    # (diagnose_local.py): the same reason there
    nodes = [{"name": f"r{i}", "op": "Relu", "inputs": [f"t{i - 1}" if i else "x"],
              "outputs": [f"t{i}"]} for i in range(LOCAL_FROM_NODES + 10)]
    nodes.append({"name": "pad", "op": "Pad", "inputs": [nodes[-1]["outputs"][0], "pads"],
                  "outputs": ["y"]})
    g = {"inputs": {"x": f32("[b, 3, h, w]")}, "initializers": {"pads": i64(0, 0, 1, 0, 0, 1)},
         "nodes": nodes}
    assert _messages(g) == ['Pad "pad": it has 6 pads for 4 padded axes: it needs two per '
                            "axis, the begins then the ends"]
