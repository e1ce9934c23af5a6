"""Whether a declared output may have given a size the data decides, or one the rules
leave open, or named a size that may be 0 (narrowing.py): then the model is solved again
without its declarations, to tell the graph's from the declaration's.

Which sizes the data decides, the rule files say: data_dependent (a count of the data's:
NonZero's), unsized (an axis the rules may leave open: a Resize's floor rounding) and
sizes_from (a node whose outputs' sizes are read from an input's values: a Reshape's
shape, a Tile's repeats), encodings/schema.lp. No operator's inputs are listed here: a
new operator whose sizes come from an input's values is one rule file that says so."""
from __future__ import annotations

from .asp.floors import Floors
from .exec_rewrite import NOT_FOLDED
from .shapes import bare_name, has_fresh_name
from .symbolic.expr import Expr


class Upstream:
    """What the graph computes its tensors from, for data_sizes_given and open_upstream
    (narrowing.without_narrowing makes one per solve): the nodes by output, made when
    first asked, and which tensors' values come from shapes and constants alone (a memo
    both checks share)."""

    def __init__(self, graph, atoms, rule_files):
        self.graph, self.atoms = graph, atoms
        # the operators whose rule files (or those they use) derive values: another's
        # outputs hold values no rule computes (an unknown operator's too)
        files = {rf.op: rf for rf in rule_files}
        self.valued = {op for op, rf in files.items() if rf.gives_values or any(
            files[u].gives_values for u in rf.uses if u in files)}
        self._producers = None
        self._made: dict[str, bool] = {}

    @property
    def producers(self) -> dict:
        if self._producers is None:
            # (the bodies' nodes too: an If's branch outputs are theirs)
            self._producers = {**{t: n for n in self.graph.body_nodes for t in n.outputs if t},
                               **self.graph.producer()}
        return self._producers

    def sized_from_shapes(self, node) -> bool:
        """Whether the inputs `node`'s outputs' sizes are read from (sizes_from: a
        Reshape's shape, a Slice's starts...) have values computed from shapes and
        constants alone: then the graph gives those sizes. True for a node without any."""
        return all(self.shape_made(node.inputs[k]) for k in self.atoms.sizes_from.get(
            node.name, ()) if k < len(node.inputs) and node.inputs[k])

    def gives_length(self, t: str, i: int) -> bool:
        """Whether the graph gives the data_dependent length at axis i of t: its node reads
        it from inputs (sizes_from: a Slice's starts, ends, axes and steps, a Split's
        split) whose values are computed from shapes and constants alone (BERT's and
        GPT-2's Slices of the fused QKV projection at offsets computed from its shape: a
        solve without the declarations each, for nothing), or it is a count of the data's
        own (NonZero's, Unique's) that the rules count (counted: a constant's non-zeros, a
        fill's, Longformer's NonZero(ConstantOfShape([4*batch], 1))). Then a declared
        output cannot give it. Not a count of values the rules know but cannot count (the
        non-zeros of [s - 4, t - 4]: a traced [2, 2] was kept), nor a length by a node
        with a body or by an operator whose results change from run to run
        (exec_rewrite.NOT_FOLDED: a traced size there is a declaration's own)."""
        node = self.producers.get(t)
        if node is None or node.bodies or node.op in NOT_FOLDED:
            return False
        if node.name in self.atoms.sizes_from:
            return self.sized_from_shapes(node)
        return (t, i) in self.atoms.counted

    def shape_made(self, t: str) -> bool:
        """t's values are a function of the graph's shapes and constants that the rules
        compute (Shape, Size, Constant, initializers, and nodes of such inputs whose rule
        files derive values); a graph input's values, a body's, a NOT_FOLDED operator's
        are not, nor those of an operator whose rule file derives none (Sqrt's), nor of a
        tensor some element of which the value rules could not compute (value_open:
        Mod(1, s - 1)), nor what is computed from any of those: a declared output sized
        by them may give a size the graph leaves open."""
        made = self._made
        if t in made:
            return made[t]
        made[t] = False  # (a cycle, which a graph has not: no)
        if t in self.atoms.value_open:  # (elements the value rules could not compute)
            return False
        node = self.producers.get(t)
        if node is None:  # a graph input (values: data) or an initializer (a constant)
            made[t] = t in self.graph.initializers
        elif node.op in ("Shape", "Size") and not node.domain:  # (analyses/constant.SHAPE_ONLY)
            made[t] = True
        elif node.op == "If" and not node.domain and node.op in self.valued:
            # an If on a condition made so, whose branches compute their outputs from
            # shapes and constants: torch.tile's scripted check of its repeats' length
            # (ViViT's class token tiled by the batch: a solve without the declarations,
            # for nothing); an undecided condition is value_open
            made[t] = self.shape_made(node.inputs[0]) and all(
                self.shape_made(out) for _, outs in node.bodies.values() for out in outs)
        else:
            made[t] = not node.bodies and node.op not in NOT_FOLDED and \
                node.op in self.valued and all(self.shape_made(x) for x in node.inputs if x)
        return made[t]


def data_sizes_given(up: Upstream, decoded, declared) -> bool:
    """Whether the solve says something of a size the data decides (NonZero's count,
    Unique's...) or of one the rules leave open (unsized: a Resize whose floor float
    rounding decides, OneHot's depth from data) that a declared output's dim says too: a
    value in the inputs' terms or an expression (2*k: even), not a bare name. The graph
    may give it (the count of a constant's non-zeros: Longformer's aranges,
    NonZero(ConstantOfShape([4*batch], 1))), or the declaration (a traced size), which
    only the solve without the declarations tells apart. (Looked for: values that a
    declared dim says too; not one a declared dim gives through arithmetic, count + 1, nor
    a declared value that reaches the output from the open axis only forward, through an
    operator that does not give it back: open_upstream.)"""
    atoms = up.atoms
    if not atoms.data_bounds and not atoms.unsized:
        return False
    inputs = up.graph.input_symbols()
    said = {d for name in declared if decoded.shapes.get(name) is not None
            for d in decoded.shapes[name].dims or () if not open_name(d, inputs)}
    for t, i in [*atoms.unsized, *atoms.data_bounds]:
        shape = decoded.shapes.get(t)
        dims = shape.dims if shape is not None else None
        if dims is None or i >= len(dims) or dims[i] not in said:
            continue
        if (t, i) in atoms.unsized or not up.gives_length(t, i):
            return True
    return False


def open_name(d, inputs) -> bool:
    """Whether dim d is a bare name other than the inputs' (a fresh one, a declaration's
    own): a size that stays open (None, a dim the solve does not give, is none)."""
    name = bare_name(d) if d is not None else None
    return name is not None and name not in inputs


def open_upstream(up: Upstream, decoded, declared) -> bool:
    """Whether a declared output that says a dim (not a bare name) is computed from an
    axis the rules leave open (unsized, or a size the data decides) that the solve leaves
    open too, or by a node whose outputs' sizes are read from values the data holds
    (sizes_from: a Reshape to a shape read from a graph input): the graph may then leave
    the output's axis open too, and the declaration alone give it - a traced size reaches
    a Resize's open axis only forward, through a Pad that gives nothing back; a Tile's
    output declared [4, 12] gives nothing back to its repeats. Only the solve without the
    declarations tells. (A model whose sizes come from shapes and constants, as
    exporters' usually do, is never solved again for it. Not looked for: an axis open by
    rules that do not say so, nor a node inside a body.)"""
    atoms, graph = up.atoms, up.graph
    inputs = graph.input_symbols()
    open_ = set()
    for t, i in [*atoms.unsized, *atoms.data_bounds]:
        shape = decoded.shapes.get(t)
        if shape is not None and shape.dims is not None and i < len(shape.dims) and \
                open_name(shape.dims[i], inputs) and (
                    (t, i) in atoms.unsized or not up.gives_length(t, i)):
            open_.add(t)
    # the nodes whose sizes come from values the data holds (a graph of ConstantOfShapes
    # of shape initializers, DenseNet's 836, has none: no walk)
    data_sized = {n.name for n in graph.nodes
                  if n.name in atoms.sizes_from and not up.sized_from_shapes(n)}
    if not open_ and not data_sized:
        return False
    producers = up.producers
    seen = set()
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
            if node.name in data_sized:
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


def data_requirements(graph, atoms, decoded, alone_atoms=None, alone=None) -> list[str]:
    """The constraints of a solve with declarations that name a size the data decides by a
    declared output's own name, and that the solve `alone` (without the declarations, its
    names for those sizes put in) does not make: what only the declarations require of the
    data, as text. A Unique's count declared S_0 beside its indices declared `2*k` gives
    `S_0%2 = 0`, false for a single element (fuzz --kind ops --narrowing --seed 9631, graph
    580): a traced size's requirement. (An equation of a declared name of the output's own
    and the solve's name for such a size, `k*l = _c1*_c2`, defines the name: no requirement.)
    Without `alone`, each such constraint."""
    inputs = graph.input_symbols()
    names, renames = set(), {}
    for t, i in [*atoms.data_bounds, *atoms.unsized]:
        d = _dim_at(decoded, t, i)
        if d is None or not open_name(d, inputs) or has_fresh_name(d):
            continue  # (a name of the solve's own, no declaration's)
        names.add(bare_name(d))
        a = _dim_at(alone, t, i) if alone is not None else None
        if a is not None and open_name(a, inputs):
            renames[bare_name(a)] = d
    if not names:
        return []
    own = set() if alone is None else {
        pair for x, y in alone.constraints for pair in ((x.subs(renames), y.subs(renames)),
                                                       (y.subs(renames), x.subs(renames)))}
    printed = {k: Expr.sym(v) for k, v in decoded.rename.items()}  # (`_c1`, as decode prints)
    return [f"{x.subs(printed)} = {y.subs(printed)}" for x, y in decoded.constraints
            if (x.symbols() | y.symbols()) & names and (x, y) not in own and
            not _defines(x, y, names)]


def _defines(x, y, names) -> bool:
    """x = y only says what a declared name stands for: one side is the name alone, the
    other names none of `names` (Compress's rows sliced [-1:1] and declared r: `max(0, 2 -
    _c1) = r`; whether r may be 0 is zero_named's)."""
    return any(bare_name(a) in names and not b.symbols() & names
               for a, b in ((x, y), (y, x)))


def _dim_at(decoded, t, i):
    shape = decoded.shapes.get(t)
    return shape.dims[i] if shape is not None and shape.dims is not None and \
        i < len(shape.dims) else None
