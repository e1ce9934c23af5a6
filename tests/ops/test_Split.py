"""Split: rules/Split.lp on data cases, and against onnx's reference on random shapes."""
import numpy as np
from hypothesis import assume, given, settings, strategies as st

from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


def outs(*shapes):
    return {f"y{k}": s for k, s in enumerate(shapes)}


CASES = {
    "split input": ({"inputs": ["[b, 6]", i64(1, 2, 3)], "attrs": {"axis": 1}, "n_outputs": 3},
                    outs("[b, 1]", "[b, 2]", "[b, 3]")),
    "negative axis": ({"inputs": ["[b, 6]", i64(2, 4)], "attrs": {"axis": -1}, "n_outputs": 2},
                      outs("[b, 2]", "[b, 4]")),
    "default axis 0": ({"inputs": ["[6, s]", i64(2, 4)], "n_outputs": 2},
                       outs("[2, s]", "[4, s]")),
    "sizes bind a symbolic axis": ({"inputs": ["[b, s]", i64(1, 2)], "attrs": {"axis": 1},
                                    "n_outputs": 2},
                                   {**outs("[b, 1]", "[b, 2]"), "bindings": {"s": 3}}),
    "zero-size piece": ({"inputs": ["[b, 4]", i64(0, 4)], "attrs": {"axis": 1},
                         "n_outputs": 2}, outs("[b, 0]", "[b, 4]")),
    "split attribute (opset 11)": ({"inputs": ["[b, 5]"], "attrs": {"axis": 1, "split": [2, 3]},
                                    "n_outputs": 2, "opset": 11}, outs("[b, 2]", "[b, 3]")),
    "equal pieces (opset 13)": ({"inputs": ["[b, 6]"], "attrs": {"axis": 1}, "n_outputs": 3,
                                 "opset": 13}, outs("[b, 2]", "[b, 2]", "[b, 2]")),
    "equal pieces, symbolic (opset 13)": ({"inputs": ["[s, c]"], "n_outputs": 2, "opset": 13},
                                          outs("[s//2, c]", "[s//2, c]")),
    "equal pieces (opset 11)": ({"inputs": ["[6]"], "n_outputs": 2, "opset": 11},
                                outs("[3]", "[3]")),
    "equal pieces backward (opset 13)": ({"inputs": ["[s, c]"], "n_outputs": 2, "opset": 13,
                                          "outputs": {"y0": {"shape": "[4, c]"}}},
                                         {"x0": "[8, c]", "y1": "[4, c]"}),
    "num_outputs, even": ({"inputs": ["[b, 6]"], "attrs": {"axis": 1, "num_outputs": 3},
                           "n_outputs": 3}, outs("[b, 2]", "[b, 2]", "[b, 2]")),
    "num_outputs, uneven last piece": ({"inputs": ["[7, c]"], "attrs": {"num_outputs": 3},
                                        "n_outputs": 3}, outs("[3, c]", "[3, c]", "[1, c]")),
    "num_outputs, symbolic": ({"inputs": ["[s]"], "attrs": {"num_outputs": 2}, "n_outputs": 2},
                              outs("[(s + 1)//2]", "[s - (s + 1)//2]")),
    "runtime sizes: the rest from the other piece": (
        {"inputs": ["[s, c]", ("i64", "[2]")], "n_outputs": 2,
         "outputs": {"y0": {"shape": "[4, c]"}, "y1": {"shape": "[t, c]"}}},
        {"y1": "[s - 4, c]", "bindings": {"t": "s - 4"}}),
    "dtype kept": ({"inputs": [("i64", "[4]"), i64(1, 3)], "n_outputs": 2},
                   {"dtypes": {"y0": "i64", "y1": "i64"}}),
    "sizes do not add up": ({"inputs": ["[b, 6]", i64(1, 2, 2)], "attrs": {"axis": 1},
                             "n_outputs": 3}, "error"),
    "more sizes than outputs": ({"inputs": ["[b, 6]", i64(1, 2, 3)], "attrs": {"axis": 1},
                                 "n_outputs": 2}, "error"),
    "negative size": ({"inputs": ["[b, 6]", i64(7, -1)], "attrs": {"axis": 1},
                       "n_outputs": 2}, "error"),
    "axis out of range": ({"inputs": ["[b, 6]", i64(3, 3)], "attrs": {"axis": 2},
                           "n_outputs": 2}, "error"),
    "uneven equal pieces (opset 13)": ({"inputs": ["[5]"], "n_outputs": 3, "opset": 13},
                                       "error"),
    "neither sizes nor num_outputs (opset 18)": ({"inputs": ["[6]"], "n_outputs": 3}, "error"),
    "both sizes and num_outputs": ({"inputs": ["[6]", i64(3, 3)], "attrs": {"num_outputs": 2},
                                    "n_outputs": 2}, "error"),
    "num_outputs differs from the outputs": ({"inputs": ["[6]"], "attrs": {"num_outputs": 3},
                                              "n_outputs": 2}, "error"),
    "num_outputs leaves a negative last piece": ({"inputs": ["[5]"],
                                                  "attrs": {"num_outputs": 4}, "n_outputs": 4},
                                                 "error"),
}


test_case = case_test("Split", CASES, OPSET)


def test_values_split():
    """Shape -> Split -> Reshape: the pieces hold the dims (shape computations)."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s, 768]"}, "d": {"shape": "D"}},
         "initializers": {"sz": {"dtype": "i64", "shape": [2], "data": [1, 2]}},
         "nodes": [
             {"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
             {"op": "Split", "inputs": ["sh", "sz"], "outputs": ["p0", "p1"]},
             {"op": "Reshape", "inputs": ["d", "p1"], "outputs": ["r"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("p0") == "[1]" and sol.shape("r") == "[s, 768]"


def composition(draw, total, k):
    """k sizes >= 0 adding up to total."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=k - 1, max_size=k - 1)))
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    # The reference accepts sizes that do not add up, negative sizes, uneven equal pieces
    # and a num_outputs that leaves a negative last piece (numpy splits whatever it gets),
    # all of which ONNX forbids: only valid cuts are drawn (the bad ones are cases above).
    # Axes are drawn from -r-1..r: out of range, the reference raises, and so must we.
    r = len(shape)
    axis = data.draw(st.integers(-r - 1, r))
    d = shape[axis] if -r <= axis < r else 1
    x = random_array(shape)
    mode = data.draw(st.sampled_from(["input", "attribute", "num_outputs", "equal"]))
    if mode in ("input", "attribute"):
        k = data.draw(st.integers(1, 3))
        sizes = composition(data.draw, d, k)
        if mode == "input":
            check_against_reference("Split", [x, i64(*sizes)], {"axis": axis}, n_outputs=k,
                                    opset=OPSET, const=[1])
        else:
            check_against_reference("Split", [x], {"axis": axis, "split": sizes}, n_outputs=k,
                                    opset=11)
    elif mode == "num_outputs":
        n = data.draw(st.integers(1, 4))
        assume(d - (n - 1) * -(-d // n) >= 0)
        check_against_reference("Split", [x], {"axis": axis, "num_outputs": n}, n_outputs=n,
                                opset=OPSET)
    else:
        n = data.draw(st.integers(1, 3))
        assume(d % n == 0)
        check_against_reference("Split", [x], {"axis": axis}, n_outputs=n, opset=13)
