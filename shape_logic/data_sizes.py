"""Whether a declared output may have given a size the data decides, or one the rules
leave open, or named a size that may be 0 (narrowing.py): then the model is solved again
without its declarations, to tell the graph's from the declaration's."""
from __future__ import annotations

from .asp.floors import Floors
from .exec_rewrite import NOT_FOLDED
from .shapes import has_fresh_name


def data_sizes_given(graph, atoms, decoded, declared) -> bool:
    """Whether the solve says something of a size the data decides (NonZero's count,
    Unique's...) or of one the rules leave open (unsized: a Resize whose floor float
    rounding decides, OneHot's depth from data) that a declared output's dim says too: a
    value in the inputs' terms or an expression (2*k: even), not a bare name. The graph
    may give it (the count of a constant's non-zeros: Longformer's aranges,
    NonZero(ConstantOfShape([4*batch], 1))), or the declaration (a traced size), which
    only the solve without the declarations tells apart. (Looked for: values that a
    declared dim says too; not one a declared dim gives through arithmetic, count + 1, nor
    a declared value that reaches the output from the open axis only forward, through an
    operator that does not give it back.)"""
    if not atoms.data_bounds and not atoms.unsized:
        return False
    inputs = graph.input_symbols()
    said = {d for name in declared if decoded.shapes.get(name) is not None
            for d in decoded.shapes[name].dims or () if not open_name(d, inputs)}
    producers = None
    for t, i in [*atoms.unsized, *atoms.data_bounds]:
        shape = decoded.shapes.get(t)
        dims = shape.dims if shape is not None else None
        if dims is None or i >= len(dims) or dims[i] not in said:
            continue
        if (t, i) in atoms.unsized:
            return True
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


# the inputs of an operator whose values decide its outputs' sizes (besides
# _SIZE_INPUTS' data_dependent ones): where the data holds them, the rules leave the sizes
# open, and a declaration may fill them
_SIZED_BY = {"Reshape": (1,), "Expand": (1,), "Tile": (1,), "Pad": (1, 3), "Upsample": (1,),
             "ConstantOfShape": (0,), "Range": (0, 1, 2), "Resize": (1, 2, 3),
             "OneHot": (1,), "CenterCropPad": (1,), "Squeeze": (1,), "Unsqueeze": (1,),
             "Slice": (1, 2, 3, 4), "Split": (1,), "TopK": (1,), "Col2Im": (1, 2),
             "DFT": (1, 2), "STFT": (1, 3), "MaxUnpool": (2,), "AffineGrid": (1,),
             "HannWindow": (0,), "HammingWindow": (0,), "BlackmanWindow": (0,),
             "MelWeightMatrix": (0, 1, 2), "If": (0,), "Loop": (0, 1),
             **{f"Reduce{r}": (1,) for r in ("Sum", "Mean", "Max", "Min", "Prod", "L1", "L2",
                                              "LogSum", "LogSumExp", "SumSquare")}}


def open_upstream(graph, atoms, decoded, declared) -> bool:
    """Whether a declared output that says a dim (not a bare name) is computed from an
    axis the rules leave open (unsized, or a size the data decides) that the solve leaves
    open too, or by a node whose sizes values the data holds decide (_SIZED_BY: a Reshape
    to a shape read from an input): the graph may then leave the output's axis open too,
    and the declaration alone give it - a traced size reaches a Resize's open axis only
    forward, through a Pad that gives nothing back; a Tile's output declared [4, 12]
    gives nothing back to its repeats. Only the solve without the declarations tells. (A
    model whose sizes come from shapes and constants, as exporters' usually do, is never
    solved again for it. Not looked for: an axis open by rules that do not say so.)"""
    inputs = graph.input_symbols()
    producers = graph.producer()
    open_ = set()
    for t, i in [*atoms.unsized, *atoms.data_bounds]:
        shape = decoded.shapes.get(t)
        if shape is not None and shape.dims is not None and i < len(shape.dims) and \
                open_name(shape.dims[i], inputs) and ((t, i) in atoms.unsized or not
                                                      _from_shapes(graph, producers.get(t),
                                                                   producers, {})):
            open_.add(t)
    sized_by = [n for n in graph.nodes if n.op in _SIZED_BY and not n.domain]
    if not open_ and not sized_by:
        return False
    seen, made = set(), {}
    for name in declared:
        dims = decoded.shapes.get(name).dims if decoded.shapes.get(name) else None
        if not dims or all(open_name(d, inputs) for d in dims):
            continue
        todo = [name]
        while todo:
            t = todo.pop()
            if t in seen:
                continue
            if t in open_ and t != name:
                return True
            seen.add(t)
            node = producers.get(t)
            if node is None:
                continue
            if node.op in _SIZED_BY and not node.domain and not all(
                    _shape_made(graph, node.inputs[k], producers, made)
                    for k in _SIZED_BY[node.op] if k < len(node.inputs) and node.inputs[k]):
                return True
            todo += [x for x in node.inputs if x]
    return False


def zero_named(graph, decoded, declared) -> bool:
    """Whether a declared output names an axis with a name of its own where the solve
    gives an expression that may be 0: a name is a size of at least 1, which the graph's
    arithmetic then assumes of the expression wherever the axis goes (a Reshape to a
    Slice's length L, its 0 copying the input's axis where L is 0, gave [L, 1] with L
    named), a requirement on the inputs that no range states. narrowing._filled sets it
    aside. (`?`, a fresh name, may be 0.)"""
    inputs = graph.input_symbols()
    for name in declared:
        got = decoded.shapes.get(name)
        if got is None or got.dims is None or \
                len(got.dims) != len(graph.outputs[name].shape.dims):
            continue
        if any(open_name(d, inputs) and not has_fresh_name(d) and
               not open_name(g, inputs) and may_be_zero(g, decoded, inputs, (name, i))
               for i, (d, g) in enumerate(zip(graph.outputs[name].shape.dims, got.dims))):
            return True
    return False


def may_be_zero(e, solved, inputs, place) -> bool:
    """Whether dim e, as `solved` (a Decoded) gives it at `place` (output, axis), may be 0:
    a fresh name whose range starts at 0 (a size the data decides), or an expression of
    least value 0 or less (names are sizes of at least 1, and at least their floors: the
    inputs a graph's convolutions need) at an axis that may be empty where the graph runs
    (a convolution's is not: nonempty)."""
    if open_name(e, inputs):
        return solved.data_ranges.get(str(e), (1,))[0] == 0
    return Floors(solved.floors).bounds(e)[0] <= 0 and place not in solved.nonempty


def gives_more(graph, alone, solved) -> bool:
    """Whether `solved` (a solve with declarations) gives an axis of a tensor other than
    the declared outputs that `alone` (without them) leaves open: what a declared name's
    size of at least 1 told the graph's arithmetic (a Reshape to a length the name
    stands for). Where it gives nothing more, a name that may stand for 0 is harmless
    (Swin's last_hidden_state, named by the legacy exporter, of (height//4)*(width//4)).
    An axis given a bare name of the declarations' own is still open: another declared
    output named a count the data decides (NonZero's, named Transposeidx_dim_0), which
    made the TopK outputs beside it, named too, look like they told the graph more (five
    solves more for the compare's nonzero_topk)."""
    inputs = graph.input_symbols()
    for t, shape in alone.shapes.items():
        declared = graph.outputs.get(t)
        if declared is not None and declared.shape is not None or shape is None or \
                shape.dims is None:
            continue
        got = solved.shapes.get(t)
        if got is None or got.dims is None or len(got.dims) != len(shape.dims):
            return True
        if any(has_fresh_name(a) and not has_fresh_name(g) and not open_name(g, inputs)
               for a, g in zip(shape.dims, got.dims)):
            return True
    return False
