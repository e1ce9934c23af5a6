"""GatedDeltaNet (com.microsoft, onnxruntime's): the gated delta recurrence per value head h
(query/key head h // (Hv / Hq)), S [dk, dv] (stored V-major, [B, Hv, dv, dk], float32):

    S = exp(g) S + k (beta (v - exp(g) S^T k))^T,   o = scale S^T q

(update_rule 'linear' drops the decay and the retrieval, 'gated' keeps the decay only,
'delta' the retrieval only), over the tokens of each sequence: cu_seqlens [B + 1], else
B equal runs (B from the rank-4 spelling or initial_state). Fused: gate_activation
softplus/qwen g = -exp(a_log) Softplus(decay + dt_bias), sigmoid/kda g = gate_lower_bound
Sigmoid(exp(a_log) (decay + dt_bias)); beta_activation sigmoid; qk_l2_norm (any nonzero)
L2-normalizes q and k (x / sqrt(sum x^2 + eps)). All in float32, the output rounded to
the query's type (bfloat16 arrives as float32: base.py). state_update is computed only
where it holds no unspecified entries: capacity 0 (empty) or state_update_active 0
(zeros); else refused."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel

ENUMS = {"update_rule": ("linear", "gated", "delta", "gated_delta"),
         "gate_activation": ("none", "softplus", "qwen", "sigmoid", "kda"),
         "beta_activation": ("none", "sigmoid")}


class GatedDeltaNet(Kernel):
    domains = ("com.microsoft",)
    attrs = {"update_rule": "gated_delta", "gate_activation": "none", "beta_activation": "none",
             "scale": 0.0, "qk_l2_norm": 0, "gate_lower_bound": -5.0,
             "state_update_capacity": 0, "chunk_size": 64}
    n_inputs = (1, 11)
    small_float_outputs = (0,)

    def setup(self, state_update_capacity, chunk_size, **attrs):
        for name, allowed in ENUMS.items():
            v = attrs[name].decode() if isinstance(attrs[name], bytes) else attrs[name]
            if v not in allowed:
                raise self.fail(f"{name} {v!r} is none of {', '.join(allowed)}")
            setattr(self, name, v)
        if not 0 <= state_update_capacity <= 8 or chunk_size <= 0:
            raise self.fail(f"state_update_capacity {state_update_capacity} must be in 0..8, "
                            f"chunk_size {chunk_size} positive")

    def run(self, q, k=None, v=None, cu=None, decay=None, beta=None, state=None, a_log=None,
            dt_bias=None, count=None, active=None, *, scale, qk_l2_norm, gate_lower_bound,
            state_update_capacity, **_):
        cap = state_update_capacity
        gated, delta = "gated" in self.update_rule, "delta" in self.update_rule
        fused = self.gate_activation != "none"
        if ((decay is not None) != gated or (beta is not None) != delta
                or (a_log is not None or dt_bias is not None) != fused
                or fused and (a_log is None or dt_bias is None)
                or (count is not None) != (cap > 0) or (k is None) != (v is None)):
            raise self.fail("decay, beta, a_log/dt_bias and capture_count must be given "
                            "exactly when the attributes read them; key and value together")
        if state is not None and state.dtype != np.float32 or any(
                x is not None and x.dtype != np.int32 for x in (cu, count, active)):
            raise self.fail("initial_state is float32, cu_seqlens and the counts int32")
        dtype = q.dtype
        q, k, v, lead = self.split(q, k, v, state)
        t, hq, dk = q.shape
        hv, dv = v.shape[1:]
        if t == 0 or hq == 0 or dk == 0 or dv == 0 or hv % hq or k.shape != q.shape or (
                v.shape[0] != t):
            raise self.fail(f"query {list(q.shape)}, key {list(k.shape)}, value "
                            f"{list(v.shape)}: positive sizes, Hv a multiple of Hq")
        cu = self.offsets(cu, lead, state, t)
        b = len(cu) - 1
        if state is not None and state.shape != (b, hv, dv, dk):
            raise self.fail(f"initial_state {list(state.shape)} must be {[b, hv, dv, dk]}")
        for x in (count, active):
            if x is not None and x.shape != ((b,) if x is count else (1,)):
                raise self.fail("capture_count must be [B], state_update_active [1]")
        g = self.gate(decay, a_log, dt_bias, t, hv, dk, gate_lower_bound,
                      decay.ndim == len(lead) + 2) if gated else None
        if delta:
            beta = self.tokens(beta, t, (hv,), "beta")
            beta = sigmoid(beta) if self.beta_activation == "sigmoid" else beta
        if qk_l2_norm:  # (measured: an epsilon of 1e-6 under the sigmoid (KDA) gates)
            eps = np.float32(1e-6 if self.gate_activation in ("sigmoid", "kda") else 1e-12)
            q = q / np.sqrt(np.sum(q * q, -1, keepdims=True) + eps)
            k = k / np.sqrt(np.sum(k * k, -1, keepdims=True) + eps)
        group = hv // hq
        q, k = np.repeat(q, group, axis=1), np.repeat(k, group, axis=1)  # [T, Hv, dk]
        s = np.float32(scale if scale else 1 / np.sqrt(dk))
        states = (np.zeros((b, hv, dv, dk), np.float32) if state is None else
                  state.astype(np.float32)).transpose(0, 1, 3, 2).copy()  # [B, Hv, dk, dv]
        out = np.empty((t, hv, dv), np.float32)
        for i in range(b):
            st = states[i]
            for j in range(int(cu[i]), int(cu[i + 1])):
                if gated:  # exp(g) [Hv] or [Hv, dk] scales the rows
                    e = np.exp(g[j])
                    st *= e[:, :, None] if e.ndim == 2 else e[:, None, None]
                vj = v[j]
                if delta:
                    vj = beta[j][:, None] * (vj - np.einsum("hkv,hk->hv", st, k[j]))
                st += k[j][:, :, None] * vj[:, None, :]
                out[j] = s * np.einsum("hkv,hk->hv", st, q[j])
        outs = [out.reshape(*lead, hv, dv).astype(dtype), states.transpose(0, 1, 3, 2)]
        if self.n_outputs > 2:
            if cap and (active is None or active[0] != 0):
                raise self.fail("state_update's captured transitions are not computed here "
                                "(only capacity 0, or state_update_active 0)")
            dw = hv * dk if gated and g.ndim == 2 else hv
            outs.append(np.zeros((b, cap * (dw + hq * dk + hv * dv)), np.float32))
        return tuple(outs)

    def split(self, q, k, v, state):
        """Query, key and value as float32 [T, H, d], and the tokens' leading shape."""
        if k is None:  # packed QKV [..., 2*Hq*dk + Hv*dv]: the sizes from initial_state
            if state is None or q.ndim not in (2, 3) or state.ndim != 4:
                raise self.fail("packed QKV needs a rank-2 or -3 query and initial_state")
            hv, dv, dk = state.shape[1:]
            width = q.shape[-1] - hv * dv
            if dk == 0 or width <= 0 or width % (2 * dk):
                raise self.fail(f"packed QKV width {q.shape[-1]} does not fit the state")
            hq = width // (2 * dk)
            lead = q.shape[:-1]
            flat = q.reshape(-1, q.shape[-1]).astype(np.float32)
            return (flat[:, :hq * dk].reshape(-1, hq, dk),
                    flat[:, hq * dk:2 * hq * dk].reshape(-1, hq, dk),
                    flat[:, 2 * hq * dk:].reshape(-1, hv, dv), lead)
        if q.ndim not in (3, 4) or k.ndim != q.ndim or v.ndim != q.ndim:
            raise self.fail(f"query, key and value of rank 3 or 4 alike, not {q.ndim}, "
                            f"{k.ndim}, {v.ndim}")
        f = lambda x: x.reshape(-1, *x.shape[-2:]).astype(np.float32)  # noqa: E731
        return f(q), f(k), f(v), q.shape[:-2]

    def offsets(self, cu, lead, state, t):
        if cu is not None:
            if len(lead) != 1 or cu.ndim != 1 or cu.size < 2:
                raise self.fail("cu_seqlens [B + 1], B >= 1, with rank-3 tokens only")
            if cu[0] != 0 or cu[-1] != t or np.any(np.diff(cu) < 0):
                raise self.fail(f"cu_seqlens {cu.tolist()} must rise from 0 to {t}")
            return cu
        if len(lead) == 2:
            b = lead[0]
        elif state is None or state.ndim != 4 or state.shape[0] == 0:
            raise self.fail("without cu_seqlens, rank-3 tokens need initial_state's batch")
        else:
            b = state.shape[0]
        if t % b:
            raise self.fail(f"{t} tokens do not split into {b} sequences")
        return np.arange(b + 1) * (t // b)

    def tokens(self, x, t, tail, name):
        if x.shape[-len(tail):] != tail or int(np.prod(x.shape[:-len(tail)])) != t:
            raise self.fail(f"{name} {list(x.shape)} must be [tokens, {tail}]")
        return x.reshape(t, *tail).astype(np.float32)

    def gate(self, decay, a_log, dt_bias, t, hv, dk, lower, per_key):
        """The log-space decay g, float32 [T, Hv] or (per_key) [T, Hv, dk]."""
        g = self.tokens(decay, t, (hv, dk) if per_key else (hv,), "decay")
        if self.gate_activation == "none":
            return g
        if a_log.shape != (hv,) or dt_bias.size not in ((hv, hv * dk) if per_key else (hv,)):
            raise self.fail(f"a_log {list(a_log.shape)} must be [{hv}], dt_bias [{hv}]"
                            + (f" or [{hv}, {dk}]" if per_key else ""))
        a = np.exp(a_log.astype(np.float32))
        db = dt_bias.astype(np.float32).reshape(hv, -1)
        if per_key:
            a = a[:, None]
        else:
            db = db[:, 0]
        if self.gate_activation in ("softplus", "qwen"):
            return -a * np.logaddexp(np.float32(0), g + db)
        return np.float32(lower) * sigmoid(a * (g + db))
