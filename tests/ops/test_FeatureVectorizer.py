"""FeatureVectorizer (ai.onnx.ml 1): rules/FeatureVectorizer.lp on data cases; the rule and
our kernel against onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel


def fv(inputs, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": ML}


CASES = {
    "side by side": (fv(["[n, 3]", "[n, 2]"], inputdimensions=[3, 2]),
                     {"y0": "[n, 5]", "dtypes": {"y0": "f32"}}),
    "padded and cut": (fv([("i64", "[n, a, b]"), ("i64", "[n, 2]")], inputdimensions=[4, 7]),
                       {"y0": "[n, 11]"}),
    "the batch is every input's": (fv(["[n, 3]", "[2, 2]"], inputdimensions=[3, 2]),
                                   {"y0": "[2, 5]", "x0": "[2, 3]"}),
    "a 1-D input is one row": (fv(["[3]", "[k, 2]"], inputdimensions=[3, 2]),
                               {"y0": "[1, 5]", "x1": "[1, 2]"}),
    # errors
    "no inputdimensions": (fv(["[n, 3]"]), "error"),
    "a count per input": (fv(["[n, 3]", "[n, 2]"], inputdimensions=[3]), "error"),
    "a negative count": (fv(["[n, 3]"], inputdimensions=[-1]), "error"),
    "two types": (fv(["[n, 3]", ("i64", "[n, 2]")], inputdimensions=[3, 2]), "error"),
    "two batches": (fv(["[2, 3]", "[3, 2]"], inputdimensions=[3, 2]), "error"),
    "a scalar": (fv(["[]"], inputdimensions=[1]), "error"),
    "strings": (fv([("str", "[n, 2]")], inputdimensions=[2]), "error"),
}

test_case = case_test("FeatureVectorizer", CASES)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 3),
       shapes=st.lists(st.lists(st.integers(1, 3), min_size=0, max_size=2), min_size=1,
                       max_size=3),
       extra=st.lists(st.integers(-2, 2), min_size=3, max_size=3),
       dtype=st.sampled_from([np.float32, np.float64, np.int64, np.int32]))
def test_matches_onnxruntime(seed, n, shapes, extra, dtype):
    rng = np.random.default_rng(seed)
    xs = [(rng.standard_normal([n, *s]) * 3).astype(dtype) for s in shapes]
    dims = [max(0, int(np.prod(s)) + e) for s, e in zip(shapes, extra)]
    check_ml("FeatureVectorizer", xs, {"inputdimensions": dims}, 1)


def test_against_reference():
    xs = [np.ones((2, 3), np.float32), 2 * np.ones((2, 2), np.float32)]
    attrs = {"inputdimensions": [3, 2]}
    (got,) = run_kernel("FeatureVectorizer", xs, attrs)
    (want,) = reference_outputs("FeatureVectorizer", xs, attrs, domain=ML)
    np.testing.assert_array_equal(got, want)
