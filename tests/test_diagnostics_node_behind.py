"""Several errors that one node's mistake makes are that node's one diagnostic, with a note
of the others (shape_logic/node_behind.py), in neighbourhoods and in the whole graph."""
import os

import pytest

import shape_logic


def _inception_v2_with_batch_concat(concat: str):
    """onnx's light Inception-v2 with its Concat `concat` along axis 0 (the batch) for 1."""
    import onnx

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        "light_inception_v2.onnx")
    model = onnx.load(path)
    node = next(n for n in model.graph.node if n.name == concat)
    assert node.op_type == "Concat"
    next(a for a in node.attribute if a.name == "axis").i = 0
    return model


@pytest.mark.parametrize("concat", ["n73", "n212"])
def test_the_errors_a_concat_along_the_batch_makes_downstream_are_its_one_error(concat):
    # onnx's light Inception-v2 with an inception block's Concat along axis 0 (the batch)
    # for 1 (the channels): its inputs' channels clash, and the Convs after it want the sum
    # (256) where each input's count arrives. Each Conv's error was a diagnostic of its own
    # (four, then the Concat's, or two and the Concat's); every core holds the Concat, and
    # with it left out the graph has no error: its diagnostic alone, with a note of the
    # others (node_behind.py)
    sol = shape_logic.solve(_inception_v2_with_batch_concat(concat))
    (d,) = sol.diagnostics
    assert d.message.startswith(f'Concat "{concat}" ')
    assert d.notes[-2].endswith(
        f"found; with {concat} left out the graph has none (fix this one first)")
    # ... and the axis with which it would not be one (repair.py)
    assert d.notes[-1] == f'help: if Concat "{concat}" had axis = 1, the graph would solve'


def test_the_errors_after_a_rotation_concatenated_along_the_batch_are_one_error():
    # rotate_half's Concat along axis 0 for -1 (an exporter's or a user's slip): its halves
    # [b, 2, s, 4] stack to [2b, 2, s, 4], which the sin table's 8 meets at the Mul; the
    # Add after it, the KV cache's Concat (2b against past's b) and the Slice (q's 8 met by
    # 4) were four diagnostics, the first at the cache. In the whole graph now too: the
    # Mul's, whose core holds the Concat, with the count of the others
    g = {"inputs": {"q": {"dtype": "f32", "shape": "[b, 2, s, 8]"},
                    "cos": {"dtype": "f32", "shape": "[1, 1, s, 8]"},
                    "sin": {"dtype": "f32", "shape": "[1, 1, s, 8]"},
                    "past": {"dtype": "f32", "shape": "[b, 2, p, 8]"}},
         "initializers": {k: {"dtype": "i64", "data": [v]}
                          for k, v in (("s0", 0), ("s4", 4), ("s8", 8), ("ax", -1))},
         "nodes": [
             {"name": "lo", "op": "Slice", "inputs": ["q", "s0", "s4", "ax"], "outputs": ["q1"]},
             {"name": "hi", "op": "Slice", "inputs": ["q", "s4", "s8", "ax"], "outputs": ["q2"]},
             {"name": "neg", "op": "Neg", "inputs": ["q2"], "outputs": ["nq2"]},
             {"name": "rot", "op": "Concat", "inputs": ["nq2", "q1"], "outputs": ["r"],
              "attrs": {"axis": 0}},
             {"name": "mc", "op": "Mul", "inputs": ["q", "cos"], "outputs": ["qc"]},
             {"name": "ms", "op": "Mul", "inputs": ["r", "sin"], "outputs": ["rs"]},
             {"name": "add", "op": "Add", "inputs": ["qc", "rs"], "outputs": ["k"]},
             {"name": "cache", "op": "Concat", "inputs": ["past", "k"], "outputs": ["present"],
              "attrs": {"axis": 2}}],
         "outputs": {"present": {}}}
    sol = shape_logic.solve(g)
    (d,) = sol.diagnostics
    assert d.message == 'Mul "ms" needs r.shape[3] == sin.shape[3]' and d.notes[0] == "4 != 8"
    assert d.notes[-2] == ("3 more errors were found; with ms left out the graph has none "
                           "(fix this one first)")
    # ... and the slip itself, in its core: the halves joined along the last axis
    assert d.notes[-1] == 'help: if Concat "rot" had axis = 3, the graph would solve'
    assert {"rot", "ms"} <= {c["name"] for c in d.core}


def test_errors_carried_far_are_the_node_s_one_error_too(monkeypatch):
    # Inception-v2's last Concat (n504) along the batch, its places taken in the order the
    # model lists its tensors (as before place_order.flow_positions; a model may list its
    # weights' makers anywhere): its branches' 352, 320, 224 and 128 channels are carried
    # far (weights computed by ConstantOfShape from their shape tensors), three diagnostics
    # without a minimal core (the Reshape's, the AveragePool's, the Concat's), whose listed
    # parts share only a weight's ConstantOfShape and a node before the Concat. Every node a
    # diagnostic names is a candidate then, and the Concat alone, left out, leaves no conflict
    from shape_logic import place_order

    monkeypatch.setattr(place_order, "flow_positions",
                        lambda graph: {t: i for i, t in enumerate(graph.tensors())})
    (d,) = shape_logic.solve(_inception_v2_with_batch_concat("n504")).diagnostics
    assert d.message.startswith('Concat "n504" ')
    assert d.notes[-2] == ("2 more errors were found; with n504 left out the graph has none "
                           "(fix this one first)")
    assert d.notes[-1] == 'help: if Concat "n504" had axis = 1, the graph would solve'


def test_a_concat_is_explained_where_its_weights_meet_the_flow():
    # The same Concat in the flow's order (place_order.flow_positions: the weights' places
    # where they are read, not where the model lists their ConstantOfShape, all before its
    # first Conv): the Concat's own error, its core minimal, and no other error
    (d,) = shape_logic.solve(_inception_v2_with_batch_concat("n504")).diagnostics
    assert d.message == 'Concat "n504" needs r460.shape[1] == r503.shape[1]'
    assert not d.context and d.notes == [
        "128 != 352", 'help: if Concat "n504" had axis = 1, the graph would solve']
    assert "n504" in {c["name"] for c in d.core}


def test_a_node_no_diagnostic_names_is_pointed_at():
    # Inception-v2's Concat n124 along the batch: five diagnostics, the Concat's own not
    # among them (Convs and normalizations whose sizes it carries). The minimal cores all
    # hold n124, and the graph without it has no error: the first diagnostic stands and
    # names it. (Its message is the Conv's where the weight's 320 meets 64: not "needs
    # w.shape[0] == w.shape[1]", two axes of one operand while its input's channels are
    # out of view: clash_positions.positions_of)
    sol = shape_logic.solve(_inception_v2_with_batch_concat("n124"))
    (d,) = sol.diagnostics
    assert d.message.startswith('Conv "') and "needs" not in d.message
    assert d.notes[-2] == ('4 more errors were found; with Concat "n124" left out the graph '
                           "has none (the errors' minimal cores all hold it: it may be the "
                           "mistake)")
    assert d.notes[-1] == 'help: if Concat "n124" had axis = 1, the graph would solve'
    assert any(c["name"] == "n124" for c in d.core)


def _kv_cache_joined_along(axis):
    """A KV cache's attention (q, k, v split from one projection by Reshape/Transpose, the
    cache joined to k and v): the keys' cache joined along `axis` (2 is right)."""
    def reshaped(name, src):
        return [{"name": f"r{name}", "op": "Reshape", "inputs": [src, "heads"],
                 "outputs": [f"{name}4"]},
                {"name": f"t{name}", "op": "Transpose", "inputs": [f"{name}4"],
                 "outputs": [f"{name}h"], "attrs": {"perm": [0, 2, 1, 3]}}]

    return {"inputs": {"x": {"dtype": "f32", "shape": "[b, s, 32]"},
                       "past_k": {"dtype": "f32", "shape": "[b, 4, p, 8]"},
                       "past_v": {"dtype": "f32", "shape": "[b, 4, p, 8]"}},
            "initializers": {"heads": {"dtype": "i64", "data": [0, 0, 4, 8]},
                             "merged": {"dtype": "i64", "data": [0, 0, 32]}},
            "nodes": [*reshaped("q", "x"), *reshaped("k", "x"), *reshaped("v", "x"),
                      {"name": "cache_k", "op": "Concat", "inputs": ["past_k", "kh"],
                       "outputs": ["present_k"], "attrs": {"axis": axis}},
                      {"name": "cache_v", "op": "Concat", "inputs": ["past_v", "vh"],
                       "outputs": ["present_v"], "attrs": {"axis": 2}},
                      {"name": "kt", "op": "Transpose", "inputs": ["present_k"],
                       "outputs": ["kT"], "attrs": {"perm": [0, 1, 3, 2]}},
                      {"name": "scores", "op": "MatMul", "inputs": ["qh", "kT"],
                       "outputs": ["att"]},
                      {"name": "sm", "op": "Softmax", "inputs": ["att"], "outputs": ["w"],
                       "attrs": {"axis": -1}},
                      {"name": "mix", "op": "MatMul", "inputs": ["w", "present_v"],
                       "outputs": ["o"]},
                      {"name": "to", "op": "Transpose", "inputs": ["o"], "outputs": ["oT"],
                       "attrs": {"perm": [0, 2, 1, 3]}},
                      {"name": "merge", "op": "Reshape", "inputs": ["oT", "merged"],
                       "outputs": ["y"]}]}


def test_a_shape_tensor_s_data_is_no_declaration_to_blame():
    # The cache's Concat along the heads makes the scores' MatMul meet 4 heads and 8 (and
    # the mix's one more error). Both cores hold `heads`, the Reshapes' shape [0, 0, 4, 8],
    # and without its values no Reshape knows anything: no conflict is left. That made it
    # the one declaration behind both errors, "`heads` is declared [4] (i64) but the graph
    # gives [4]". Its data is no declaration (diagnose._one_declaration_behind)
    sol = shape_logic.solve(_kv_cache_joined_along(1))
    (d,) = sol.diagnostics
    assert d.message == 'MatMul "scores" needs qh.shape[1] == kT.shape[1]'
    assert d.notes[0] == "4 != 8"
    assert "cache_k" in {c["name"] for c in d.core}
    # the colliding values' `1 = 0` is their error, no constraint to print
    assert all(not (a.is_int and b.is_int) for a, b in sol.decoded.constraints)


def _giving_up(monkeypatch):
    """Explaining gives up at once (as where its grounding runs past its allowance)."""
    import shape_logic.diagnose as diagnose
    from shape_logic.limits import Abandoned

    def gives_up(*args, **kwargs):
        raise Abandoned("explaining")

    monkeypatch.setattr(diagnose, "_diagnose", gives_up)


def test_errors_left_unexplained_point_at_the_nodes_that_leave_the_graph_none(monkeypatch):
    # When explaining gives up (its grounding, computing without the bindings, ran past its
    # allowance: limits.Abandoned) the errors come without cores. The nodes next to the
    # conflicts are then tried, each left out of a whole-graph solve: the cache's Concat
    # along the heads leaves none, as do the scores' MatMul and the keys' Transpose after
    # it (they only carry its 8 heads on), and the query's Transpose, but only as its
    # output loses its rank (kept at 4, its sizes open meet the 4 heads of the query's
    # Reshape again). The first error stands for the others, naming the Concat, and the
    # table is the graph's without it (node_behind_unexplained)
    _giving_up(monkeypatch)
    sol = shape_logic.solve(_kv_cache_joined_along(1))
    (d,) = sol.diagnostics
    assert "not explained" in d.notes[-3]
    assert d.notes[-2] == ('35 more errors were found; with Concat "cache_k" left out the '
                           "graph has none (it may be the mistake)")
    assert d.notes[-1] == 'help: if Concat "cache_k" had axis = 2, the graph would solve'
    assert sol.shape("present_v") == "[b, 4, p + s, 8]" and not sol.bindings
    assert shape_logic.solve(_kv_cache_joined_along(2)).status == "ok"


def test_errors_left_unexplained_stay_when_no_one_node_is_behind_them(monkeypatch):
    # two mistakes (the keys' cache along the heads, the values' cache declared with 9 for
    # the head size 8): no one node leaves the graph without conflict, and the errors stay
    # as they were found
    _giving_up(monkeypatch)
    g = _kv_cache_joined_along(1)
    g["inputs"]["past_v"]["shape"] = "[b, 4, p, 9]"
    sol = shape_logic.solve(g)
    assert len(sol.diagnostics) > 1
    assert not any("left out" in n for d in sol.diagnostics for n in d.notes)


def test_a_node_whose_leaving_out_only_loses_ranks_is_not_named(monkeypatch):
    # A rotary table (two halves joined, its cosine) multiplies q and k before the cache's
    # Concat, which joins along the head size (axis 3 for 2): 8 + 8 meets the queries' 8.
    # The conflicts show first at the table (its 8 against the 16 coming back), and
    # leaving out its Concat clears the graph, but only because the cosine, then q and k
    # after it, lose their ranks (and the cache's Concat comes after it). With its output
    # kept at its rank the collision stays: the cache's Concat alone is named
    _giving_up(monkeypatch)
    g = _kv_cache_joined_along(3)
    g["inputs"]["half"] = {"dtype": "f32", "shape": "[s, 4]"}
    rotary = [{"name": "rope", "op": "Concat", "inputs": ["half", "half"], "outputs": ["emb"],
               "attrs": {"axis": -1}},
              {"name": "cos", "op": "Cos", "inputs": ["emb"], "outputs": ["c"]},
              {"name": "rot_q", "op": "Mul", "inputs": ["qh0", "c"], "outputs": ["qh"]},
              {"name": "rot_k", "op": "Mul", "inputs": ["kh0", "c"], "outputs": ["kh"]}]
    for node in g["nodes"]:
        if node["name"] in ("tq", "tk"):
            node["outputs"] = [node["outputs"][0] + "0"]
    g["nodes"][6:6] = rotary
    sol = shape_logic.solve(g)
    (d,) = sol.diagnostics
    assert d.notes[-2].endswith('with Concat "cache_k" left out the graph has none (it may '
                                "be the mistake)")
    assert d.notes[-1] == 'help: if Concat "cache_k" had axis = 2, the graph would solve'


def test_errors_whose_cores_share_only_an_initializers_values_point_at_them():
    # Two Reshapes to [-1, hidden] read one initializer, as an HF GPT-2's six do: made
    # [-1, 64] for the stream's 32, each Reshape's MatMul has an error of its own, and the
    # cores share no node, only those values. Without them the graph has none: the first
    # error stands, and points at them (diagnose._values_behind)
    def stream(k):
        return [{"name": f"flat{k}", "op": "Reshape", "inputs": [f"x{k}", "hidden"],
                 "outputs": [f"f{k}"]},
                {"name": f"mm{k}", "op": "MatMul", "inputs": [f"f{k}", f"w{k}"],
                 "outputs": [f"y{k}"]}]

    g = {"inputs": {f"x{k}": {"dtype": "f32", "shape": "[b, s, 32]"} for k in (0, 1)},
         "initializers": {"hidden": {"dtype": "i64", "data": [-1, 64]},
                          **{f"w{k}": {"dtype": "f32", "shape": [32, 16], "data": 0.5}
                             for k in (0, 1)}},
         "nodes": stream(0) + stream(1)}
    sol = shape_logic.solve(g)
    (d,) = sol.diagnostics
    assert d.message == 'MatMul "mm0" needs f0.shape[1] == w0.shape[0]'
    assert d.notes[-1] == ("1 more error was found; their cores share no node, and all hold "
                           "the values of `hidden` [-1, 64], which 2 nodes read: without "
                           "them the graph has none (they may be the mistake)")


def test_an_onnx_initializer_s_dims_are_its_data_s_not_a_declaration_to_blame():
    # A class token joined along the features instead of the tokens: 4 + 4 where the
    # LayerNorm and the residual Add need 4, two errors. Without the token's dims the graph
    # fits (its last axis 0): it was "`cls` is declared [1, 1, 4] but the graph gives 8 at
    # axis 2". An ONNX initializer's dims are its data's; the Concat is behind both errors
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    inits = [numpy_helper.from_array(np.ones((1, 1, 4), np.float32), "cls"),
             numpy_helper.from_array(np.ones(4, np.float32), "ln_w"),
             numpy_helper.from_array(np.zeros(4, np.float32), "ln_b")]
    nodes = [helper.make_node("Concat", ["cls", "x"], ["cat"], name="cat", axis=2),
             helper.make_node("LayerNormalization", ["cat", "ln_w", "ln_b"], ["n"],
                              name="ln", axis=-1),
             helper.make_node("Add", ["cat", "r"], ["y"], name="res")]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4]),
                     helper.make_tensor_value_info("r", TensorProto.FLOAT, [1, 1, 4])],
        [helper.make_tensor_value_info("n", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    (d,) = shape_logic.solve(model).diagnostics
    assert "is declared" not in d.message
    assert d.message.startswith(('LayerNormalization "ln"', 'Add "res"')), d.message
    assert any('with Concat "cat" left out the graph has none' in n for n in d.notes), d.notes
