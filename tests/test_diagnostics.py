"""Shape errors explained: a corpus of broken graphs modelled on common bugs, each with its
expected error code and minimal core, and its rendering compared with a golden file.

Regenerate the golden files after an intended change with UPDATE_GOLDEN=1.
"""
import json
import os
from pathlib import Path

import pytest

import shape_logic

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "diagnostics" / "cases"
GOLDEN = ROOT / "tests" / "diagnostics" / "golden"


def N(*names):
    return {("node", n) for n in names}


def inputs(*names):
    return {("input", n) for n in names}


def A(*names):
    return {("annotation", n) for n in names}


# case -> [(code, core members)] for each diagnostic, in order
EXPECTED = {
    "transposed_weight": [("E0001", inputs("x", "w") | N("fc"))],
    "attention_k_not_transposed": [("E0001", inputs("Q", "K") | N("kt", "s"))],
    "wrong_reshape_target": [("E0006", inputs("x", "t") | N("r"))],
    "reshape_heads_wrong": [("E0006", inputs("x", "t") | N("split"))],
    "concat_mismatched": [("E0001", inputs("a", "b") | N("cat"))],
    "concat_rank_mismatch": [("E0002", inputs("a", "b") | N("cat"))],
    "conv_channel_mismatch": [("E0001", inputs("img", "w") | N("conv"))],
    "conv_chain_channels": [("E0001", inputs("w1", "w2") | N("c1", "act", "c2"))],
    "wrong_flatten_before_gemm": [("E0001", inputs("x", "w") | N("flat", "fc"))],
    "gemm_missing_transB": [("E0001", inputs("x", "w") | N("fc"))],
    "broadcast_incompatible": [("E0001", inputs("x", "bias") | N("add"))],
    "output_annotation_contradicts": [("E0001", inputs("x", "w") | A("probs") | N("fc", "sm"))],
    "backward_contradiction": [("E0001", inputs("w") | A("y", "z") | N("conv", "id"))],
    "residual_after_stride": [("E0001", inputs("x", "w") | N("conv", "add"))],
    "dtype_mismatch": [("E0004", inputs("x", "idx") | N("add"))],
    "softmax_axis_out_of_range": [("E0008", inputs("x") | N("sm"))],
    "matmul_batch_clash": [("E0001", inputs("a", "b") | N("bmm"))],
    "reshape_two_inferred": [("E0008", inputs("t") | N("r"))],
    "kernel_larger_than_input": [("E0003", inputs("x", "w") | N("conv"))],
    "conv_kernel_shape_contradicts_weight": [("E0001", inputs("w") | N("conv"))],
    "split_sizes_wrong": [("E0006", inputs("x", "sizes") | N("split"))],
    "layernorm_scale_wrong": [("E0001", inputs("x", "scale") | N("ln"))],
    "batchnorm_params_wrong": [("E0001", inputs("x", "var") | N("bn"))],
    "gather_axis_out_of_range": [("E0008", inputs("table") | N("emb"))],
    "transpose_perm_wrong_length": [("E0008", inputs("x") | N("t"))],
    "pool_annotation_wrong": [("E0001", inputs("x") | A("y") | N("pool"))],
    "where_condition_not_bool": [("E0004", inputs("mask") | N("sel"))],
    "two_independent_mistakes": [("E0001", inputs("x", "w") | N("fc")),
                                 ("E0001", inputs("z", "bias") | N("add"))],
    "symbol_two_values": [("E0001", inputs("tokens", "a", "c") | N("join_a", "join_c"))],
    "chain_with_side_branch": [("E0001", inputs("x") | A("t6") | N(*(f"r{i}" for i in range(7))))],
    "skip_connection_fixes_the_size": [("E0008", inputs("x", "k", "up") | N(
        "pool", "down", "pool2", "upsample", "skip"))],
    # (a Concat's clash, not the first convolution's "empty output": a 0 that reached it
    # through the skip connection's equal axes)
    "unet_stride_doubled": [("E0001", inputs("img") | N(
        "/Concat", "/Concat_1", "/Constant", "/MaxPool", "/MaxPool_1", "/Resize",
        "/up2/ConvTranspose", *(f"/{b}/{b}.{i}/{op}" for b in ("d1", "d2", "mid", "u2")
                                for i, op in enumerate(("Conv", "Relu", "Conv", "Relu")))))],
}


def test_the_corpus_is_complete():
    assert len(EXPECTED) >= 25
    assert {p.stem for p in CASES.glob("*.json")} == set(EXPECTED)


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # paths in the rendering are relative to the repository


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_diagnosis(name):
    sol = shape_logic.solve(f"tests/diagnostics/cases/{name}.json")
    assert sol.status == "error"
    got = [(d.code, {(c["kind"], c["name"]) for c in d.core}) for d in sol.diagnostics]
    assert got == EXPECTED[name]
    golden = GOLDEN / f"{name}.txt"
    text = sol.to_text() + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


def test_side_branch_stays_out_of_the_core():
    """A 10-node chain where only the chain conflicts: the core is exactly the chain."""
    sol = shape_logic.solve("tests/diagnostics/cases/chain_with_side_branch.json")
    (d,) = sol.diagnostics
    names = {c["name"] for c in d.core}
    assert not names & {"side0", "side1", "side2", "s2"}
    assert names == {"x", "t6"} | {f"r{i}" for i in range(7)}


def test_json_diagnostics_carry_the_interface_fields():
    sol = shape_logic.solve("tests/diagnostics/cases/attention_k_not_transposed.json")
    (d,) = sol.to_json()["diagnostics"]
    assert d["tensor"] in ("Q", "Kt") and d["axis"] in (0, 1)
    assert sorted(d["values"]) == ["128", "256"]
    assert {(c["kind"], c["name"]) for c in d["core"]} == {
        ("input", "Q"), ("input", "K"), ("node", "kt"), ("node", "s")}
    assert d["message"] == 'MatMul "s" needs Q.shape[1] == Kt.shape[0]'
    json.dumps(sol.to_json())  # serializable


def test_repair_hint_names_the_shape_that_solves():
    sol = shape_logic.solve("tests/diagnostics/cases/output_annotation_contradicts.json")
    assert "help: if `probs` were [n, 1000], the graph would solve" in sol.diagnostics[0].notes
    assert "   = help: if `probs` were [n, 1000]" in sol.to_text()


def test_a_branch_that_may_not_run_is_no_second_error():
    # the Squeeze is the graph's error (x's axis 0 is 4, it needs 1). The If's then branch
    # adds [3] to [4]: it cannot run, but c may be false, so that is no error of the graph,
    # also once the Squeeze's error is set aside to look for more (explain.conflict_places
    # classifies them as the graph's own solve does, scopes.classify_conflicts)
    def floats(n):
        return {"dtype": "f32", "shape": [n], "data": [1.0] * n}

    g = {"opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[4, 5]"},
                    "c": {"dtype": "bool", "shape": "[]"}},
         "initializers": {"axes": {"dtype": "i64", "shape": [1], "data": [0]}},
         "nodes": [
             {"name": "maybe", "op": "If", "inputs": ["c"], "outputs": ["m"], "attrs": {
                 "then_branch": {"inputs": [], "outputs": ["s"],
                                 "initializers": {"a": floats(3), "b": floats(4)},
                                 "nodes": [{"name": "add", "op": "Add", "inputs": ["a", "b"],
                                            "outputs": ["s"]}]},
                 "else_branch": {"inputs": [], "outputs": ["r"],
                                 "nodes": [{"name": "relu", "op": "Relu", "inputs": ["x"],
                                            "outputs": ["r"]}]}}},
             {"name": "sq", "op": "Squeeze", "inputs": ["x", "axes"], "outputs": ["q"]}]}
    (d,) = shape_logic.solve(g).diagnostics
    # (the Squeeze's own reason: x's axis 0 is 4, where it needs 1)
    assert d.message == 'Squeeze "sq": axis 0 has size 4: only axes of size 1 can be squeezed'
    assert {c["name"] for c in d.core} == {"x", "axes", "sq"}


def test_a_tensor_whose_ranks_clash_prints_no_rank():
    # y is declared a scalar, and Relu makes it x's [4, 5]: x and y then hold ranks 0 and
    # 2. The table printed `[]` (a scalar) for both: x is printed as the user declared it,
    # and y as the graph gives it without the declaration in error (error_table.fixed_table),
    # as the message says
    sol = shape_logic.solve({"inputs": {"x": {"dtype": "f32", "shape": "[4, 5]"}},
                             "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}],
                             "outputs": {"y": {"shape": "[]"}}})
    assert sol.status == "error"
    assert [d.message for d in sol.diagnostics] == ["`y` is declared [] but the graph gives [4, 5]"]
    assert sol.shape("x") == sol.shape("y") == "[4, 5]"


def test_an_invalid_nodes_outputs_have_no_size_to_print():
    # pads of the wrong length: the rules still read a size from them ([1, 4, 5]), but
    # the node cannot run, so no reading of the graph gives its output one, nor the Relu's
    # computed from it (listed first: the order of the file does not matter); the rank
    # stays, and the tensors before it or beside it keep theirs
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32", "shape": [1, 2, 5]},
                   "w": {"dtype": "f32", "shape": [4, 2, 3]}},
        "nodes": [{"name": "r", "op": "Relu", "inputs": ["y"], "outputs": ["z"]},
                  {"name": "c", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                   "attrs": {"pads": [1, 1, 1]}},
                  {"name": "s", "op": "Sigmoid", "inputs": ["x"], "outputs": ["v"]}]})
    assert [d.code for d in sol.diagnostics] == ["E0008"]
    assert sol.shape("y") == sol.shape("z") == "[?, ?, ?]"
    assert sol.shape("x") == sol.shape("v") == "[1, 2, 5]"
    assert sol.to_json()["tensors"]["z"]["shape"] == "[?, ?, ?]"


def test_a_conflicts_fresh_names_are_the_ones_the_shapes_print():
    # u's `?` is the solver's _1 and is bound to 3, so x's `?` (the solver's _2) prints as
    # _1; the conflict's value 2*_2 printed as such named nothing the user could see. Both
    # the explaining solve and the fast one now say 2*_1. A tensor named like a fresh name
    # stays as it is, quoted.
    g = {"name": "g", "opset": 17, "initializers": {},
         "inputs": {"u": {"dtype": "f32", "shape": "[?]"},
                    "v": {"dtype": "f32", "shape": "[3, 2]"},
                    "x": {"dtype": "f32", "shape": "[?, 2]"},
                    "w": {"dtype": "f32", "shape": "[3, 2]"}},
         "nodes": [{"name": "mu", "op": "MatMul", "inputs": ["u", "v"], "outputs": ["uv"]},
                   {"name": "cat", "op": "Concat", "inputs": ["x", "x"], "outputs": ["_2"],
                    "attrs": {"axis": 0}},
                   {"name": "t", "op": "Transpose", "inputs": ["_2"], "outputs": ["ct"]},
                   {"name": "m", "op": "MatMul", "inputs": ["ct", "w"], "outputs": ["y"]}]}
    for explain in (True, False):
        sol = shape_logic.solve(g, explain=explain)
        assert sol.shape("x") == "[_1, 2]" and sol.status == "error"
        for d in sol.diagnostics:
            assert "2*_1" in d.message and "_2 " not in d.message.replace("`_2`", ""), d.message
            assert d.values == ["3", "2*_1"] and d.notes == ["3 != 2*_1"], d
        if not explain:  # (the fast solve names every place: `_2` among them, quoted)
            assert any("`_2`" in d.message for d in sol.diagnostics)


def test_printed_names_of_a_bodys_copies_and_of_names_no_shape_prints():
    # a body's copy prints as the name it copies (`_i3_s` is s), a fresh name no shape
    # prints gets the next number, a quoted tensor name stays
    from shape_logic.diagnostics import Diagnostic, with_printed_names

    d = Diagnostic("E0001", "axis 0 of `_i3_x` has two sizes: _i3_s + 1 and 2*_i2__4",
                   values=["_i3_s + 1", "2*_i2__4"], notes=["_2 != _9"])
    (out,) = with_printed_names([d], {"_2": "_1"}, 1)
    assert out.message == "axis 0 of `_i3_x` has two sizes: s + 1 and 2*_2"
    assert out.values == ["s + 1", "2*_2"] and out.notes == ["_1 != _3"]


def _pooled_and_added(declared: str | None, pool_attrs: dict) -> dict:
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 2, 2*s]"}},
         "nodes": [{"name": "pool", "op": "MaxPool", "inputs": ["x"], "outputs": ["p"],
                    "attrs": pool_attrs},
                   {"name": "add", "op": "Add", "inputs": ["x", "p"], "outputs": ["y"]}]}
    if declared:
        g["outputs"] = {"y": {"shape": declared}}
    return g


def test_a_declarations_error_table_is_the_graphs_without_it():
    # x [1, 2, 2*s] pooled by 2 (stride 1: 2*s - 1) and added to x, y declared [1, 2, s]:
    # the answer with the error in it held s beside 2*s at x (printed `?`, though the
    # user gave 2*s), s - 1 at p, made from the colliding s, floors s >= 2 and a junk
    # constraint `1 = 0`. The table is now the graph's without the declaration in error
    # (error_table.fixed_table), as the graph alone solves it: 2*s against 2*s - 1 runs at s = 1
    pool = {"kernel_shape": [2]}
    sol = shape_logic.solve(_pooled_and_added("[1, 2, s]", pool))
    alone = shape_logic.solve(_pooled_and_added(None, pool))
    assert sol.status == "error" and alone.status == "ok"
    # (the message as the table: 2*s against 2*s - 1 broadcasts at s = 1 alone, which the
    # explaining solve finds too, broadcast.lp's @broadcast_range; it said `2*s`)
    assert [d.message for d in sol.diagnostics] == [
        "`y` is declared [1, 2, s] but the graph gives [1, 2, 2]"]
    assert {t: sol.shape(t) for t in ("x", "p", "y")} == \
        {t: alone.shape(t) for t in ("x", "p", "y")} == \
        {"x": "[1, 2, 2]", "p": "[1, 2, 1]", "y": "[1, 2, 2]"}
    assert sol.bindings == {"s": 1} and not sol.floors and not sol.constraints
    # (a binding the colliding values made, s = 2 beside 2*s != s, is no note)
    assert not any(n.startswith("with ") for n in sol.diagnostics[0].notes)


def test_a_nodes_error_table_keeps_the_colliding_places_unknown():
    # a node in error switched off would leave its output without dtype or rank: the table
    # is the answer with the error in it, colliding places `?` - but for a graph input's,
    # printed as the user declared them (they printed [?] both)
    sol = shape_logic.solve({"inputs": {"x": {"dtype": "f32", "shape": "[3]"},
                                        "z": {"dtype": "f32", "shape": "[4]"}},
                             "nodes": [{"name": "add", "op": "Add", "inputs": ["x", "z"],
                                        "outputs": ["y"]}]})
    assert [d.code for d in sol.diagnostics] == ["E0001"]
    assert sol.dtype("y") == "f32" and sol.shape("y") == "[?]"
    assert sol.shape("x") == "[3]" and sol.shape("z") == "[4]"
    assert sol.to_json()["tensors"]["x"] == {"dtype": "f32", "shape": "[3]"}


def _matmuls(x: dict, weights: dict, nodes: list) -> dict:
    """x and f32 weights (name -> shape) read by MatMuls (name, a, b, output)."""
    return {"inputs": {"x": x},
            "initializers": {w: {"dtype": "f32", "shape": sh, "data": 0.5}
                             for w, sh in weights.items()},
            "nodes": [{"name": n, "op": "MatMul", "inputs": [a, b], "outputs": [y]}
                      for n, a, b, y in nodes]}


# x read by two MatMuls whose weights want 4 rows
TWO_READERS = ({"w1": [4, 8], "w2": [4, 3]}, [("a", "x", "w1", "ya"), ("b", "x", "w2", "yb")])


def test_an_initializers_colliding_axis_prints_as_given():
    # the TOUR's perceptron: w2 [128, 10] after a [batch, 256]; w1 and w2 printed [784, ?]
    # and [?, 10], the sizes the user wrote lost
    sol = shape_logic.solve(_matmuls({"dtype": "f32", "shape": "[batch, 784]"},
                                     {"w1": [784, 256], "w2": [128, 10]},
                                     [("fc1", "x", "w1", "h"), ("fc2", "h", "w2", "y")]))
    assert [d.code for d in sol.diagnostics] == ["E0001"]
    assert (sol.shape("w1"), sol.shape("w2"), sol.shape("h")) == \
        ("[784, 256]", "[128, 10]", "[batch, ?]")


def test_one_declarations_wrong_rank_and_dims_are_one_error():
    # ResNet-50's BN variance, made by ConstantOfShape of a shape initializer [512] and read
    # by the BN, annotated [1, 512, 29, 28]: the annotation's dims were blocked after the
    # first error and its rank was a second error with a core of its own
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32", "shape": "[n, 512, h, w]"}},
        "initializers": {"c": {"dtype": "i64", "shape": [1], "data": [512]}},
        "nodes": [{"name": "var", "op": "ConstantOfShape", "inputs": ["c"], "outputs": ["v"],
                   "attrs": {"value": {"dtype": "f32", "shape": [1], "data": [1.0]}}},
                  {"name": "bn", "op": "BatchNormalization", "inputs": ["x", "v", "v", "v", "v"],
                   "outputs": ["y"]}],
        "annotations": {"v": {"shape": "[1, 512, 29, 28]"}}})
    assert [d.message for d in sol.diagnostics] == [
        "`v` is declared [1, 512, 29, 28] but the graph gives [512]"]
    assert sol.shape("v") == "[512]"


def test_an_inputs_error_is_not_blamed_on_an_output_that_agrees_with_the_graph():
    # past [p, 16] concatenated with the graph's [s, 8] into present, declared [t, 8] (as
    # exporters declare a KV cache): the smallest core, past against present's
    # declaration, blamed the declaration, and the Concat's error with the graph's 8 came
    # second, for one mistake. The graph's own errors are explained first
    g = {"inputs": {"past": {"dtype": "f32", "shape": "[p, 16]"},
                    "x": {"dtype": "f32", "shape": "[s, 4]"}},
         "initializers": {"w": {"dtype": "f32", "shape": [4, 8], "data": 0.5}},
         "nodes": [{"name": "proj", "op": "MatMul", "inputs": ["x", "w"], "outputs": ["k"]},
                   {"name": "cat", "op": "Concat", "inputs": ["past", "k"],
                    "outputs": ["present"], "attrs": {"axis": 0}}],
         "outputs": {"present": {"shape": "[t, 8]"}}}
    sol = shape_logic.solve(g)
    assert [d.message for d in sol.diagnostics] == \
        ['Concat "cat" needs past.shape[1] == k.shape[1]']
    assert {c["name"] for c in sol.diagnostics[0].core} == {"past", "x", "w", "proj", "cat"}
    # a declared output that the graph contradicts is still the error when it is one
    g["inputs"]["past"]["shape"] = "[p, 8]"
    g["outputs"]["present"]["shape"] = "[t, 6]"
    sol = shape_logic.solve(g)
    assert [d.message for d in sol.diagnostics] == \
        ["`present` is declared [t, 6] but the graph gives [?, 8]"]


def test_a_declared_output_whose_shape_the_core_leaves_open_names_the_axis():
    # y = h + bias [4], declared [b, s, 5], h of no known rank (an LSTM export's head: the
    # core, the bias, the Add and the declaration, gives y no shape): the message said
    # "the graph gives another shape"
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32"}},
        "initializers": {"bias": {"dtype": "f32", "shape": [4], "data": 0.5}},
        "nodes": [{"name": "act", "op": "Relu", "inputs": ["x"], "outputs": ["h"]},
                  {"name": "add", "op": "Add", "inputs": ["h", "bias"], "outputs": ["y"]}],
        "outputs": {"y": {"shape": "[b, s, 5]"}}})
    (d,) = sol.diagnostics
    assert d.message == "`y` is declared [b, s, 5] but the graph gives 4 at axis 2"


@pytest.mark.parametrize("explain", [False, True])
def test_errors_given_without_cores_are_capped_earliest_first(explain, monkeypatch):
    # x [3] through 20 Relus, y declared [4]: 21 places clash. Unexplained (explaining
    # off, or given up) every place was a diagnostic of its own (a BERT export's input
    # declared with a rank too many: 272); now the earliest five, and how many remain
    from shape_logic import diagnose
    from shape_logic.limits import Abandoned

    def abandon(*args, **kwargs):
        raise Abandoned()

    monkeypatch.setattr(diagnose, "_diagnose", abandon)
    nodes = [{"name": f"r{i}", "op": "Relu", "inputs": [f"t{i}" if i else "x"],
              "outputs": [f"t{i + 1}"]} for i in range(20)]
    sol = shape_logic.solve({"inputs": {"x": {"dtype": "f32", "shape": "[3]"}},
                             "nodes": nodes, "outputs": {"t20": {"shape": "[4]"}}},
                            explain=explain)
    assert [d.tensor for d in sol.diagnostics] == ["x", "t1", "t2", "t3", "t4"]
    assert sol.diagnostics[-1].notes[-1] == "more conflicts remain (16 places); fix these first"
    assert all(any(n.startswith("not explained") for n in d.notes) == explain
               for d in sol.diagnostics)


def test_the_node_named_is_where_the_flows_meet_not_a_shared_constant():
    # a HF MobileNetV2's input declared with 4 channels for 3: the pads of its first Pad
    # come from a Constant the exporter listed (and shared) nine layers on; the last node
    # of the core in the file's order, that Constant, was named as the error's
    nodes = [{"name": "pad", "op": "Pad", "inputs": ["x", "pads"], "outputs": ["p"]},
             {"name": "conv", "op": "Conv", "inputs": ["p", "w"], "outputs": ["y"]},
             {"name": "act", "op": "Relu", "inputs": ["y"], "outputs": ["z"]},
             {"name": "late", "op": "Constant", "inputs": [], "outputs": ["pads"],
              "attrs": {"value": {"dtype": "i64", "shape": [8],
                                  "data": [0, 0, 1, 1, 0, 0, 1, 1]}}}]
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32", "shape": "[1, 4, 8, 8]"}},
        "initializers": {"w": {"dtype": "f32", "shape": [8, 3, 3, 3], "data": 0.5}},
        "nodes": nodes})
    (d,) = sol.diagnostics
    assert d.message == 'Conv "conv" needs p.shape[1] == w.shape[1]'


def test_errors_that_all_come_from_one_input_are_one_diagnostic():
    # x [n, 6] read by two MatMuls whose weights want 4: two errors, each at its MatMul,
    # for one mistake (a GPT-2 block's input declared 64 wide for 32 was three). The one
    # declaration every core holds, whose switching off leaves no conflict, is the error
    g = _matmuls({"dtype": "f32", "shape": "[n, 6]"}, *TWO_READERS)
    sol = shape_logic.solve(g)
    (d,) = sol.diagnostics
    assert d.message == "`x` is declared [n, 6] (f32) but the graph gives 4 at axis 1"
    assert {c["name"] for c in d.core} == {"x", "w1", "w2", "a", "b"}
    # (the table: the graph without the declaration's dims, its rank and dtype kept)
    assert sol.shape("x") == "[_1, 4]"
    # two inputs either of which could be the mistake stay two errors at their nodes
    g["inputs"]["z"] = {"dtype": "f32", "shape": "[n, 6]"}
    g["nodes"][1]["inputs"] = ["z", "w2"]
    assert [d.message for d in shape_logic.solve(g).diagnostics] == [
        'MatMul "a" needs x.shape[1] == w1.shape[0]', 'MatMul "b" needs z.shape[1] == w2.shape[0]']


def test_dtype_errors_that_all_come_from_one_input_are_one_diagnostic():
    # x declared f16, read by two MatMuls of f32 weights: two errors, one mistake; the
    # message names the dtypes (the declared shape and the graph's agree)
    sol = shape_logic.solve(_matmuls({"dtype": "f16", "shape": "[n, 4]"}, *TWO_READERS))
    (d,) = sol.diagnostics
    assert d.message == "`x` is declared f16 but the graph gives f32"
    assert sol.shape("x") == "[n, 4]" and sol.dtype("x") == "f32"


def test_errors_past_the_cap_that_come_from_one_input_are_one_diagnostic():
    # x declared f16, read by eight MatMuls of f32 weights: five errors and "more conflicts
    # remain" (a T5 layer's x declared f16). Switched off, the declaration leaves no
    # conflict at all: one diagnostic, the places not explained counted in it too
    weights = {f"w{i}": [4, 2] for i in range(8)}
    readers = [(f"m{i}", "x", f"w{i}", f"y{i}") for i in range(8)]
    sol = shape_logic.solve(_matmuls({"dtype": "f16", "shape": "[n, 4]"}, weights, readers))
    (d,) = sol.diagnostics
    assert d.message == "`x` is declared f16 but the graph gives f32"
    assert not any(n.startswith("more conflicts remain") for n in d.notes)
    assert not d.labels  # (not `x : ?`: the dtype is the error)
    assert sol.dtype("x") == "f32" and sol.dtype("y7") == "f32"


def test_a_broadcasts_error_names_the_aligned_axes():
    # [b, 4, s, 4] * [1, 1, s, 8]: the last axes meet (4 against 8); the first tensor's 4
    # heads at shape[1] were named instead of its shape[3]
    g = {"inputs": {"q": {"dtype": "f32", "shape": "[b, 4, s, 4]"},
                    "sin": {"dtype": "f32", "shape": "[1, 1, s, 8]"}},
         "nodes": [{"name": "m", "op": "Mul", "inputs": ["q", "sin"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.message == 'Mul "m" needs q.shape[3] == sin.shape[3]' and d.notes[0] == "4 != 8"
