"""Loop: a carried tensor that grows along one axis by a fixed amount per iteration
(rules/Loop.lp's loop_grow: torch's `h = cat([h, f(h[:, -1:])], 1)`, a KV cache that
appends a chunk per step). The executor checks the graph's tensors against what is
inferred (a body's are not checked: its pieces are stacked as a scan output to be)."""
import numpy as np
import pytest

from shape_logic import run, solve

BIG = 2**62


def grow_graph(step: str = "last", trip: str = "const", x0: str = "[b, 1, 8]",
               stack: bool = True) -> dict:
    """y = Loop(h = x0; h = cat([h, piece], 1)): piece is tanh(h[:, -1:]) ("last"), an
    outer chunk k of shape [b, c, 8] ("chunk"), h itself ("double"), or h[:, 1:] ("tail").
    The trip count is a constant input m ("const"), the length of an input steps [t]
    ("shape"), or m with a condition input the body may turn false ("cond"). With `stack`
    the pieces are a scan output ps too (the executor refuses one of no iteration)."""
    pieces = {
        "last": [{"op": "Slice", "inputs": ["h", "st", "en", "ax"], "outputs": ["last"]},
                 {"op": "Tanh", "inputs": ["last"], "outputs": ["p"]}],
        "chunk": [{"op": "Identity", "inputs": ["k"], "outputs": ["p"]}],
        "double": [{"op": "Identity", "inputs": ["h"], "outputs": ["p"]}],
        "tail": [{"op": "Slice", "inputs": ["h", "one", "en", "ax"], "outputs": ["p"]}]}
    cond = ([{"op": "Less", "inputs": ["i", "two"], "outputs": ["c2"]}] if trip == "cond"
            else [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]}])
    scan = ["p"] if stack and step in ("last", "chunk") else []  # the same shape in every iteration
    body = {"inputs": ["i", "c", "h"], "outputs": ["c2", "h2", *scan],
            "nodes": cond + pieces[step] + [
                {"op": "Concat", "inputs": ["h", "p"], "outputs": ["h2"], "attrs": {"axis": 1}}]}
    inputs = {"x0": {"dtype": "f32", "shape": x0}, "m": {"dtype": "i64", "shape": "[]"}}
    nodes = []
    if trip in ("shape", "shape-1"):  # t, or t - 1 (which may be 0)
        inputs = {"x0": inputs["x0"], "steps": {"dtype": "f32", "shape": "[t]"}}
        nodes = [{"op": "Shape", "inputs": ["steps"], "outputs": ["sh"]},
                 {"op": "Gather", "inputs": ["sh", "zero"],
                  "outputs": ["m" if trip == "shape" else "t"], "attrs": {"axis": 0}}]
        if trip == "shape-1":
            nodes.append({"op": "Sub", "inputs": ["t", "one0"], "outputs": ["m"]})
    if step == "chunk":
        inputs["k"] = {"dtype": "f32", "shape": "[b, c, 8]"}
    cond_in = "c0" if trip == "cond" else ""
    if trip == "cond":
        inputs["c0"] = {"dtype": "bool", "shape": "[]"}
    ints = {"st": [-1], "en": [BIG], "ax": [1], "one": [1]}
    g = {"opset": 13, "inputs": inputs,
         "initializers": {**{k: {"dtype": "i64", "shape": [1], "data": v}
                             for k, v in ints.items()},
                          "zero": {"dtype": "i64", "shape": [], "data": 0},
                          "one0": {"dtype": "i64", "shape": [], "data": 1},
                          "two": {"dtype": "i64", "shape": [], "data": 2}},
         "nodes": nodes + [{"name": "loop", "op": "Loop", "inputs": ["m", cond_in, "x0"],
                            "outputs": ["y", *(["ps"] if scan else [])],
                            "attrs": {"body": body}}]}
    return g


def with_trip(g: dict, m: int) -> dict:
    """g with its trip count m a constant (an initializer the rules read)."""
    g = {**g, "inputs": {k: v for k, v in g["inputs"].items() if k != "m"}}
    g["initializers"] = {**g["initializers"], "m": {"dtype": "i64", "shape": [], "data": m}}
    return g


def feeds(g: dict, b: int = 2, n: int = 1, c: int = 3, t: int = 4, m: int = 3) -> dict:
    f = {"x0": np.random.default_rng(0).random((b, n, 8), np.float32)}
    if "k" in g["inputs"]:
        f["k"] = np.ones((b, c, 8), np.float32)
    if "steps" in g["inputs"]:
        f["steps"] = np.ones(t, np.float32)
    if "m" in g["inputs"]:
        f["m"] = np.array(m, np.int64)
    if "c0" in g["inputs"]:
        f["c0"] = np.array(True)
    return f


@pytest.mark.parametrize("m", [0, 1, 3])
def test_grows_by_one_row_per_iteration(m):
    g = with_trip(grow_graph("last", stack=m > 0), m)
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("y") == f"[b, {1 + m}, 8]"
    # the body's input is the initial size + i, a name of its own; h[:, -1:] is one row
    # (every iteration's h has one at least)
    assert sol.shape("loop/last") == "[b, 1, 8]"
    assert sol.shape("loop/h2") == sol.shape("loop/h")[:-4] + " + 1, 8]"
    if m:
        assert sol.shape("ps") == f"[{m}, b, 1, 8]"  # the pieces, one per iteration
    for b in (1, 3):
        out = run(g, feeds(g, b=b))
        assert out["y"].shape == (b, 1 + m, 8)
        assert m == 0 or out["ps"].shape == (m, b, 1, 8)


def test_grows_by_a_symbolic_trip_count():
    """torch's `for _ in range(steps.size(0))`: t iterations"""
    g = grow_graph("last", "shape")
    sol = solve(g)
    assert (sol.shape("y"), sol.shape("ps")) == ("[b, t + 1, 8]", "[t, b, 1, 8]")
    for t in (1, 2, 5):
        out = run(g, feeds(g, t=t))
        assert out["y"].shape == (2, 1 + t, 8) and out["ps"].shape == (t, 2, 1, 8)


def test_a_trip_count_of_unknown_value_stays_open():
    g = grow_graph("last")
    sol = solve(g)
    assert sol.shape("y") == "[b, _1, 8]"
    assert sol.shape("loop/last") == "[b, 1, 8]"
    assert sol.shape("ps") == "[_2, b, 1, 8]"
    for m in (1, 4):  # (the executor refuses a scan output of no element)
        out = run(g, feeds(g, m=m))
        assert out["y"].shape == (2, 1 + m, 8) and out["ps"].shape == (m, 2, 1, 8)


@pytest.mark.parametrize("m", [0, 2])
def test_grows_by_a_chunk_from_outside(m):
    """a KV cache: cat([cache, k], 1) with k [b, c, 8] read from around the body"""
    g = with_trip(grow_graph("chunk", x0="[b, n, 8]", stack=m > 0), m)
    sol = solve(g)
    want = {0: "[b, n, 8]", 2: "[b, 2*c + n, 8]"}[m]
    assert sol.shape("y") == want
    for n, c in ((1, 3), (4, 2)):
        assert run(g, feeds(g, n=n, c=c))["y"].shape == (2, n + m * c, 8)


def test_grows_by_a_chunk_in_a_loop_that_may_run_no_iteration():
    """t - 1 iterations (maybe none): the body reads k through a copy of its own, whose
    name for c is renamed back"""
    g = grow_graph("chunk", "shape-1", x0="[b, n, 8]", stack=False)
    assert solve(g).shape("y") == "[b, c*t - c + n, 8]"  # max(t - 1, 0): t >= 1
    for t in (1, 2, 4):
        assert run(g, feeds(g, n=2, c=3, t=t))["y"].shape == (2, 2 + 3 * (t - 1), 8)


def test_a_growth_that_is_not_fixed_stays_open():
    """cat([h, h]) doubles, cat([h, h[:, 1:]]) adds n - 1: no fixed step"""
    for step in ("double", "tail"):
        g = with_trip(grow_graph(step, x0="[b, 2, 8]"), 3)
        sol = solve(g)
        assert sol.status == "ok"
        assert sol.shape("y") == "[b, _1, 8]", step
        want = {"double": 16, "tail": 9}[step]  # n -> 2n - 1: 2, 3, 5, 9
        assert run(g, feeds(g, n=2))["y"].shape == (2, want, 8)


def test_a_loop_that_may_stop_early_stays_open():
    """the body's condition i < 2 stops it after 3 iterations at most: the step is known,
    the count is not (Loop.lp's loop_counted)"""
    g = grow_graph("last", "cond")
    sol = solve(g)
    assert sol.shape("y") == "[b, _1, 8]"
    assert sol.shape("loop/last") == "[b, 1, 8]"
    for m in (1, 5):
        out = run(g, feeds(g, m=m))
        assert out["y"].shape == (2, 1 + min(m, 3), 8)
        assert out["ps"].shape == (min(m, 3), 2, 1, 8)


def test_an_empty_initial_axis_is_not_assumed_to_grow():
    """h[:, -1:] of an empty h is empty: h stays [b, 0, 8], and no name >= 1 is given to
    the body's input"""
    g = with_trip(grow_graph("last", x0="[b, 0, 8]"), 3)
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("loop/last") != "[b, 1, 8]"
    assert sol.shape("y") != "[b, 4, 8]"
    assert sol.shape("ps") != "[3, b, 1, 8]"
    out = run(g, feeds(g, n=0))
    assert out["y"].shape == (2, 0, 8) and out["ps"].shape == (3, 2, 0, 8)


def random_growth(rng: np.random.Generator) -> tuple[dict, dict]:
    """A loop growing h [2, n, 3] along axis 1 (Concat's axis 1 or -2) by random pieces:
    h[:, -1:] (1), h[:, :2] (min(n, 2): not fixed), an outer chunk k [2, c, 3], a constant
    [2, 2, 3], h itself (doubling) or a second carried value g that grows by a row (neither
    fixed), in either order; a trip count constant, of a shape, an input, or with a
    condition. Returns the graph and the sizes it may run at (n, c, t, m)."""
    kinds = rng.choice(["last", "first2", "chunk", "const", "self", "other"],
                       size=rng.integers(1, 3)).tolist()
    nodes, pieces = [], []
    for j, kind in enumerate(kinds):
        p = f"p{j}"
        if kind == "last":
            nodes.append({"op": "Slice", "inputs": ["h", "st", "en", "ax"], "outputs": [p]})
        elif kind == "first2":
            nodes.append({"op": "Slice", "inputs": ["h", "zero1", "two1", "ax"], "outputs": [p]})
        else:
            src = {"chunk": "k", "const": "w", "self": "h", "other": "g"}[kind]
            nodes.append({"op": "Relu", "inputs": [src], "outputs": [p]})
        pieces.append(p)
    parts = pieces + ["h"] if rng.random() < 0.3 else ["h"] + pieces
    axis = int(rng.choice([1, -2]))
    nodes.append({"op": "Concat", "inputs": parts, "outputs": ["h2"], "attrs": {"axis": axis}})
    trip = str(rng.choice(["const", "shape", "input", "cond"]))
    if trip == "cond":
        nodes.append({"op": "Less", "inputs": ["i", "two"], "outputs": ["c2"]})
    else:
        nodes.append({"op": "Identity", "inputs": ["c"], "outputs": ["c2"]})
    nodes += [{"op": "Slice", "inputs": ["g", "st", "en", "ax"], "outputs": ["gl"]},
              {"op": "Concat", "inputs": ["g", "gl"], "outputs": ["g2"], "attrs": {"axis": 1}}]
    body = {"inputs": ["i", "c", "h", "g"], "outputs": ["c2", "h2", "g2"], "nodes": nodes}
    n0 = str(rng.choice(["n", "1", "0", "2"]))
    inputs = {"x0": {"dtype": "f32", "shape": f"[2, {n0}, 3]"},
              "k": {"dtype": "f32", "shape": "[2, c, 3]"},
              "g0": {"dtype": "f32", "shape": "[2, 1, 3]"}}
    inits = {**{k: {"dtype": "i64", "shape": [1], "data": v} for k, v in
                {"st": [-1], "en": [BIG], "ax": [1], "zero1": [0], "two1": [2]}.items()},
             "two": {"dtype": "i64", "shape": [], "data": 2},
             "zero": {"dtype": "i64", "shape": [], "data": 0},
             "w": {"dtype": "f32", "shape": [2, 2, 3], "data": np.ones((2, 2, 3)).tolist()}}
    pre = []
    m0 = int(rng.integers(-1, 4))
    if trip == "const":
        inits["m"] = {"dtype": "i64", "shape": [], "data": m0}
    elif trip == "shape":
        inputs["steps"] = {"dtype": "f32", "shape": "[t]"}
        pre = [{"op": "Shape", "inputs": ["steps"], "outputs": ["sh"]},
               {"op": "Gather", "inputs": ["sh", "zero"], "outputs": ["m"], "attrs": {"axis": 0}}]
    else:
        inputs["m"] = {"dtype": "i64", "shape": "[]"}
    cond = ""
    if trip == "cond":
        inputs["c0"], cond = {"dtype": "bool", "shape": "[]"}, "c0"
    g = {"opset": 13, "inputs": inputs, "initializers": inits,
         "nodes": pre + [{"name": "loop", "op": "Loop", "inputs": ["m", cond, "x0", "g0"],
                          "outputs": ["y", "gy"], "attrs": {"body": body}}]}
    return g, {"n0": n0, "m0": m0, "trip": trip}


@pytest.mark.parametrize("seed", range(40))
def test_random_growth_is_sound(seed):
    """every size the solver states of y holds when the executor runs the loop"""
    rng = np.random.default_rng(seed)
    g, how = random_growth(rng)
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    dims = sol.dims("y") or ()  # (of no rank: nothing to check)
    for n, c, m in ((1, 1, 0), (3, 2, 1), (2, 3, 3), (1, 2, 2)):
        n_now = n if how["n0"] == "n" else int(how["n0"])
        f = {"x0": np.ones((2, n_now, 3), np.float32), "k": np.ones((2, c, 3), np.float32),
             "g0": np.ones((2, 1, 3), np.float32)}
        if how["trip"] == "shape":
            f["steps"] = np.ones(m, np.float32)
        elif how["trip"] != "const":
            f["m"] = np.array(m, np.int64)
        if how["trip"] == "cond":
            f["c0"] = np.array(True)
        try:
            y = run(g, f)["y"]
        except Exception:  # noqa: BLE001 (sizes this graph cannot run at)
            continue
        subs = {"n": n_now, "c": c, "t": m}
        for d, got in zip(dims, y.shape):
            if d.symbols() <= subs.keys():
                assert d.subs(subs).value == got, (sol.shape("y"), y.shape, how)


def test_no_iteration_keeps_the_initial_shape():
    """a trip count of 0 (or less) runs no iteration, whatever the body does to h"""
    for step in ("double", "tail"):
        for m in (0, -2):
            g = with_trip(grow_graph(step, x0="[b, n, 8]"), m)
            assert solve(g).shape("y") == "[b, n, 8]"
            assert run(g, feeds(g, n=3))["y"].shape == (2, 3, 8)
