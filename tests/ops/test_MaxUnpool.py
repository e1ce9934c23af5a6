"""MaxUnpool: rules/MaxUnpool.lp on data cases, and against onnx's reference (fed by MaxPool)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array, \
    reference_outputs
from tests.ops.cases import case_test

OPSET = 18


def i64(v):
    return np.array(v, np.int64)


CASES = {
    "unpooled sizes": ({"inputs": ["[n, c, h, w]", ("i64", "I")],
                        "attrs": {"kernel_shape": [2, 2], "strides": [2, 2]}},
                       {"y0": "[n, c, 2*h, 2*w]", "x1": "[n, c, h, w]"}),
    "pads and kernel": ({"inputs": ["[1, 3, 4]", ("i64", "[1, 3, 4]")],
                         "attrs": {"kernel_shape": [3], "strides": [2], "pads": [1, 1]}},
                        {"y0": "[1, 3, 7]"}),
    "the output shape's values": ({"inputs": ["[1, 3, 2, 2]", ("i64", "[1, 3, 2, 2]"),
                                              i64([1, 3, 5, 5])],
                                   "attrs": {"kernel_shape": [2, 2], "strides": [2, 2]}},
                                  {"y0": "[1, 3, 5, 5]"}),
    "backward: X from the output": ({"inputs": ["[n, c, d]", ("i64", "I")],
                                     "attrs": {"kernel_shape": [2], "strides": [2]},
                                     "outputs": {"y0": {"shape": "[1, 3, 8]"}}},
                                    {"x0": "[1, 3, 4]", "bindings": {"c": 3, "d": 4, "n": 1}}),
    "indices of another shape": ({"inputs": ["[1, 3, 4]", ("i64", "[1, 3, 5]")],
                                  "attrs": {"kernel_shape": [2]}}, "error"),
    "an output shape of another rank": ({"inputs": ["[1, 3, 4]", ("i64", "[1, 3, 4]"),
                                                    i64([1, 3])],
                                         "attrs": {"kernel_shape": [2]}}, "error"),
    "no kernel_shape": ({"inputs": ["[1, 3, 4]", ("i64", "[1, 3, 4]")]}, "error"),
    "a kernel of another rank": ({"inputs": ["[1, 3, 4]", ("i64", "[1, 3, 4]")],
                                  "attrs": {"kernel_shape": [2, 2]}}, "error"),
    "int32 indices": ({"inputs": ["[1, 3, 4]", ("i32", "[1, 3, 4]")],
                       "attrs": {"kernel_shape": [2]}}, "error"),
}


test_case = case_test("MaxUnpool", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.data(), st.booleans())
def test_matches_reference(pooled, data, bigger):
    # MaxPool's input of the size unpooling gives back, (p - 1) * stride + kernel: its
    # indices are positions in it (onnx's reference places them in the unpooled tensor,
    # onnxruntime in the output_shape one: they agree only then)
    k = [data.draw(st.integers(1, 3)) for _ in pooled]
    s = [data.draw(st.integers(1, 3)) for _ in pooled]
    size = [(p - 1) * si + ki for p, si, ki in zip(pooled, s, k)]
    attrs = {"kernel_shape": k, "strides": s}
    x = random_array([1, 2] + size)
    values, idx = reference_outputs("MaxPool", [x], attrs, n_outputs=2, opset=OPSET)
    inputs = [values, idx]
    if bigger:  # an output shape beyond the unpooled one
        inputs.append(i64([1, 2] + [d + data.draw(st.integers(0, 2)) for d in size]))
    check_against_reference("MaxUnpool", inputs, attrs, opset=OPSET,
                            const=[2] if bigger else [])
