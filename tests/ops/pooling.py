"""What the windowed pools (AveragePool, LpPool, MaxPool) share in their tests: the data
cases every pool answers alike, the output size their rules derive, random attributes for
the property test against onnx's reference, and that test itself. Each operator's test
module adds its own cases (its attributes, its dtypes, its opsets) and adjusts the drawn
attributes where onnx's reference implements it differently; and the global pools'
tests (every spatial axis pooled to 1)."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, infer, random_array

_ERRORS = {
    "rank 2": ({"inputs": ["[1, 3]"], "attrs": {"kernel_shape": [1]}}, "error"),
    "no kernel_shape": ({"inputs": ["[1, 3, 5]"]}, "error"),
    "kernel_shape length": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [2, 2]}}, "error"),
    "strides length": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [2], "strides": [1, 1]}},
                       "error"),
    "pads length": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [2], "pads": [1, 1, 1]}},
                    "error"),
    "zero stride": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [2], "strides": [0]}},
                    "error"),
    "zero kernel": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [0]}}, "error"),
    "negative pads": ({"inputs": ["[1, 3, 5]"], "attrs": {"kernel_shape": [2], "pads": [-1, 0]}},
                      "error"),
    "unknown auto_pad": ({"inputs": ["[1, 3, 5]"],
                          "attrs": {"kernel_shape": [2], "auto_pad": "FOO"}}, "error"),
    "window larger than the input": ({"inputs": ["[1, 1, 2]"], "attrs": {"kernel_shape": [3]}},
                                     "error"),
}

# the cases every pool answers alike (before each operator's own)
SHARED_CASES = {
    "1-D default": ({"inputs": ["[n, c, t]"], "attrs": {"kernel_shape": [2]}},
                    {"y0": "[n, c, t - 1]"}),
    "asymmetric pads": ({"inputs": ["[1, 1, 5, 5]"],
                         "attrs": {"kernel_shape": [3, 3], "pads": [2, 0, 0, 1],
                                   "strides": [2, 1]}},
                        {"y0": "[1, 1, 3, 4]"}),
    "ceil_mode": ({"inputs": ["[n, c, h, w]"],
                   "attrs": {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}},
                  {"y0": "[n, c, h//2, w//2]"}),
    "ceil_mode: the last window must start inside": ({"inputs": ["[1, 1, 2, 2]"],
                                                     "attrs": {"kernel_shape": [1, 1],
                                                               "strides": [2, 2], "ceil_mode": 1}},
                                                    {"y0": "[1, 1, 1, 1]"}),
    # end pads as large as the window: spec and reference count windows differently
    "ceil_mode, end pads as wide as the window: unknown": (
        {"inputs": ["[n, c, h]"],
         "attrs": {"kernel_shape": [3], "strides": [2], "ceil_mode": 1, "pads": [0, 3]}},
        {"y0": "[n, c, _1]"}),
    "VALID with dilations": ({"inputs": ["[n, c, h]"],
                              "attrs": {"kernel_shape": [3], "strides": [2], "auto_pad": "VALID",
                                        "dilations": [2]}},
                             {"y0": "[n, c, (h + 1)//2 - 2]"}),
    **_ERRORS,
}


def one_output_cases(attr: dict, dilations_opset: int = 18) -> dict:
    """The cases of the pools with one output that their own attribute (`attr`: LpPool's
    p, AveragePool's count_include_pad) does not change, given with it in two of them;
    `dilations_opset`: the first opset whose schema has `dilations`."""
    dilated = {} if dilations_opset <= 18 else {"opset": dilations_opset}
    return {
        **SHARED_CASES,
        "2-D, pads and strides": ({"inputs": ["[n, c, h, w]"],
                                   "attrs": {"kernel_shape": [3, 3], "strides": [2, 2],
                                             "pads": [1, 1, 1, 1], **attr}},
                                  {"y0": "[n, c, (h + 1)//2, (w + 1)//2]"}),
        "3-D dilations": ({"inputs": ["[1, 2, 8, 8, 8]"], **dilated,
                           "attrs": {"kernel_shape": [2, 2, 2], "dilations": [2, 2, 2]}},
                          {"y0": "[1, 2, 6, 6, 6]"}),
        "ceil_mode: the last window starts on a begin pad": (
            {"inputs": ["[1, 1, 5, 5]"],
             "attrs": {"kernel_shape": [3, 3], "strides": [3, 3], "pads": [1, 1, 1, 1],
                       "ceil_mode": 1, **attr}},
            {"y0": "[1, 1, 2, 2]"}),
        "ceil_mode with dilations": ({"inputs": ["[1, 1, 32, 32, 32]"], **dilated,
                                      "attrs": {"kernel_shape": [5, 5, 5], "dilations": [2, 2, 2],
                                                "strides": [3, 3, 3], "ceil_mode": 1}},
                                     {"y0": "[1, 1, 9, 9, 9]"}),
        "SAME_UPPER with ceil_mode": ({"inputs": ["[n, c, h, w]"],
                                       "attrs": {"kernel_shape": [3, 3], "strides": [2, 3],
                                                 "auto_pad": "SAME_UPPER", "ceil_mode": 1}},
                                      {"y0": "[n, c, (h + 1)//2, (w + 2)//3]"}),
        "SAME_LOWER ignores pads": ({"inputs": ["[1, 1, 7]"],
                                     "attrs": {"kernel_shape": [2], "strides": [3],
                                               "auto_pad": "SAME_LOWER", "pads": [1, 1]}},
                                    {"y0": "[1, 1, 3]"}),
        "dtype f16": ({"inputs": [("f16", "[1, 3, 4, 4]")], "attrs": {"kernel_shape": [2, 2]}},
                      {"y0": "[1, 3, 3, 3]", "dtypes": {"y0": "f16"}}),
        "rank from kernel_shape": ({"inputs": ["s"], "attrs": {"kernel_shape": [2, 2, 2]}},
                                   {"x0": "[_1, _2, _3, _4, _5]"}),
        "backward: unit stride binds": ({"inputs": ["[b, c, h]"], "attrs": {"kernel_shape": [3]},
                                         "outputs": {"y0": {"shape": "[2, 3, 10]"}}},
                                        {"x0": "[2, 3, 12]",
                                         "bindings": {"b": 2, "c": 3, "h": 12}}),
        "backward: strided output leaves a range": (
            {"inputs": ["[1, 8, h, h]"],
             "attrs": {"kernel_shape": [2, 2], "strides": [2, 2]},
             "outputs": {"y0": {"shape": "[1, 8, 112, 112]"}}},
            {"x0": "[1, 8, h, h]", "bindings": {}}),
        "integer input": ({"inputs": [("u8", "[1, 3, 5]")], "attrs": {"kernel_shape": [2]}},
                          "error"),
        "two outputs": ({"inputs": ["[1, 1, 5]"], "attrs": {"kernel_shape": [2]}, "n_outputs": 2},
                        "error"),
    }


def backward_range(op: str, cases: dict, lo: int):
    """The case "backward: strided output leaves a range" gives h a range from `lo` to
    lo + 1, never a guess."""
    spec, _ = cases["backward: strided output leaves a range"]
    sol = infer(op, spec["inputs"], spec["attrs"], outputs=spec["outputs"])
    assert sol.status == "ok"
    assert sol.to_json()["ranges"] == {"h": [lo, lo + 1]}


def pool_size(d, k, s, dil, pb, pe, ceil, auto_pad):
    """The output size the rules derive (None: none derived)."""
    e = dil * (k - 1) + 1
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return -(-d // s)
    if auto_pad == "VALID":
        return (d - e) // s + 1
    if not ceil:
        return (d + pb + pe - e) // s + 1
    return (d + pb - 1 + min(0, s + pe - e)) // s + 1 if pe < e else None


def rules_say(shape, attrs):
    """'error' or 'unknown' where the rules differ from onnx's reference by design."""
    nsp = len(shape) - 2

    def get(k):
        return attrs.get(k, [1] * nsp)

    if any(v <= 0 for k in ("strides", "dilations", "kernel_shape") for v in get(k)):
        return "error"  # onnxruntime rejects these; the reference not always
    pads = attrs.get("pads", [0] * 2 * nsp)
    sizes = [pool_size(shape[i + 2], get("kernel_shape")[i], get("strides")[i], get("dilations")[i],
                       pads[i], pads[i + nsp], attrs.get("ceil_mode", 0),
                       attrs.get("auto_pad", "NOTSET")) for i in range(nsp)]
    if any(o is not None and o <= 0 for o in sizes):
        return "error"  # an empty output axis: onnx's reference gives 0 or fails
    return "unknown" if None in sizes else None


def draw_pool(draw, adjust=None):
    """(x, attrs): a random input of 1 or 2 spatial axes and pooling attributes, sometimes
    an invalid one. `adjust(draw, attrs, auto_pad, nsp)` changes the valid attributes
    where onnx's reference implements the operator differently from its spec."""
    nsp = draw(st.integers(1, 2))
    spatial = draw(st.lists(st.integers(1, 6), min_size=nsp, max_size=nsp))
    kernel = draw(st.lists(st.integers(1, 3), min_size=nsp, max_size=nsp))

    def ints(lo, hi, n=nsp):
        return st.lists(st.integers(lo, hi), min_size=n, max_size=n)

    attrs = {"kernel_shape": kernel}
    if draw(st.booleans()):
        attrs["strides"] = draw(ints(1, 3))
    if draw(st.booleans()):
        attrs["dilations"] = draw(ints(1, 2))
    auto_pad = draw(st.sampled_from(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]))
    if auto_pad != "NOTSET" or draw(st.booleans()):
        attrs["auto_pad"] = auto_pad
    if draw(st.booleans()):
        attrs["ceil_mode"] = draw(st.integers(0, 1))
    # pads below the kernel (onnxruntime's requirement)
    if auto_pad == "NOTSET" and draw(st.booleans()):
        attrs["pads"] = [draw(st.integers(0, k - 1)) for k in kernel + kernel]
    if adjust is not None:
        adjust(draw, attrs, auto_pad, nsp)
    if draw(st.integers(0, 9)) == 0:  # an invalid attribute
        key = draw(st.sampled_from(["strides", "dilations", "kernel_shape"]))
        attrs[key] = attrs.get(key, [1] * nsp)[:-1] + [draw(st.sampled_from([0, -1]))]
    x = random_array([draw(st.integers(1, 2)), draw(st.integers(1, 2))] + spatial)
    return x, attrs


def common_pool_quirks(attrs: dict, auto_pad: str) -> None:
    """What onnx's reference does with AveragePool's and LpPool's attributes (its common
    pool), taken out of the drawn ones: it takes no ceil_mode with auto_pad, ignores
    dilations under VALID, and pads negatively (failing) under SAME when the kernel is
    shorter than the stride."""
    if auto_pad != "NOTSET":
        attrs.pop("ceil_mode", None)
    if auto_pad == "VALID":
        attrs.pop("dilations", None)
    if auto_pad.startswith("SAME") and "strides" in attrs:
        attrs["strides"] = [min(s, k) for s, k in zip(attrs["strides"], attrs["kernel_shape"])]


def check_pool(op: str, x, attrs, n_outputs: int = 1, opset: int = 18):
    """The rules agree with onnx's reference (our kernel's outputs included), or differ
    from it only by design (rules_say)."""
    want = rules_say(x.shape, attrs)
    if want is None:
        check_against_reference(op, [x], attrs, n_outputs=n_outputs, opset=opset)
        return
    sol = infer(op, [list(x.shape)], attrs, n_outputs, opset=opset)
    if want == "error":
        assert sol.status == "error", f"{op} {attrs}: accepted {sol.shape('y0')}"
    else:
        assert sol.status == "ok" and "_" in sol.shape("y0"), sol.shape("y0")


# GlobalAveragePool and GlobalMaxPool: every spatial axis pooled to 1
GLOBAL_CASES = {
    "2-D image": ({"inputs": ["[n, c, h, w]"]}, {"y0": "[n, c, 1, 1]"}),
    "1-D": ({"inputs": ["[n, 3, t]"]}, {"y0": "[n, 3, 1]"}),
    "3-D": ({"inputs": ["[2, c, 4, 5, 6]"]}, {"y0": "[2, c, 1, 1, 1]"}),
    "dtype f64": ({"inputs": [("f64", "[1, 3, 4]")]}, {"y0": "[1, 3, 1]", "dtypes": {"y0": "f64"}}),
    "backward: rank, batch and channels": ({"inputs": ["s"],
                                            "outputs": {"y0": {"shape": "[2, 8, 1, 1]"}}},
                                           {"x0": "[2, 8, _1, _2]"}),
    # errors
    "integer input": ({"inputs": [("i64", "[1, 3, 4]")]}, "error"),
    "rank 2": ({"inputs": ["[2, 3]"]}, "error"),
    "rank 1": ({"inputs": ["[2]"]}, "error"),
    "pooled axis not 1": ({"inputs": ["[1, 3, 4]"], "outputs": {"y0": {"shape": "[1, 3, 4]"}}},
                          "error"),
    "dtype clash": ({"inputs": [("f32", "[1, 3, 4]")],
                     "outputs": {"y0": {"dtype": "f16", "shape": "[1, 3, 1]"}}}, "error"),
    "two inputs": ({"inputs": ["[1, 3, 4]", "[1, 3, 4]"]}, "error"),
}

def global_pool_tests(op: str, reference_2d_only: bool):
    """test_case and test_matches_reference of a global pool; `reference_2d_only`: onnx's
    reference reduces axes k, k+1 for k spatial axes, right for 2-D images only."""
    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(1, 4), min_size=1, max_size=5), st.sampled_from(["f32", "f64"]))
    def test_matches_reference(shape, dtype):
        x = random_array(shape, dtype)
        if len(shape) < 3:  # onnxruntime needs a spatial axis; onnx's reference does not
            assert infer(op, [(dtype, str(shape))]).status == "error"
            return
        if reference_2d_only and len(shape) != 4:
            sol = infer(op, [(dtype, str(shape))])
            assert sol.shape("y0") == str(shape[:2] + [1] * (len(shape) - 2))
            assert sol.dtype("y0") == dtype
            return
        check_against_reference(op, [x])

    @pytest.mark.parametrize("name", GLOBAL_CASES)
    def test_case(name):
        check_case(op, *GLOBAL_CASES[name])
    return test_case, test_matches_reference


def common_pool_tests(op: str, cases: dict, attr: str, values, opset: int = 18):
    """test_case, test_backward_range and test_matches_reference of a pool that onnx's
    reference computes with its common pool (AveragePool, LpPool): random pools with its
    quirks taken out, the operator's own attribute `attr` drawn from `values` half the
    time."""
    @pytest.mark.parametrize("name", cases)
    def test_case(name):
        check_case(op, *cases[name])

    def test_backward_range():
        # (h - 2)//2 + 1 = 112: h is 224 or 225
        backward_range(op, cases, 224)

    def adjust(draw, attrs, auto_pad, nsp):
        common_pool_quirks(attrs, auto_pad)
        if draw(st.booleans()):
            attrs[attr] = draw(st.sampled_from(values))

    @settings(max_examples=20, deadline=None)
    @given(st.composite(lambda draw: draw_pool(draw, adjust))())
    def test_matches_reference(case):
        check_pool(op, *case, opset=opset)
    return test_case, test_backward_range, test_matches_reference
