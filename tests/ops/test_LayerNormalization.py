"""LayerNormalization: rules/LayerNormalization.lp on data cases, and against onnx's reference."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

CASES = {
    "default axis, all outputs": ({"inputs": ["[b, s, d]", "[d]", "[d]"], "n_outputs": 3},
                                  {"y0": "[b, s, d]", "y1": "[b, s, 1]", "y2": "[b, s, 1]",
                                   "dtypes": {"y1": "f32", "y2": "f32"}}),
    "axis 1": ({"inputs": ["[a, b, c, d]", "[b, c, d]"], "attrs": {"axis": 1}, "n_outputs": 2},
               {"y1": "[a, 1, 1, 1]"}),
    "axis 0": ({"inputs": ["[a, b]", "[a, b]"], "attrs": {"axis": 0}, "n_outputs": 3},
               {"y1": "[1, 1]", "y2": "[1, 1]"}),
    "negative axis": ({"inputs": ["[a, b, c, d]", "[c, d]"], "attrs": {"axis": -2}, "n_outputs": 3},
                      {"y2": "[a, b, 1, 1]"}),
    "Scale binds X's axis": ({"inputs": ["[b, s, d]", "[64]"]},
                             {"y0": "[b, s, 64]", "bindings": {"d": 64}}),
    "Scale with 1s broadcasts": ({"inputs": ["[2, 3, 4]", "[3, 1]", "[1]"], "attrs": {"axis": 1}},
                                 {"y0": "[2, 3, 4]"}),
    "symbolic Scale axes that may be 1 are left alone": ({"inputs": ["[2, 3, 4]", "[s, t]"],
                                                         "attrs": {"axis": 1}},
                                                        {"x1": "[s, t]", "bindings": {}}),
    "X's 1 makes Scale's 1": ({"inputs": ["[2, 1, 4]", "[s, t]"], "attrs": {"axis": 1}},
                              {"x1": "[1, t]", "bindings": {"s": 1}}),
    "stash_type gives the statistics' dtype": ({"inputs": [("f16", "[2, 3]"), ("f16", "[3]")],
                                                "attrs": {"stash_type": 16}, "n_outputs": 3},
                                               {"dtypes": {"y0": "f16", "y1": "bf16",
                                                           "y2": "bf16"}}),
    "f16 input, f32 statistics": ({"inputs": [("f16", "[2, 3]"), ("f16", "[3]")], "n_outputs": 2},
                                  {"dtypes": {"y0": "f16", "y1": "f32"}}),
    "backward": ({"inputs": ["[b, s, d]", "[e]"], "attrs": {"axis": 1}, "n_outputs": 2,
                  "outputs": {"y1": {"shape": "[4, 1, 1]"}}},
                 {"x0": "[4, s, d]", "bindings": {"b": 4}}),
    # errors
    "integer input": ({"inputs": [("i32", "[2, 3]"), ("i32", "[3]")]}, "error"),
    "scalar": ({"inputs": ["[]", "[]"]}, "error"),
    "axis out of range": ({"inputs": ["[2, 3, 4]", "[3, 4]"], "attrs": {"axis": 3}}, "error"),
    "axis out of range, negative": ({"inputs": ["[2, 3, 4]", "[3, 4]"], "attrs": {"axis": -4}},
                                    "error"),
    "Scale clashes": ({"inputs": ["[2, 3, 4]", "[5]"], "attrs": {"axis": 1}}, "error"),
    "B clashes": ({"inputs": ["[2, 3, 4]", "[4]", "[3]"]}, "error"),
    "Scale broadcasts the other way": ({"inputs": ["[2, 1, 4]", "[3, 4]"], "attrs": {"axis": 1}},
                                       "error"),
    "Scale of higher rank": ({"inputs": ["[3, 4]", "[1, 3, 4]"], "attrs": {"axis": 0}}, "error"),
    "statistics keep 1s": ({"inputs": ["[2, 3]", "[3]"], "n_outputs": 2,
                            "outputs": {"y1": {"shape": "[2, 3]"}}}, "error"),
    "Scale dtype": ({"inputs": [("f16", "[2, 3]"), ("f32", "[3]")]}, "error"),
    "one input": ({"inputs": ["[2, 3]"]}, "error"),
}


test_case = case_test("LayerNormalization", CASES)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), max_size=4), st.one_of(st.none(), st.integers(-5, 4)),
       st.lists(st.sampled_from([0, 0, 0, 1, 2]), max_size=4), st.integers(0, 4),
       st.booleans(), st.integers(1, 3))
def test_matches_reference(x_shape, axis, kinds, scale_rank, with_bias, n_outputs):
    r = len(x_shape)
    a = -1 if axis is None else axis
    attrs = {} if axis is None else {"axis": axis}
    # Scale: the last scale_rank axes of X, each X's, 1, or X's + 1 (a clash)
    tail = x_shape[r - min(scale_rank, r):]
    scale = [[d, 1, d + 1][k] for d, k in zip(tail, kinds + [0] * len(tail))]
    arrays = [random_array(x_shape), random_array(scale)]
    if with_bias:
        arrays.append(random_array(tail))
    if not -r <= a < r or any(s != d and d == 1 for s, d in zip(scale, tail)):
        # out of range (the reference may run it), or a Scale broadcasting X (the
        # reference broadcasts both ways, onnxruntime rejects)
        sol = infer("LayerNormalization", [list(x.shape) for x in arrays], attrs, n_outputs,
                    opset=17)
        assert sol.status == "error"
        return
    check_against_reference("LayerNormalization", arrays, attrs, n_outputs=n_outputs, opset=17)


def test_statistics_have_the_stash_type_in_the_kernel_too():
    """Mean and InvStdDev of an f16 X are f32 (stash_type 1), in the rules, in our kernel and
    in onnxruntime (onnx's reference gives them X's type)."""
    import numpy as np

    from shape_logic.kernels import load_kernel
    from shape_logic.testing import infer
    from tests.kernels.reference import ort_outputs

    x, scale = np.ones((2, 3, 4), np.float16), np.ones(4, np.float16)
    sol = infer("LayerNormalization", [("f16", "[2, 3, 4]"), ("f16", "[4]")], n_outputs=3,
                opset=17)
    got = load_kernel("LayerNormalization")({}, opset=17, n_outputs=3)(x, scale)
    want = ort_outputs("LayerNormalization", [x, scale], {}, 3, 17, ())
    assert [sol.dtype(f"y{k}") for k in range(3)] == ["f16", "f32", "f32"]
    assert [g.dtype for g in got] == [w.dtype for w in want] == [np.float16, np.float32,
                                                                   np.float32]
