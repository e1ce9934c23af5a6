"""SoftmaxCrossEntropyLoss: the negative log likelihood loss of log_softmax(scores) over
the class axis 1; the log-probabilities are the second output."""
import numpy as np

from .base import Kernel
from .NegativeLogLikelihoodLoss import class_loss


class SoftmaxCrossEntropyLoss(Kernel):
    attrs = {"reduction": "mean", "ignore_index": None}
    n_inputs = (2, 3)

    def run(self, scores, labels, weights=None, *, reduction, ignore_index):
        if scores.ndim < 2:
            raise self.fail(f"scores {list(scores.shape)} need a batch and a class axis")
        shifted = scores - scores.max(axis=1, keepdims=True)
        log_prob = (shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))).astype(
            scores.dtype)
        loss = class_loss(self, log_prob, labels, weights, reduction, ignore_index)
        return (loss, log_prob) if self.n_outputs > 1 else loss
