"""Large graphs are explained from a neighbourhood of the conflict (shape_logic/neighbourhood.py):
the core is the few local sources, the rest is context taken from the whole graph's solve."""
import os

import pytest

import shape_logic
from shape_logic import diagnose


def chain(layers: int, bad: int | None = None, g: dict | None = None, prefix: str = "") -> dict:
    """x: [b, s, 64] through layers of MatMul, a head split and a head merge (Reshape with 0
    and -1: the merge needs its input's dims from upstream). Layer `bad` has a [65, 64]
    weight. Given a graph `g`, the chain is added to it (names after `prefix`)."""
    if g is None:
        g = {"name": "chain", "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 64]"}},
             "initializers": {"split": {"dtype": "i64", "data": [0, 0, 4, 16]},
                              "merge": {"dtype": "i64", "data": [0, 0, -1]}},
             "nodes": []}
    x = "x"
    for i in range(layers):
        w, p, h, a, m = (f"{prefix}{t}{i}" for t in "wpham")
        g["inputs"][w] = {"dtype": "f32", "shape": [65 if i == bad else 64, 64]}
        g["nodes"] += [
            {"name": f"{prefix}mm{i}", "op": "MatMul", "inputs": [x, w], "outputs": [p]},
            {"name": f"{prefix}split{i}", "op": "Reshape", "inputs": [p, "split"],
             "outputs": [h]},
            {"name": f"{prefix}relu{i}", "op": "Relu", "inputs": [h], "outputs": [a]},
            {"name": f"{prefix}merge{i}", "op": "Reshape", "inputs": [a, "merge"],
             "outputs": [m]},
        ]
        x = m
    return g


@pytest.fixture
def local_mode(monkeypatch):
    monkeypatch.setattr(diagnose, "LOCAL_FROM_NODES", 0)


def core_of(d):
    return {(c["kind"], c["name"]) for c in d["core"]}


def test_the_core_is_local_and_the_rest_is_context(local_mode):
    sol = shape_logic.solve(chain(12, bad=8))
    (d,) = sol.to_json()["diagnostics"]
    assert d["message"] == 'MatMul "mm8" needs m7.shape[2] == w8.shape[0]'
    assert sorted(d["values"]) == ["64", "65"]
    # the merge that computes m7's 64 from its input, the weight, the MatMul: nothing upstream
    assert core_of(d) == {("input", "w8"), ("input", "merge"), ("node", "merge7"),
                          ("node", "mm8")}
    assert "`a7` : [b, s, 4, 16] as the rest of the graph gives it" in d["notes"]
    assert d["core_minimal"] is False
    # a7 comes from x, the split/merge constants, w0..w7 and 31 nodes
    assert d["context"] == 1 + 2 + 8 + 31


def test_the_context_listed_is_capped(local_mode, monkeypatch):
    # the tensors the rest of the graph gives are listed up to MAX_CONTEXT_NOTES, the
    # latest in the graph first, and the others counted
    from shape_logic import describe

    monkeypatch.setattr(describe, "MAX_CONTEXT_NOTES", 0)
    (d,) = shape_logic.solve(chain(12, bad=8)).to_json()["diagnostics"]
    assert d["notes"][-1] == "and 1 more tensor as the rest of the graph gives it"
    assert not any(n.startswith("`") for n in d["notes"])


def test_local_and_whole_graph_explanations_agree_on_the_error(local_mode, monkeypatch):
    local = shape_logic.solve(chain(6, bad=4)).to_json()["diagnostics"]
    monkeypatch.setattr(diagnose, "LOCAL_FROM_NODES", 10**9)
    whole = shape_logic.solve(chain(6, bad=4)).to_json()["diagnostics"]
    assert [d["message"] for d in local] == [d["message"] for d in whole]
    assert [d["values"] for d in local] == [d["values"] for d in whole]
    # whole-graph shrinking keeps the far sources that carry b and s as unminimized context;
    # the local core is the part of it near the conflict
    assert core_of(local[0]) <= core_of(whole[0]) | {("input", "merge")}


def test_two_independent_mistakes_far_apart_are_both_reported(local_mode):
    # two branches from x, each with a wrong weight: after the first error is switched off,
    # the whole graph is solved again and the second shows (arithmetic had stopped at the
    # first collision, so the first solve could not see it)
    g = chain(10, bad=3)
    chain(10, bad=8, g=g, prefix="b_")
    messages = [d.message for d in shape_logic.solve(g).diagnostics]
    assert messages == ['MatMul "mm3" needs m2.shape[2] == w3.shape[0]',
                        'MatMul "b_mm8" needs b_m7.shape[2] == b_w8.shape[0]']


def test_a_consistent_large_graph_needs_no_explanation(local_mode):
    sol = shape_logic.solve(chain(8))
    assert sol.status == "ok"
    assert sol.shape("m7") == "[b, s, 64]"


def test_a_dim_carried_down_a_long_chain_is_explained_where_it_is_required():
    # 220 Relus carry x's axis 1 (5) to a Squeeze that requires 1: the diagnostic names the
    # Squeeze (where the two flows meet), not the chain's first Relu. The program is small
    # enough to shrink the core whole (explain.CoreFinder.exact_members): every Relu is in
    # it, and the text shows the first and last members
    nodes = [{"name": f"r{k}", "op": "Relu", "inputs": ["x" if k == 0 else f"x{k}"],
              "outputs": [f"x{k + 1}"]} for k in range(220)]
    nodes.append({"name": "sq", "op": "Squeeze", "inputs": ["x220", "one"], "outputs": ["y"]})
    g = {"opset": 13, "inputs": {"x": {"dtype": "f32", "shape": "[2, 5, 3]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]}}, "nodes": nodes}
    (d,) = shape_logic.solve(g).diagnostics
    # (the Squeeze's own reason: the 5 carried down the chain where it needs 1)
    assert d.message == 'Squeeze "sq": axis 1 has size 5: only axes of size 1 can be squeezed'
    entries = {(e["kind"], e["name"]) for e in d.to_json()["core"]}
    assert entries == {("node", "sq"), ("input", "x"), ("input", "one")} | {
        ("node", f"r{k}") for k in range(220)}
    assert "core_minimal" not in d.to_json()
    core_line = next(line for line in d.to_text().splitlines() if "core" in line)
    assert "[191 more]" in core_line and 'node "r219", node "sq"' in core_line
    # a larger program shrinks only the ends (a solve costs more there)
    from shape_logic import explain
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(explain, "EXACT_ATOMS", 0)
        (d,) = shape_logic.solve(g).diagnostics
    assert d.message == 'Squeeze "sq": axis 1 has size 5: only axes of size 1 can be squeezed'
    assert d.to_json()["context"] > 200  # the Relus between, not minimized
    # which the text counts as further sources, not as sources upstream of the shown ones
    assert f'{d.to_json()["context"]} further sources that carry these sizes' in d.to_text()


@pytest.mark.parametrize("declared", [True, False])
def test_a_chain_beside_the_error_is_no_part_of_it(declared):
    # test_diagnostics' KV cache (past [p, 16] against the graph's 8, present declared
    # [t, 8] or not) beside a chain of 220 Relus that no path links to it: clingo's first
    # core took the chain along, past the size where every member is shrunk, and the
    # chain's last Relu was named as the error, then the one before... five times
    nodes = [{"name": "proj", "op": "MatMul", "inputs": ["x", "w"], "outputs": ["k"]},
             {"name": "cat", "op": "Concat", "inputs": ["past", "k"], "outputs": ["present"],
              "attrs": {"axis": 0}}]
    nodes += [{"name": f"r{i}", "op": "Relu", "inputs": [f"z{i}"], "outputs": [f"z{i + 1}"]}
              for i in range(220)]
    sol = shape_logic.solve({
        "inputs": {"past": {"dtype": "f32", "shape": "[p, 16]"},
                   "x": {"dtype": "f32", "shape": "[s, 4]"},
                   "z0": {"dtype": "f32", "shape": "[3]"}},
        "initializers": {"w": {"dtype": "f32", "shape": [4, 8], "data": 0.5}},
        "nodes": nodes, "outputs": {"present": {"shape": "[t, 8]"}} if declared else {}})
    assert len(sol.graph.nodes) > diagnose.LOCAL_FROM_NODES
    assert [d.message for d in sol.diagnostics] == \
        ['Concat "cat" needs past.shape[1] == k.shape[1]']
    assert {c["name"] for c in sol.diagnostics[0].core} == {"past", "x", "w", "proj", "cat"}


def test_an_inputs_error_in_a_neighbourhood_is_not_blamed_on_an_agreeing_output():
    # the KV cache at the end of a chain of 220 Relus: explained in a neighbourhood, where
    # the smallest core, past against present's declared [t, 8], blamed the declaration
    nodes = [{"name": f"r{i}", "op": "Relu", "inputs": [f"x{i}"], "outputs": [f"x{i + 1}"]}
             for i in range(220)]
    nodes += [{"name": "proj", "op": "MatMul", "inputs": ["x220", "w"], "outputs": ["k"]},
              {"name": "cat", "op": "Concat", "inputs": ["past", "k"], "outputs": ["present"],
               "attrs": {"axis": 0}}]
    sol = shape_logic.solve({
        "inputs": {"past": {"dtype": "f32", "shape": "[p, 16]"},
                   "x0": {"dtype": "f32", "shape": "[s, 4]"}},
        "initializers": {"w": {"dtype": "f32", "shape": [4, 8], "data": 0.5}},
        "nodes": nodes, "outputs": {"present": {"shape": "[t, 8]"}}})
    assert [d.message for d in sol.diagnostics] == \
        ['Concat "cat" needs past.shape[1] == k.shape[1]']


def test_explaining_the_whole_graph_abandoned_falls_back_to_neighbourhoods(monkeypatch):
    # A GPT-2 block's output declared [batch, seq, 33] for its 32: explaining with the
    # whole graph's sources as assumptions ran past its allowance, and the 21 places the
    # 32 and the 33 reached were listed unexplained. The neighbourhoods explain it (one
    # diagnostic, 0.26 s); here the whole graph's explaining is made to give up.
    from shape_logic.limits import Abandoned

    def abandon(*args):
        raise Abandoned()

    monkeypatch.setattr(diagnose, "_diagnose_whole", abandon)
    # (a chain beside it, longer than a first neighbourhood: a graph within one has no
    # smaller one to explain it in)
    chain = [{"name": f"r{i}", "op": "Relu", "inputs": [f"z{i}" if i else "x"],
              "outputs": [f"z{i + 1}"]} for i in range(30)]
    sol = shape_logic.solve({
        "inputs": {"x": {"dtype": "f32", "shape": "[n, 4]"}},
        "initializers": {"w": {"dtype": "f32", "shape": [4, 8], "data": 0.5}},
        "nodes": [{"name": "fc", "op": "MatMul", "inputs": ["x", "w"], "outputs": ["h"]},
                  {"name": "act", "op": "Relu", "inputs": ["h"], "outputs": ["y"]}] + chain,
        "outputs": {"y": {"shape": "[n, 9]"}}})
    (d,) = sol.diagnostics
    assert d.message == "`y` is declared [n, 9] but the graph gives [n, 8]"
    assert not any(note.startswith("not explained") for note in d.notes)
    assert {c["name"] for c in d.core} >= {"y", "act", "fc", "w"}


@pytest.mark.parametrize("name", ["squeezenet", "densenet121"])
def test_an_input_declared_with_other_channels_is_one_error_at_the_first_conv(name):
    # onnx's light model with its input declared [1, 6, 224, 224] for 3 channels: clingo's
    # first core ran through the whole network (154 members on SqueezeNet, past the 200
    # that are shrunk one by one on DenseNet), its last Relu was named as the error's node,
    # and five diagnostics followed. The ball around the conflict holds the input, the
    # first Conv and its weights (explain.CoreFinder.minimal_core)
    import onnx

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        f"light_{name}.onnx")
    model = onnx.load(path)
    data = next(i for i in model.graph.input if i.name == "data_0")
    data.type.tensor_type.shape.dim[1].dim_value = 6
    sol = shape_logic.solve(model)
    (d,) = sol.diagnostics
    assert d.message.startswith('Conv "n0" needs data_0.shape[1] == ') and \
        d.notes[0] == "3 != 6"
    assert {c["kind"] for c in d.core} == {"input", "node"}
    assert len(d.core) <= 5 and {"data_0", "n0"} <= {c["name"] for c in d.core}


def test_a_neighbourhood_takes_the_values_of_its_boundary_from_the_rest(local_mode):
    # x declared with 4 channels for a Conv of 3, through a Pad whose pads come down a
    # chain of 12 Identity nodes (HF MobileNetV2's pads are computed from constants its
    # ninth layer shares): with only their dims as context, no small neighbourhood saw the
    # conflict, and the core took in the chain (699 sources not minimized there). The
    # pads' values are context too now: the core is the input, the weight, Pad and Conv
    nodes = [{"name": f"id{k}", "op": "Identity", "inputs": ["p0" if k == 0 else f"p{k}"],
              "outputs": [f"p{k + 1}"]} for k in range(12)]
    nodes += [{"name": "pad", "op": "Pad", "inputs": ["x", "p12"], "outputs": ["xp"]},
              {"name": "conv", "op": "Conv", "inputs": ["xp", "w"], "outputs": ["y"]}]
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 4, h, w]"}},
         "initializers": {"p0": {"dtype": "i64", "shape": [8], "data": [0, 0, 0, 0, 0, 0, 1, 1]},
                          "w": {"dtype": "f32", "shape": [8, 3, 3, 3], "data": 0.5}},
         "nodes": nodes, "outputs": {"y": {}}}
    (d,) = shape_logic.solve(g).to_json()["diagnostics"]
    assert d["message"] == 'Conv "conv" needs xp.shape[1] == w.shape[1]'
    assert core_of(d) == {("input", "x"), ("input", "w"), ("node", "pad"), ("node", "conv")}
    assert "`p12` : [8] = [0, 0, 0, 0, 0, 0, 1, 1] as the rest of the graph gives it" in d["notes"]


def _residual_mlp(blocks: int, bad: tuple) -> dict:
    """`blocks` pre-norm MLP blocks on a [b, s, 32] stream (5 nodes each); the first weight
    of each block in `bad` is declared one row too many (33 for the stream's 32). (Two bad
    blocks give one diagnostic: with the first MatMul switched off, the stream after it has
    no shape and the second error is out of sight until the first is fixed.)"""
    inits, nodes, x = {}, [], "x"
    for k in range(blocks):
        inits[f"g{k}"] = {"dtype": "f32", "shape": "[32]"}
        inits[f"w1_{k}"] = {"dtype": "f32", "shape": f"[{33 if k in bad else 32}, 64]"}
        inits[f"w2_{k}"] = {"dtype": "f32", "shape": "[64, 32]"}
        nodes += [
            {"op": "LayerNormalization", "inputs": [x, f"g{k}"], "outputs": [f"n{k}"],
             "attrs": {"axis": -1}},
            {"op": "MatMul", "inputs": [f"n{k}", f"w1_{k}"], "outputs": [f"h{k}"]},
            {"op": "Relu", "inputs": [f"h{k}"], "outputs": [f"r{k}"]},
            {"op": "MatMul", "inputs": [f"r{k}", f"w2_{k}"], "outputs": [f"o{k}"]},
            {"op": "Add", "inputs": [x, f"o{k}"], "outputs": [f"x{k + 1}"]}]
        x = f"x{k + 1}"
    return {"inputs": {"x": {"dtype": "f32", "shape": "[b, s, 32]"}},
            "initializers": inits, "nodes": nodes}


def _abandoning(monkeypatch, which):
    """diagnose_local.explained_at giving up (limits.Abandoned) on the calls numbered
    `which`."""
    from shape_logic import diagnose_local
    from shape_logic.limits import Abandoned

    real, calls = diagnose_local.explained_at, []

    def explained_at(problem, place, *rest):
        calls.append(place)
        if len(calls) in which:
            raise Abandoned()
        return real(problem, place, *rest)

    monkeypatch.setattr(diagnose_local, "explained_at", explained_at)
    return calls


def test_the_place_next_to_the_odd_value_is_explained_first(monkeypatch):
    # (a mutated BART's encoder fc1 weight one row too wide, 33 for the hidden 32, collided
    # first at its embedding tables, whose neighbourhoods ran past the allowance: every
    # error was listed unexplained; T5's was explained there, against the context, at a
    # node of its decoder, then at four more: now each is one diagnostic, at that MatMul)
    calls = _abandoning(monkeypatch, set())
    sol = shape_logic.solve(_residual_mlp(45, bad=(20,)))
    assert str(calls[0]) == 'dim("w1_20",0)'
    assert [d.message for d in sol.diagnostics] == [
        'MatMul "MatMul_101" needs n20.shape[2] == w1_20.shape[0]']
    assert any(c["name"] == "w1_20" for c in sol.diagnostics[0].core)


def test_a_place_given_up_is_explained_at_another(monkeypatch):
    calls = _abandoning(monkeypatch, {1})  # (the odd value's place runs past the allowance)
    sol = shape_logic.solve(_residual_mlp(45, bad=(20,)))
    assert len(calls) >= 2 and str(calls[1]) == 'dim("x",2)'
    assert sol.diagnostics
    for d in sol.diagnostics:
        assert not any(n.startswith("not explained") for n in d.notes)
        assert any(c["name"] == "w1_20" for c in d.core)


@pytest.mark.parametrize("blocks, bad", [(30, (5, 25)), (45, (10, 30)), (45, (3, 20, 40))])
def test_an_error_behind_a_node_in_error_is_found_too(blocks, bad):
    # each weight one row too wide: one diagnostic each, at its MatMul. With the first
    # MatMul switched off, the stream after it had no shape (no rank either) and the later
    # errors were out of sight: one diagnostic, no note of more (look_past.py). 30 blocks
    # are explained in the whole graph, 45 (225 nodes) in neighbourhoods.
    sol = shape_logic.solve(_residual_mlp(blocks, bad=bad))
    assert [d.message for d in sol.diagnostics] == [
        f'MatMul "MatMul_{5 * k + 1}" needs n{k}.shape[2] == w1_{k}.shape[0]' for k in bad]
    for d, k in zip(sol.diagnostics, bad):
        assert any(c["name"] == f"w1_{k}" for c in d.core)
        assert not any(n.startswith(("not explained", "more conflicts")) for n in d.notes)


def test_what_follows_from_an_error_is_no_second_error():
    # a Concat along the batch where the channels were meant: its inputs' channels clash
    # (the error); after it, twice the batch meets the batch and 16 channels meet the 40
    # that the next Conv wants - consequences of the one mistake, not more errors
    conv = {"kernel_shape": [1, 1]}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 8, h, w]"}},
         "initializers": {"w1": {"dtype": "f32", "shape": "[16, 8, 1, 1]"},
                          "w2": {"dtype": "f32", "shape": "[24, 8, 1, 1]"},
                          "w3": {"dtype": "f32", "shape": "[8, 40, 1, 1]"}},
         "nodes": [
             {"name": "c1", "op": "Conv", "inputs": ["x", "w1"], "outputs": ["a"], "attrs": conv},
             {"name": "c2", "op": "Conv", "inputs": ["x", "w2"], "outputs": ["c"], "attrs": conv},
             {"name": "cat", "op": "Concat", "inputs": ["a", "c"], "outputs": ["y"],
              "attrs": {"axis": 0}},
             {"name": "c3", "op": "Conv", "inputs": ["y", "w3"], "outputs": ["z"], "attrs": conv},
             {"name": "res", "op": "Add", "inputs": ["z", "x"], "outputs": ["out"]}]}
    sol = shape_logic.solve(g)
    assert [d.message for d in sol.diagnostics] == ['Concat "cat" needs a.shape[1] == c.shape[1]']



def test_the_neighbourhoods_solves_are_within_the_allowance(local_mode, monkeypatch):
    # (a neighbourhood's solve is optional, as the core's are: one of tf2onnx's NASNet, its
    # boundary sizes colliding, flooded 200k clashes for 25-40 s a grounding before its
    # solves took the allowance)
    from shape_logic import diagnose_local
    from shape_logic.solver import Problem

    given, local = [], []
    original, searched = Problem.atoms, diagnose_local.local_problem

    def atoms(self, *args, **kwargs):
        if any(self is p for p in local):
            given.append(kwargs.get("allowance"))
        return original(self, *args, **kwargs)

    def local_problem(*args, **kwargs):
        out = searched(*args, **kwargs)
        local.append(out)
        return out

    monkeypatch.setattr(Problem, "atoms", atoms)
    monkeypatch.setattr(diagnose_local, "local_problem", local_problem)
    sol = shape_logic.solve(chain(12, bad=8))
    assert sol.status == "error" and given and None not in given
