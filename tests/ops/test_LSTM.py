"""LSTM: rules/LSTM.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

# hidden 5: W, R [d, 20, .], B [d, 40], P [d, 15]
CASES = {
    "defaults": ({"inputs": ["[s, b, i]", "[1, 20, i]", "[1, 20, 5]"], "n_outputs": 3},
                 {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]", "y2": "[1, b, 5]"}),
    "X and W alone give everything": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"],
                                       "n_outputs": 3},
                                      {"x2": "[1, 20, 5]", "y0": "[s, 1, b, 5]",
                                       "y1": "[1, b, 5]", "y2": "[1, b, 5]"}),
    "hidden_size alone": ({"inputs": ["[s, b, i]", "w", "r"], "attrs": {"hidden_size": 5},
                           "n_outputs": 3},
                          {"x1": "[1, 20, i]", "x2": "[1, 20, 5]", "y0": "[s, 1, b, 5]"}),
    "hidden from the bias": ({"inputs": ["[s, b, i]", "w", "r", "[1, 40]"], "n_outputs": 2},
                             {"x1": "[1, 20, i]", "y1": "[1, b, 5]"}),
    "hidden from the peepholes": ({"inputs": ["[s, b, i]", "w", "r", None, None, None, None,
                                              "[1, 15]"], "n_outputs": 1},
                                  {"y0": "[s, 1, b, 5]", "x2": "[1, 20, 5]"}),
    "symbolic hidden": ({"inputs": ["[s, b, i]", "[1, 4*h, i]", "r"], "n_outputs": 2},
                        {"x2": "[1, 4*h, h]", "y0": "[s, 1, b, h]", "y1": "[1, b, h]"}),
    "hidden binds a symbol": ({"inputs": ["[s, b, i]", "[1, 4*h, i]", "r"],
                               "attrs": {"hidden_size": 3}},
                              {"y0": "[s, 1, b, 3]", "bindings": {"h": 3}}),
    "reverse": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"], "attrs": {"direction": "reverse"},
                 "n_outputs": 3}, {"y0": "[s, 1, b, 5]", "y2": "[1, b, 5]"}),
    "bidirectional": ({"inputs": ["[s, b, i]", "w", "r"],
                       "attrs": {"direction": "bidirectional", "hidden_size": 5},
                       "n_outputs": 3},
                      {"x1": "[2, 20, i]", "x2": "[2, 20, 5]", "y0": "[s, 2, b, 5]",
                       "y1": "[2, b, 5]", "y2": "[2, b, 5]"}),
    "layout 1 (batch first)": ({"inputs": ["[b, s, i]", "[1, 20, i]", "r"],
                                "attrs": {"layout": 1}, "n_outputs": 3},
                               {"y0": "[b, s, 1, 5]", "y1": "[b, 1, 5]", "y2": "[b, 1, 5]"}),
    "every input": ({"inputs": ["[s, b, i]", "w", "r", "[1, 40]", ("i32", "[b]"), "[1, b, 5]",
                                "[1, b, 5]", "[1, 15]"], "n_outputs": 3},
                    {"x1": "[1, 20, i]", "y0": "[s, 1, b, 5]", "y2": "[1, b, 5]"}),
    "every input, layout 1": ({"inputs": ["x", "w", "r", "[2, 40]", ("i32", "[b]"),
                                          "[b, 2, 5]", "c", "p"],
                               "attrs": {"layout": 1, "direction": "bidirectional"},
                               "n_outputs": 3},
                              {"x0": "[b, _1, _2]", "x6": "[b, 2, 5]", "x7": "[2, 15]",
                               "y0": "[b, _1, 2, 5]", "y2": "[b, 2, 5]"}),
    "batch from sequence_lens": ({"inputs": ["x", "[1, 20, 3]", "r", None, ("i32", "[7]")],
                                  "outputs": {"y0": {"shape": "[2, 1, b, 5]"}}},
                                 {"x0": "[2, 7, 3]"}),
    "backward from Y": ({"inputs": ["x", "[1, 20, 3]", "r"],
                         "outputs": {"y0": {"shape": "[7, 1, 2, 5]"}}},
                        {"x0": "[7, 2, 3]"}),
    "input_forget, clip, activations": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"],
                                         "attrs": {"input_forget": 1, "clip": 3.0,
                                                   "activations": ["Sigmoid", "Tanh", "Relu"]},
                                         "n_outputs": 3},
                                        {"y0": "[s, 1, b, 5]", "y2": "[1, b, 5]"}),
    "dtype": ({"inputs": [("f16", "[s, b, i]"), ("f16", "[1, 20, i]"), ("f16", "r")],
               "n_outputs": 2},
              {"dtypes": {"y0": "f16", "y1": "f16", "x2": "f16"}}),
    "opset 7": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"], "n_outputs": 2, "opset": 7},
                {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    # errors
    "gates not a multiple of 4": ({"inputs": ["[s, b, i]", "[1, 21, i]", "r"]}, "error"),
    "hidden_size disagrees": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"],
                               "attrs": {"hidden_size": 4}}, "error"),
    "R disagrees with W": ({"inputs": ["[s, b, i]", "[1, 20, i]", "[1, 16, 4]"]}, "error"),
    "two directions, forward": ({"inputs": ["[s, b, i]", "[2, 20, i]", "r"]}, "error"),
    "one direction, bidirectional": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"],
                                      "attrs": {"direction": "bidirectional"}}, "error"),
    "unknown direction": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"],
                           "attrs": {"direction": "sideways"}}, "error"),
    "input size disagrees": ({"inputs": ["[s, b, 3]", "[1, 20, 4]", "r"]}, "error"),
    "X not 3-D": ({"inputs": ["[b, i]", "[1, 20, i]", "r"]}, "error"),
    "bias of the wrong size": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r", "[1, 20]"]},
                               "error"),
    "initial_h batch disagrees": ({"inputs": ["[s, 2, i]", "[1, 20, i]", "r", None, None,
                                              "[1, 3, 5]"]}, "error"),
    "sequence_lens not int32": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r", None,
                                            ("i64", "[b]")]}, "error"),
    "layout before opset 14": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"],
                                "attrs": {"layout": 1}, "opset": 13}, "error"),
    "four outputs": ({"inputs": ["[s, b, i]", "[1, 20, i]", "r"], "n_outputs": 4}, "error"),
}


test_case = case_test("LSTM", CASES)


dims = st.integers(1, 3)


@settings(max_examples=20, deadline=None)
@given(dims, dims, dims, dims, st.sampled_from(["forward", "reverse", "bidirectional"]),
       st.integers(0, 1), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["none", "input size", "gates", "directions"]))
def test_matches_reference(seq, batch, inp, hidden, direction, layout, bias, initial, peep,
                           spoil):
    d = 2 if direction == "bidirectional" else 1
    w_shape = [d, 4 * hidden, inp]
    if spoil == "input size":
        w_shape[2] += 1
    elif spoil == "gates":
        w_shape[1] += 1
    elif spoil == "directions":
        w_shape[0] = 3 - d
    x = [batch, seq, inp] if layout else [seq, batch, inp]
    state = [batch, d, hidden] if layout else [d, batch, hidden]
    arrays = [random_array(x), random_array(w_shape), random_array([d, 4 * hidden, hidden]),
              random_array([d, 8 * hidden]) if bias else None, None,
              random_array(state) if initial else None,
              random_array(state) if initial else None,
              random_array([d, 3 * hidden]) if peep else None]
    while arrays[-1] is None:
        arrays.pop()
    attrs = {"hidden_size": hidden, "direction": direction, "layout": layout}
    check_against_reference("LSTM", arrays, attrs, n_outputs=3)
