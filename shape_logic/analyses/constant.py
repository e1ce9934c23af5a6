"""The constant subgraph (TFDeploy Def. 14) as Datalog relations.

A tensor is *runtime* when its value depends on a runtime input: a graph input, or the
output of a node whose results change from run to run (Dropout, Random*: `volatile`).
Runtime-ness flows from what a node reads to what it writes, left-recursive from the seeds:

    runtime(T) <= seed(T)
    runtime(T) <= runtime(S) & reads(N, S) & writes(N, T)

A node that only looks at a tensor's *shape* (Shape, Size) does not read its data when the
solve gives that shape as integers: `Shape(x)` with x : [2, 3] is constant even though x is
not. A tensor is *constant* when it is not runtime, a node when it reads nothing runtime:
both complements are taken in Python (pyDatalog's negation re-derives `runtime` for each
tensor: 45 s for 1,000 tensors, see docs/DESIGN.md). Components of the constant graph are
undirected reachability from a bound seed, one query per component:

    comp(X, Y) <= cnode(X) & (Y == X)
    comp(X, Y) <= comp(X, Z) & link(Z, Y)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..exec_rewrite import NOT_FOLDED
from ..graph import Graph, Node
from .datalog import KnowledgeBase

# ops whose output depends only on the input's shape, not on its data
SHAPE_ONLY = {"Shape", "Size"}

RULES = """
runtime(T) <= seed(T)
runtime(T) <= runtime(S) & reads(N, S) & writes(N, T)
runtime_node(N) <= runtime(S) & reads(N, S)
runtime_node(N) <= volatile(N)
link(A, B) <= cnode(A) & writes(A, T) & reads(B, T) & cnode(B)
link(A, B) <= cnode(A) & reads(A, T) & writes(B, T) & cnode(B)
comp(X, Y) <= cnode(X) & (Y == X)
comp(X, Y) <= comp(X, Z) & link(Z, Y)
"""


@dataclass
class Component:
    """A connected component of the constant graph: its nodes (in topological order), the
    constant tensors it reads from outside (initializers), the tensors whose shape alone
    it reads, and its sinks (tensors read by runtime nodes, or graph outputs)."""

    nodes: list[Node]
    inputs: list[str] = field(default_factory=list)
    shape_reads: list[str] = field(default_factory=list)
    sinks: list[str] = field(default_factory=list)


@dataclass
class ConstantGraph:
    runtime: set  # tensors that depend on a runtime input
    constant: set  # every other tensor of the graph
    constant_nodes: list  # in topological order
    components: list  # of Component


def volatile(node: Node) -> bool:
    """Results that change from run to run, that read tensors not listed as inputs (a
    subgraph attribute sees the outer graph), or that no kernel of ours computes (another
    domain): never constant."""
    return (node.op in NOT_FOLDED or node.domain not in ("", "ai.onnx")
            or any(isinstance(v, dict) for v in node.attrs.values()))


def reads(graph: Graph, node: Node, known_shape) -> list[str]:
    """The tensors whose data `node` reads (a shape-only op reading a tensor of known
    shape reads none of its data)."""
    if node.op in SHAPE_ONLY and node.inputs and known_shape(node.inputs[0]):
        return []
    return [t for t in node.inputs if t]


def constant_graph(graph: Graph, order: list[Node], known_shape=lambda t: False
                   ) -> ConstantGraph:
    """`order` is the graph's topological order (validate); `known_shape(t)` says whether
    the solve gives t's shape as integers."""
    kb = KnowledgeBase(RULES)
    seeds = [t for t in graph.inputs if t not in graph.initializers]
    kb.facts("seed", ((t,) for t in seeds))
    kb.facts("volatile", ((n.name,) for n in graph.nodes if volatile(n)))
    read_rows = [(n.name, t) for n in graph.nodes for t in reads(graph, n, known_shape)]
    kb.facts("reads", read_rows)
    kb.facts("writes", ((n.name, t) for n in graph.nodes for t in n.outputs if t))
    runtime = kb.column("runtime", None)
    runtime_nodes = kb.column("runtime_node", None)
    constant = set(graph.tensors()) - runtime
    cnodes = [n for n in order if n.name not in runtime_nodes]
    kb.facts("cnode", ((n.name,) for n in cnodes))
    return ConstantGraph(runtime, constant, cnodes, _components(graph, kb, cnodes, read_rows))


def _components(graph: Graph, kb: KnowledgeBase, cnodes: list[Node], read_rows) -> list:
    position = {n.name: i for i, n in enumerate(cnodes)}
    readers: dict[str, set] = {}
    for n, t in read_rows:
        readers.setdefault(t, set()).add(n)
    # without declared outputs, the tensors nothing reads are the outputs (as the executor)
    read = {t for n in graph.nodes for t in n.inputs}
    outputs = set(graph.outputs) or {t for n in graph.nodes for t in n.outputs
                                     if t and t not in read}
    seen: set = set()
    comps = []
    for seed in cnodes:
        if seed.name in seen:
            continue
        members = kb.column("comp", seed.name, None)
        seen |= members
        nodes = sorted((cnodes[position[m]] for m in members), key=lambda n: position[n.name])
        comp = Component(nodes)
        written = {t for n in nodes for t in n.outputs if t}
        for n in nodes:
            for t in n.inputs:
                if not t or t in written:
                    continue
                # reads its data: a constant input; else only its shape (SHAPE_ONLY)
                bucket = comp.inputs if n.name in readers.get(t, ()) else comp.shape_reads
                if t not in bucket:
                    bucket.append(t)
            for t in n.outputs:
                if t and (t in outputs or readers.get(t, set()) - members):
                    comp.sinks.append(t)
        comps.append(comp)
    return comps
