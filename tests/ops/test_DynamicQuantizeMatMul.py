"""DynamicQuantizeMatMul (com.microsoft): rules on data cases (MatMul's shapes), and the rules
and the kernel (A quantized as DynamicQuantizeLinear does) against onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

W = ("i8", "[k, n]")
CASES = {
    "a Linear layer": ({"inputs": ["[b, s, k]", W, "[]"]},
                       {"y0": "[b, s, n]", "dtypes": {"y0": "f32"}}),
    "per-column scale and zero point, bias": (
        {"inputs": ["[b, s, k]", ("u8", "[k, n]"), "[n]", ("u8", "[n]"), "Bias"]},
        {"y0": "[b, s, n]", "x4": "[n]"}),
    "a vector A": ({"inputs": ["[k]", W, "[]"]}, {"y0": "[n]"}),
    "backward: A from the output": ({"inputs": ["[b, s, k]", ("i8", "[16, 8]"), "[]"],
                                     "outputs": {"y0": {"shape": "[b, s, 8]"}}},
                                    {"x0": "[b, s, 16]"}),
    "contracted sizes differ": ({"inputs": ["[m, 4]", ("i8", "[5, n]"), "[]"]}, "error"),
    "float16 A": ({"inputs": [("f16", "[m, k]"), W, "[]"]}, "error"),
    "float B": ({"inputs": ["[m, k]", "[k, n]", "[]"]}, "error"),
    "bias's size": ({"inputs": ["[m, 4]", ("i8", "[4, 5]"), "[]", None, "[6]"]}, "error"),
}


test_case = case_test("DynamicQuantizeMatMul", CASES, domain=MS)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(1, 3), max_size=2),
       m=st.integers(1, 4), k=st.integers(1, 6), n=st.integers(1, 5),
       b_type=st.sampled_from([np.int8, np.uint8]), per_column=st.booleans(),
       zero=st.booleans(), bias=st.booleans(), shift=st.sampled_from([0.0, 2.0, -3.0]))
def test_matches_onnxruntime(seed, lead, m, k, n, b_type, per_column, zero, bias, shift):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(tuple(lead) + (m, k)) + shift).astype(np.float32)
    lo, hi = (0, 256) if b_type == np.uint8 else (-128, 128)
    b = rng.integers(lo, hi, (k, n)).astype(b_type)
    cols = (n,) if per_column else ()
    arrays = [a, b, (rng.random(cols) * 0.01 + 0.001).astype(np.float32),
              rng.integers(lo, hi, cols).astype(b_type) if zero else None,
              rng.standard_normal(n).astype(np.float32) if bias else None]
    want = check_against_onnxruntime("DynamicQuantizeMatMul", arrays, rtol=1e-4, atol=1e-4)
    assert want is not None
