"""MatMulIntegerToFloat (com.microsoft): rules on data cases (MatMul's shapes), and the rules
and the kernel against onnxruntime on random 8-bit operands."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

U8, I8 = ("u8", "[b, s, k]"), ("i8", "[k, n]")
CASES = {
    "a Linear layer": ({"inputs": [U8, I8, "[]", "[n]"]},
                       {"y0": "[b, s, n]", "dtypes": {"y0": "f32"}}),
    "zero points and bias": ({"inputs": [U8, I8, "[]", "[n]", ("u8", "[]"), ("i8", "[n]"), "Bias"]},
                             {"x6": "[n]"}),
    "float16 scales: a float16 output": ({"inputs": [U8, I8, ("f16", "[]"), ("f16", "[n]")]},
                                         {"dtypes": {"y0": "f16"}}),
    "batched B": ({"inputs": [("i8", "[b, m, k]"), ("i8", "[b, k, n]"), "[]", "[]"]},
                  {"y0": "[b, m, n]"}),
    "backward from the output": ({"inputs": [("u8", "[b, s, 16]"), ("i8", "W"), "[]", "[]"],
                                  "outputs": {"y0": {"shape": "[b, s, 8]"}}},
                                 {"y0": "[b, s, 8]"}),
    "contracted sizes differ": ({"inputs": [("u8", "[m, 4]"), ("i8", "[5, n]"), "[]", "[]"]},
                                "error"),
    "float A": ({"inputs": ["[m, k]", I8, "[]", "[]"]}, "error"),
    "scales of two types": ({"inputs": [U8, I8, "[]", ("f16", "[n]")]}, "error"),
    "a zero point of another type": ({"inputs": [U8, I8, "[]", "[]", ("i8", "[]")]}, "error"),
    "bias's size": ({"inputs": [("u8", "[m, 4]"), ("i8", "[4, 5]"), "[]", "[]", None, None,
                                "[6]"]}, "error"),
}


test_case = case_test("MatMulIntegerToFloat", CASES, domain=MS)


def ints(rng, dtype, shape):
    lo, hi = (0, 256) if dtype == np.uint8 else (-128, 128)
    return rng.integers(lo, hi, shape).astype(dtype)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(1, 3), max_size=2),
       m=st.integers(1, 4), k=st.integers(1, 6), n=st.integers(1, 5),
       types=st.sampled_from([(np.uint8, np.int8), (np.uint8, np.uint8), (np.int8, np.int8)]),
       per_column=st.booleans(), zeros=st.booleans(), bias=st.booleans(), f16=st.booleans())
def test_matches_onnxruntime(seed, lead, m, k, n, types, per_column, zeros, bias, f16):
    rng = np.random.default_rng(seed)
    ftype = np.float16 if f16 else np.float32
    a, b = ints(rng, types[0], tuple(lead) + (m, k)), ints(rng, types[1], (k, n))
    scale = lambda *s: (rng.random(s) * 0.01 + 0.001).astype(ftype)  # noqa: E731
    arrays = [a, b, scale(), scale(n) if per_column else scale(),
              ints(rng, types[0], ()) if zeros else None,
              ints(rng, types[1], (n,) if per_column else ()) if zeros else None,
              rng.standard_normal(n).astype(ftype) if bias else None]
    tol = 1e-2 if f16 else 1e-4
    want = check_against_onnxruntime("MatMulIntegerToFloat", arrays, rtol=tol, atol=tol)
    assert want is not None
