"""facts.py writes a node as one statement (nodeK / node_io); encodings/nodes.lp derives the
graph's node predicates from it. They must say exactly what the node's lists say."""
import clingo
from hypothesis import given, strategies as st

from shape_logic.asp.program import ENCODINGS_DIR
from shape_logic.facts import MAX_PACKED_INPUTS, node_facts
from shape_logic.graph import Node

NAMES = st.sampled_from(["", "x", "y", 'q"uote', "back\\slash", "z"])


def derived(node: Node, sourced: bool) -> set:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], (ENCODINGS_DIR / "nodes.lp").read_text())
    ctl.add("base", [], "\n".join(node_facts(node, sourced)))
    ctl.ground([("base", [])])
    keep = {"node", "ninputs", "noutputs", "input", "output", "tensor"}
    return {str(a.symbol) for a in ctl.symbolic_atoms if a.symbol.name in keep}


def expected(node: Node) -> set:
    q = clingo.String
    out = {str(clingo.Function("node", [q(node.name), q(node.op)])),
           str(clingo.Function("ninputs", [q(node.name), clingo.Number(len(node.inputs))])),
           str(clingo.Function("noutputs", [q(node.name), clingo.Number(len(node.outputs))]))}
    for k, t in enumerate(node.inputs):
        if t:
            out.add(str(clingo.Function("input", [q(node.name), clingo.Number(k), q(t)])))
    for k, t in enumerate(node.outputs):
        if t:
            out.add(str(clingo.Function("output", [q(node.name), clingo.Number(k), q(t)])))
            out.add(str(clingo.Function("tensor", [q(t)])))
    return out


@given(inputs=st.lists(NAMES, max_size=MAX_PACKED_INPUTS + 3),
       outputs=st.lists(NAMES, max_size=3), sourced=st.booleans())
def test_packed_node_facts_say_what_the_node_says(inputs, outputs, sourced):
    node = Node("n", "Op", list(inputs), list(outputs))
    assert derived(node, sourced) == expected(node)


def test_one_statement_per_node_when_it_fits():
    packed = node_facts(Node("n", "Add", ["a", "b"], ["y"]), sourced=False)
    assert packed == ['node2("n","Add",1,"y","a","b").']
    wide = node_facts(Node("n", "Concat", [f"x{i}" for i in range(7)], ["y"]), sourced=False)
    assert wide[0] == 'node_io("n","Concat",7,1).' and len(wide) == 9
