"""TfIdfVectorizer: rules/TfIdfVectorizer.lp on data cases, and against onnx's reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case

BIGRAMS = {"mode": "TF", "min_gram_length": 2, "max_gram_length": 2, "max_skip_count": 0,
           "ngram_counts": [0, 4], "ngram_indexes": [0, 1, 2, 3, 4, 5, 6],
           "pool_int64s": [2, 3, 5, 4, 5, 6, 7, 8, 6, 7]}

CASES = {
    "a row: one count per n-gram": ({"inputs": [("i64", "[c]")], "attrs": BIGRAMS},
                                    {"y0": "[7]", "dtypes": {"y0": "f32"}}),
    "a batch of rows": ({"inputs": [("i32", "[n, c]")], "attrs": BIGRAMS}, {"y0": "[n, 7]"}),
    "the largest index decides": ({"inputs": [("i64", "[c]")],
                                   "attrs": {**BIGRAMS, "ngram_indexes": [9, 0, 3, 1, 2, 4, 5]}},
                                  {"y0": "[10]"}),
    "float input": ({"inputs": ["[c]"], "attrs": BIGRAMS}, "error"),
    "rank 3": ({"inputs": [("i64", "[1, 2, 3]")], "attrs": BIGRAMS}, "error"),
    "an unknown mode": ({"inputs": [("i64", "[c]")], "attrs": {**BIGRAMS, "mode": "BM25"}},
                        "error"),
    "no mode": ({"inputs": [("i64", "[c]")],
                 "attrs": {k: v for k, v in BIGRAMS.items() if k != "mode"}}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("TfIdfVectorizer", {"opset": 9, **CASES[name][0]}, CASES[name][1])


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=2),
       st.sampled_from(["TF", "IDF", "TFIDF"]), st.integers(0, 2), st.integers(1, 2),
       st.integers(0, 1))
def test_matches_reference(shape, mode, skip, min_len, extra):
    attrs = {**BIGRAMS, "mode": mode, "max_skip_count": skip, "min_gram_length": min_len,
             "max_gram_length": min(2, min_len + extra),
             "weights": [1.0, 0.5, 2.0, 1.5, 1.0, 0.25, 3.0]}
    x = np.random.default_rng(len(shape)).integers(2, 9, shape).astype(np.int64)
    check_against_reference("TfIdfVectorizer", [x], attrs, opset=9)
