"""Loop: rules/Loop.lp on data cases (bodies as graph objects); the kernel against
onnxruntime in tests/kernels/test_control_flow.py::test_loop."""
import numpy as np
import pytest

from shape_logic import solve
from tests.ops.cases import case_test


def body(carried_nodes, outputs, extra_inputs=("v",)):
    return {"inputs": ["i", "c", *extra_inputs], "outputs": ["c2", *outputs],
            "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]}, *carried_nodes]}


DOUBLE = body([{"op": "Add", "inputs": ["v", "v"], "outputs": ["v2"]},
               {"op": "Relu", "inputs": ["v"], "outputs": ["e"]}], ["v2", "e"])
GROW = body([{"op": "Concat", "inputs": ["v", "v"], "outputs": ["v2"], "attrs": {"axis": 0}}],
            ["v2"])
M3 = np.array(3, dtype=np.int64)
# bodies whose condition output is computed (may turn false) or a constant true
COMPUTED = {**DOUBLE, "nodes": [{"op": "Less", "inputs": ["i", "three"], "outputs": ["c2"]},
                                 *DOUBLE["nodes"][1:]],
            "initializers": {"three": {"dtype": "i64", "shape": [], "data": 3}}}
# ... i < 1: true in the first iteration only (the loop stops after the second)
COMPUTED_ONE = {**COMPUTED, "initializers": {"three": {"dtype": "i64", "shape": [], "data": 1}}}
ALWAYS = {**DOUBLE, "nodes": [{"op": "Constant", "inputs": [], "outputs": ["c2"],
                               "attrs": {"value": {"dtype": "bool", "shape": [],
                                                   "data": True}}}, *DOUBLE["nodes"][1:]]}


SLICED = body([{"op": "Unsqueeze", "inputs": ["i", "zero"], "outputs": ["i1"]},
                {"op": "Add", "inputs": ["i1", "one"], "outputs": ["i2"]},
                {"op": "Slice", "inputs": ["x", "i1", "i2"], "outputs": ["xi"]},
                {"op": "Add", "inputs": ["v", "xi"], "outputs": ["v2"]},
                {"op": "Identity", "inputs": ["v2"], "outputs": ["e"]}], ["v2", "e"])
SLICED["initializers"] = {
    "x": {"dtype": "f32", "shape": [5], "data": [1, 2, 3, 4, 5]},
    "zero": {"dtype": "i64", "shape": [1], "data": [0]},
    "one": {"dtype": "i64", "shape": [1], "data": [1]}}
RAISED = body([{"op": "Add", "inputs": ["v", "z"], "outputs": ["v2"]}], ["v2"])
RAISED["initializers"] = {"z": {"dtype": "f32", "shape": [2, 1], "data": [[1], [2]]}}


def loop(inputs, b, n_outputs):
    return {"inputs": inputs, "attrs": {"body": b}, "n_outputs": n_outputs}


CASES = {
    "invariant value, for loop": (loop([M3, None, "[b, 4]"], DOUBLE, 2),
                                  {"y0": "[b, 4]", "y1": "[3, b, 4]"}),
    "while loop: a fresh trip count": (loop([None, ("bool", "[]"), "[b, 4]"], DOUBLE, 2),
                                       {"y0": "[b, 4]", "y1": "[_1, b, 4]"}),
    "trip count and condition: a fresh trip count": (
        loop([M3, ("bool", "[]"), "[n]"], DOUBLE, 2), {"y1": "[_1, n]"}),
    # a condition that starts true and that the body passes on (DOUBLE's Identity) or
    # computes as a constant true stops nothing: M iterations
    "trip count, a true condition passed on": (loop([M3, np.array(True), "[n]"], DOUBLE, 2),
                                               {"y1": "[3, n]"}),
    "trip count, a false condition": (loop([M3, np.array(False), "[n]"], DOUBLE, 2),
                                      {"y1": "[_1, n]"}),
    # the iteration number i is below the trip count 3: i < 3 holds in every iteration
    "trip count, a true condition the body computes": (
        loop([M3, np.array(True), "[n]"], COMPUTED, 2), {"y1": "[3, n]"}),
    # (iteration 1 runs, i = 1 < 1 fails after it: 2 iterations; Loop.lp's loop_stop)
    "trip count, a condition the body computes that turns false": (
        loop([M3, np.array(True), "[n]"], COMPUTED_ONE, 2), {"y1": "[2, n]"}),
    "trip count, a constant true the body gives": (
        loop([M3, np.array(True), "[n]"], ALWAYS, 2), {"y1": "[3, n]"}),
    "negative trip count: no iteration": (loop([np.array(-2, np.int64), None, "[n]"], DOUBLE, 2),
                                          {"y1": "[0, n]"}),
    # v2 = concat(v, v) along axis 0: rank and axis 1 kept (the body keeps them for any
    # input), axis 0 grows (2, 4, 8, 16)
    "a growing value keeps its other axis": (loop([M3, None, "[2, 3]"], GROW, 1),
                                             {"y0": "[_1, 3]"}),
    "dtypes": (loop([M3, None, ("f64", "[2]")], DOUBLE, 2),
               {"dtypes": {"y0": "f64", "y1": "f64"}}),
    # errors
    "body takes another number of inputs": (loop([M3, None, "[2]", "[2]"], DOUBLE, 2), "error"),
    "float trip count": (loop([("f32", "[]"), None, "[2]"], DOUBLE, 2), "error"),
}


test_case = case_test("Loop", CASES)


def test_a_broadcast_with_a_lower_rank_keeps_the_carried_rank():
    # v2 = v + x[i:i+1] (onnx's loop11): a broadcast with a tensor of rank 1 keeps the rank
    # of a value of rank >= 1, so the carried value keeps its rank - not its size: past x's
    # end the slice is empty, and so is v. With a partner of rank 2 the first iteration
    # raises a value of rank 1 to 2: no rank (0 iterations keep 1).
    from shape_logic.testing import infer

    sol = infer("Loop", [None, ("bool", "[]"), "[1]"], {"body": SLICED}, n_outputs=2)
    assert sol.status == "ok" and len(sol.dims("y0")) == 1 and len(sol.dims("y1")) == 2
    sol = infer("Loop", [None, ("bool", "[]"), "[1]"], {"body": RAISED}, n_outputs=1)
    assert sol.status == "ok" and sol.dims("y0") is None
    # the executor agrees: 2 iterations keep [1]; 7 empty it
    from shape_logic import run

    carried_only = {**SLICED, "outputs": SLICED["outputs"][:2], "nodes": SLICED["nodes"][:-1]}
    g = {"inputs": {"m": {"dtype": "i64", "shape": []}, "v0": {"dtype": "f32", "shape": "[1]"}},
         "nodes": [{"op": "Loop", "inputs": ["m", "", "v0"], "outputs": ["y"],
                    "attrs": {"body": carried_only}}]}
    assert len(solve(g).dims("y")) == 1
    for m, n in ((2, 1), (7, 0)):
        out = run(g, {"m": np.array(m, np.int64), "v0": np.ones(1, np.float32)})
        assert out["y"].shape == (n,)


# ----- what the body requires of the tensors around it holds only when it runs

def with_trip_and_cond(g: dict, trip, cond: bool) -> dict:
    """g with the Loop's trip count m (an input, or the constant `trip`) and, with `cond`,
    its condition c as an input."""
    if trip is None:
        g["inputs"]["m"] = {"dtype": "i64", "shape": "[]"}
    else:
        g["initializers"]["m"] = {"dtype": "i64", "shape": [], "data": trip}
    if cond:
        g["inputs"]["c"] = {"dtype": "bool", "shape": "[]"}
    return g


def squeezing_loop(trip=None, cond=False, scan_output=False, x="[b, s, 3]"):
    """A Loop whose body squeezes axis 1 of x, a tensor of the graph around it that the
    body reads directly, and sums it into a carried scalar (/tmp/sound/loop_zero.py): the
    trip count is the input m, or the constant `trip`; with `cond`, an input c too."""
    nodes = [{"op": "Squeeze", "inputs": ["x", "one"], "outputs": ["q"]},
             {"op": "ReduceSum", "inputs": ["q"], "outputs": ["r"], "attrs": {"keepdims": 0}},
             {"op": "Add", "inputs": ["v", "r"], "outputs": ["v2"]},
             {"op": "Identity", "inputs": ["x"], "outputs": ["e"]}]
    g = {"opset": 13,
         "inputs": {"x": {"dtype": "f32", "shape": x}},
         "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]}},
         "nodes": [{"name": "loop", "op": "Loop", "inputs": ["m", "c" if cond else "", "v0"],
                    "outputs": ["v", "ys"] if scan_output else ["v"],
                    "attrs": {"body": body(nodes, ["v2", "e"] if scan_output else ["v2"])}},
                   {"name": "z", "op": "Constant", "inputs": [], "outputs": ["v0"],
                    "attrs": {"value": {"dtype": "f32", "shape": [], "data": 0.0}}}]}
    return with_trip_and_cond(g, trip, cond)


def test_a_loop_that_may_run_no_iteration_does_not_bind_what_its_body_reads():
    # the Squeeze requires axis 1 of x to be 1 when the body runs; with m = 0 it does not,
    # and x (2, 5, 3) is fine (s was bound to 1, x printed [b, 1, 3], and run refused it)
    from shape_logic import run, solve

    sol = solve(squeezing_loop())
    assert sol.status == "ok" and sol.bindings == {} and not sol.warnings
    assert sol.shape("x") == "[b, s, 3]" and sol.shape("v") == "[]"
    assert sol.shape("loop/q") == "[b, 3]"  # inside, the names are the ones they copy
    x = np.ones((2, 5, 3), np.float32)
    assert run(squeezing_loop(), {"x": x, "m": np.array(0, np.int64)})["v"] == 0
    # a condition may be false from the start: the same with a trip count of 3
    sol = solve(squeezing_loop(trip=3, cond=True))
    assert sol.shape("x") == "[b, s, 3]" and sol.bindings == {}
    out = run(squeezing_loop(trip=3, cond=True), {"x": x, "c": np.array(False)})
    assert out["v"] == 0


def test_a_loop_that_surely_runs_binds_what_its_body_reads():
    # a trip count >= 1 and no condition: the body runs, its requirements hold
    from shape_logic import solve

    sol = solve(squeezing_loop(trip=3))
    assert sol.shape("x") == "[b, 1, 3]" and sol.bindings == {"s": 1}
    # a symbolic trip count (a dim, >= 1) too
    g = squeezing_loop(trip=None)
    del g["inputs"]["m"]
    g["initializers"]["zero"] = {"dtype": "i64", "shape": [], "data": 0}
    g["nodes"] += [{"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"name": "at0", "op": "Gather", "inputs": ["sh", "zero"], "outputs": ["m"]}]
    sol = solve(g)
    assert sol.shape("x") == "[b, 1, 3]" and sol.bindings == {"s": 1}
    # a condition that is a constant true (torch's export of a `for` loop) starts the loop
    g = squeezing_loop(trip=3, cond=True)
    del g["inputs"]["c"]
    g["initializers"]["c"] = {"dtype": "bool", "shape": [], "data": True}
    sol = solve(g)
    assert sol.shape("x") == "[b, 1, 3]" and sol.bindings == {"s": 1}
    g["initializers"]["c"]["data"] = False  # a constant false: the body never runs
    sol = solve(g)
    assert sol.shape("x") == "[b, s, 3]" and sol.bindings == {}
    # with x known, a body that cannot run is an error there, a warning where it may not run
    assert solve(squeezing_loop(trip=3, x="[2, 5, 3]")).status == "error"
    sol = solve(squeezing_loop(x="[2, 5, 3]"))
    assert sol.status == "ok" and sol.shape("x") == "[2, 5, 3]"
    assert any("a Loop body cannot run" in w and "axis 1 of `x (as a subgraph reads it)`" in w
               for w in sol.warnings)


def test_scan_outputs_keep_the_body_names():
    # the elements [b, 1, 3] are x as the body sees it: the stacked output says so, in the
    # body's names, while x keeps its own
    from shape_logic import solve

    sol = solve(squeezing_loop(scan_output=True))
    assert sol.shape("x") == "[b, s, 3]" and sol.bindings == {}
    assert sol.shape("ys") == "[_1, b, 1, 3]"
    sol = solve(squeezing_loop(trip=3, scan_output=True))
    assert sol.shape("ys") == "[3, b, 1, 3]" and sol.bindings == {"s": 1}


def carried_loop(trip=None, cond=False):
    """A value [n, 4] carried through Relu (invariant) whose axis 0 the body squeezes."""
    body_ = body([{"op": "Relu", "inputs": ["v"], "outputs": ["v2"]},
                  {"op": "Squeeze", "inputs": ["v", "zero"], "outputs": ["w"]}], ["v2"])
    g = {"opset": 13, "inputs": {"v0": {"dtype": "f32", "shape": "[n, 4]"}},
         "initializers": {"zero": {"dtype": "i64", "shape": [1], "data": [0]}},
         "nodes": [{"name": "loop", "op": "Loop", "inputs": ["m", "c" if cond else "", "v0"],
                    "outputs": ["v"], "attrs": {"body": body_}}]}
    return with_trip_and_cond(g, trip, cond)


def test_what_the_body_requires_of_a_carried_value_binds_it_only_when_it_runs():
    from shape_logic import run, solve

    sol = solve(carried_loop())
    assert (sol.shape("v0"), sol.shape("v")) == ("[n, 4]", "[n, 4]")
    assert sol.shape("loop/v") == "[1, 4]"  # where the body runs
    assert sol.bindings == {}
    v0 = np.ones((5, 4), np.float32)
    assert run(carried_loop(), {"v0": v0, "m": np.array(0, np.int64)})["v"].shape == (5, 4)
    sol = solve(carried_loop(trip=3))
    assert (sol.shape("v0"), sol.shape("v")) == ("[1, 4]", "[1, 4]") and sol.bindings == {"n": 1}
    sol = solve(carried_loop(trip=3, cond=True))
    assert (sol.shape("v0"), sol.shape("v")) == ("[n, 4]", "[n, 4]") and sol.bindings == {}


def test_nested_bodies():
    # a loop that runs inside one that may not: x is bound only inside the outer body
    from shape_logic import solve

    inner = {"name": "inner", "op": "Loop", "inputs": ["three", "", "v"], "outputs": ["u"],
             "attrs": {"body": body([{"op": "Squeeze", "inputs": ["x", "one"], "outputs": ["q"]},
                                     {"op": "Relu", "inputs": ["v"], "outputs": ["v2"]}], ["v2"])}}

    def outer(trip):
        return {"opset": 13,
                "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 3]"},
                           "v0": {"dtype": "f32", "shape": "[n, 4]"},
                           "m": {"dtype": "i64", "shape": "[]"}},
                "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]},
                                 "three": {"dtype": "i64", "shape": [], "data": 3}},
                "nodes": [{"name": "outer", "op": "Loop", "inputs": [trip, "", "v0"],
                           "outputs": ["v"], "attrs": {"body": body(
                               [inner, {"op": "Relu", "inputs": ["u"], "outputs": ["v2"]}],
                               ["v2"])}}]}

    sol = solve(outer("m"))
    assert sol.shape("x") == "[b, s, 3]" and sol.bindings == {}
    assert sol.shape("outer/inner/q") == "[b, 3]"
    sol = solve(outer("three"))  # both run
    assert sol.shape("x") == "[b, 1, 3]" and sol.bindings == {"s": 1}


@pytest.mark.parametrize("shift, rows", [(0, "b"), (-2, "max(0, b - 2)")])
def test_a_symbolic_trip_count_gives_the_scan_outputs_its_rows(shift, rows):
    # torch's `for i in range(x.shape[0] + shift)`: M from the shape, no condition
    g = {"opset": 13, "inputs": {"x": {"dtype": "f32", "shape": "[b, 4]"}},
         "initializers": {"zero": {"dtype": "i64", "shape": [], "data": 0},
                          "shift": {"dtype": "i64", "shape": [], "data": shift}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "zero"], "outputs": ["b0"]},
                   {"op": "Add", "inputs": ["b0", "shift"], "outputs": ["m"]},
                   {"op": "Loop", "inputs": ["m", "", "x"], "outputs": ["v", "e"],
                    "attrs": {"body": DOUBLE}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("e") == f"[{rows}, b, 4]"


def growing_loop(v0="[s, n]", row="[1, n]"):
    """A sequence grown by one row each iteration (torch's export of a decoding loop):
    acc = concat(acc, row) along axis 0; the body reads `row` from the graph around it."""
    body_ = body([{"op": "Concat", "inputs": ["v", "row"], "outputs": ["v2"],
                   "attrs": {"axis": 0}}], ["v2"])
    return {"inputs": {"v0": {"dtype": "f32", "shape": v0},
                       "row": {"dtype": "f32", "shape": row},
                       "m": {"dtype": "i64", "shape": "[]"}},
            "nodes": [{"name": "loop", "op": "Loop", "inputs": ["m", "", "v0"],
                       "outputs": ["v"], "attrs": {"body": body_}}]}


@pytest.mark.parametrize("v0, row, want", [
    ("[s, n]", "[1, n]", "[_1, n]"),
    ("[s, 5]", "[1, 5]", "[_1, 5]"),
    # axis 1 is n without an iteration and 5 with one, which then needs n = 5: n (the
    # body keeps axis 1: 5 in and out, and its first input is v0)
    ("[s, n]", "[1, 5]", "[_1, n]"),
    # the body cannot take v0 (it needs rank 3): a run has no iteration, and v0 comes out;
    # the body keeps its rank and axis 1, so the final value has v0's there
    ("[s, n]", "[2, 5, 1]", "[_1, n]")])
def test_a_growing_value_keeps_what_every_iteration_and_the_initial_value_agree_on(
        v0, row, want):
    # the final value is v0 (no iteration) or the last concat: rank 2 and axis 1 either
    # way; axis 0 grows, so it stays open
    from shape_logic import run

    g = growing_loop(v0, row)
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("v") == want
    rows = [5 if d == "n" else int(d) for d in row.strip("[]").split(", ")]
    for trip in (0, 1, 3) if len(rows) == 2 else (0,):  # the executor checks every tensor
        out = run(g, {"v0": np.ones((2, 5), np.float32), "row": np.ones(rows, np.float32),
                      "m": np.array(trip, np.int64)})
        assert out["v"].shape == (2 + trip, 5)


LAST_ROW = [{"op": "Slice", "inputs": ["v", "minus1", "big", "zero"], "outputs": ["last"]}]
SHRINK = body([{"op": "Slice", "inputs": ["v", "one", "big", "zero"], "outputs": ["v2"]}],
              ["v2"])
REPEAT_LAST = body(LAST_ROW + [{"op": "Concat", "inputs": ["v", "last"], "outputs": ["v2"],
                                "attrs": {"axis": 0}}], ["v2"])


@pytest.mark.parametrize("name, body_", [("v[1:]", SHRINK), ("cat(v, v[-1:])", REPEAT_LAST)])
def test_an_axis_the_body_passes_on_is_the_initial_value_s(name, body_):
    # the body's output reaches its input through a Slice (rank kept, forward only) or a
    # Concat: the input has the initial value's rank in every iteration, and axis 1, which
    # the Slice and the Concat pass on, is n after any number of iterations (axis 0 is not)
    from shape_logic import run

    ints = {k: {"dtype": "i64", "shape": [1], "data": [v]}
            for k, v in (("one", 1), ("minus1", -1), ("big", 1 << 62), ("zero", 0))}
    g = {"opset": 13, "inputs": {"v0": {"dtype": "f32", "shape": "[s, n]"},
                                 "m": {"dtype": "i64", "shape": "[]"}},
         "initializers": ints,
         "nodes": [{"name": "loop", "op": "Loop", "inputs": ["m", "", "v0"],
                    "outputs": ["v"], "attrs": {"body": body_}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("v") == "[_1, n]", name
    # the body's input, every iteration's: v0's rank, and n at axis 1
    assert sol.shape("loop/v") == "[_2, n]"
    for trip in (0, 1, 3):  # the executor checks every tensor against the inference
        out = run(g, {"v0": np.ones((5, 4), np.float32), "m": np.array(trip, np.int64)})
        assert out["v"].shape[1] == 4


def test_what_the_body_requires_of_a_kept_axis_binds_the_initial_value_when_it_runs():
    # the body keeps axis 1 of the growing value (its input's, through the Concat), and
    # the Concat needs it to be the row's 5. A loop that may run no iteration leaves v0's
    # n open; one that surely runs (a constant trip count of 3) gives its first iteration
    # v0 itself, so n is 5 (as an invariant value's axes are, scopes.lp's scoped_dim)
    from shape_logic import run
    from shape_logic.match_cast import ExecutionError

    g = growing_loop("[s, n]", "[1, 5]")
    sol = solve(g)
    assert (sol.shape("v0"), sol.shape("v"), sol.bindings) == ("[s, n]", "[_1, n]", {})
    del g["inputs"]["m"]
    g["initializers"] = {"m": {"dtype": "i64", "shape": [], "data": 3}}
    sol = solve(g)
    assert sol.status == "ok" and sol.bindings == {"n": 5}
    # (and three rows of 1 grow axis 0 by 3: Loop.lp's loop_grow)
    assert (sol.shape("v0"), sol.shape("v"), sol.shape("loop/v")) == ("[s, 5]", "[s + 3, 5]",
                                                                      "[_1, 5]")
    row = np.ones((1, 5), np.float32)
    assert run(g, {"v0": np.ones((2, 5), np.float32), "row": row})["v"].shape == (5, 5)
    with pytest.raises(ExecutionError, match="v0"):  # n = 5: refused before the run
        run(g, {"v0": np.ones((2, 4), np.float32), "row": row})


def rnn_loop(v0: str, x: str) -> dict:
    """A scripted RNN cell: h = tanh(x + h W) carried from v0, x read from the graph around
    the body (torch's `h = tanh(W x[:, t] + U h)` from zeros(b, D))."""
    body_ = body([{"op": "Gemm", "inputs": ["v", "w"], "outputs": ["u"]},
                  {"op": "Add", "inputs": ["x", "u"], "outputs": ["a"]},
                  {"op": "Tanh", "inputs": ["a"], "outputs": ["v2"]}], ["v2", "v2"])
    return {"opset": 13, "inputs": {"v0": {"dtype": "f32", "shape": v0},
                                    "x": {"dtype": "f32", "shape": x},
                                    "m": {"dtype": "i64", "shape": "[]"}},
            "initializers": {"w": {"dtype": "f32", "shape": [4, 4], "data": [[0.5] * 4] * 4}},
            "nodes": [{"name": "loop", "op": "Loop", "inputs": ["m", "", "v0"],
                       "outputs": ["v", "hs"], "attrs": {"body": body_}}]}


@pytest.mark.parametrize("v0, x, want", [
    # the body broadcasts its input with b, which the initial value has: b in every
    # iteration (b with b is b)
    ("[b, 4]", "[b, 4]", "[b, 4]"),
    # otherwise the broadcast may change the size: 1 becomes b, c must be b if it runs
    ("[1, 4]", "[b, 4]", "[_1, 4]"),
    ("[c, 4]", "[b, 4]", "[_1, 4]")])
def test_a_broadcast_with_the_initial_value_s_size_keeps_it(v0, x, want):
    from shape_logic import run

    g = rnn_loop(v0, x)
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("v") == want
    if want == "[b, 4]":
        assert sol.shape("hs") == "[_1, b, 4]"  # (the scan output stacks v2: [m, b, 4])
    sizes = {"b": 3, "c": 3, "1": 1, "4": 4}
    shape = tuple(sizes[d] for d in v0.strip("[]").split(", "))
    # (the executor checks every tensor against the inference; it refuses scan outputs
    # of no iteration)
    for trip in (1, 3):
        out = run(g, {"v0": np.ones(shape, np.float32), "x": np.ones((3, 4), np.float32),
                      "m": np.array(trip, np.int64)})
        assert out["v"].shape == (3, 4)


@pytest.mark.parametrize("trips", [0, 2])
def test_a_loop_carrying_an_empty_optional_runs(trips):
    # the executor fed a body's carried value (and a value around it) to the body's
    # program as a plain input, where None (an empty optional) is refused: a Loop that
    # starts from an empty Optional and sets it in the body did not run (found while
    # writing fuzz --kind seq's Loop carrying an optional)
    from shape_logic import run

    body = {"inputs": ["i", "c", "v"], "outputs": ["c2", "v2", "h"], "nodes": [
        {"op": "Identity", "inputs": ["c"], "outputs": ["c2"]},
        {"op": "OptionalHasElement", "inputs": ["v"], "outputs": ["h"]},
        {"op": "Relu", "inputs": ["x"], "outputs": ["r"]},
        {"op": "Optional", "inputs": ["r"], "outputs": ["v2"]}]}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 4]"}},
         "initializers": {"m": {"dtype": "i64", "shape": [], "data": trips}},
         "nodes": [{"op": "Optional", "inputs": [], "outputs": ["o"],
                    "attrs": {"type": {"dtype": "f32", "shape": "[b, 4]"}}},
                   {"op": "Loop", "inputs": ["m", "", "o"], "outputs": ["y", "hs"],
                    "attrs": {"body": body}}]}
    out = run(g, {"x": np.ones((3, 4), np.float32)}) if trips else None
    if trips:
        assert out["y"].shape == (3, 4) and out["hs"].tolist() == [False, True]
    sol = solve(g)
    assert sol.status == "ok" and sol.optional("y")["has_element"] in (None, bool(trips))


@pytest.mark.parametrize("trips, length", [("m", 5), ("n", "n + 2")])
def test_a_sequence_of_some_elements_grown_in_a_loop_has_one_more_each_iteration(
        trips, length):
    # fuzz --kind seq --seed 3, graph 954 (missed): a sequence of 2 grown by an insertion
    # per iteration, then SequenceAt(4) after 2 iterations; only growth from empty was
    # followed (seq_grown), so the length was unknown and the failing SequenceAt passed
    from shape_logic import run

    body = {"inputs": ["i", "c", "v"], "outputs": ["c2", "v2"], "nodes": [
        {"op": "Identity", "inputs": ["c"], "outputs": ["c2"]},
        {"op": "SequenceInsert", "inputs": ["v", "x", "zero"], "outputs": ["v2"]}]}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n, 3]"}},
         "initializers": {"m": {"dtype": "i64", "shape": [], "data": 3},
                          "zero": {"dtype": "i64", "shape": [], "data": 0},
                          "at": {"dtype": "i64", "shape": [], "data": -1}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["shape"]},
                   {"op": "Gather", "inputs": ["shape", "zero"], "outputs": ["n"],
                    "attrs": {"axis": 0}},
                   {"op": "SequenceConstruct", "inputs": ["x", "x"], "outputs": ["s"]},
                   {"op": "Loop", "inputs": [trips, "", "s"], "outputs": ["y"],
                    "attrs": {"body": body}},
                   {"op": "SequenceLength", "inputs": ["y"], "outputs": ["len"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.sequence("y") == {"length": length}
    assert int(run(g, {"x": np.zeros((4, 3), np.float32)})["len"]) == (
        5 if trips == "m" else 6)
    g["nodes"].append({"op": "SequenceAt", "inputs": ["y", "m"], "outputs": ["e"]})
    g["initializers"]["m"]["data"] = 2  # 4 elements: position 2 is there, 4 is not
    assert solve(g).status == "ok"
    g["initializers"]["big"] = {"dtype": "i64", "shape": [], "data": 4}
    g["nodes"][-1]["inputs"][1] = "big"
    assert solve(g).status == ("error" if trips == "m" else "ok")  # (n + 2 may be 5)
