"""Axes a rule file leaves open without saying so (fuzz.py --open-axes).

Narrowing (shape_logic/narrowing.py) keeps an ONNX model's declared output unless it
contradicts the graph or gives a dim the graph leaves open, and it learns which dims the
graph may leave open from the rule files (data_sizes.py): an axis stated unsized or
data_dependent, a rank stated open_rank, the outputs of a node whose sizes_from inputs
hold the data's values. A rule file that leaves an axis open otherwise (a Pad at an axis
computed from sizes, before d3c40b2) lets a declaration traced at other sizes fill it,
and that dim is printed, wrong at the sizes the graph is run at. The narrowing fuzzer
finds such an axis only where a declaration happens to fill it. Here every open axis of
a graph's solve - a fresh name (`_1`) that first appears in a node's output, in none of
its inputs, at an axis no rule states open - is declared: the graph's dims elsewhere,
there the size the run gave or an input's name of that size. A declaration narrowing
keeps is a finding (an open axis it sets aside anyway - a broadcast against a size that
may be 0 requires what the graph does not - is not)."""
from __future__ import annotations


def open_axes(graph) -> list[tuple[str, int, str]]:
    """The axes of `graph`'s solve (a JSON graph) that a node leaves open (a fresh name
    none of its inputs has) without its rule file saying so: (tensor, axis, text)."""
    from shape_logic.data_sizes import Upstream
    from shape_logic.decode import decode
    from shape_logic.shapes import has_fresh_name
    from shape_logic.solver import Problem

    problem = Problem.load(graph, (), False)
    atoms, _ = problem.atoms()
    decoded = decode(problem.graph, atoms)
    atoms.release_control()
    if atoms.conflicts:
        return []
    upstream = Upstream(problem.graph, atoms, problem.rule_files)
    shapes = decoded.shapes
    # the fresh names of the axes the rules state open (a Unique's indices share its count's)
    stated = {n for t, i in (*atoms.unsized, *atoms.data_bounds) if shapes.get(t) is not None
              and i < len(shapes[t].dims or ()) for n in shapes[t].dims[i].symbols()}

    def fresh(t) -> bool:  # (its shape has a fresh name, or its rank is open)
        s = shapes.get(t)
        return s is None or s.dims is None or t in atoms.open_ranks or \
            any(has_fresh_name(d) for d in s.dims)

    # open: tensors whose shapes or values may hold what is open upstream (an open input's
    # openness flows on through values: a Shape of a tensor of open rank sizes a Reshape)
    open_ = {t for t in problem.graph.inputs if fresh(t)}
    found = []
    for node in problem.graph.nodes:  # (in the graph's order: producers first)
        outputs = [t for t in node.outputs if t]
        if node.bodies or node.op in problem.unknown or any(t in open_ for t in node.inputs) \
                or not upstream.sized_from_shapes(node):  # (sizes_from inputs of data)
            open_.update(outputs)
            continue
        for t in outputs:
            shape = shapes.get(t)
            if fresh(t):
                open_.add(t)
            if shape is None or shape.dims is None or t in atoms.open_ranks:
                continue
            found += [(t, i, f"{node.op} {node.name!r}: {t} axis {i} is {d}, open, and no "
                             "rule says so (unsized, data_dependent, open_rank)")
                      for i, d in enumerate(shape.dims)
                      if any(n.startswith("_") and n not in stated for n in d.symbols())]
    return found


def unstated_open_axes(b, sol) -> str | None:
    """The first open axis of b's graph (open_axes) that a declaration traced at b's run
    fills and narrowing keeps, as text; None. `sol`: the graph's solve (fuzz.check's)."""
    from fuzz_declare import to_model

    from shape_logic.graph import dtype_of_array
    from shape_logic.shapes import has_fresh_name
    from shape_logic.solver import solve

    for t, i, text in open_axes(b.graph):
        run = b.values.get(t)
        if run is None or sol.dims(t) is None or getattr(run, "ndim", -1) != len(sol.dims(t)):
            continue
        size = run.shape[i]
        dims = [None if has_fresh_name(d) else str(d) for d in sol.dims(t)]
        names = [s for s, v in sorted(b.symbols.items()) if v == size][:1]
        for there in [size, *names]:
            dims[i] = there
            kept = solve(to_model(b.graph, {t: (dtype_of_array(run), list(dims))}),
                         explain=False)
            if kept.status == "ok" and t not in kept.set_aside:
                return f"{text}; declared {dims}, kept"
    return None

