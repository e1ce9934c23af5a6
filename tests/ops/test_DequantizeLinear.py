"""DequantizeLinear: rules/DequantizeLinear.lp (and the scale shapes it uses from
QuantizeLinear.lp) on data cases, and against onnx's reference on random shapes;
onnxruntime's com.microsoft DequantizeLinear on data cases and against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OPSET = 21
CASES = {
    "per tensor: the scale's type": ({"inputs": [("i8", "[b, c]"), ("f16", "[]"), ("i8", "[]")]},
                                     {"y0": "[b, c]", "dtypes": {"y0": "f16"}}),
    "before opset 19: float32": ({"inputs": [("u8", "[b, c]"), ("f32", "[]")], "opset": 13},
                                 {"y0": "[b, c]", "dtypes": {"y0": "f32"}}),
    "before opset 19 the scale is float32": ({"inputs": [("u8", "[n]"), ("f16", "[]")],
                                              "opset": 13}, "error"),
    "output_dtype (opset 23)": ({"inputs": [("i4", "[n]"), ("f32", "[]")], "opset": 23,
                                 "attrs": {"output_dtype": 10}}, {"dtypes": {"y0": "f16"}}),
    "per axis": ({"inputs": [("i8", "[b, c, h]"), ("f32", "[8]"), ("i8", "Z")]},
                 {"x0": "[b, 8, h]", "x2": "[8]"}),
    "per block": ({"inputs": [("i8", "[m, k]"), ("f32", "S")],
                   "attrs": {"axis": 1, "block_size": 32}},
                  {"x1": "[m, (k + 31)//32]"}),
    "per block, the scale's rank differs": ({"inputs": [("i8", "[4, 64]"), ("f32", "[4, 2, 1]")],
                                             "attrs": {"axis": 1, "block_size": 32}}, "error"),
    "the zero point's type differs": ({"inputs": [("i8", "[3]"), ("f32", "[]"), ("u8", "[]")]},
                                      "error"),
    "int32 x": ({"inputs": [("i32", "[3]"), ("f32", "[]")]}, {"y0": "[3]"}),
    "float x": ({"inputs": [("f32", "[3]"), ("f32", "[]")]}, "error"),
    "backward": ({"inputs": [("u8", "X"), ("f32", "[]")], "outputs": {"y0": {"shape": "[2, n]"}}},
                 {"x0": "[2, n]"}),
}


test_case = case_test("DequantizeLinear", CASES, OPSET)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.data(),
       st.sampled_from([np.int8, np.uint8, np.int32]), st.integers(0, 2**32 - 1))
def test_matches_reference(shape, data, dtype, seed):
    rng = np.random.default_rng(seed)
    r = len(shape)
    axis = data.draw(st.integers(-r, r - 1))
    kind = data.draw(st.sampled_from(["tensor", "axis", "block"]))
    attrs = {"axis": axis}
    if kind == "tensor":
        sshape = []
    elif kind == "axis":
        sshape = [shape[axis]]
    else:
        attrs["block_size"] = b = data.draw(st.integers(1, 4))
        sshape = [-(-d // b) if i == axis % r else d for i, d in enumerate(shape)]
    x = rng.integers(0, 100, shape).astype(dtype)
    scale = rng.uniform(0.01, 0.5, sshape).astype(data.draw(st.sampled_from([np.float32,
                                                                              np.float16])))
    inputs = [x, scale]
    if data.draw(st.booleans()):
        inputs.append(rng.integers(0, 9, sshape).astype(dtype))
    check_against_reference("DequantizeLinear", inputs, attrs, opset=OPSET)


# onnxruntime's com.microsoft DequantizeLinear: opset 19's at any opset (y the scale's type,
# f32 or f16), without blocks or output_dtype; x of 8, 16, 32 or 4 bits
MS_CASES = {
    "the scale's type at opset 13": ({"inputs": [("u8", "[b, c]"), ("f16", "[]")], "opset": 13},
                                     {"y0": "[b, c]", "dtypes": {"y0": "f16"}}),
    "16-bit x, per axis": ({"inputs": [("i16", "[b, c, h]"), ("f32", "[8]"), ("i16", "Z")],
                            "opset": 13}, {"x0": "[b, 8, h]", "dtypes": {"y0": "f32"}}),
    "bfloat16 scale": ({"inputs": [("i8", "[n]"), ("bf16", "[]")]}, "error"),
    "float8 x": ({"inputs": [("f8e4m3fn", "[n]"), ("f32", "[]")]}, "error"),
    "the zero point's type differs": ({"inputs": [("u8", "[3]"), ("f32", "[]"), ("i8", "[]")]},
                                      "error"),
}


test_com_microsoft_case = case_test(
    "DequantizeLinear", {k: ({"opset": OPSET, **spec, "domain": MS}, want)
                       for k, (spec, want) in MS_CASES.items()})


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.data(),
       st.sampled_from([np.int8, np.uint8, np.int16, np.uint16, np.int32]),
       st.integers(0, 2**32 - 1))
def test_com_microsoft_matches_onnxruntime(shape, data, dtype, seed):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel
    (per tensor and per axis; f32 and f16 scales)."""
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sshape = data.draw(st.sampled_from([[], [1], [shape[axis]]]))
    inputs = [rng.integers(0, 100, shape).astype(dtype),
              rng.uniform(0.01, 0.5, sshape).astype(data.draw(st.sampled_from([np.float32,
                                                                                np.float16])))]
    if data.draw(st.booleans()) and dtype is not np.int32:
        inputs.append(rng.integers(0, 9, sshape).astype(dtype))
    check_against_onnxruntime("DequantizeLinear", inputs, {"axis": axis}, rtol=1e-3, atol=1e-2)
