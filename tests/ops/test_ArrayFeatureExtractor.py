"""ArrayFeatureExtractor (ai.onnx.ml): rules/ArrayFeatureExtractor.lp on data cases, and
the rule against onnx's reference and our kernel."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

ML = "ai.onnx.ml"


def afe(inputs, **extra):
    return {"inputs": inputs, "domain": ML, **extra}


CASES = {
    "symbolic rows, k indices": (afe(["[b, n]", ("i64", "[k]")]), {"y0": "[b, k]"}),
    "every index counts": (afe(["[b, s, n]", ("i64", "[2, k]")]), {"y0": "[b, s, 2*k]"}),
    "known indices": (afe(["[b, 5]", np.array([4, 0, -1], np.int64)]), {"y0": "[b, 3]"}),
    "a 1-D X gives a row": (afe(["[n]", ("i64", "[3]")]), {"y0": "[1, 3]"}),
    "strings": (afe([("str", "[2, n]"), ("i64", "[1, 4]")]),
                {"y0": "[2, 4]", "dtypes": {"y0": "str"}}),
    "leading axes back from the output": (
        afe(["X", ("i64", "[2]")], outputs={"y0": {"shape": "[3, 4, 2]"}}), {"x0": "[3, 4, _1]"}),
    # errors
    "a scalar X": (afe(["[]", ("i64", "[2]")]), "error"),
    "int32 indices": (afe(["[b, n]", ("i32", "[2]")]), "error"),
    "an index past the end": (afe(["[b, 5]", np.array([1, 5], np.int64)]), "error"),
    "an index before the start": (afe(["[b, 5]", np.array([-6], np.int64)]), "error"),
    "bool elements": (afe([("bool", "[2, 3]"), ("i64", "[2]")]), "error"),
    "the count is not the output's": (
        afe(["[b, n]", ("i64", "[3]")], outputs={"y0": {"shape": "[b, 4]"}}), "error"),
}


test_case = case_test("ArrayFeatureExtractor", CASES)


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
       index_shape=st.sampled_from([[2], [1, 3], [2, 2], [1]]),
       dtype=st.sampled_from(["f32", "i64", "f64", "i32"]),
       broken=st.booleans(), seed=st.integers(0, 2**16))
def test_matches_reference(shape, index_shape, dtype, broken, seed):
    """Indices in range (some negative), or one out of range: then both reject."""
    rng = np.random.default_rng(seed)
    n = shape[-1]
    idx = rng.integers(-n, n, size=index_shape).astype(np.int64)
    if broken:
        idx.flat[0] = n + int(rng.integers(0, 2)) if seed % 2 else -n - 1
    check_against_reference("ArrayFeatureExtractor", [random_array(shape, dtype, rng), idx],
                            const=[1], domain=ML)


def test_kernel_values():
    from shape_logic.kernels import node_kernel
    from shape_logic.testing import reference_outputs

    for x in (np.arange(24, dtype=np.float32).reshape(2, 3, 4), np.array(["a", "b", "c"])):
        y = np.array([[2, 0, -1]], np.int64)
        (got,) = node_kernel("ArrayFeatureExtractor", ML, {}, 18, 1)(x, y)
        (want,) = reference_outputs("ArrayFeatureExtractor", [x, y], domain=ML)
        np.testing.assert_array_equal(got, want)
        assert got.shape == want.shape
