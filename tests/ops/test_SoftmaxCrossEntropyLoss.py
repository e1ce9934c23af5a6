"""SoftmaxCrossEntropyLoss: rules/SoftmaxCrossEntropyLoss.lp (NegativeLogLikelihoodLoss.lp's
shape rules) on data cases, and against onnx's reference."""
from shape_logic.testing import check_case

from .class_loss import class_loss_tests

test_case, test_matches_reference = class_loss_tests("SoftmaxCrossEntropyLoss", 2)


def test_log_probabilities_have_the_scores_shape():
    check_case("SoftmaxCrossEntropyLoss",
               {"inputs": [("f16", "[n, c, d]"), ("i64", "[n, d]")], "n_outputs": 2},
               {"y0": "[]", "y1": "[n, c, d]", "dtypes": {"y1": "f16"}})


def test_at_most_two_outputs():
    check_case("SoftmaxCrossEntropyLoss", {"inputs": ["[2, 3]", ("i64", "[2]")],
                                           "n_outputs": 3}, "error")
