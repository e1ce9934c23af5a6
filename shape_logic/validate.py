"""Structural checks of a graph: every tensor defined once, referenced tensors exist, no cycle."""
from __future__ import annotations

from collections import deque

from .attributes import check_attributes
from .errors import InputError
from .graph import Graph, Node
from .subgraphs import SUBGRAPH_OPS, implicit_inputs


def validate(graph: Graph) -> list[Node]:
    """Check the graph's structure; return its nodes in a topological order."""
    # tensor -> where it is defined: a place, or a node's output as (node, k), written out
    # only for an error (DenseNet-121's 2,595 places cost ~1 ms a solve)
    defined: dict[str, str | tuple] = {}
    for name, info in graph.inputs.items():
        defined[name] = info.place
    for name, info in graph.initializers.items():
        defined.setdefault(name, info.place)
    for node in graph.nodes:
        for k, t in enumerate(node.outputs):
            if not t:
                continue  # an omitted optional output
            if t in defined:
                raise InputError(f"tensor {t!r} is produced here and also by "
                                 f"{_written(defined[t])}", graph.path,
                                 f"{node.place}.outputs[{k}]")
            defined[t] = (node, k)
    for node in graph.nodes:
        for k, t in enumerate(node.inputs):
            if t and t not in defined:
                raise InputError(f"input {t!r} is not defined (not a graph input, initializer, "
                                 "or output of a node)", graph.path, f"{node.place}.inputs[{k}]")
    # bodies' copies (subgraphs.py) define their inputs and their nodes' outputs, and may
    # use the enclosing graph's tensors
    for node in graph.nodes + graph.body_nodes:
        for ins, _ in node.bodies.values():
            for t in ins:
                defined.setdefault(t, f"{node.place} (body input)")
    for node in graph.body_nodes:
        for t in node.outputs:
            if t:
                defined.setdefault(t, node.place)
    for node in graph.body_nodes:
        for k, t in enumerate(node.inputs):
            if t and t not in defined:
                raise InputError(f"input {t!r} is not defined in the body nor in the graph "
                                 "around it", graph.path, f"{node.place}.inputs[{k}]")
    for section, decls in (("outputs", graph.outputs), ("annotations", graph.annotations)):
        for name in decls:
            if name not in defined:
                raise InputError(f"tensor {name!r} is not defined in the graph", graph.path,
                                 f"{section}.{name}")
    order = topological_order(graph)
    check_attributes(graph)
    _check_no_nul(graph)
    return order


def _written(where: str | tuple) -> str:
    """A place of `validate`'s table of definitions as an error message gives it."""
    if isinstance(where, tuple):
        node, k = where
        return f"{node.place}.outputs[{k}]"
    return where


def _check_no_nul(graph: Graph) -> None:
    """Names and string attributes hold no NUL character: clingo's strings cannot (the
    facts would not parse, and the error could not say where)."""
    strings = _strings(graph)
    try:
        text = "".join(strings)
    except TypeError:  # (a name that is no string: reported elsewhere, not here)
        text = "".join(t for t in strings if isinstance(t, str))
    if "\x00" not in text:
        return  # (the usual case, found without writing each place: ~15 ms on DenseNet-121)

    def check(text, place):
        if isinstance(text, str) and "\x00" in text:
            raise InputError(f"{text!r} contains a NUL character (\\x00), which the solver "
                             "cannot hold in a name or string", graph.path, place)

    for name, info in (*graph.inputs.items(), *graph.initializers.items()):
        check(name, info.place)
    for node in graph.nodes + graph.body_nodes:
        check(node.name, f"{node.place}.name")
        for port, names in (("inputs", node.inputs), ("outputs", node.outputs)):
            for k, t in enumerate(names):
                check(t, f"{node.place}.{port}[{k}]")
        for key, value in node.attrs.items():
            check(key, f"{node.place}.attrs")
            for v in (value if isinstance(value, (list, tuple)) else [value]):
                check(v, f"{node.place}.attrs.{key}")


def _strings(graph: Graph) -> list:
    """Every name and string attribute of the graph (what _check_no_nul checks), a run of
    them per node."""
    out = ["".join((*graph.inputs, *graph.initializers))]
    for node in graph.nodes + graph.body_nodes:
        out += node.inputs
        out += node.outputs
        out += node.attrs
        out.append(node.name)
        for value in node.attrs.values():
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, (list, tuple)):
                out += [v for v in value if isinstance(v, str)]
    return out


def topological_order(graph: Graph) -> list[Node]:
    nodes = graph.nodes
    # tensor -> the index of the node that makes it (the last one, as graph.producer())
    producer = {t: i for i, n in enumerate(nodes) for t in n.outputs if t}
    users: list[list[int]] = [[] for _ in nodes]
    waiting = [0] * len(nodes)
    for i, node in enumerate(nodes):
        # a node with a body also waits for the outer tensors the body uses
        reads = set(node.inputs)
        if node.bodies or node.op in SUBGRAPH_OPS:
            reads.update(implicit_inputs(node))
        for t in reads:
            j = producer.get(t) if t else None
            if j is not None:
                users[j].append(i)
                waiting[i] += 1
    ready = deque(i for i, w in enumerate(waiting) if w == 0)
    order = []
    while ready:
        i = ready.popleft()
        order.append(graph.nodes[i])
        for j in users[i]:
            waiting[j] -= 1
            if waiting[j] == 0:
                ready.append(j)
    if len(order) < len(graph.nodes):
        stuck = next(n for i, n in enumerate(graph.nodes) if waiting[i] > 0)
        raise InputError("the graph has a cycle through this node", graph.path, stuck.place)
    return order
