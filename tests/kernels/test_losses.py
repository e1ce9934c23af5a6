"""The class losses' kernels vs onnx's reference evaluator: per element, summed and averaged
over the weights, with weights and ignored targets, on inputs of rank 2 to 4."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)


@pytest.mark.parametrize("op", ["NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"])
@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 4), min_size=2, max_size=4),
       weighted=st.booleans(), reduction=st.sampled_from(["none", "sum", "mean"]),
       ignore_index=st.sampled_from([None, 0, 2, -1]), outputs=st.integers(1, 2))
def test_class_losses(op, seed, shape, weighted, reduction, ignore_index, outputs):
    rng = np.random.default_rng(seed)
    target = rng.integers(0, shape[1], [shape[0]] + shape[2:]).astype(np.int64)
    if reduction == "mean" and ignore_index is not None and np.all(target == ignore_index):
        return  # every element ignored: a mean of nothing (0/0)
    arrays = [rand(rng, shape), target] + ([rand(rng, [shape[1]], low=0.1)] if weighted else [])
    attrs = {"reduction": reduction}
    if ignore_index is not None:
        attrs["ignore_index"] = ignore_index
    outputs = outputs if op == "SoftmaxCrossEntropyLoss" else 1
    check(op, arrays, attrs, n_outputs=outputs, const=(1,))
