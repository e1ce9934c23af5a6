"""NegativeLogLikelihoodLoss: rules/NegativeLogLikelihoodLoss.lp on data cases, and
against onnx's reference."""
from shape_logic.testing import check_case

from .class_loss import class_loss_tests

test_case, test_matches_reference = class_loss_tests("NegativeLogLikelihoodLoss", 1)


def test_one_output():
    check_case("NegativeLogLikelihoodLoss", {"inputs": ["[2, 3]", ("i64", "[2]")],
                                             "n_outputs": 2}, "error")
