"""MatMul: rules/MatMul.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

CASES = {
    "matrices": ({"inputs": ["[n, k]", "[k, m]"]}, {"y0": "[n, m]"}),
    "batch broadcast": ({"inputs": ["[b, 1, n, k]", "[h, k, m]"]}, {"y0": "[b, h, n, m]"}),
    "vector x matrix": ({"inputs": ["[k]", "[b, k, m]"]}, {"y0": "[b, m]"}),
    "matrix x vector": ({"inputs": ["[b, n, k]", "[k]"]}, {"y0": "[b, n]"}),
    "vector x vector": ({"inputs": ["[k]", "[k]"]}, {"y0": "[]"}),
    "k links two symbols": ({"inputs": ["[n, k1]", "[k2, m]"]},
                            {"y0": "[n, m]", "x1": "[k1, m]", "bindings": {"k2": "k1"}}),
    "batch symbols stay apart": ({"inputs": ["[a, n, k]", "[b, k, m]"]},
                                 {"y0": "[max(a, b), n, m]"}),
    "backward from the output": ({"inputs": ["[n, k]", "[k, m]"],
                                  "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, k]", "x1": "[k, 7]"}),
    "contracted axes differ": ({"inputs": ["[2, 3]", "[4, 5]"]}, "error"),
    "batch axes clash": ({"inputs": ["[2, 3, 4]", "[3, 4, 5]"]}, "error"),
    "scalar operand": ({"inputs": ["[]", "[3, 4]"]}, "error"),
}


test_case = case_test("MatMul", CASES)


dims = st.integers(1, 4)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.lists(dims, max_size=2),
       st.lists(dims, max_size=2), dims, dims, dims, st.booleans())
def test_matches_reference(ra, rb, batch_a, batch_b, n, k, m, bad_k):
    # ranks 1..4; batch axes drawn freely, so some pairs do not broadcast
    a_shape = (batch_a + [n, k])[-ra:] if ra > 1 else [k]
    b_shape = (batch_b + [k + bad_k, m])[-rb:] if rb > 1 else [k + bad_k]
    check_against_reference("MatMul", [random_array(a_shape), random_array(b_shape)])
