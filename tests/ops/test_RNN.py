"""RNN: rules/RNN.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

# hidden 5: W, R [d, 5, .], B [d, 10]
CASES = {
    "defaults": ({"inputs": ["[s, b, i]", "[1, 5, i]", "[1, 5, 5]"], "n_outputs": 2},
                 {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "X and W alone give everything": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r"],
                                       "n_outputs": 2},
                                      {"x2": "[1, 5, 5]", "y0": "[s, 1, b, 5]",
                                       "y1": "[1, b, 5]"}),
    "hidden_size alone": ({"inputs": ["[s, b, i]", "w", "r"], "attrs": {"hidden_size": 5},
                           "n_outputs": 2},
                          {"x1": "[1, 5, i]", "x2": "[1, 5, 5]", "y0": "[s, 1, b, 5]"}),
    "hidden from the bias": ({"inputs": ["[s, b, i]", "w", "r", "[1, 10]"], "n_outputs": 2},
                             {"x1": "[1, 5, i]", "y1": "[1, b, 5]"}),
    "hidden from R": ({"inputs": ["[s, b, i]", "w", "[1, h, h]"], "n_outputs": 2},
                      {"x1": "[1, h, i]", "y1": "[1, b, h]"}),
    "symbolic bias": ({"inputs": ["[s, b, i]", "w", "r", "[1, 2*h]"], "n_outputs": 2},
                      {"x1": "[1, h, i]", "y0": "[s, 1, b, h]"}),
    "activations": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r"],
                     "attrs": {"activations": ["Relu"]}, "n_outputs": 2},
                    {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "reverse": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r"], "attrs": {"direction": "reverse"},
                 "n_outputs": 2}, {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "bidirectional": ({"inputs": ["[s, b, i]", "w", "r"],
                       "attrs": {"direction": "bidirectional", "hidden_size": 5},
                       "n_outputs": 2},
                      {"x1": "[2, 5, i]", "y0": "[s, 2, b, 5]", "y1": "[2, b, 5]"}),
    "layout 1 (batch first)": ({"inputs": ["[b, s, i]", "[1, 5, i]", "r"],
                                "attrs": {"layout": 1}, "n_outputs": 2},
                               {"y0": "[b, s, 1, 5]", "y1": "[b, 1, 5]"}),
    "every input": ({"inputs": ["[s, b, i]", "w", "r", "[1, 10]", ("i32", "[b]"),
                                "[1, b, 5]"], "n_outputs": 2},
                    {"x1": "[1, 5, i]", "y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "every input, layout 1": ({"inputs": ["x", "w", "r", "[2, 10]", ("i32", "[b]"), "h"],
                               "attrs": {"layout": 1, "direction": "bidirectional"},
                               "n_outputs": 2},
                              {"x0": "[b, _1, _2]", "x5": "[b, 2, 5]", "y0": "[b, _1, 2, 5]",
                               "y1": "[b, 2, 5]"}),
    "backward from Y_h": ({"inputs": ["[s, b, 3]", "w", "r"], "n_outputs": 2,
                           "outputs": {"y1": {"shape": "[1, 2, 5]"}}},
                          {"x1": "[1, 5, 3]", "y0": "[s, 1, 2, 5]", "bindings": {"b": 2}}),
    "opset 7": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r"], "n_outputs": 2, "opset": 7},
                {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    # errors
    "bias not twice hidden": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r", "[1, 9]"]}, "error"),
    "hidden_size disagrees": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r"],
                               "attrs": {"hidden_size": 4}}, "error"),
    "R not square": ({"inputs": ["[s, b, i]", "w", "[1, 5, 4]"]}, "error"),
    "two directions, reverse": ({"inputs": ["[s, b, i]", "[2, 5, i]", "r"],
                                 "attrs": {"direction": "reverse"}}, "error"),
    "input size disagrees": ({"inputs": ["[s, b, 3]", "[1, 5, 4]", "r"]}, "error"),
    "bad layout": ({"inputs": ["[s, b, i]", "[1, 5, i]", "r"], "attrs": {"layout": 2}},
                   "error"),
    "W not 3-D": ({"inputs": ["[s, b, i]", "[5, i]", "r"]}, "error"),
}


test_case = case_test("RNN", CASES)


dims = st.integers(1, 3)


@settings(max_examples=20, deadline=None)
@given(dims, dims, dims, dims, st.sampled_from(["forward", "reverse", "bidirectional"]),
       st.integers(0, 1), st.booleans(), st.booleans(),
       st.sampled_from(["none", "input size", "bias", "directions"]))
def test_matches_reference(seq, batch, inp, hidden, direction, layout, bias, initial, spoil):
    d = 2 if direction == "bidirectional" else 1
    w_shape, b_shape = [d, hidden, inp], [d, 2 * hidden]
    if spoil == "input size":
        w_shape[2] += 1
    elif spoil == "bias":
        b_shape[1] += 1  # odd: the reference cannot split it in two
        bias = True
    elif spoil == "directions":
        w_shape[0] = 3 - d
    x = [batch, seq, inp] if layout else [seq, batch, inp]
    state = [batch, d, hidden] if layout else [d, batch, hidden]
    arrays = [random_array(x), random_array(w_shape), random_array([d, hidden, hidden]),
              random_array(b_shape) if bias else None, None,
              random_array(state) if initial else None]
    while arrays[-1] is None:
        arrays.pop()
    attrs = {"hidden_size": hidden, "direction": direction, "layout": layout}
    check_against_reference("RNN", arrays, attrs, n_outputs=2)
