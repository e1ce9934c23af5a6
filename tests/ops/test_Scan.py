"""Scan: rules/Scan.lp on data cases (bodies as graph objects), and the kernel against onnx's
reference (tests/kernels/test_nn.py::test_scan)."""
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
