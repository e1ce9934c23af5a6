"""GlobalLpPool: rules/GlobalLpPool.lp on data cases, and against onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import infer, random_array
from tests.ops.cases import case_test

OPSET = 18
CASES = {
    "spatial axes pooled to 1": ({"inputs": ["[n, c, h, w]"]}, {"y0": "[n, c, 1, 1]"}),
    "1-d, p = 1": ({"inputs": ["[2, 8, t]"], "attrs": {"p": 1}}, {"y0": "[2, 8, 1]"}),
    "dtype": ({"inputs": [("f16", "[1, 3, 5]")]}, {"dtypes": {"y0": "f16"}}),
    "backward: batch and channels": ({"inputs": ["X"],
                                      "outputs": {"y0": {"shape": "[4, 16, 1, 1]"}}},
                                     {"x0": "[4, 16, _1, _2]"}),
    "a spatial output axis other than 1": ({"inputs": ["[1, 3, 5]"],
                                            "outputs": {"y0": {"shape": "[1, 3, 2]"}}},
                                           "error"),
    "no spatial axis": ({"inputs": ["[n, c]"]}, "error"),
    "integer elements": ({"inputs": [("i64", "[1, 2, 3]")]}, "error"),
}


test_case = case_test("GlobalLpPool", CASES, OPSET)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=3, max_size=5), st.sampled_from([1, 2, 3]))
def test_matches_onnxruntime(shape, p):
    # onnx's reference has no GlobalLpPool: onnxruntime's output, our kernel's and the
    # inferred shape (concrete and symbolic) agree
    import onnxruntime as ort
    from onnx import TensorProto, helper

    from shape_logic.kernels import load_kernel
    from shape_logic.testing import onnx_node_model

    x = random_array(shape)
    model = onnx_node_model("GlobalLpPool", [x], {"p": p}, 1, OPSET)
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("y0", TensorProto.FLOAT, None))
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (want,) = sess.run(None, {"x0": x})
    (got,) = load_kernel("GlobalLpPool")({"p": p})(x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert infer("GlobalLpPool", [list(shape)], {"p": p}, opset=OPSET).shape("y0") == \
        "[" + ", ".join(map(str, want.shape)) + "]"
    names = [f"d{i}" for i in range(len(shape))]
    sol = infer("GlobalLpPool", ["[" + ", ".join(names) + "]"], {"p": p}, opset=OPSET)
    assert sol.shape("y0") == "[d0, d1" + ", 1" * (len(shape) - 2) + "]"
