"""Whether a declared output may have given a size the data decides (narrowing.py): then
the model is solved again without its declarations, to tell the two apart."""
from __future__ import annotations

from .exec_rewrite import NOT_FOLDED


def data_sizes_given(graph, atoms, decoded, declared) -> bool:
    """Whether the solve says something of a size the data decides (NonZero's count,
    Unique's...) that a declared output's dim says too: a value in the inputs' terms or an
    expression (2*k: even), not a bare name. The graph may give it (the count of a
    constant's non-zeros: Longformer's aranges, NonZero(ConstantOfShape([4*batch], 1))),
    or the declaration (a traced size), which only the solve without the declarations
    tells apart. (Looked for: integers and expressions of names of its own that a
    declared dim says too; not a count declared by an input's name, nor one a declared dim
    gives through arithmetic, count + 1.)"""
    if not atoms.data_bounds:
        return False
    inputs = {s for s, c in graph.symbol_class.items() if c == 0}
    # (a declared dim in the inputs' names, [batch, seq, 32], is common, and the graph
    # gives such counts: a traced size is an integer, an expression of names of its own)
    said = {d for name in declared if decoded.shapes.get(name) is not None
            for d in decoded.shapes[name].dims or ()
            if d.is_int or d.symbols() - inputs and not open_name(d, inputs)}
    producers = None
    for t, i in atoms.data_bounds:
        shape = decoded.shapes.get(t)
        dims = shape.dims if shape is not None else None
        if dims is not None and i < len(dims) and dims[i] in said:
            if producers is None:
                producers = graph.producer()
            if not _from_shapes(graph, producers.get(t), producers, {}):
                return True
    return False


# the inputs of a node whose values decide an output's length along a data_dependent axis,
# from the first: a Slice's starts, ends, axes and steps, a Split's split (its data only
# by its shape); any other node's every input (NonZero's, Compress's condition...)
_SIZE_INPUTS = {"Slice": 1, "Split": 1}


def _from_shapes(graph, node, producers: dict, seen: dict) -> bool:
    """Whether the values that decide `node`'s data_dependent lengths are computed from
    shapes and constants alone (Shape, Size, Constant, initializers, and nodes of such
    inputs): then the graph gives those lengths, and a declared output cannot (BERT's and
    GPT-2's Slices of the fused QKV projection at offsets computed from its shape: a solve
    without the declarations each, for nothing). A graph input's values, a body, an
    operator whose results change from run to run (exec_rewrite.NOT_FOLDED): not so (a
    traced size there is a declaration's own)."""
    if node is None or node.bodies or node.op in NOT_FOLDED:
        return False
    first = _SIZE_INPUTS.get(node.op, 0) if not node.domain else 0
    return all(_shape_made(graph, x, producers, seen) for x in node.inputs[first:] if x)


def _shape_made(graph, t: str, producers: dict, seen: dict) -> bool:
    """t's values are a function of the graph's shapes and constants (memo: `seen`)."""
    if t in seen:
        return seen[t]
    seen[t] = False  # (a cycle, which a graph has not: no)
    node = producers.get(t)
    if node is None:  # a graph input (values: data) or an initializer (a constant)
        made = t in graph.initializers
    elif node.op in ("Shape", "Size") and not node.domain:  # (analyses/constant.SHAPE_ONLY)
        made = True
    else:
        made = not node.bodies and node.op not in NOT_FOLDED and all(
            _shape_made(graph, x, producers, seen) for x in node.inputs if x)
    seen[t] = made
    return made


def open_name(d, inputs) -> bool:
    """Whether dim d is a bare name other than the inputs' (a fresh one, a declaration's
    own): a size that stays open."""
    atom = d.single_atom()
    return atom is not None and atom.kind == "sym" and atom.args[0] not in inputs
