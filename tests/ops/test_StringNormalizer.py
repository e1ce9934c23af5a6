"""StringNormalizer: rules/StringNormalizer.lp on data cases, and against onnxruntime (onnx's
reference removes stop words inside the strings and drops empty strings, where the ONNX
spec and onnxruntime remove the strings that are stop words)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case, infer

from .strings import WORDS, assert_dims_fit, string_array

CASES = {
    "no stop words: the shape": ({"inputs": [("str", "[c]")],
                                  "attrs": {"case_change_action": "LOWER"}},
                                 {"y0": "[c]", "dtypes": {"y0": "str"}}),
    "stop words: as many as are left": ({"inputs": [("str", "[1, c]")],
                                         "attrs": {"stopwords": ["monday"]}},
                                        {"y0": "[1, _c1]"}),
    "a batch of rows": ({"inputs": [("str", "[2, c]")]}, "error"),
    "rank 3": ({"inputs": [("str", "[1, 1, 3]")]}, "error"),
    "an unknown case action": ({"inputs": [("str", "[3]")],
                                "attrs": {"case_change_action": "TITLE"}}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("StringNormalizer", {"opset": 10, **CASES[name][0]}, CASES[name][1])


def test_the_strings_left_are_bounded_by_the_input():
    sol = infer("StringNormalizer", [("str", "[7]")], {"stopwords": ["a"]}, opset=10)
    assert sol.to_json()["ranges"] == {"_c1": [0, 7]}


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 6), st.booleans(), st.sampled_from(["NONE", "LOWER", "UPPER"]),
       st.integers(0, 1), st.lists(st.sampled_from(WORDS), max_size=3))
def test_matches_onnxruntime(c, two_d, case, sensitive, stopwords):
    """Shapes against onnxruntime's outputs (the kernel's values: tests/kernels/test_strings.py)."""
    from tests.kernels.reference import ort_outputs

    shape = [1, c] if two_d else [c]
    x = string_array(np.random.default_rng(c), shape)
    # (locale C: this machine has no en_US, onnxruntime's default for case-insensitive words)
    attrs = {"case_change_action": case, "is_case_sensitive": sensitive, "locale": "C"}
    if stopwords:
        attrs["stopwords"] = stopwords
    (want,) = ort_outputs("StringNormalizer", [x], attrs, 1, 10, ())
    sol = infer("StringNormalizer", [("str", list(shape))], attrs, opset=10)
    assert_dims_fit(sol, "y0", want.shape)
