"""A value that collided with one value still collides with others: explaining finds
every route to an error, so that the core it shrinks to is minimal (relating.py: a pair
with a value that met another makes nothing new, but is still classified)."""
import copy

from shape_logic import solve

# t1 = Flatten(x0) is [1, s0*s1*s2] and MatMul(x0, x4) makes s2 = s1: the annotation
# s0*s1*s1 + 2 is 2 more than the graph's. A Reshape of t1 to one element makes it 1 too,
# which the annotation cannot be either (fuzz --narrowing seed 5624, graph 633)
GRAPH = {
    "opset": 18,
    "inputs": {"x0": {"dtype": "float32", "shape": ["s0", "s1", "s2"]},
               "x4": {"dtype": "float32", "shape": ["s1", "s3"]}},
    "initializers": {"c2": {"dtype": "int64", "shape": [1], "data": [1]}},
    "nodes": [
        {"name": "n0", "op": "Flatten", "inputs": ["x0"], "outputs": ["t1"],
         "attrs": {"axis": -3}},
        {"name": "n1", "op": "Reshape", "inputs": ["t1", "c2"], "outputs": ["t3"]},
        {"name": "n2", "op": "MatMul", "inputs": ["x0", "x4"], "outputs": ["t5"]},
        {"name": "n3", "op": "Relu", "inputs": ["t1"], "outputs": ["t6"]},
        {"name": "n5", "op": "Less", "inputs": ["t6", "t3"], "outputs": ["t8"]},
        {"name": "n6", "op": "Where", "inputs": ["t8", "t6", "t3"], "outputs": ["t9"]},
    ],
    "outputs": {"t1": {"shape": [1, "s0*s1*s1 + 2"]}, "t5": {}, "t9": {}},
}


def _only(graph: dict, nodes: set, annotated: bool = True) -> dict:
    """The graph of only these nodes (and those they read from, as needed: a node whose
    input no kept node makes is left out too), t1 annotated or not."""
    g = copy.deepcopy(graph)
    made = set(g["inputs"]) | set(g["initializers"])
    kept = []
    for n in g["nodes"]:
        if n["name"] in nodes and all(t in made for t in n["inputs"]):
            kept.append(n)
            made |= set(n["outputs"])
    g["nodes"] = kept
    g["outputs"] = {t: (decl if annotated else {}) for t, decl in g["outputs"].items()
                    if t in made}
    return g


# the two routes: the graph's s0*s1*s1 (Flatten, MatMul) or the Reshape's 1 (Flatten,
# Reshape of one element), each against the annotation
ROUTES = [{"n0", "n2"}, {"n0", "n1"}]


def test_each_route_alone_is_an_error_and_needs_all_it_holds():
    for nodes in ROUTES:
        assert solve(_only(GRAPH, nodes), explain=False).status == "error", nodes
        assert solve(_only(GRAPH, nodes, annotated=False), explain=False).status == "ok"
        for n in nodes:
            assert solve(_only(GRAPH, nodes - {n}), explain=False).status == "ok", (nodes, n)


def test_an_annotation_two_routes_contradict_is_explained_by_one_of_them():
    # before a collided value was compared again, explaining knew only the route through
    # the Reshape's 1 (and the Where broadcasting it back): 10 sources, both routes whole
    sol = solve(GRAPH)
    assert sol.status == "error"
    (d,) = sol.diagnostics
    core = {c["source"] for c in d.core}
    nodes = {c["name"] for c in d.core if c["kind"] == "node"}
    assert "outputs.t1" in core
    assert nodes in ROUTES, core
