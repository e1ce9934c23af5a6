"""Reshape: rules/Reshape.lp on data cases, a shape-computation chain, and against onnx's
reference on random shapes."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic import solve
from shape_logic.testing import check_against_reference, check_case, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "heads: copy, copy, sizes": ({"inputs": ["[b, s, 768]", i64(0, 0, 12, 64)]},
                                 {"y0": "[b, s, 12, 64]"}),
    "inferred axis": ({"inputs": ["[b, s, 768]", i64(0, -1, 64)]}, {"y0": "[b, 12*s, 64]"}),
    "flatten everything": ({"inputs": ["[b, s, 768]", i64(-1)]}, {"y0": "[768*b*s]"}),
    "merge heads back": ({"inputs": ["[b, s, 12, 64]", i64(0, 0, -1)]}, {"y0": "[b, s, 768]"}),
    "known sizes": ({"inputs": ["[2, 3, 4]", i64(4, -1)]}, {"y0": "[4, 6]"}),
    "opset 1: the shape attribute": ({"inputs": ["[b, s, 768]"], "opset": 1,
                                      "attrs": {"shape": [0, 0, 12, -1]}},
                                     {"y0": "[b, s, 12, 64]"}),
    "opset 4: no shape attribute": ({"inputs": ["[b, 6]"], "opset": 4}, "error"),
    "opset 5: a shape input, not the attribute": ({"inputs": ["[b, 6]"], "attrs":
                                                   {"shape": [6, -1]}}, "error"),
    "zero-size tensor": ({"inputs": ["[0, 3]", i64(3, 0)], "attrs": {"allowzero": 1}},
                         {"y0": "[3, 0]"}),
    "allowzero keeps a literal 0": ({"inputs": ["[0, 3]", i64(0, 3)], "attrs": {"allowzero": 1}},
                                    {"y0": "[0, 3]"}),
    "to a scalar": ({"inputs": ["[1, 1]", np.zeros(0, np.int64)]}, {"y0": "[]"}),
    "runtime shape: its length is the rank": ({"inputs": ["[b, s]", ("i64", "[3]")]},
                                              {"y0": "[_1, _2, _3]"}),
    "backward: the input from the output": ({"inputs": ["[b, 4]", i64(2, -1)],
                                             "outputs": {"y0": {"shape": "[2, 6]"}}},
                                            {"x0": "[3, 4]", "bindings": {"b": 3}}),
    "backward: the shape's length from the output": ({"inputs": ["[b, s]", ("i64", "S")],
                                                      "outputs": {"y0": {"shape": "[b, s, 1]"}}},
                                                     {"x1": "[3]"}),
    "divisibility stays a constraint": ({"inputs": ["[b, s]", i64(7, -1)]},
                                        {"y0": "[7, b*s//7]"}),
    "element counts differ": ({"inputs": ["[2, 3]", i64(7)]}, "error"),
    "element counts differ, symbolic": ({"inputs": ["[b, 3]", i64(0, 4)]}, "error"),
    "two inferred axes": ({"inputs": ["[2, 3]", i64(-1, -1)]}, "error"),
    "bad entry": ({"inputs": ["[2, 3]", i64(-2, -3)]}, "error"),
    "zero and -1 with allowzero": ({"inputs": ["[2, 3]", i64(0, -1)], "attrs": {"allowzero": 1}},
                                   "error"),
    "copying an axis the input lacks": ({"inputs": ["[2, 3]", i64(0, 0, 0)]}, "error"),
    "shape of rank 2": ({"inputs": ["[2, 3]", np.array([[6]], np.int64)]}, "error"),
    "one input": ({"inputs": ["[2, 3]"]}, "error"),
}


test_case = case_test("Reshape", CASES, OPSET)


def test_output_of_another_rank_with_an_inferred_axis():
    check_case("Reshape", {"opset": OPSET, "inputs": ["[b, s, 768]", i64(0, -1, 64)],
                           "outputs": {"y0": {"shape": "[12*s, 64]"}}}, "error")


CHAIN = {
    "name": "shape_chain", "opset": OPSET,
    "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 768]"}},
    "initializers": {
        "zero": {"dtype": "i64", "shape": [], "data": 0},
        "one": {"dtype": "i64", "shape": [], "data": 1},
        "axes0": {"dtype": "i64", "shape": [1], "data": [0]},
        "minus1": {"dtype": "i64", "shape": [1], "data": [-1]},
        "heads": {"dtype": "i64", "shape": [2], "data": [12, 64]},
    },
    "nodes": [
        {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["x_shape"]},
        {"name": "batch", "op": "Gather", "inputs": ["x_shape", "zero"], "outputs": ["b0"]},
        {"name": "seq", "op": "Gather", "inputs": ["x_shape", "one"], "outputs": ["s0"]},
        {"name": "batch_1d", "op": "Unsqueeze", "inputs": ["b0", "axes0"], "outputs": ["b1"]},
        {"name": "seq_1d", "op": "Unsqueeze", "inputs": ["s0", "axes0"], "outputs": ["s1"]},
        # [b, -1, 12, 64]: the -1 is what remains, s
        {"name": "target", "op": "Concat", "inputs": ["b1", "minus1", "heads"],
         "outputs": ["target"], "attrs": {"axis": 0}},
        {"name": "split_heads", "op": "Reshape", "inputs": ["x", "target"], "outputs": ["y"]},
        # [b, s, 12, 64] spelled out
        {"name": "target2", "op": "Concat", "inputs": ["b1", "s1", "heads"],
         "outputs": ["target2"], "attrs": {"axis": 0}},
        {"name": "split_heads2", "op": "Reshape", "inputs": ["x", "target2"], "outputs": ["y2"]},
        # and back: [b, s, -1]
        {"name": "target3", "op": "Concat", "inputs": ["b1", "s1", "minus1"],
         "outputs": ["target3"], "attrs": {"axis": 0}},
        {"name": "merge_heads", "op": "Reshape", "inputs": ["y", "target3"], "outputs": ["z"]},
    ],
}


def test_chain_shape_gather_unsqueeze_concat_reshape():
    """The exporters' pattern: Shape -> Gather -> Unsqueeze -> Concat -> Reshape is exact."""
    sol = solve(CHAIN)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("x_shape") == "[3]"
    assert sol.shape("b0") == "[]" and sol.shape("b1") == "[1]"
    assert sol.shape("target") == "[4]"
    assert sol.shape("y") == "[b, s, 12, 64]"
    assert sol.shape("y2") == "[b, s, 12, 64]"
    assert sol.shape("z") == "[b, s, 768]"
    assert sol.bindings == {} and sol.constraints == []


def _patches(allowzero: int) -> dict:
    """torch's dynamo export of ViT's patch flattening: [b, 32, h//4 * w//4] computed from
    the image's shape with truncating Div (h, w >= 0: the same as floored)."""
    return {
        "name": "patches", "opset": OPSET,
        "inputs": {"x": {"dtype": "f32", "shape": "[b, 32, h//4, w//4]"},
                   "img": {"dtype": "f32", "shape": "[b, 3, h, w]"}},
        "initializers": {"four": {"dtype": "i64", "shape": [], "data": 4},
                         "minus1": {"dtype": "i64", "shape": [1], "data": [-1]},
                         "c": {"dtype": "i64", "shape": [1], "data": [32]}},
        "nodes": [
            {"op": "Shape", "inputs": ["img"], "outputs": ["b1"], "attrs": {"end": 1}},
            {"op": "Shape", "inputs": ["img"], "outputs": ["h1"],
             "attrs": {"start": 2, "end": 3}},
            {"op": "Shape", "inputs": ["img"], "outputs": ["w1"], "attrs": {"start": 3}},
            {"op": "Squeeze", "inputs": ["h1"], "outputs": ["h0"]},
            {"op": "Squeeze", "inputs": ["w1"], "outputs": ["w0"]},
            {"op": "Div", "inputs": ["h0", "four"], "outputs": ["hq"]},
            {"op": "Div", "inputs": ["w0", "four"], "outputs": ["wq"]},
            {"op": "Mul", "inputs": ["hq", "wq"], "outputs": ["hw0"]},
            {"op": "Reshape", "inputs": ["hw0", "minus1"], "outputs": ["hw1"]},
            {"op": "Concat", "inputs": ["b1", "c", "hw1"], "outputs": ["target"],
             "attrs": {"axis": 0}},
            {"op": "Reshape", "inputs": ["x", "target"], "outputs": ["y"],
             "attrs": {"allowzero": allowzero}},
        ],
    }


def test_allowzero_takes_a_size_that_may_be_zero():
    # (h//4)*(w//4) is 0 for a small image: with allowzero = 1 that is the size too
    sol = solve(_patches(1))
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y") == "[b, 32, (h//4)*(w//4)]"


def test_without_allowzero_a_size_that_may_be_zero_is_the_size_where_a_copy_cannot_run():
    # with allowzero = 0 a 0 would copy x's axis 2 (h//4) instead; but where (h//4)*(w//4)
    # is 0 and h//4 is not, x holds no element and [b, 32, h//4] some: that run fails
    # (tests/ops/test_Reshape_zero_sizes.py checks such cases against onnxruntime)
    sol = solve(_patches(0))
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y") == "[b, 32, (h//4)*(w//4)]"


def test_without_allowzero_a_size_that_may_be_zero_is_the_inputs_own():
    """A reshape back to Shape(c) (GroupNorm as exporters write it, after a strided Conv):
    n//5 - 1 may be 0, but as a 0 it would copy the input's axis 2, n//5 - 1 as well."""
    graph = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 1, n]"}},
             "initializers": {"w": {"dtype": "f32", "shape": [8, 1, 10],
                                    "data": np.zeros((8, 1, 10)).tolist()},
                              "groups": {"dtype": "i64", "shape": [3], "data": [0, 8, -1]}},
             "nodes": [
                 {"op": "Conv", "inputs": ["x", "w"], "outputs": ["c"],
                  "attrs": {"strides": [5]}},
                 {"op": "Reshape", "inputs": ["c", "groups"], "outputs": ["g"]},
                 {"op": "Shape", "inputs": ["c"], "outputs": ["s"]},
                 {"op": "Reshape", "inputs": ["g", "s"], "outputs": ["y"]}]}
    sol = solve(graph)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y") == "[b, 8, n//5 - 1]"


def test_allowzero_does_not_take_a_size_that_may_be_negative():
    # h - 5 may be -1 (an inferred axis) or below: nothing is stated for that axis
    g = _patches(1)
    g["initializers"]["four"]["data"] = 5
    for node in g["nodes"]:
        if node["op"] == "Div":
            node["op"] = "Sub"
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y").startswith("[b, 32, _")


def test_chain_catches_a_wrong_head_count():
    """The same chain with 12 x 60 heads: 720 != 768 is an error."""
    g = {**CHAIN, "initializers": {**CHAIN["initializers"],
                                   "heads": {"dtype": "i64", "shape": [2], "data": [12, 60]}}}
    g["nodes"] = [n for n in CHAIN["nodes"] if n["name"] in
                  ("shape", "batch", "seq", "batch_1d", "seq_1d", "target2", "split_heads2")]
    assert solve(g).status == "error"


@st.composite
def reshapes(draw):
    """An input shape and a target: sizes with the same count, some 0 (copy) or -1."""
    shape = draw(st.lists(st.integers(1, 4), max_size=4))
    n = int(np.prod(shape))
    target = []
    rest = n
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.sampled_from([k for k in range(1, rest + 1) if rest % k == 0]))
        target.append(d)
        rest //= d
    target.append(rest)
    target = draw(st.permutations(target))
    if draw(st.booleans()):  # a -1
        target[draw(st.integers(0, len(target) - 1))] = -1
    if draw(st.booleans()):  # copies where the sizes agree (or not: the count may differ)
        for i in range(min(len(target), len(shape))):
            if draw(st.booleans()):
                target[i] = 0
    if draw(st.integers(0, 4)) == 0:  # a wrong count
        target.append(2)
    return shape, target


@settings(max_examples=20, deadline=None)
@given(reshapes(), st.booleans())
def test_matches_reference(case, allowzero):
    shape, target = case
    check_against_reference("Reshape", [random_array(shape), i64(*target).reshape(-1)],
                            {"allowzero": int(allowzero)}, opset=OPSET, const=[1])


def test_two_inferred_axes_leave_the_output_undetermined():
    # with two -1 entries neither takes "what remains": each used to take the whole count,
    # printing y [36, 36] beside the error for x [2, 18] (36*36 elements from 36)
    import shape_logic
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32", "shape": [2, 18]}},
        "initializers": {"t": {"dtype": "i64", "shape": [2], "data": [-1, -1]}},
        "nodes": [{"name": "r", "op": "Reshape", "inputs": ["x", "t"], "outputs": ["y"]},
                  {"name": "e", "op": "Relu", "inputs": ["y"], "outputs": ["z"]}]})
    assert sol.status == "error"
    assert sol.diagnostics[0].message == (
        'Reshape "r": its target shape has more than one -1: only one size can be inferred')
    # the invalid node's output and the Relu's after it (conflicted.py); and no value
    # is derived for them either, not 36: the decoded dims are fresh names
    assert sol.shape("y") == sol.shape("z") == "[?, ?]"
    for t in ("y", "z"):
        assert all(d.symbols() and all(s.startswith("_") for s in d.symbols())
                   for d in sol.dims(t)), sol.dims(t)
