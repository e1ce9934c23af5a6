"""Upsample: rules/Upsample.lp on data cases, and against onnxruntime (onnx's reference
only does integer nearest scales)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import infer
from tests.ops.cases import case_test


def f32(*v):
    return np.array(v, np.float32)


CASES = {
    "opset 9: the scales input": ({"inputs": ["[b, c, h, w]", f32(1, 1, 2, 2)], "opset": 9},
                                  {"y0": "[b, c, 2*h, 2*w]"}),
    "opset 7: the scales attribute": ({"inputs": ["[b, c, h, w]"], "opset": 7,
                                       "attrs": {"scales": [1.0, 1.0, 1.5, 3.0]}},
                                      {"y0": "[b, c, 3*h//2, 3*w]"}),
    "linear": ({"inputs": ["[1, 3, 4, 5]", f32(1, 1, 2.5, 2)], "opset": 9,
                "attrs": {"mode": "linear"}}, {"y0": "[1, 3, 10, 10]"}),
    "scales of unknown value: the rank": ({"inputs": ["[b, c, h]", "[3]"], "opset": 9},
                                          {"y0": "[_1, _2, _3]"}),
    "a scale below 1": ({"inputs": ["[b, c, h, w]", f32(1, 1, 0.5, 2)], "opset": 9}, "error"),
    "scales for another rank": ({"inputs": ["[b, c, h, w]", f32(1, 2, 2)], "opset": 9},
                                "error"),
    "opset 9 without scales": ({"inputs": ["[b, c, h, w]"], "opset": 9}, "error"),
    "opset 7 without scales": ({"inputs": ["[b, c, h, w]"], "opset": 7}, "error"),
    "an unknown mode": ({"inputs": ["[b, c]", f32(1, 2)], "opset": 9,
                         "attrs": {"mode": "cubic"}}, "error"),
}


test_case = case_test("Upsample", CASES)


def upsample_scales(data, shape, mode):
    """Scales for `shape`; linear ones as onnxruntime takes them (2-D, 3-D, or 4-D with the
    two outer scales 1)."""
    scales = [data.draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])) for _ in shape]
    if mode == "linear" and len(shape) == 4:
        scales[:2] = [1.0, 1.0]
    return scales


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.data(), st.sampled_from([7, 9]),
       st.sampled_from(["nearest", "linear"]))
def test_matches_onnxruntime(shape, data, opset, mode):
    """Inferred shapes against onnxruntime's outputs (the kernel's values:
    tests/kernels/test_tensor_ops.py)."""
    from tests.kernels.reference import ort_outputs

    scales = upsample_scales(data, shape, mode)
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    attrs = {"mode": mode, **({"scales": scales} if opset < 9 else {})}
    arrays = [x] if opset < 9 else [x, f32(*scales)]
    (want,) = ort_outputs("Upsample", arrays, attrs, 1, opset, (1,))
    inputs = [list(shape)] if opset < 9 else [list(shape), f32(*scales)]
    sol = infer("Upsample", inputs, attrs, opset=opset)
    assert sol.shape("y0") == "[" + ", ".join(map(str, want.shape)) + "]"
