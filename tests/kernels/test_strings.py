"""The string and text kernels vs onnx's reference evaluator (StringNormalizer vs
onnxruntime: the reference removes stop words inside strings, against the spec)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ops.elementwise import operand_shapes
from tests.ops.strings import WORDS, shapes, string_array
from tests.ops.test_TfIdfVectorizer import BIGRAMS

from .reference import check, seeds

FAST = settings(max_examples=12, deadline=None)


@FAST
@given(seed=seeds, pair=operand_shapes())
def test_string_concat(seed, pair):
    rng = np.random.default_rng(seed)
    check("StringConcat", [string_array(rng, s) for s in pair], opset=20)


@FAST
@given(seed=seeds, shape=shapes, pattern=st.sampled_from(["[a-z]+", ".*day", r"\w+-\w+"]))
def test_regex_full_match(seed, shape, pattern):
    check("RegexFullMatch", [string_array(np.random.default_rng(seed), shape)],
          {"pattern": pattern}, opset=20)


@FAST
@given(seed=seeds, shape=shapes, delimiter=st.sampled_from([None, "-", " "]),
       maxsplit=st.sampled_from([None, 0, 2]))
def test_string_split(seed, shape, delimiter, maxsplit):
    attrs = {k: v for k, v in (("delimiter", delimiter), ("maxsplit", maxsplit)) if v is not None}
    check("StringSplit", [string_array(np.random.default_rng(seed), shape)], attrs,
          n_outputs=2, opset=20)


@FAST
@given(seed=seeds, c=st.integers(1, 6), two_d=st.booleans(),
       case=st.sampled_from(["NONE", "LOWER", "UPPER"]), sensitive=st.integers(0, 1),
       stopwords=st.lists(st.sampled_from(WORDS), max_size=3))
def test_string_normalizer(seed, c, two_d, case, sensitive, stopwords):
    x = string_array(np.random.default_rng(seed), [1, c] if two_d else [c])
    attrs = {"case_change_action": case, "is_case_sensitive": sensitive, "locale": "C"}
    if stopwords:
        attrs["stopwords"] = stopwords
    check("StringNormalizer", [x], attrs, opset=10, ort=True)


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 12), min_size=1, max_size=2),
       mode=st.sampled_from(["TF", "IDF", "TFIDF"]), skip=st.integers(0, 2))
def test_tfidf_vectorizer(seed, shape, mode, skip):
    attrs = {**BIGRAMS, "mode": mode, "max_skip_count": skip,
             "weights": [1.0, 0.5, 2.0, 1.5, 1.0, 0.25, 3.0]}
    x = np.random.default_rng(seed).integers(2, 9, shape).astype(np.int64)
    check("TfIdfVectorizer", [x], attrs, opset=9)
