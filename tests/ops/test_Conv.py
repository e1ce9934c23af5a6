"""Conv: rules/Conv.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

CASES = {
    "kernel past 15 bits (by @calc)": ({"inputs": ["[1, 1, 100000]", "[1, 1, 40000]"],
                                        "attrs": {"dilations": [2]}},
                                       {"y0": "[1, 1, 20002]"}),
    "2-D, pads and strides": ({"inputs": ["[n, c, h, w]", "[m, c, 3, 3]"],
                               "attrs": {"pads": [1, 1, 1, 1], "strides": [2, 2]}},
                              {"y0": "[n, m, (h + 1)//2, (w + 1)//2]"}),
    "kernel from W, symbolic": ({"inputs": ["[n, c, h, w]", "[m, c, k, k]"]},
                                {"y0": "[n, m, h - k + 1, w - k + 1]"}),
    "1-D dilations and bias": ({"inputs": ["[1, 2, 10]", "[4, 2, 3]", "[b]"],
                                "attrs": {"dilations": [2]}},
                               {"y0": "[1, 4, 6]", "x2": "[4]"}),
    "3-D, every attribute": ({"inputs": ["[n, c, d1, d2, d3]", "[m, c, 1, 2, 3]"],
                              "attrs": {"strides": [1, 2, 3], "dilations": [3, 2, 1],
                                        "pads": [0, 1, 2, 2, 1, 0], "kernel_shape": [1, 2, 3]}},
                             {"y0": "[n, m, d1 + 2, (d2 + 1)//2, (d3 + 2)//3]"}),
    "asymmetric pads": ({"inputs": ["[1, 1, 7, 5]", "[1, 1, 3, 3]"],
                         "attrs": {"pads": [1, 0, 1, 0], "strides": [2, 2]}},
                        {"y0": "[1, 1, 4, 2]"}),
    "SAME_UPPER": ({"inputs": ["[1, 2, h]", "[4, 2, 3]"],
                    "attrs": {"auto_pad": "SAME_UPPER", "strides": [2]}},
                   {"y0": "[1, 4, (h + 1)//2]"}),
    "SAME_LOWER ignores dilations": ({"inputs": ["[1, 2, h, w]", "[4, 2, 3, 3]"],
                                      "attrs": {"auto_pad": "SAME_LOWER", "strides": [2, 3],
                                                "dilations": [2, 2]}},
                                     {"y0": "[1, 4, (h + 1)//2, (w + 2)//3]"}),
    "VALID": ({"inputs": ["[1, 3, h]", "[8, 3, 3]"],
               "attrs": {"auto_pad": "VALID", "strides": [2]}},
              {"y0": "[1, 8, (h + 1)//2 - 1]"}),
    "explicit zero pads": ({"inputs": ["[1, 3, 6]", "[8, 3, 3]"], "attrs": {"pads": [0, 0]}},
                           {"y0": "[1, 8, 4]"}),
    "group binds W's channels": ({"inputs": ["[n, 4, h]", "[m, c, 3]"], "attrs": {"group": 2}},
                                 {"x1": "[m, 2, 3]", "bindings": {"c": 2}}),
    "group gives X's channels": ({"inputs": ["[n, c, 5]", "[6, 2, 3]"], "attrs": {"group": 3}},
                                 {"x0": "[n, 6, 5]", "y0": "[n, 6, 3]", "bindings": {"c": 6}}),
    "rank from kernel_shape": ({"inputs": ["s", "w"], "attrs": {"kernel_shape": [3, 3]}},
                               {"x0": "[_1, _2, _3, _4]", "x1": "[_5, _6, 3, 3]"}),
    "rank and channels from W": ({"inputs": ["s", "[8, 3, 3, 3]"]},
                                 {"x0": "[_1, 3, _2, _3]", "y0": "[_1, 8, _4, _5]"}),
    "backward: everything bound": ({"inputs": ["[b, c, h]", "[m, 3, 3]"],
                                    "outputs": {"y0": {"shape": "[2, 8, 30]"}}},
                                   {"x0": "[2, 3, 32]", "x1": "[8, 3, 3]",
                                    "bindings": {"b": 2, "c": 3, "h": 32, "m": 8}}),
    "backward: strided output leaves a range": (
        {"inputs": ["[1, 3, h, h]", "[8, 3, 3, 3]"],
         "attrs": {"pads": [1, 1, 1, 1], "strides": [2, 2]},
         "outputs": {"y0": {"shape": "[1, 8, 112, 112]"}}},
        {"x0": "[1, 3, h, h]", "bindings": {}}),
    "dtype f16": ({"inputs": [("f16", "[1, 2, 5]"), ("f16", "[4, 2, 3]")]},
                  {"y0": "[1, 4, 3]", "dtypes": {"y0": "f16"}}),
    # errors
    "integer input": ({"inputs": [("i32", "[1, 2, 5]"), ("i32", "[4, 2, 3]")]}, "error"),
    "dtype mismatch": ({"inputs": [("f32", "[1, 2, 5]"), ("f16", "[4, 2, 3]")]}, "error"),
    "channel mismatch": ({"inputs": ["[1, 3, 5]", "[4, 2, 3]"]}, "error"),
    "group does not divide M": ({"inputs": ["[1, 4, 5]", "[3, 2, 3]"], "attrs": {"group": 2}},
                                "error"),
    "group does not divide C": ({"inputs": ["[1, 5, 5]", "[4, c, 3]"], "attrs": {"group": 2}},
                                "error"),
    "group 0": ({"inputs": ["[1, 4, 5]", "[4, 2, 3]"], "attrs": {"group": 0}}, "error"),
    "bias length": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]", "[3]"]}, "error"),
    "bias rank": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]", "[4, 1]"]}, "error"),
    "rank 2": ({"inputs": ["[1, 4]", "[4, 4]"]}, "error"),
    "W rank differs": ({"inputs": ["[1, 4, 5]", "[4, 4, 3, 1]"]}, "error"),
    "kernel_shape clashes with W": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"],
                                     "attrs": {"kernel_shape": [2]}}, "error"),
    "kernel_shape length": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"],
                             "attrs": {"kernel_shape": [3, 3]}}, "error"),
    "strides length": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"strides": [1, 1]}},
                       "error"),
    "dilations length": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"dilations": [1, 1]}},
                         "error"),
    "pads length": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"pads": [1, 1, 1]}}, "error"),
    "zero stride": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"strides": [0]}}, "error"),
    "zero dilation": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"dilations": [0]}}, "error"),
    "zero kernel": ({"inputs": ["[1, 2, 5]", "[4, 2, 0]"]}, "error"),
    "negative pads": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"pads": [-1, 1]}}, "error"),
    "pads with auto_pad": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"],
                            "attrs": {"pads": [0, 0], "auto_pad": "VALID"}}, "error"),
    "unknown auto_pad": ({"inputs": ["[1, 2, 5]", "[4, 2, 3]"], "attrs": {"auto_pad": "FOO"}},
                         "error"),
    "kernel larger than input": ({"inputs": ["[1, 2, 2]", "[4, 2, 3]"]}, "error"),
    "dilated kernel larger than input": ({"inputs": ["[1, 2, 4]", "[4, 2, 3]"],
                                          "attrs": {"dilations": [2], "strides": [2]}}, "error"),
    "backward: output too small for the kernel": ({"inputs": ["[1, 2, h]", "[4, 2, 3]"],
                                                   "outputs": {"y0": {"shape": "[1, 4, 0]"}}},
                                                  "error"),
}


test_case = case_test("Conv", CASES)


def test_backward_range():
    # (h + 2 - 3)//2 + 1 = 112 has two solutions: h is 223 or 224, never a guess
    spec, _ = CASES["backward: strided output leaves a range"]
    sol = infer("Conv", spec["inputs"], spec["attrs"], outputs=spec["outputs"])
    assert sol.status == "ok"
    assert sol.to_json()["ranges"] == {"h": [223, 224]}


AUTO_PADS = ["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]


@st.composite
def conv_cases(draw):
    nsp = draw(st.integers(1, 2))
    group = draw(st.integers(1, 3))
    c_per_group, m_per_group = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    c, m = group * c_per_group, group * m_per_group
    if draw(st.integers(0, 7)) == 0:  # channels that do not fit the groups
        c += 1
    if draw(st.integers(0, 7)) == 0:
        m += 1
    spatial = draw(st.lists(st.integers(1, 6), min_size=nsp, max_size=nsp))
    kernel = draw(st.lists(st.integers(1, 3), min_size=nsp, max_size=nsp))
    x_shape = [draw(st.integers(1, 2)), c] + spatial
    w_shape = [m, c_per_group] + kernel
    attrs = {}
    if group > 1 or draw(st.booleans()):
        attrs["group"] = group
    auto_pad = draw(st.sampled_from(AUTO_PADS))
    if auto_pad != "NOTSET" or draw(st.booleans()):
        attrs["auto_pad"] = auto_pad

    def ints(lo, hi, n=nsp):
        return st.lists(st.integers(lo, hi), min_size=n, max_size=n)

    if draw(st.booleans()):
        attrs["strides"] = draw(ints(1, 3))
    if draw(st.booleans()):
        attrs["dilations"] = draw(ints(1, 2))
    if (auto_pad == "NOTSET" and draw(st.booleans())) or draw(st.integers(0, 9)) == 0:
        attrs["pads"] = draw(ints(0, 2, 2 * nsp))
    if draw(st.integers(0, 3)) == 0:  # kernel_shape given, sometimes wrong
        attrs["kernel_shape"] = [k + draw(st.sampled_from([0, 0, 0, 1])) for k in kernel]
    arrays = [random_array(x_shape), random_array(w_shape)]
    if draw(st.booleans()):
        arrays.append(random_array([m + draw(st.sampled_from([0, 0, 0, 1]))]))
    return arrays, attrs


def rules_reject(x_shape, w_shape, attrs) -> bool:
    """Graphs the rules reject although onnx's reference runs them (onnxruntime rejects them):
    pads together with auto_pad, and an output axis of size 0 (the kernel fits nowhere)."""
    auto_pad = attrs.get("auto_pad", "NOTSET")
    if "pads" in attrs and auto_pad != "NOTSET":
        return True
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return False
    nsp = len(x_shape) - 2
    pads = attrs.get("pads", [0] * 2 * nsp) if auto_pad == "NOTSET" else [0] * 2 * nsp
    for i in range(nsp):
        window = attrs.get("dilations", [1] * nsp)[i] * (w_shape[i + 2] - 1) + 1
        if x_shape[i + 2] + pads[i] + pads[i + nsp] < window:
            return True
    return False


@settings(max_examples=20, deadline=None)
@given(conv_cases())
def test_matches_reference(case):
    arrays, attrs = case
    if rules_reject(arrays[0].shape, arrays[1].shape, attrs):
        sol = infer("Conv", [list(a.shape) for a in arrays], attrs)
        assert sol.status == "error", f"Conv {attrs}: accepted"
        return
    check_against_reference("Conv", arrays, attrs)


def test_shared_weights_keep_their_own_attributes():
    # two nodes reading one W: each output follows its own node's dilations and pads
    from shape_logic import solve

    g = {"name": "shared", "opset": 18, "initializers": {},
         "inputs": {"x": {"dtype": "f32", "shape": "[1, 2, h]"},
                    "w": {"dtype": "f32", "shape": "[2, 2, 3]"}},
         "nodes": [{"name": "a", "op": "Conv", "inputs": ["x", "w"], "outputs": ["ya"]},
                   {"name": "b", "op": "Conv", "inputs": ["x", "w"], "outputs": ["yb"],
                    "attrs": {"dilations": [3], "pads": [1, 1]}}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert (sol.shape("ya"), sol.shape("yb")) == ("[1, 2, h - 2]", "[1, 2, h - 4]")


def test_output_fed_back_to_its_input_stops():
    # a padded 1x1 convolution grows each spatial axis by 4, and Add equates the output
    # with the input: inconsistent, and the sizes must not go on growing while grounding
    # (rules/Conv.lp keeps @calc, which stops once two values collide, on these axes)
    from shape_logic import solve

    g = {"name": "feedback", "opset": 18, "initializers": {},
         "inputs": {"x": {"dtype": "f32", "shape": "[1, 1, 8, 8]"},
                    "w": {"dtype": "f32", "shape": "[1, 1, 1, 1]"}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"pads": [2, 2, 2, 2]}},
                   {"name": "add", "op": "Add", "inputs": ["y", "x"], "outputs": ["z"]}]}
    sol = solve(g, timeout=30)
    assert sol.status == "error"
    assert sol.diagnostics[0].code == "E0001"
