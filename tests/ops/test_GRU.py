"""GRU: rules/GRU.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

# hidden 5: W, R [d, 15, .], B [d, 30]
CASES = {
    "defaults": ({"inputs": ["[s, b, i]", "[1, 15, i]", "[1, 15, 5]"], "n_outputs": 2},
                 {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "X and W alone give everything": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"],
                                       "n_outputs": 2},
                                      {"x2": "[1, 15, 5]", "y0": "[s, 1, b, 5]",
                                       "y1": "[1, b, 5]"}),
    "hidden_size alone": ({"inputs": ["[s, b, i]", "w", "r"], "attrs": {"hidden_size": 5},
                           "n_outputs": 2},
                          {"x1": "[1, 15, i]", "x2": "[1, 15, 5]", "y0": "[s, 1, b, 5]"}),
    "hidden from the bias": ({"inputs": ["[s, b, i]", "w", "r", "[1, 30]"], "n_outputs": 2},
                             {"x1": "[1, 15, i]", "y1": "[1, b, 5]"}),
    "symbolic hidden": ({"inputs": ["[s, b, i]", "[1, 3*h, i]", "r"], "n_outputs": 2},
                        {"x2": "[1, 3*h, h]", "y0": "[s, 1, b, h]", "y1": "[1, b, h]"}),
    "linear_before_reset": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"],
                             "attrs": {"linear_before_reset": 1}, "n_outputs": 2},
                            {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "reverse": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"], "attrs": {"direction": "reverse"},
                 "n_outputs": 2}, {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "bidirectional": ({"inputs": ["[s, b, i]", "w", "r"],
                       "attrs": {"direction": "bidirectional", "hidden_size": 5},
                       "n_outputs": 2},
                      {"x1": "[2, 15, i]", "y0": "[s, 2, b, 5]", "y1": "[2, b, 5]"}),
    "layout 1 (batch first)": ({"inputs": ["[b, s, i]", "[1, 15, i]", "r"],
                                "attrs": {"layout": 1}, "n_outputs": 2},
                               {"y0": "[b, s, 1, 5]", "y1": "[b, 1, 5]"}),
    "every input": ({"inputs": ["[s, b, i]", "w", "r", "[1, 30]", ("i32", "[b]"),
                                "[1, b, 5]"], "n_outputs": 2},
                    {"x1": "[1, 15, i]", "y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "every input, layout 1": ({"inputs": ["x", "w", "r", "[2, 30]", ("i32", "[b]"), "h"],
                               "attrs": {"layout": 1, "direction": "bidirectional"},
                               "n_outputs": 2},
                              {"x0": "[b, _1, _2]", "x5": "[b, 2, 5]", "y0": "[b, _1, 2, 5]",
                               "y1": "[b, 2, 5]"}),
    "Y only": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"]}, {"y0": "[s, 1, b, 5]"}),
    "backward from Y": ({"inputs": ["x", "[1, 15, 3]", "r"],
                         "outputs": {"y0": {"shape": "[7, 1, 2, 5]"}}},
                        {"x0": "[7, 2, 3]"}),
    "dtype": ({"inputs": [("f64", "[s, b, i]"), ("f64", "[1, 15, i]"), ("f64", "r")],
               "n_outputs": 2}, {"dtypes": {"y0": "f64", "y1": "f64"}}),
    "opset 7": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"], "n_outputs": 2, "opset": 7},
                {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    # errors
    "gates not a multiple of 3": ({"inputs": ["[s, b, i]", "[1, 16, i]", "r"]}, "error"),
    "hidden_size disagrees": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"],
                               "attrs": {"hidden_size": 4}}, "error"),
    "two directions, forward": ({"inputs": ["[s, b, i]", "[2, 15, i]", "r"]}, "error"),
    "unknown direction": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"],
                           "attrs": {"direction": "up"}}, "error"),
    "input size disagrees": ({"inputs": ["[s, b, 3]", "[1, 15, 4]", "r"]}, "error"),
    "bias of the wrong size": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r", "[1, 15]"]},
                               "error"),
    "initial_h batch disagrees": ({"inputs": ["[s, 2, i]", "[1, 15, i]", "r", None, None,
                                              "[1, 3, 5]"]}, "error"),
    "layout before opset 14": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"],
                                "attrs": {"layout": 1}, "opset": 13}, "error"),
    "seven inputs": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r", None, None, None, "c"]},
                     "error"),
    "three outputs": ({"inputs": ["[s, b, i]", "[1, 15, i]", "r"], "n_outputs": 3}, "error"),
}


test_case = case_test("GRU", CASES)


dims = st.integers(1, 3)


@settings(max_examples=20, deadline=None)
@given(dims, dims, dims, dims, st.sampled_from(["forward", "reverse", "bidirectional"]),
       st.integers(0, 1), st.integers(0, 1), st.booleans(), st.booleans(),
       st.sampled_from(["none", "input size", "gates", "directions"]))
def test_matches_reference(seq, batch, inp, hidden, direction, layout, linear, bias, initial,
                           spoil):
    d = 2 if direction == "bidirectional" else 1
    w_shape = [d, 3 * hidden, inp]
    if spoil == "input size":
        w_shape[2] += 1
    elif spoil == "gates":
        w_shape[1] += 1
    elif spoil == "directions":
        w_shape[0] = 3 - d
    x = [batch, seq, inp] if layout else [seq, batch, inp]
    state = [batch, d, hidden] if layout else [d, batch, hidden]
    arrays = [random_array(x), random_array(w_shape), random_array([d, 3 * hidden, hidden]),
              random_array([d, 6 * hidden]) if bias else None, None,
              random_array(state) if initial else None]
    while arrays[-1] is None:
        arrays.pop()
    attrs = {"hidden_size": hidden, "direction": direction, "layout": layout,
             "linear_before_reset": linear}
    check_against_reference("GRU", arrays, attrs, n_outputs=2)
