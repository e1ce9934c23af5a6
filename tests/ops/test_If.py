"""If: rules/If.lp on data cases (branches as graph objects); the kernel against
onnxruntime in tests/kernels/test_control_flow.py::test_if."""
import numpy as np
import pytest

from tests.ops.cases import case_test


def branch(shape, value=1.0):
    return {"inputs": [], "outputs": ["out"],
            "nodes": [{"op": "ConstantOfShape", "inputs": ["s"], "outputs": ["out"],
                       "attrs": {"value": {"dtype": "f32", "shape": [1], "data": [value]}}}],
            "initializers": {"s": {"dtype": "i64", "data": shape}}}


def if_(then, else_):
    return {"inputs": [("bool", "[]")], "attrs": {"then_branch": then, "else_branch": else_}}


CASES = {
    "same shapes": (if_(branch([2, 3]), branch([2, 3])), {"y0": "[2, 3]"}),
    "branches differ in one axis": (if_(branch([2, 3]), branch([2, 5])), {"y0": "[2, _1]"}),
    "branches differ in rank": (if_(branch([2, 3]), branch([2])), {"y0": "_1"}),
    "dtype": (if_(branch([4]), branch([4])), {"dtypes": {"y0": "f32"}}),
    # errors
    "a float condition": ({**if_(branch([1]), branch([1])), "inputs": [("f32", "[]")]}, "error"),
}


test_case = case_test("If", CASES)


# ----- what a branch requires of the tensors around it holds only when it runs

def squeeze_if(then_nodes, else_nodes, opset=13):
    """onnx's export of `x.squeeze(1)` for a dynamic axis 1: Squeeze only when it is 1.
    The branches read x, a tensor of the graph around them."""
    return {"opset": opset,
            "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 3]"}},
            "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]}},
            "nodes": [
                {"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                {"name": "at1", "op": "Gather", "inputs": ["sh", "one"], "outputs": ["d"]},
                {"name": "is1", "op": "Equal", "inputs": ["d", "one"], "outputs": ["c"]},
                {"name": "if", "op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
                    "then_branch": {"inputs": [], "outputs": ["t"], "nodes": then_nodes},
                    "else_branch": {"inputs": [], "outputs": ["e"], "nodes": else_nodes}}}]}


SQUEEZE = [{"op": "Squeeze", "inputs": ["x", "one"], "outputs": ["t"]}]
IDENTITY = [{"op": "Identity", "inputs": ["x"], "outputs": ["e"]}]


def test_a_branch_does_not_bind_the_tensors_it_reads():
    # the then-branch's Squeeze requires axis 1 of x to be 1: that holds when the
    # branch runs, not in every run (s was bound to 1, and x printed [b, 1, 3])
    from shape_logic import run, solve

    sol = solve(squeeze_if(SQUEEZE, IDENTITY))
    assert sol.status == "ok" and sol.bindings == {}
    assert sol.shape("x") == "[b, s, 3]"
    # inside the branches, the names are the ones they copy
    assert sol.shape("if/then_branch/t") == "[b, 3]"
    assert sol.shape("if/else_branch/e") == "[b, s, 3]"
    assert sol.dims("y") is None  # rank 2 or 3, as the condition goes
    x = np.ones((2, 5, 3), np.float32)
    assert run(squeeze_if(SQUEEZE, IDENTITY), {"x": x})["y"].shape == (2, 5, 3)
    # with axis 1 known to be 5 the then-branch cannot run: a warning, not a shape error
    static = squeeze_if(SQUEEZE, IDENTITY)
    static["inputs"]["x"]["shape"] = "[2, 5, 3]"
    sol = solve(static)
    assert sol.status == "ok" and sol.shape("x") == "[2, 5, 3]"
    assert any("If branch cannot run" in w and "axis 1 of `x (as a subgraph reads it)`" in w
               for w in sol.warnings)


def test_a_branch_that_cannot_run_prints_no_size_where_its_values_clash():
    # Relu's output in the then-branch has axis 1 of x, 5, and the Squeeze after it needs
    # 1: the branch cannot run, and that axis has no size to print (it printed 1, which
    # the Relu of x never gives); the warning names the two sizes
    from shape_logic import solve

    relu = [{"op": "Relu", "inputs": ["x"], "outputs": ["r"]},
            {"op": "Squeeze", "inputs": ["r", "one"], "outputs": ["t"]}]
    g = squeeze_if(relu, IDENTITY)
    g["inputs"]["x"]["shape"] = "[2, 5, 3]"
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[2, 5, 3]"
    assert sol.shape("if/then_branch/r") == "[2, ?, 3]"
    assert sol.shape("if/else_branch/e") == "[2, 5, 3]"
    assert any("axis 1 of `if/then_branch/r` has two sizes: 1 and 5" in w
               for w in sol.warnings)


def test_what_both_branches_give_in_the_names_around_them():
    # each branch's copy of x has its own names; the If takes what both give, named back
    from shape_logic import solve

    relu = [{"op": "Relu", "inputs": ["x"], "outputs": ["t"]}]
    sol = solve(squeeze_if(relu, IDENTITY))
    assert sol.shape("y") == "[b, s, 3]" and sol.bindings == {}
    # a nested If reads x through both branches' copies
    nested = [{"op": "If", "inputs": ["c"], "outputs": ["t"], "attrs": {
        "then_branch": {"inputs": [], "outputs": ["u"], "nodes": [
            {"op": "Squeeze", "inputs": ["x", "one"], "outputs": ["u"]}]},
        "else_branch": {"inputs": [], "outputs": ["x"], "nodes": []}}}]
    sol = solve(squeeze_if(nested, IDENTITY))
    assert sol.shape("x") == "[b, s, 3]" and sol.bindings == {}


def test_an_error_outside_the_branches_is_explained_and_not_echoed_by_them():
    # 220 nodes: explained in a neighbourhood (neighbourhood.py), which keeps the branches'
    # nodes whether or not it holds their If; their copies of x echo the clash, unreported
    from shape_logic import solve

    g = squeeze_if(SQUEEZE, IDENTITY)
    prev = "x"
    for i in range(220):
        g["nodes"].append({"name": f"r{i}", "op": "Relu", "inputs": [prev], "outputs": [f"z{i}"]})
        prev = f"z{i}"
    g["initializers"]["four"] = {"dtype": "f32", "shape": [4], "data": [1, 2, 3, 4]}
    g["nodes"].append({"name": "bad", "op": "Add", "inputs": ["four", prev], "outputs": ["w"]})
    sol = solve(g)
    assert sol.status == "error" and not sol.warnings
    d = sol.diagnostics[0].to_json()
    # (explained where the flows meet, the Add, though the values collide all along x's chain)
    assert d["message"] == 'Add "bad" needs four.shape[0] == z219.shape[2]'
    assert sorted(d["values"]) == ["3", "4"]


def test_a_branch_prints_the_input_name_beside_a_scan_of_the_same_tensor():
    # a Scan over x and a declared output give b a solver-made twin (`_2 = b`); a
    # branch's copy of the twin was bound the other way round (`_i2_b = _i2__2`), so the
    # branch's tensors printed [_1, 3] where they are [b, 3]
    from shape_logic import solve

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 3]"},
                    "c": {"dtype": "bool", "shape": "[]"}},
         "outputs": {"squares": {"dtype": "f32", "shape": "[?, ?]"}},
         "initializers": {"zero": {"dtype": "f32", "shape": [3], "data": [0, 0, 0]}},
         "nodes": [
             {"name": "if1", "op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
                 "then_branch": {"inputs": [], "outputs": ["t"], "nodes": [
                     {"op": "Relu", "inputs": ["x"], "outputs": ["t"]}]},
                 "else_branch": {"inputs": [], "outputs": ["e"], "nodes": [
                     {"op": "Abs", "inputs": ["x"], "outputs": ["e"]}]}}},
             {"name": "scan", "op": "Scan", "inputs": ["zero", "x"],
              "outputs": ["s_final", "squares"], "attrs": {
                  "num_scan_inputs": 1, "body": {
                      "inputs": ["s", "row"], "outputs": ["s_out", "sq"], "nodes": [
                          {"op": "Add", "inputs": ["s", "row"], "outputs": ["s_out"]},
                          {"op": "Mul", "inputs": ["s_out", "row"], "outputs": ["sq"]}]}}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("squares") == "[b, 3]"
    assert sol.shape("if1/then_branch/t") == sol.shape("if1/else_branch/e") == "[b, 3]"
    assert sol.shape("y") == "[b, 3]"


def test_a_condition_the_graph_computes_picks_the_branch():
    # x's axis 1 is 1: Equal(1, 1) is true, so the then-branch runs whenever the If does,
    # and y is its output (both branches together only agree on nothing: ranks 2 and 3)
    from shape_logic import run, solve

    g = squeeze_if(SQUEEZE, IDENTITY)
    g["inputs"]["x"]["shape"] = "[b, 1, 3]"
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, 3]" and not sol.warnings
    assert run(g, {"x": np.ones((4, 1, 3), np.float32)})["y"].shape == (4, 3)
    # axis 1 is 5: the else-branch runs; the then-branch's Squeeze cannot, a warning
    g["inputs"]["x"]["shape"] = "[b, 5, 3]"
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, 5, 3]"
    assert any("If branch cannot run" in w for w in sol.warnings)
    # a condition the graph does not decide (axis 1 is s) picks nothing
    g["inputs"]["x"]["shape"] = "[b, s, 3]"
    assert solve(g).dims("y") is None
    # a constant condition picks its branch (and binds what it requires: it surely runs)
    g["nodes"] = [n for n in g["nodes"] if n["name"] != "is1"]
    g["initializers"]["c"] = {"dtype": "bool", "shape": [], "data": True}
    sol = solve(g)
    assert sol.shape("y") == "[b, 3]" and sol.bindings == {"s": 1}


def test_the_picked_branch_gives_its_values():
    # ONNX's AffineGrid function: If(Size(size) == 4) splits the size into N, C, H, W and
    # a constant D = 1 - values a Reshape downstream reads (onnx's node case
    # test_affine_grid_2d_expanded); the else-branch's Split cannot run on 4 elements
    from shape_logic import solve

    g = {"opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[8]"}},
         "initializers": {"size": {"dtype": "i64", "shape": [4], "data": [2, 3, 4, 5]},
                          "four": {"dtype": "i64", "shape": [], "data": 4},
                          "one": {"dtype": "i64", "shape": [1], "data": [1]}},
         "nodes": [
             {"op": "Size", "inputs": ["size"], "outputs": ["n"]},
             {"op": "Equal", "inputs": ["n", "four"], "outputs": ["is2d"]},
             {"op": "If", "inputs": ["is2d"], "outputs": ["N", "D", "H"], "attrs": {
                 "then_branch": {"inputs": [], "outputs": ["a", "b", "c"], "nodes": [
                     {"op": "Split", "inputs": ["size"], "outputs": ["a", "c1", "c", "w1"],
                      "attrs": {"num_outputs": 4}},
                     {"op": "Identity", "inputs": ["one"], "outputs": ["b"]}]},
                 "else_branch": {"inputs": [], "outputs": ["p", "q", "r"], "nodes": [
                     {"op": "Split", "inputs": ["size"], "outputs": ["p", "q", "r"],
                      "attrs": {"num_outputs": 3, "axis": 1}}]}}},
             {"op": "Concat", "inputs": ["N", "D", "H", "one"], "outputs": ["shape"],
              "attrs": {"axis": 0}},
             {"op": "Reshape", "inputs": ["x", "shape"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("N") == "[1]" and sol.shape("y") == "[2, 1, 4, 1]"
    assert any("If branch cannot run" in w for w in sol.warnings)


def test_branches_without_nodes_give_the_tensors_they_name():
    # a branch may output a tensor of the graph around it as it is: no node in any body,
    # and still the If's output is what both branches give (the scopes are there)
    from shape_logic import solve

    g = {"opset": 13,
         "inputs": {"x": {"dtype": "f32", "shape": "[b, 3]"}, "y": {"dtype": "f32",
                                                                  "shape": "[b, 5]"},
                    "c": {"dtype": "bool", "shape": "[]"}},
         "nodes": [{"op": "If", "inputs": ["c"], "outputs": ["z"], "attrs": {
             "then_branch": {"inputs": [], "outputs": ["x"], "nodes": []},
             "else_branch": {"inputs": [], "outputs": ["y"], "nodes": []}}}]}
    assert solve(g).shape("z") == "[b, _1]"


def reshape_if(then_target, else_target):
    """Each branch reshapes x : [n] (around them) to its constant target."""
    def side(name, target):
        return {"inputs": [], "outputs": [name],
                "initializers": {f"{name}_s": {"dtype": "i64", "shape": [len(target)],
                                               "data": target}},
                "nodes": [{"op": "Reshape", "inputs": ["x", f"{name}_s"], "outputs": [name]}]}
    return {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                       "c": {"dtype": "bool", "shape": "[]"}},
            "nodes": [{"op": "If", "inputs": ["c"], "outputs": ["y"],
                       "attrs": {"then_branch": side("t", then_target),
                                 "else_branch": side("e", else_target)}}]}


@pytest.mark.parametrize("then_target, else_target, x, bindings", [
    # both branches need 6 elements: one of them runs, so x has 6
    ([2, 3], [3, 2], "[6]", {"n": 6}),
    ([6], [1, 2, 3], "[6]", {"n": 6}),
    # 6 or 8: either may run, nothing is known
    ([2, 3], [2, 4], "[n]", {}),
    # only one branch asks anything (-1 fits any count)
    ([2, 3], [-1], "[n]", {}),
])
def test_what_both_branches_require_holds(then_target, else_target, x, bindings):
    from shape_logic import run, solve

    g = reshape_if(then_target, else_target)
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("x") == x
    assert sol.bindings == bindings
    if bindings:  # the executor holds x to it, either way the condition goes
        for c in (True, False):
            run(g, {"x": np.ones(6, np.float32), "c": np.array(c)})
        with pytest.raises(Exception, match="x"):
            run(g, {"x": np.ones(5, np.float32), "c": np.array(True)})



def test_an_if_neither_branch_of_which_can_run_is_an_error():
    """x : [7] fits neither [2, 3] nor [5]: whichever way the condition goes, the If cannot
    run. One error, whose core holds both branches' reasons."""
    from shape_logic import run, solve

    g = reshape_if([2, 3], [5])
    g["inputs"]["x"]["shape"] = "[7]"
    sol = solve(g)
    assert sol.status == "error" and len(sol.diagnostics) == 1 and not sol.warnings
    diag = sol.diagnostics[0]
    assert "neither of its branches can run" in diag.notes[0]
    assert {c["name"] for c in diag.core if c["kind"] == "node"} == {
        "If_0/then_branch/Reshape_0", "If_0/else_branch/Reshape_0"}
    for c in (True, False):  # the executor agrees: it fails either way
        with pytest.raises(Exception):
            run(g, {"x": np.ones(7, np.float32), "c": np.array(c)})


def test_an_if_that_may_not_run_with_no_branch_that_can_only_warns():
    """The same If inside a branch of another If: it may never run, so its branches'
    conflicts are warnings."""
    from shape_logic import solve

    inner = reshape_if([2, 3], [5])
    g = {"inputs": {**inner["inputs"], "x": {"dtype": "f32", "shape": "[7]"},
                    "d": {"dtype": "bool", "shape": "[]"}},
         "nodes": [{"op": "If", "inputs": ["d"], "outputs": ["z"], "attrs": {
             "then_branch": {"inputs": [], "outputs": ["y"], "nodes": inner["nodes"]},
             "else_branch": {"inputs": [], "outputs": ["x"], "nodes": []}}}]}
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sum("If branch cannot run" in w for w in sol.warnings) == 2


def test_neither_branch_in_a_large_graph():
    """Past 200 nodes an error is explained from a neighbourhood where it shows
    (neighbourhood.py), else from the whole graph: the other branch's reason joins the
    core either way."""
    from shape_logic import solve

    g = reshape_if([2, 3], [5])
    g["inputs"]["x"]["shape"] = "[7]"
    g["inputs"]["x0"] = g["inputs"].pop("x")
    chain = [{"op": "Relu", "inputs": [f"x{i}"], "outputs": [f"x{i + 1}"]} for i in range(220)]
    chain[-1]["outputs"] = ["x"]
    g["nodes"] = chain + g["nodes"]
    sol = solve(g)
    assert sol.status == "error" and len(sol.diagnostics) == 1
    diag = sol.diagnostics[0]
    assert "neither of its branches can run" in diag.notes[0]
    assert {c["name"] for c in diag.core if c["kind"] == "node" and "branch" in c["name"]} == {
        "If_220/then_branch/Reshape_0", "If_220/else_branch/Reshape_0"}


@pytest.mark.parametrize("taken", [True, False])
@pytest.mark.parametrize("type_shape", ["[2, 5]", "[]", "[b, 4]"])
def test_an_empty_optional_taken_whose_type_differs_from_the_other_element(taken, type_shape):
    # fuzz --kind seq --seed 1, graphs 149 and 371: an If whose condition is known takes
    # an empty Optional whose `type` ([2, 5], or of rank 0) differs from the other side's
    # element (x, [b, 4]). The output was that branch's (same_shape, type [2, 5]) and the
    # other's element (if_other): a false error, though it holds none and runs
    from shape_logic import run, solve

    def opt(inputs, attrs=None):
        return {"inputs": [], "outputs": ["o"], "nodes": [
            {"op": "Optional", "inputs": inputs, "outputs": ["o"], **attrs}]}

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 4]"}},
         "initializers": {"c": {"dtype": "bool", "shape": [], "data": taken}},
         "nodes": [{"op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
             "then_branch": opt([], {"attrs": {"type": {"dtype": "f32", "shape": type_shape}}}),
             "else_branch": opt(["x"], {})}},
             {"op": "OptionalHasElement", "inputs": ["y"], "outputs": ["h"]}]}
    sol = solve(g)
    assert sol.status == "ok", sol.diagnostics[0].message
    assert sol.optional("y") == {"has_element": not taken} and sol.shape("y") == "[b, 4]"
    out = run(g, {"x": np.zeros((3, 4), np.float32)})
    assert bool(out["h"]) is (not taken)


def test_branches_naming_a_sequence_or_an_optional_around_them_give_one():
    # fuzz --kind seq --seed 3, graph 1394: both branches give the sequence s around them
    # (no node: the If's output is s's copy). The copy was a tensor to the rules
    # (scope_read copied shape and dtype, not seq/opt), so y was stated a tensor [b, 4]
    from shape_logic import run, solve

    def branch():
        return {"inputs": [], "outputs": ["s", "o", "e"], "nodes": []}

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 4]"},
                    "c": {"dtype": "bool", "shape": "[]"}},
         "nodes": [{"op": "SequenceConstruct", "inputs": ["x", "x"], "outputs": ["s"]},
                   {"op": "Optional", "inputs": ["x"], "outputs": ["o"]},
                   {"op": "Optional", "inputs": [], "outputs": ["e"],
                    "attrs": {"type": {"dtype": "f32", "shape": "[2]"}}},
                   {"op": "If", "inputs": ["c"], "outputs": ["y", "z", "w"],
                    "attrs": {"then_branch": branch(), "else_branch": branch()}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.sequence("y") == {"length": 2} and sol.shape("y") == "[b, 4]"
    assert sol.optional("z") == {"has_element": True} and sol.sequence("z") is None
    assert sol.optional("w") == {"has_element": False}
    out = run(g, {"x": np.zeros((3, 4), np.float32), "c": np.array(True)})
    assert len(out["y"]) == 2 and out["w"] is None
    # taken, an empty optional around the branch whose type differs from the other side
    g["nodes"][-1]["outputs"] = ["w"]
    g["nodes"][-1]["attrs"] = {"then_branch": {"inputs": [], "outputs": ["e"], "nodes": []},
                               "else_branch": {"inputs": [], "outputs": ["o"], "nodes": []}}
    g["inputs"].pop("c")
    g["initializers"] = {"c": {"dtype": "bool", "shape": [], "data": True}}
    sol = solve(g)
    assert sol.status == "ok" and sol.optional("w") == {"has_element": False}


def _optional_or_none(kind):
    """An else branch giving an optional that holds no element, typed [?, 2, ?]: an empty
    Optional, a Loop passing one on, a Loop of no iteration (its body gives x's)."""
    empty = {"op": "Optional", "inputs": [], "outputs": ["e"],
             "attrs": {"type": {"dtype": "f32", "shape": "[?, 2, ?]"}}}
    if kind == "empty":
        return {"inputs": [], "outputs": ["e"], "nodes": [empty]}
    step = ({"op": "Identity", "inputs": ["v"], "outputs": ["v2"]} if kind == "passed"
            else {"op": "Optional", "inputs": ["x"], "outputs": ["v2"]})
    body = {"inputs": ["i", "c", "v"], "outputs": ["c2", "v2"], "nodes": [
        {"op": "Identity", "inputs": ["c"], "outputs": ["c2"]}, step]}
    return {"inputs": [], "outputs": ["o"], "initializers": {
        "m": {"dtype": "i64", "shape": [], "data": 2 if kind == "passed" else 0},
        "t": {"dtype": "bool", "shape": [], "data": True}},
        "nodes": [empty, {"op": "Loop", "inputs": ["m", "t", "e"], "outputs": ["o"],
                          "attrs": {"body": body}}]}


@pytest.mark.parametrize("kind", ["empty", "passed", "no_iteration"])
def test_an_optional_without_element_gives_the_output_no_second_size(kind):
    # fuzz --kind seq --seed 207, graph 98: `Optional(x) if s > 2 else Optional(type [?, 2,
    # ?])`. The else side's sizes are only its type's; joined with the then side's
    # (if_pair: max(2, s), the then side's where s > 2) they gave the output's axis 1 a
    # second value beside s (if_other), and `max(2, s) = s` was printed as a constraint
    # of the graph: false at s = 1, where the else branch runs. Taken (at known sizes),
    # the Loops' typed sizes clashed with the then side's element (a false error)
    from shape_logic import run, solve

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[a, s, a]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [], "data": 1},
                          "two": {"dtype": "i64", "shape": [], "data": 2}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "one"], "outputs": ["s"]},
                   {"op": "Greater", "inputs": ["s", "two"], "outputs": ["c"]},
                   {"op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
                       "then_branch": {"inputs": [], "outputs": ["o"], "nodes": [
                           {"op": "Optional", "inputs": ["x"], "outputs": ["o"]}]},
                       "else_branch": _optional_or_none(kind)}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.constraints == [] and sol.shape("y") == "[a, s, a]"
    for s in (1, 3):  # the run solves again at the inputs' sizes, the condition known
        y = run(g, {"x": np.zeros((3, s, 3), np.float32)})["y"]
        assert (y is None) if s == 1 else y.shape == (3, 3, 3)


def test_an_optional_s_element_from_one_branch_binds_nothing_around_the_if():
    # fuzz --kind seq --seed 214, graph 279: the then-branch gives Optional(w) beside a
    # Concat of w with a [1, 5] that makes its copy of s 5; the else-branch an empty
    # optional. The output's element is the then-branch's (if_other), its sizes renamed
    # back to the If's names: s and 5 at one axis bound s to 5, where the else-branch
    # runs with any s (z, Identity(w), was stated [1, 5])
    from shape_logic import run, solve

    g = {"inputs": {"w": {"dtype": "f32", "shape": "[1, s]"},
                    "c": {"dtype": "bool", "shape": "[]"}},
         "initializers": {"a": {"dtype": "f32", "shape": [1, 5], "data": [[0.0] * 5]}},
         "nodes": [{"op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
             "then_branch": {"inputs": [], "outputs": ["o"], "nodes": [
                 {"op": "Concat", "inputs": ["a", "w"], "outputs": ["k"],
                  "attrs": {"axis": 0}},
                 {"op": "Optional", "inputs": ["w"], "outputs": ["o"]}]},
             "else_branch": {"inputs": [], "outputs": ["e"], "nodes": [
                 {"op": "Optional", "inputs": [], "outputs": ["e"],
                  "attrs": {"type": {"dtype": "f32", "shape": "[1, ?]"}}}]}}},
             {"op": "Identity", "inputs": ["w"], "outputs": ["z"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.bindings == {} and sol.constraints == []
    assert sol.shape("z") == "[1, s]"
    assert sol.optional("y") == {"has_element": None} and sol.shape("y") == "[1, 5]"
    # (solved again with w's [1, 3]: y's element gets 3 and 5 from the then-branch alone,
    # which cannot run then - its conflict, not the graph's)
    out = run(g, {"w": np.zeros((1, 3), np.float32), "c": np.array(False)})
    assert out["y"] is None and out["z"].shape == (1, 3)


def _concat_beside_empty(after=()):
    """then: Optional(Concat(a [1, 5], w [1, 3])), which cannot run; else: an empty
    optional; `after`: nodes reading the If's output y."""
    return {"inputs": {"c": {"dtype": "bool", "shape": []},
                       "a": {"dtype": "f32", "shape": [1, 5]},
                       "w": {"dtype": "f32", "shape": [1, 3]}},
            "nodes": [{"name": "i", "op": "If", "inputs": ["c"], "outputs": ["y"], "attrs": {
                "then_branch": {"inputs": [], "outputs": ["p"], "nodes": [
                    {"op": "Concat", "inputs": ["a", "w"], "outputs": ["t"],
                     "attrs": {"axis": 0}},
                    {"op": "Optional", "inputs": ["t"], "outputs": ["p"]}]},
                "else_branch": {"inputs": [], "outputs": ["q"], "nodes": [
                    {"op": "Optional", "inputs": [], "outputs": ["q"],
                     "attrs": {"type": {"dtype": "f32", "shape": [2, "?"]}}}]}}},
                *after]}


def test_a_clash_in_the_element_only_a_branch_that_cannot_run_gives_is_that_branch_s():
    # fuzz31: the then-branch's Concat fails (axis 1: 5 and 3), and its output's element,
    # which the If's output copies (if_other), has both sizes. Counted at the If's output,
    # the clash was an error of the graph; it is the then-branch's: a warning, and with c
    # false the graph runs (y holds no element)
    from shape_logic import run, solve

    g = _concat_beside_empty()
    sol = solve(g)
    assert sol.status == "ok", sol.to_text()
    assert any("If branch cannot run" in w and "`y`" in w for w in sol.warnings)
    feeds = {"a": np.zeros((1, 5), np.float32), "w": np.zeros((1, 3), np.float32)}
    assert run(g, {**feeds, "c": np.array(False)})["y"] is None
    # ... but reading the element needs the then-branch to have run: the graph cannot run
    got = solve(_concat_beside_empty([{"op": "OptionalGetElement", "inputs": ["y"],
                                      "outputs": ["e"]}]))
    assert got.status == "error" and "`e`" in got.to_text()
