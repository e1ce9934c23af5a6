"""Scan: rules/Scan.lp on data cases (bodies as graph objects), and the kernel against onnx's
reference (tests/kernels/test_nn.py::test_scan)."""
import numpy as np
import pytest

from shape_logic.testing import check_case

# a running sum: state s [n], slice x [n]; outputs the next state and a copy of it
ACC = {"inputs": ["s", "x"], "outputs": ["s2", "y"],
       "nodes": [{"op": "Add", "inputs": ["s", "x"], "outputs": ["s2"]},
                 {"op": "Identity", "inputs": ["s2"], "outputs": ["y"]}]}
# no state: each slice [a, b] becomes its transpose [b, a]
TRANSPOSE = {"inputs": ["x"], "outputs": ["y"],
             "nodes": [{"op": "Transpose", "inputs": ["x"], "outputs": ["y"]}]}


def scan(inputs, body, n_outputs=2, **attrs):
    return {"inputs": inputs, "attrs": {"body": body, "num_scan_inputs": 1, **attrs},
            "n_outputs": n_outputs}


CASES = {
    "running sum": (scan(["[n]", "[s, n]"], ACC), {"y0": "[n]", "y1": "[s, n]"}),
    # a state of unknown rank plus a slice [4] stays itself: any row ending in 4
    "state from the sequence": (scan(["x", "[s, 4]"], ACC), {"x0": "_1@[4]", "y0": "_1@[4]"}),
    "backwards from the outputs": (
        {**scan(["[n]", "[s, m]"], ACC), "outputs": {"y1": {"shape": "[7, 3]"}}},
        {"x1": "[7, m]", "bindings": {"n": 3, "s": 7}}),  # m may be 1 (broadcast)
    "scan axis 1": (scan(["[n]", "[n, s]"], ACC, scan_input_axes=[1]),
                    {"y1": "[s, n]"}),
    "negative scan axis": (scan(["[n]", "[n, s]"], ACC, scan_input_axes=[-1]),
                           {"y1": "[s, n]"}),
    "output axis 1": (scan(["[2, 3]", "[s, 2, 3]"], ACC, scan_output_axes=[1]),
                      {"y1": "[2, s, 3]"}),
    "no state": (scan(["[s, a, b]"], TRANSPOSE, n_outputs=1), {"y0": "[s, b, a]"}),
    "directions keep shapes": (scan(["[n]", "[s, n]"], ACC, scan_input_directions=[1],
                                    scan_output_directions=[1]), {"y1": "[s, n]"}),
    # errors
    "state and slice differ": (scan(["[3]", "[s, 4]"], ACC), "error"),
    "scan axis out of range": (scan(["[n]", "[s, n]"], ACC, scan_input_axes=[2]), "error"),
    "body takes another number of inputs": (scan(["[n]", "[n]", "[s, n]"], ACC), "error"),
    "opset 8": ({**scan(["[n]", "[s, n]"], ACC), "opset": 8}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("Scan", *CASES[name])


# ----- what the body requires of the tensors around it holds only when it runs

def squeezing_scan(xs="[t, n]", nonzero=False):
    """A running sum over xs whose body also squeezes axis 1 of z, a tensor of the graph
    around it (it must be 1 when the body runs); with `nonzero`, xs is the [count, 2]
    coordinates of a NonZero, a count that may be 0."""
    g = {"opset": 13,
         "inputs": {"z": {"dtype": "f32", "shape": "[b, s]"},
                    "h0": {"dtype": "f32", "shape": "[n]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]}},
         "nodes": [{"name": "scan", "op": "Scan", "inputs": ["h0", "xs"], "outputs": ["hT"],
                    "attrs": {"num_scan_inputs": 1, "body": {
                        "inputs": ["h", "x"], "outputs": ["h2"], "nodes": [
                            {"op": "Add", "inputs": ["h", "x"], "outputs": ["h2"]},
                            {"op": "Squeeze", "inputs": ["z", "one"], "outputs": ["q"]}]}}}]}
    if nonzero:
        g["inputs"]["c"] = {"dtype": "f32", "shape": "[k, 4]"}
        g["nodes"] += [{"name": "nz", "op": "NonZero", "inputs": ["c"], "outputs": ["idx"]},
                       {"name": "tr", "op": "Transpose", "inputs": ["idx"], "outputs": ["it"]},
                       {"name": "f", "op": "Cast", "inputs": ["it"], "outputs": ["xs"],
                        "attrs": {"to": 1}}]
    else:
        g["inputs"]["xs"] = {"dtype": "f32", "shape": xs}
    return g


def test_an_empty_sequence_binds_nothing_the_body_reads():
    # length 0: no step runs, z (2, 5) is fine, and so is a state of another size than
    # the slices (the final state is the initial one)
    from shape_logic import run, solve

    sol = solve(squeezing_scan("[0, 5]"))
    assert sol.status == "ok" and sol.bindings == {}
    assert (sol.shape("z"), sol.shape("h0"), sol.shape("hT")) == ("[b, s]", "[n]", "[n]")
    assert sol.shape("scan/h") == "[5]"  # inside, where it runs, the state is a slice's size
    out = run(squeezing_scan("[0, 5]"), {"z": np.ones((2, 5), np.float32),
                                          "h0": np.ones(3, np.float32),
                                          "xs": np.ones((0, 5), np.float32)})
    np.testing.assert_array_equal(out["hT"], np.ones(3, np.float32))
    # a NonZero count may be 0 too
    sol = solve(squeezing_scan(nonzero=True))
    assert (sol.shape("z"), sol.shape("h0")) == ("[b, s]", "[n]") and sol.bindings == {}


def test_a_symbolic_length_is_not_empty():
    # symbols are >= 1: the body runs, and what it requires holds (as for an integer >= 1)
    from shape_logic import solve

    for xs in ("[t, n]", "[3, n]"):
        sol = solve(squeezing_scan(xs))
        assert sol.shape("z") == "[b, 1]" and sol.bindings == {"s": 1}
    sol = solve(squeezing_scan("[t, 4]"))
    assert sol.shape("h0") == "[4]" and sol.bindings == {"n": 4, "s": 1}
