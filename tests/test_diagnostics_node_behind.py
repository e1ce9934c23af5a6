"""Several errors that one node's mistake makes are that node's one diagnostic, with a note
of the others (shape_logic/node_behind.py), in neighbourhoods and in the whole graph."""
import os

import pytest

import shape_logic


@pytest.mark.parametrize("concat", ["n73", "n124"])
def test_the_errors_a_concat_along_the_batch_makes_downstream_are_its_one_error(concat):
    # onnx's light Inception-v2 with an inception block's Concat along axis 0 (the batch)
    # for 1 (the channels): its inputs' channels clash, and the Convs after it want the sum
    # (256) where each input's count arrives. Each Conv's error was a diagnostic of its own
    # (four, then the Concat's, or two and the Concat's); every core holds the Concat, and
    # with it left out the graph has no error: its diagnostic alone, with a note of the
    # others (node_behind.py)
    import onnx

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        "light_inception_v2.onnx")
    model = onnx.load(path)
    node = next(n for n in model.graph.node if n.name == concat)
    assert node.op_type == "Concat"
    next(a for a in node.attribute if a.name == "axis").i = 0
    sol = shape_logic.solve(model)
    (d,) = sol.diagnostics
    assert d.message.startswith(f'Concat "{concat}" ')
    assert d.notes[-1].endswith(
        f"found; with {concat} left out the graph has none (fix this one first)")



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
    assert d.notes[-1] == ("3 more errors were found; with ms left out the graph has none "
                           "(fix this one first)")
    assert {"rot", "ms"} <= {c["name"] for c in d.core}


def test_a_node_no_diagnostic_names_is_pointed_at():
    # Inception-v2's Concat n212 along the batch: five diagnostics, the Concat's own not
    # among them (four Convs after it, and a size carried far). The minimal cores all hold
    # n212, and the graph without it has no error: the first diagnostic stands and names it
    import onnx

    path = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light",
                        "light_inception_v2.onnx")
    model = onnx.load(path)
    node = next(n for n in model.graph.node if n.name == "n212")
    next(a for a in node.attribute if a.name == "axis").i = 0
    sol = shape_logic.solve(model)
    (d,) = sol.diagnostics
    assert d.message.startswith('Conv "')
    assert d.notes[-1] == ('4 more errors were found; with Concat "n212" left out the graph '
                           "has none (the errors' minimal cores all hold it: it may be the "
                           "mistake)")
    assert any(c["name"] == "n212" for c in d.core)
