"""QuantizeLinear: rules/QuantizeLinear.lp on data cases (per tensor, per axis, per block,
the output type by opset), and against onnx's reference on random shapes; onnxruntime's
com.microsoft QuantizeLinear on data cases and against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OPSET = 21
CASES = {
    "per tensor, the zero point's type": ({"inputs": ["[b, c, h]", ("f32", "[]"), ("i8", "[]")]},
                                          {"y0": "[b, c, h]", "dtypes": {"y0": "i8"}}),
    "no zero point: uint8": ({"inputs": ["[b, 3]", ("f32", "[]")]},
                             {"y0": "[b, 3]", "dtypes": {"y0": "u8"}}),
    "output_dtype": ({"inputs": ["[b, 3]", ("f32", "[]")], "attrs": {"output_dtype": 22}},
                     {"dtypes": {"y0": "i4"}}),
    "output_dtype and the zero point's type differ": (
        {"inputs": ["[b, 3]", ("f32", "[]"), ("i8", "[]")], "attrs": {"output_dtype": 2}},
        "error"),
    "one-element scale, a scalar zero point": ({"inputs": ["[b, c]", ("f32", "[1]"),
                                                           ("u8", "[]")]}, {"y0": "[b, c]"}),
    "per axis: the scale's length is the axis'": (
        {"inputs": ["[b, c, h]", ("f32", "[5]"), ("u8", "Z")]},
        {"x0": "[b, 5, h]", "x2": "[5]", "bindings": {"c": 5}}),
    "per axis, negative axis": ({"inputs": ["[b, c, h]", ("f32", "[5]")], "attrs": {"axis": -1}},
                                {"x0": "[b, c, 5]"}),
    "per axis, lengths differ": ({"inputs": ["[2, 4]", ("f32", "[3]")]}, "error"),
    "per axis, axis out of range": ({"inputs": ["[2, 4]", ("f32", "[4]")], "attrs": {"axis": 2}},
                                    "error"),
    "per tensor ignores the axis": ({"inputs": ["[]", ("f32", "[]")]}, {"y0": "[]"}),
    "a matrix scale without blocks": ({"inputs": ["[2, 4]", ("f32", "[2, 4]")]}, "error"),
    "per block: ceil(d / block_size) blocks": (
        {"inputs": ["[b, c, h]", ("f32", "S"), ("i8", "Z")],
         "attrs": {"axis": -1, "block_size": 4}},
        {"x1": "[b, c, (h + 3)//4]", "x2": "[b, c, (h + 3)//4]"}),
    "per block, known sizes": ({"inputs": ["[2, 10]", ("f32", "S")],
                                "attrs": {"axis": 1, "block_size": 4}}, {"x1": "[2, 3]"}),
    "per block, too few blocks": ({"inputs": ["[2, 10]", ("f32", "[2, 2]")],
                                   "attrs": {"axis": 1, "block_size": 4}}, "error"),
    "float8": ({"inputs": ["[n]", ("f32", "[]"), ("f8e4m3fn", "[]")]},
               {"dtypes": {"y0": "f8e4m3fn"}}),
    "opset 13: a float32 scale": ({"inputs": ["[n]", ("f16", "[]")], "opset": 13}, "error"),
    "opset 19: the scale is x's type": ({"inputs": [("f16", "[n]"), ("f32", "[]")],
                                         "opset": 19}, "error"),
    "opset 23: scale and x may differ": ({"inputs": [("f16", "[n]"), ("f32", "[]")],
                                          "opset": 23}, {"y0": "[n]"}),
    "backward: x from the output": ({"inputs": ["X", ("f32", "[]")],
                                     "outputs": {"y0": {"shape": "[4, n]"}}}, {"x0": "[4, n]"}),
    "int64 input": ({"inputs": [("i64", "[3]"), ("f32", "[]")]}, "error"),
    "a float zero point": ({"inputs": ["[3]", ("f32", "[]"), ("f32", "[]")]}, "error"),
}


test_case = case_test("QuantizeLinear", CASES, OPSET)


@st.composite
def quantization(draw):
    """x, scale and zero point (or None) shaped per tensor, per axis or per block."""
    shape = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    r = len(shape)
    kind = draw(st.sampled_from(["tensor", "axis", "block"]))
    axis = draw(st.integers(-r, r - 1))
    attrs = {"axis": axis}
    if kind == "tensor":
        sshape = draw(st.sampled_from([[], [1]]))
    elif kind == "axis":
        sshape = [shape[axis]]
    else:
        attrs["block_size"] = b = draw(st.integers(1, 4))
        sshape = [-(-d // b) if i == axis % r else d for i, d in enumerate(shape)]
    scale = rng.uniform(0.01, 0.5, sshape).astype(np.float32)
    zdtype = draw(st.sampled_from([None, np.uint8, np.int8, np.int16]))
    zero = None if zdtype is None else rng.integers(-5, 5, sshape).astype(zdtype)
    if zdtype is np.uint8 and zero is not None:
        zero = np.abs(zero).astype(np.uint8)
    return random_array(shape, rng=rng) * 3, scale, zero, attrs


@settings(max_examples=25, deadline=None)
@given(quantization())
def test_matches_reference(q):
    x, scale, zero, attrs = q
    inputs = [x, scale] + ([zero] if zero is not None else [])
    check_against_reference("QuantizeLinear", inputs, attrs, opset=OPSET)


# onnxruntime's com.microsoft QuantizeLinear: opset 19's at any opset (x and the scale one
# float type), without blocks or output_dtype, 8-, 16- and 4-bit outputs
MS_CASES = {
    "the scale is x's type at opset 13": (
        {"inputs": [("f16", "[b, c]"), ("f16", "[]"), ("i16", "[]")], "opset": 13},
        {"y0": "[b, c]", "dtypes": {"y0": "i16"}}),
    "the scale's type differs from x's": (
        {"inputs": [("f16", "[n]"), ("f32", "[]")], "opset": 13}, "error"),
    "per axis": ({"inputs": ["[b, c, h]", ("f32", "[5]"), ("u16", "Z")], "opset": 13},
                 {"x0": "[b, 5, h]", "x2": "[5]", "dtypes": {"y0": "u16"}}),
    "no zero point: uint8": ({"inputs": ["[b, 3]", ("f32", "[]")]}, {"dtypes": {"y0": "u8"}}),
    "bfloat16 x": ({"inputs": [("bf16", "[n]"), ("bf16", "[]")], "opset": 21}, "error"),
    "float8 output": ({"inputs": ["[n]", ("f32", "[]"), ("f8e4m3fn", "[]")], "opset": 21},
                      "error"),
}


test_com_microsoft_case = case_test(
    "QuantizeLinear", {k: ({"opset": OPSET, **spec, "domain": MS}, want)
                       for k, (spec, want) in MS_CASES.items()})


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.data(),
       st.sampled_from([None, np.uint8, np.int8, np.uint16, np.int16]), st.integers(0, 2**32 - 1))
def test_com_microsoft_matches_onnxruntime(shape, data, zdtype, seed):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel
    (per tensor and per axis; f32 and f16)."""
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sshape = data.draw(st.sampled_from([[], [1], [shape[axis]]]))
    ftype = data.draw(st.sampled_from([np.float32, np.float16]))
    x = (rng.standard_normal(shape) * 3).astype(ftype)
    inputs = [x, rng.uniform(0.05, 0.5, sshape).astype(ftype)]
    if zdtype is not None:
        inputs.append(np.abs(rng.integers(-5, 5, sshape)).astype(zdtype))
    check_against_onnxruntime("QuantizeLinear", inputs, {"axis": axis}, rtol=0, atol=1)
