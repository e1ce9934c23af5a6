"""RelativePositionBias (com.microsoft; onnxruntime runs it on CUDA only): rules on data cases,
and the rules' shape against the kernel's on random inputs (the kernel's values against T5's
own bucketing: tests/kernels/test_ort_rewrites.py)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case, infer
from tests.contrib_ops import MS

I64 = np.int64


def case(inputs, attrs=None, outputs=None):
    spec = {"inputs": inputs, "attrs": {"max_distance": 128, **(attrs or {})}, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "lengths as constants": (case(["[32, 8]", np.array(5, I64), np.array(5, I64)],
                                  {"is_bidirectional": 1}), {"y0": "[1, 8, 5, 5]"}),
    "lengths as [1] constants, f16": (case([("f16", "[32, h]"), np.array([7], I64),
                                            np.array([7], I64)]),
                                      {"y0": "[1, h, 7, 7]", "dtypes": {"y0": "f16"}}),
    "unknown lengths: fresh names": (case(["[32, 8]", ("i64", "[]"), ("i64", "[]")]),
                                     {"y0": "[1, 8, _, _]"}),
    "backward: the heads from Y": (case(["[32, h]", ("i64", "[]"), ("i64", "[]")],
                                        outputs={"y0": {"shape": "[1, 6, s, s]"}}),
                                   {"x0": "[32, 6]"}),
    "lengths that differ": (case(["[32, 8]", np.array(5, I64), np.array(6, I64)]), "error"),
    "a negative length": (case(["[32, 8]", np.array(-1, I64), np.array(-1, I64)]), "error"),
    "no max_distance": ({"inputs": ["[32, 8]", np.array(5, I64), np.array(5, I64)],
                         "domain": MS}, "error"),
    "a 3-D table": (case(["[32, 8, 1]", np.array(5, I64), np.array(5, I64)]), "error"),
    "an integer table": (case([("i32", "[32, 8]"), np.array(5, I64), np.array(5, I64)]),
                         "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    if isinstance(expected, dict) and "_" in expected.get("y0", ""):
        sol = infer("RelativePositionBias", spec["inputs"], spec["attrs"], domain=MS)
        assert sol.status == "ok"
        d = sol.dims("y0")
        assert [str(x) for x in d[:2]] == ["1", "8"] and d[2] != d[3], sol.shape("y0")
        return
    check_case("RelativePositionBias", spec, expected)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), buckets=st.sampled_from([4, 8, 16, 32]),
       heads=st.integers(1, 4), length=st.integers(0, 40), bidirectional=st.booleans(),
       max_distance=st.sampled_from([16, 64, 128]))
def test_rules_give_the_kernel_s_shape(seed, buckets, heads, length, bidirectional,
                                       max_distance):
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((buckets, heads)).astype(np.float32)
    lengths = [np.array(length, I64), np.array(length, I64)]
    attrs = {"max_distance": max_distance, "is_bidirectional": int(bidirectional)}
    (y,) = load_kernel("RelativePositionBias")(attrs, domain=MS)(table, *lengths)
    sol = infer("RelativePositionBias", [("f32", list(table.shape))] + lengths, attrs, domain=MS)
    assert sol.status == "ok" and sol.shape("y0") == "[" + ", ".join(map(str, y.shape)) + "]"
