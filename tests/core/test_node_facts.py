"""facts.py writes a node as one statement (nodeK / node_io), an attribute as one (attr_set,
attr_list, attr_tensorK), a declared tensor as one when solving (tensorK); encodings/nodes.lp
derives the graph's predicates from them. They must say exactly what the node's lists, the
attribute, the declaration say."""
import clingo
import numpy as np
from hypothesis import given, strategies as st

from shape_logic.asp.program import ENCODINGS_DIR
from shape_logic.asp.terms import expr_fact_text, quote
from shape_logic.facts import MAX_PACKED_RANK, tensor_facts
from shape_logic.node_facts import MAX_PACKED_INPUTS, attr_facts, node_facts, scalar_term
from shape_logic.graph import Node, TensorInfo
from shape_logic.shapes import parse_shape

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


# Attributes and (solving) declared tensors are packed the same way: attr_set,
# attr_list, attr_tensorK and tensorK say what the plain predicates would.

ATTR_VALUES = st.one_of(
    st.integers(-2**40, 2**40), st.floats(allow_nan=False, allow_infinity=False),
    # (every character but NUL, which clingo's strings cannot hold: validate.py rejects it)
    st.text(st.characters(exclude_characters="\x00"), max_size=4),
    st.lists(st.integers(-5, 5), max_size=3),
    st.builds(lambda shape: np.zeros(shape, dtype=np.int64),
              st.lists(st.integers(0, 2), max_size=6).map(tuple)),
    st.builds(lambda v, shape: np.full(shape, v, dtype=np.float32),
              st.floats(-4, 4, width=32), st.sampled_from([(), (1,), (1, 1), (2,), (3, 3)])))
PLAIN = {"has_attr", "attr", "attr_len", "attr_char", "attr_dtype", "attr_rank", "attr_dim",
         "attr_value", "tensor", "dtype", "rank", "dim", "value", "min_rank", "label"}


def _atoms(text: str) -> set:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], (ENCODINGS_DIR / "nodes.lp").read_text())
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    return {str(a.symbol) for a in ctl.symbolic_atoms if a.symbol.name in PLAIN}


def _plain_attr(n: str, k: str, value) -> list[str]:
    """The attribute as the plain predicates say it (what nodes.lp derives)."""
    out = [f"has_attr({n},{k})."]
    if isinstance(value, np.ndarray):
        floats = value.dtype == np.float32
        out += [f"attr_dtype({n},{k},{'f32' if floats else 'i64'}).",
                f"attr_rank({n},{k},{value.ndim})."]
        out += [f"attr_dim({n},{k},{i},{d})." for i, d in enumerate(value.shape)]
        if value.size <= (8 if floats else 1024):
            out += [f"attr_value({n},{k},{i},"
                    + (f'real("{float(v)!r}")' if floats else str(int(v))) + ")."
                    for i, v in enumerate(value.reshape(-1))]
    elif isinstance(value, list):
        out += [f"attr_len({n},{k},{len(value)})."]
        out += [f"attr({n},{k},{i},{v})." for i, v in enumerate(value)]
    else:
        out += [f"attr({n},{k},{scalar_term(value, '')})."]
        if isinstance(value, str):
            out += [f"attr_len({n},{k},{len(value)})."]
            out += [f"attr_char({n},{k},{i},{quote(c)})." for i, c in enumerate(value)]
    return out


@given(value=ATTR_VALUES)
def test_packed_attribute_facts_say_what_the_attribute_says(value):
    node = Node("n", "Op", ["x"], ["y"], {"k": value})
    facts = attr_facts(node, "k", value)
    assert _atoms("\n".join(facts)) == _atoms("\n".join(_plain_attr('"n"', '"k"', value)))


@given(dims=st.none() | st.lists(st.sampled_from(["1", "n", "n*2", "m + 1"]), max_size=7),
       dtype=st.sampled_from([None, "f32", "i64"]),
       data=st.none() | st.lists(st.integers(-3, 3), max_size=6),
       sourced=st.booleans())
def test_packed_declarations_say_what_the_declaration_says(dims, dtype, data, sourced):
    shape = None if dims is None else parse_shape("[" + ", ".join(dims) + "]")
    array = None if data is None else np.array(data, dtype=np.int64)
    info = TensorInfo("t", "inputs.t", dtype=dtype, shape=shape, data=array)
    facts = tensor_facts(info, "input", sourced=sourced)
    packed = any(f.startswith("tensor") for f in facts)
    assert packed == (not sourced and dtype is not None and shape is not None
                      and len(dims) <= MAX_PACKED_RANK)
    if sourced:
        return
    plain = ([f'dtype("t",{dtype}).'] if dtype else []) + (
        [f'rank("t",{len(shape.dims)}).'] + [f'dim("t",{i},{expr_fact_text(d)}).'
                                             for i, d in enumerate(shape.dims)]
        if shape is not None else ['min_rank("t",0).'])
    plain += [f'value("t",{i},{v}).' for i, v in enumerate(data or [])]
    expected = _atoms("\n".join(plain + ['tensor("t").'] if packed else plain))
    assert _atoms("\n".join(facts)) == expected
