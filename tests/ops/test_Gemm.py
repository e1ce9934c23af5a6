"""Gemm: rules/Gemm.lp on data cases, and against onnx's reference on random shapes."""
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, infer, random_array
from tests.ops.cases import case_test

CASES = {
    "no bias": ({"inputs": ["[m, k]", "[k, n]"]}, {"y0": "[m, n]"}),
    "transposes link k": ({"inputs": ["[k, m]", "[n, k2]", "[n]"],
                           "attrs": {"transA": 1, "transB": 1}},
                          {"y0": "[m, n]", "x1": "[n, k]", "bindings": {"k2": "k"}}),
    "transA only": ({"inputs": ["[3, 2]", "[3, 4]"], "attrs": {"transA": 1}}, {"y0": "[2, 4]"}),
    "transB only": ({"inputs": ["[2, 3]", "[4, 3]"], "attrs": {"transB": 1}}, {"y0": "[2, 4]"}),
    "any nonzero trans": ({"inputs": ["[3, 2]", "[4, 3]"], "attrs": {"transA": 2, "transB": 5}},
                          {"y0": "[2, 4]"}),
    "scalar bias": ({"inputs": ["[2, 3]", "[3, 4]", "[]"]}, {"y0": "[2, 4]"}),
    "column bias gives m": ({"inputs": ["[m, k]", "[k, n]", "[4, 1]"]},
                            {"y0": "[4, n]", "bindings": {"m": 4}}),
    "vector bias gives n": ({"inputs": ["[m, k]", "[k, n]", "[5]"]},
                            {"y0": "[m, 5]", "bindings": {"n": 5}}),
    "symbolic bias may be 1: left alone": ({"inputs": ["[m, k]", "[k, n]", "[c1, c2]"]},
                                           {"y0": "[m, n]", "x2": "[c1, c2]", "bindings": {}}),
    "bias is 1 where Y is": ({"inputs": ["[m, k]", "[k, 1]", "[c1, c2]"]},
                             {"x2": "[c1, 1]", "bindings": {"c2": 1}}),
    "full bias": ({"inputs": ["[m, k]", "[k, n]", "[2, 3]"]},
                  {"y0": "[2, 3]", "bindings": {"m": 2, "n": 3}}),
    "integers": ({"inputs": [("i64", "[2, 3]"), ("i64", "[3, 4]")]},
                 {"y0": "[2, 4]", "dtypes": {"y0": "i64"}}),
    "backward": ({"inputs": ["a", "b"], "outputs": {"y0": {"shape": "[4, 7]"}},
                  "attrs": {"transB": 1}},
                 {"x0": "[4, _1]", "x1": "[7, _1]"}),
    "opset 6 broadcast=1": ({"inputs": ["[m, k]", "[k, n]", "[n]"], "attrs": {"broadcast": 1},
                             "opset": 6}, {"y0": "[m, n]"}),
    "opset 6 exact bias": ({"inputs": ["[m, k]", "[k, n]", "[c1, c2]"], "opset": 6},
                           {"y0": "[c1, c2]", "bindings": {"m": "c1", "n": "c2"}}),
    # errors
    "integers before opset 9": ({"inputs": [("i32", "[2, 3]"), ("i32", "[3, 4]"), ("i32", "[4]")],
                                 "opset": 8}, "error"),
    "bool": ({"inputs": [("bool", "[2, 3]"), ("bool", "[3, 4]")]}, "error"),
    "k differs": ({"inputs": ["[2, 3]", "[4, 5]"]}, "error"),
    "k differs after transB": ({"inputs": ["[2, 3]", "[3, 4]"], "attrs": {"transB": 1}}, "error"),
    "vector A": ({"inputs": ["[3]", "[3, 4]"]}, "error"),
    "rank-3 B": ({"inputs": ["[2, 3]", "[3, 4, 1]"]}, "error"),
    "bias does not broadcast to n": ({"inputs": ["[2, 3]", "[3, 4]", "[2]"]}, "error"),
    "bias broadcasts only the other way": ({"inputs": ["[2, 3]", "[3, 1]", "[2, 4]"]}, "error"),
    "bias of rank 3": ({"inputs": ["[2, 3]", "[3, 4]", "[1, 2, 4]"]}, "error"),
    "dtype mismatch": ({"inputs": [("f32", "[2, 3]"), ("f64", "[3, 4]")]}, "error"),
    "opset 9 needs C": ({"inputs": ["[2, 3]", "[3, 4]"], "opset": 9}, "error"),
    "opset 6 bias without broadcast": ({"inputs": ["[2, 3]", "[3, 4]", "[4]"], "opset": 6},
                                       "error"),
}


test_case = case_test("Gemm", CASES)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.sampled_from([0, 0, 0, 1]),
       st.integers(0, 1), st.integers(0, 1), st.one_of(st.none(), st.integers(0, 2)),
       st.lists(st.integers(0, 3), min_size=2, max_size=2), st.sampled_from(["f32", "f64", "i64"]),
       st.sampled_from([2, 2, 2, 2, 1, 3]))
def test_matches_reference(m, k, n, bad_k, trans_a, trans_b, c_rank, c_pick, dtype, a_rank):
    a_shape = [k, m] if trans_a else [m, k]
    a_shape = (a_shape + [1])[:a_rank]  # sometimes not a matrix
    b_shape = [n, k + bad_k] if trans_b else [k + bad_k, n]
    arrays = [random_array(a_shape, dtype), random_array(b_shape, dtype)]
    if c_rank is not None:
        # each axis of C: 1, Y's, or something else (broadcasting the wrong way, or a clash)
        target = [m, n][2 - c_rank:]
        c_shape = [[1, t, t, t + 1][p] for p, t in zip(c_pick, target)]
        arrays.append(random_array(c_shape, dtype))
    attrs = {"transA": trans_a, "transB": trans_b}
    if a_rank != 2:  # onnxruntime rejects; the reference computes np.dot of a vector
        assert infer("Gemm", [(dtype, str(list(x.shape))) for x in arrays], attrs).status == "error"
        return
    check_against_reference("Gemm", arrays, attrs)
