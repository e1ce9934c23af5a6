"""NGramRepeatBlock (com.microsoft): rules on data cases (scores pass through, one batch),
and the kernel against onnxruntime."""

import numpy as np
import pytest

from tests.contrib_ops import check_against_onnxruntime, check_contrib_case

CASES = {
    "scores pass through": ([("i64", "[b, t]"), ("f32", "[b, v]")], {"ngram_size": 3}, 1,
                            {"y0": "[b, v]"}),
    "the batch is shared": ([("i64", "[4, t]"), ("f32", "[b, 50]")], {"ngram_size": 2}, 1,
                            {"y0": "[4, 50]", "x1": "[4, 50]"}),
    "batches differ": ([("i64", "[4, t]"), ("f32", "[3, 50]")], {"ngram_size": 2}, 1,
                       "error"),
    "ids not a matrix": ([("i64", "[t]"), ("f32", "[b, v]")], {"ngram_size": 2}, 1, "error"),
    "int32 ids": ([("i32", "[b, t]"), ("f32", "[b, v]")], {"ngram_size": 2}, 1, "error"),
    "f16 scores": ([("i64", "[b, t]"), ("f16", "[b, v]")], {"ngram_size": 2}, 1, "error"),
    "no ngram_size": ([("i64", "[b, t]"), ("f32", "[b, v]")], {}, 1, "error"),
    "ngram_size 0": ([("i64", "[b, t]"), ("f32", "[b, v]")], {"ngram_size": 0}, 1, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    inputs, attrs, n_out, want = CASES[name]
    check_contrib_case("NGramRepeatBlock", inputs, attrs, n_out, want)


IDS = np.array([[1, 2, 3, 1, 2, 5, 1, 2], [0, 0, 0, 0, 4, 4, 0, 0], [3, 1, 4, 1, 5, 9, 2, 6]],
               np.int64)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8, 9, 12])
def test_kernel_and_shapes_match_onnxruntime(n):
    scores = np.random.default_rng(n).standard_normal((3, 10)).astype(np.float32)
    check_against_onnxruntime("NGramRepeatBlock", [IDS, scores], {"ngram_size": n})


def test_a_token_out_of_the_vocabulary_is_rejected_by_both():
    from shape_logic.kernels import load_kernel
    from tests.contrib_ops import onnxruntime_verdict

    ids, scores = np.array([[7, 7, 7]], np.int64), np.zeros((1, 5), np.float32)
    assert onnxruntime_verdict("NGramRepeatBlock", [ids, scores], {"ngram_size": 2}) \
        == "rejected"
    with pytest.raises(ValueError):
        load_kernel("NGramRepeatBlock")({"ngram_size": 2}, domain="com.microsoft")(ids, scores)
