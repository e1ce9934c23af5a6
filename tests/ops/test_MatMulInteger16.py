"""MatMulInteger16 (com.microsoft): rules/MatMulInteger16.lp (MatMul.lp's shapes) on data
cases, and the rules and the kernel against onnxruntime on random int16 tensors (its CPU
kernel's only types); its checks accept the uint16 graphs the rules accept, with int32 out."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime, onnxruntime_verdict
from tests.ops.cases import case_test

CASES = {
    "batched by a matrix": ({"inputs": [("i16", "[b, s, 8]"), ("i16", "[8, 16]")]},
                            {"y0": "[b, s, 16]", "dtypes": {"y0": "i32"}}),
    "uint16 operands: int32 still": ({"inputs": [("u16", "[m, k]"), ("u16", "[k, n]")]},
                                     {"y0": "[m, n]", "dtypes": {"y0": "i32"}}),
    "one of each": ({"inputs": [("u16", "[m, k]"), ("i16", "[k, n]")]},
                    {"dtypes": {"y0": "i32"}}),
    "batch axes broadcast": ({"inputs": [("i16", "[2, 1, m, k]"), ("i16", "[3, k, n]")]},
                             {"y0": "[2, 3, m, n]"}),
    "vector by matrix": ({"inputs": [("i16", "[k]"), ("i16", "[k, n]")]}, {"y0": "[n]"}),
    "vector by vector": ({"inputs": [("i16", "[k]"), ("i16", "[5]")]},
                         {"y0": "[]", "x0": "[5]"}),
    "backward: the contracted axis": ({"inputs": [("i16", "[m, k]"), ("i16", "[4, n]")]},
                                      {"x0": "[m, 4]"}),
    "backward: from the output": ({"inputs": [("i16", "[b, s, k]"), ("i16", "[k, n]")],
                                   "outputs": {"y0": {"shape": "[2, s, 7]"}}},
                                  {"x0": "[2, s, k]", "x1": "[k, 7]"}),
    "contracted axes differ": ({"inputs": [("i16", "[2, 3]"), ("i16", "[4, 5]")]}, "error"),
    "a scalar": ({"inputs": [("i16", "[]"), ("i16", "[4, 5]")]}, "error"),
    "8-bit operands": ({"inputs": [("i8", "[2, 3]"), ("i8", "[3, 5]")]}, "error"),
    "an int32 operand": ({"inputs": [("i16", "[2, 3]"), ("i32", "[3, 5]")]}, "error"),
    "float operands": ({"inputs": ["[2, 3]", "[3, 5]"]}, "error"),
    "a uint32 output": ({"inputs": [("u16", "[2, 3]"), ("u16", "[3, 5]")],
                         "outputs": {"y0": {"dtype": "u32"}}}, "error"),
    "zero points are MatMulInteger's, not its": (
        {"inputs": [("i16", "[2, 3]"), ("i16", "[3, 5]"), ("i16", "[]")]}, "error"),
}


test_case = case_test("MatMulInteger16", CASES, domain=MS)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.lists(st.integers(1, 3), min_size=2,
                                                      max_size=2),
       st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_matches_onnxruntime(ra, rb, batch, m, k, n, ones, seed):
    """Full-range int16 values: sums past int32 wrap around in both."""
    rng = np.random.default_rng(seed)
    a_shape = (batch + [m, k])[-ra:] if ra > 1 else [k]
    b_shape = ([1 if ones else batch[0]] + batch[1:] + [k, n])[-rb:] if rb > 1 else [k]
    a = rng.integers(-32768, 32768, a_shape).astype(np.int16)
    b = rng.integers(-32768, 32768, b_shape).astype(np.int16)
    assert check_against_onnxruntime("MatMulInteger16", [a, b], rtol=0, atol=0) is not None


def test_sums_wrap_around_int32():
    a = np.full((1, 3), 30000, np.int16)
    want = check_against_onnxruntime("MatMulInteger16", [a, a.T.copy()], rtol=0, atol=0)
    assert want[0].item() == 3 * 30000**2 - 2**32


@pytest.mark.parametrize("types", [(np.uint16, np.uint16), (np.int16, np.uint16),
                                   (np.uint16, np.int16)])
def test_uint16_passes_onnxruntimes_checks(types):
    """onnxruntime's CPU provider has no kernel for uint16 operands; the graph passes its
    type and shape inference, and ours gives numpy's product in int32."""
    a = np.arange(6).reshape(2, 3).astype(types[0]) * 1000
    b = np.arange(12).reshape(3, 4).astype(types[1]) * 1000
    assert onnxruntime_verdict("MatMulInteger16", [a, b]) == "no kernel"
    (y,) = load_kernel("MatMulInteger16")({}, domain=MS)(a, b)
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32))


def test_onnxruntime_infers_int32_for_uint16():
    """Declared uint32 (the schema text's type for two uint16 operands), the graph is
    rejected by onnxruntime's type inference, as by the rules."""
    import onnxruntime as ort
    from onnx import TensorProto as TP, helper

    node = helper.make_node("MatMulInteger16", ["a", "b"], ["y"], domain=MS)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("a", TP.UINT16, [2, 3]),
                                            helper.make_tensor_value_info("b", TP.UINT16, [3, 4])],
                              [helper.make_tensor_value_info("y", TP.UINT32, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21),
                                                    helper.make_opsetid(MS, 1)])
    with pytest.raises(Exception, match="does not match expected type"):
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    check_case("MatMulInteger16", {"inputs": [("u16", "[2, 3]"), ("u16", "[3, 4]")],
                                   "outputs": {"y0": {"dtype": "u32"}}, "domain": MS}, "error")


@pytest.mark.parametrize("shapes", [((3, 4), (5, 2)), ((), (4, 5)), ((2, 3, 4), (3, 4, 5))])
def test_onnxruntime_rejects_what_the_rules_reject(shapes):
    arrays = [np.ones(s, np.int16) for s in shapes]
    assert check_against_onnxruntime("MatMulInteger16", arrays) is None


def test_onnxruntime_rejects_8bit_operands():
    arrays = [np.ones((2, 3), np.int8), np.ones((3, 4), np.int8)]
    assert check_against_onnxruntime("MatMulInteger16", arrays) is None
