"""NegativeLogLikelihoodLoss: loss[n, d..] = -x[n, target[n, d..], d..] * weight[target],
0 where the target is ignore_index; summed, averaged over the weights of the elements
not ignored, or kept per element (reduction). SoftmaxCrossEntropyLoss computes it on
log_softmax of its scores (class_loss)."""
import numpy as np

from .base import Kernel

REDUCTIONS = ("none", "sum", "mean")


def class_loss(kernel, x, target, weight, reduction, ignore_index):
    """The loss of log-probabilities x [N, C, d..] at classes target [N, d..]."""
    if reduction not in REDUCTIONS:
        raise kernel.fail(f"reduction {reduction!r} is none of {', '.join(REDUCTIONS)}")
    if x.ndim < 2 or target.shape != x.shape[:1] + x.shape[2:]:
        raise kernel.fail(f"input {list(x.shape)} and target {list(target.shape)} do not "
                          "fit (target: the input's shape without its class axis 1)")
    c = x.shape[1]
    t = np.asarray(target).astype(np.int64)
    ignored = np.zeros(t.shape, bool) if ignore_index is None else t == ignore_index
    picked = np.where(ignored, 0, t)
    if picked.size and (picked.min() < 0 or picked.max() >= c):
        raise kernel.fail(f"targets in [{picked.min()}, {picked.max()}] are out of range "
                          f"for {c} classes")
    if weight is not None and weight.shape != (c,):
        raise kernel.fail(f"weight {list(weight.shape)} is not one per class ({c})")
    loss = -np.take_along_axis(x, np.expand_dims(picked, 1), axis=1)[:, 0]
    w = np.ones(t.shape, x.dtype) if weight is None else weight[picked].astype(x.dtype)
    w = np.where(ignored, 0, w).astype(x.dtype)
    loss = (loss * w).astype(x.dtype)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.asarray(loss.sum(), x.dtype)
    return np.asarray(loss.sum() / w.sum(), x.dtype)


class NegativeLogLikelihoodLoss(Kernel):
    attrs = {"reduction": "mean", "ignore_index": None}
    n_inputs = (2, 3)

    def run(self, x, target, weight=None, *, reduction, ignore_index):
        return class_loss(self, x, target, weight, reduction, ignore_index)
