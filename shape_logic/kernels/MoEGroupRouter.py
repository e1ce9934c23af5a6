"""MoEGroupRouter (com.microsoft): DeepSeek-V3's group-limited sigmoid router (noaux_tc).
s = sigmoid(logits) in float32 over E experts (logits [..., E] read as [rows, E]), b = s +
expert_bias; each of the n_group groups of E / n_group experts scores the sum of its
min(group_topk, E / n_group) highest b; the topk_group best groups are kept, and of their
experts the top_k of highest b (fewer where they hold fewer): router_probs [rows, E] holds
log(max(s, 1e-20)) at those and router_sentinel elsewhere, in logits' type. Ties go to the
lower index (of a group, of an expert). The full-score outputs (selection_scores, router_
weights: b and s, float32 [rows, E]) instead, with projection_weight [E, width] optionally
making the logits of activations [rows, width] (logits @ projection_weight^T in float32).

The kernel sees how many outputs the node lists, not which are named: 1 is router_probs
alone, 3 the full-score pair after an absent router_probs (None in its place; onnxruntime
takes no other choice)."""
import numpy as np

from .base import REQUIRED, Kernel

FLOATS = (np.float16, np.float32)


def sigmoid(x):
    with np.errstate(over="ignore"):
        return (np.float32(1) / (np.float32(1) + np.exp(-x))).astype(np.float32)


def top(scores, k):
    """The indices of the k highest of each row, ties to the lower index (stable)."""
    return np.argsort(-scores, axis=-1, kind="stable")[..., :k]


class MoEGroupRouter(Kernel):
    domains = ("com.microsoft",)
    attrs = {"top_k": REQUIRED, "n_group": 1, "topk_group": 1, "group_topk": 2,
             "router_sentinel": -10000.0}
    n_inputs = (2, 3)
    small_float_from = 0
    small_float_outputs = (0,)

    def setup(self, top_k, n_group, topk_group, group_topk, **_):
        for name, v in (("top_k", top_k), ("n_group", n_group), ("topk_group", topk_group),
                        ("group_topk", group_topk)):
            if v < 1:
                raise self.fail(f"{name} must be positive, not {v}")
        if self.n_outputs not in (1, 3):
            raise self.fail("gives router_probs alone, or selection_scores and router_weights "
                            "together (router_probs absent)")

    def run(self, logits, bias, weight=None, *, top_k, n_group, topk_group, group_topk,
            router_sentinel):
        full = self.n_outputs == 3
        if logits.dtype not in FLOATS or bias.dtype != np.float32 or (
                weight is not None and weight.dtype != logits.dtype):
            raise self.fail(f"takes a float logits and projection_weight of one type and a "
                            f"float32 expert_bias, not {logits.dtype}, {bias.dtype}")
        x = logits.astype(np.float32)
        if weight is not None:
            x = self._project(x, bias, weight, full)
        if x.ndim < 2:
            raise self.fail(f"logits {list(logits.shape)} need rank 2 or more")
        e = x.shape[-1]
        x = x.reshape(-1, e)
        if e < 1 or bias.size != e:
            raise self.fail(f"{e} experts (logits' last axis) need 1 or more, and as many "
                            f"expert_bias elements, not {bias.size}")
        if e % n_group or topk_group > n_group or top_k > e:
            raise self.fail(f"{e} experts in n_group {n_group} groups, topk_group "
                            f"{topk_group} of them, top_k {top_k} of the experts")
        s = sigmoid(x)
        b = s + bias.reshape(-1)
        if full:
            if n_group != 1 or e > 512:
                raise self.fail(f"the full-score outputs take one group of at most 512 "
                                f"experts, not {n_group} groups, {e} experts")
            return None, b, s
        return self._route(s, b, top_k, n_group, topk_group, group_topk,
                           router_sentinel).astype(logits.dtype)

    def _project(self, x, bias, weight, full):
        if not full:
            raise self.fail("projection_weight needs the full-score outputs")
        if x.ndim != 2 or weight.ndim != 2 or bias.ndim != 1 or x.shape[1] < 1 or \
                x.shape[1] % 256 or weight.shape != (bias.shape[0], x.shape[1]):
            raise self.fail(f"activations {list(x.shape)} [rows, width] (width a positive "
                            f"multiple of 256), projection_weight {list(weight.shape)} "
                            f"[E, width], expert_bias {list(bias.shape)} [E]")
        return x @ weight.astype(np.float32).T

    @staticmethod
    def _route(s, b, top_k, n_group, topk_group, group_topk, sentinel):
        rows, e = b.shape
        size = e // n_group
        groups = b.reshape(rows, n_group, size)
        best = -np.sort(-groups, axis=-1)[..., :min(group_topk, size)]
        kept = top(best.sum(-1, dtype=np.float32), topk_group)  # [rows, topk_group]
        allowed = np.zeros((rows, n_group), bool)
        np.put_along_axis(allowed, kept, True, axis=-1)
        allowed = np.repeat(allowed, size, axis=-1)
        k = min(top_k, topk_group * size)
        chosen = top(np.where(allowed, b, -np.inf), k)
        out = np.full((rows, e), np.float32(sentinel), np.float32)
        picked = np.take_along_axis(s, chosen, -1)
        np.put_along_axis(out, chosen, np.log(np.maximum(picked, np.float32(1e-20))), -1)
        return out
