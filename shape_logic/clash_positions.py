"""Which two positions of a node's operands a shape clash is between: "needs X.shape[i] ==
Y.shape[j]" in a diagnostic's message (describe.py), read off the sizes each side gives
without the node. A pair is named only when the sizes make it plain; otherwise the message
says where the two sizes meet ("gives axis i of `t` two sizes")."""
from __future__ import annotations


def parameters(graph) -> frozenset:
    """The integer initializers of rank 0 or 1 (axes, target shapes, pads...), and Constant
    nodes' values of the kind (exporters write a Squeeze's axes so): their length is no
    size a shape error is about."""
    names = {name for name, info in graph.initializers.items()
             if info.dtype is not None and info.dtype[0] in "iu" and
             info.shape is not None and (info.shape.rank or 0) <= 1}
    for node in graph.nodes + graph.body_nodes:
        value = node.attrs.get("value") if node.op == "Constant" and node.outputs else None
        if getattr(value, "ndim", 2) <= 1 and getattr(value, "dtype", None) is not None \
                and value.dtype.kind in "iu":
            names.add(node.outputs[0])
    return frozenset(names)


def constrained(graph, core, primary) -> set | None:
    """The tensors whose sizes the core speaks of: declared by one of its sources, or read
    or made by one of its nodes besides the primary (None: no primary node). The primary's
    other operands are shown beside it whole, but a size of one the core leaves out is
    not a side of the clash: a Conv whose weight's kernel height, 4, contradicts its
    kernel_shape, 3, read "needs w.shape[3] == b.shape[0]" (3 and 4), its core the weight
    and the node alone."""
    if primary is None:
        return None
    names = {s.arguments[1].string for s in core if s.arguments[0].name != "node"}
    nodes = {s.arguments[1].string for s in core if s.arguments[0].name == "node"}
    nodes.discard(primary.name)
    for node in graph.nodes + graph.body_nodes:
        if node.name in nodes:
            names.update(t for t in node.inputs + node.outputs if t)
    return names


def positions_of(primary, before, a, b, parameters=frozenset(), constrained=None,
                  place=(None, None)):
    """`X.shape[i]` and `Y.shape[j]` of the primary node's tensors holding the two values
    (not a `parameters` one's: a Squeeze needing 1 where x has 4 does not need x.shape[0]
    == axes.shape[0] because its axes list one axis; nor one outside `constrained`, when
    given: see `constrained`). When the clash shows at an operand's axis that holds one of
    the values (`place`: tensor, axis), that axis is one side, and the other must be
    one position alone: else (the other value at two axes of one operand, or from an
    attribute) no pair is named."""
    if primary is None:
        return None
    found: dict = {}  # value -> its positions (operand, axis, rank, text), in operand order
    names = primary.inputs + primary.outputs
    for k, t in enumerate(names):
        shape = before.get(t)
        if not t or t in parameters or not shape or not shape.startswith("[") or (
                constrained is not None and t not in constrained):
            continue
        dims = [d.strip() for d in shape[1:-1].split(",")] if shape != "[]" else []
        for i, d in enumerate(dims):
            for v in (a, b):
                if d == v:
                    found.setdefault(v, []).append((k, i, len(dims), f"{t}.shape[{i}]"))
    if a not in found or b not in found:
        return None
    # two operands holding them at the same axis counted from the end first (a broadcast's
    # pair: a Mul of [?, 4, ?, 4] by [1, 1, ?, 8] needs shape[3] == shape[3], not the 4
    # heads at shape[1]); else the first pair of two operands. Two axes of one operand
    # (Det's square, Einsum's "ii") only while every operand's sizes are in view: else a
    # size out of view may be the one compared (Inception-v2's Conv after a Concat along
    # the batch, its input's channels out of view: the weight's [64, 320] read as "needs
    # w.shape[0] == w.shape[1]")
    # (nor when a value is one of the node's attributes: a Conv's weight 5 high where its
    # kernel_shape says 4 is no "w.shape[2] == w.shape[3]" of a 4 wide kernel)
    pairs = [(x, y) for x in found[a] for y in found[b] if x[0] != y[0]]
    if not pairs and not any("?" in (before.get(t) or "?") for t in primary.inputs
                             if t and t not in parameters) and \
            not {a, b} & _attribute_numbers(primary):
        pairs = [(x, y) for x in found[a] for y in found[b] if x[1] != y[1]]
    if not pairs:
        return None
    anchored = [(x, y) for x, y in pairs if place in ((names[x[0]], x[1]), (names[y[0]], y[1]))]
    if any(place == (names[p[0]], p[1]) for p in found[a] + found[b]):
        if len({(x[0], x[1], y[0], y[1]) for x, y in anchored}) != 1 and not (
                anchored and _aligned(anchored)):
            return None  # (a side at the place, the other not one position)
        pairs = anchored
    aligned = _aligned(pairs)
    first, second = sorted(aligned[0] if aligned else pairs[0])
    return first[3], second[3]  # (in the order of the node's operands)


def _attribute_numbers(node) -> set[str]:
    """The integers of a node's attributes, as text (kernel_shape [4, 4]: {"4"})."""
    out = set()
    for value in node.attrs.values():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(v, int) and not isinstance(v, bool):
                out.add(str(v))
    return out


def _aligned(pairs) -> list:
    """The pairs on two operands at the same axis counted from the end."""
    return [(x, y) for x, y in pairs if x[0] != y[0] and x[2] - x[1] == y[2] - y[1]]
