"""LinearAttention (opset 27, and com.microsoft's, onnxruntime's): recurrent linear attention
over a state [B, G, dk, dv] per kv head, updated token by token (the spec's sequential
semantics; a loop over time, every step vectorized over batch and heads):

    linear       S = S + k v^T
    gated        S = exp(g) S + k v^T
    delta        S = S + k (beta (v - S^T k))^T
    gated_delta  S = exp(g) S + k (beta (v - exp(g) S^T k))^T
    o = scale q^T S

in float32, as onnx's reference and onnxruntime's CPU kernel; the output has the query's
type, the present state the past state's (the query's without one). decay is per head
[B, T, G] or per key dimension [B, T, G*dk]; beta per head [B, T, G] or one [B, T, 1].
ONNX's: each of the H query heads reads kv head h // (H / G), the key has G heads.
com.microsoft's (measured on onnxruntime 1.32): the output has max(H, G) heads, head m
reading query head m*H // M and state m*G // M; the key has Hk heads dividing G (kv head g
reads key head g // (G / Hk)); decay and beta may be given to the rules that do not read
them (and are checked). Its state_window > 0 (CUDA's only) is refused here.
"""
import numpy as np

from .base import REQUIRED, Kernel

RULES = ("linear", "gated", "delta", "gated_delta")


class LinearAttention(Kernel):
    domains = ("", "com.microsoft")
    attrs = {"chunk_size": 64, "kv_num_heads": REQUIRED, "q_num_heads": REQUIRED,
             "scale": 0.0, "update_rule": "gated_delta", "state_window": 0}
    n_inputs = (3, 6)
    # the states may have another float type than the rest (a bfloat16 query and a float32
    # state): every input is read as float32 here and each output cast to its own type,
    # which base.py's one small float type for all outputs would not give
    widens_small_floats = False

    def setup(self, *, q_num_heads, kv_num_heads, update_rule, state_window, **_):
        self.ms = self.domain == "com.microsoft"
        if update_rule not in RULES:
            raise self.fail(f"update_rule must be one of {', '.join(RULES)}, "
                            f"got {update_rule!r}")
        h, g = q_num_heads, kv_num_heads
        if h <= 0 or g <= 0 or (h % g and (not self.ms or g % h)):
            raise self.fail(f"q_num_heads {h} must be a positive multiple of kv_num_heads {g}"
                            + (" (or divide it)" if self.ms else ""))
        if self.ms and not 0 <= state_window <= 8:
            raise self.fail(f"state_window {state_window} is not in 0..8")
        if self.ms and state_window:
            raise self.fail(f"state_window {state_window} > 0 is not computed here "
                            "(onnxruntime's CPU kernel takes 0 only)")

    def run(self, query, key, value, past=None, decay=None, beta=None, *, chunk_size=64,
            kv_num_heads, q_num_heads, scale=0.0, update_rule="gated_delta", **_):
        gated, delta = update_rule in ("gated", "gated_delta"), update_rule in (
            "delta", "gated_delta")
        for name, given, wanted in (("decay", decay, gated), ("beta", beta, delta)):
            if (given is not None) != wanted and (wanted or not self.ms):
                raise self.fail(f"update_rule {update_rule!r} "
                                f"{'requires' if wanted else 'takes no'} {name}")
        heads, groups = q_num_heads, kv_num_heads
        if query.ndim != 3 or key.ndim != 3 or value.ndim != 3:
            raise self.fail(f"query {list(query.shape)}, key {list(key.shape)} and value "
                            f"{list(value.shape)} must be [B, T, heads * size]")
        b, t, width = query.shape
        if width % heads or value.shape[2] % groups:
            raise self.fail(f"query's width {width} and value's {value.shape[2]} must be "
                            f"whole numbers of heads ({heads} and {groups})")
        dk, dv = width // heads, value.shape[2] // groups
        if self.ms and dv == 0:
            raise self.fail(f"value {list(value.shape)} has empty heads")
        key_heads = self.key_heads(key, dk, groups) if self.ms else groups
        if key.shape != (b, t, key_heads * dk) or value.shape[:2] != (b, t):
            raise self.fail(f"key {list(key.shape)} and value {list(value.shape)} do not fit "
                            f"query {list(query.shape)} (key [B, T, {key_heads * dk}])")
        if self.ms and past is not None and query.dtype == np.float32 and (
                past.dtype != np.float32):
            raise self.fail(f"a {past.dtype} state with a float32 query is not computed "
                            "here (onnxruntime's CPU kernel rejects it)")
        q = self.heads(query, heads)  # [T, B, H, dk]
        k = self.heads(key, key_heads)[:, :, np.arange(groups) // (groups // key_heads)]
        v = self.heads(value, groups)  # [T, B, G, dv]
        g = None if decay is None else self.gate(decay, "decay", b, t,
                                                 (groups, groups * dk), groups)
        rate = None if beta is None else self.gate(beta, "beta", b, t, (groups, 1), groups)
        if past is None:
            state = np.zeros((b, groups, dk, dv), np.float32)
        elif past.shape != (b, groups, dk, dv):
            raise self.fail(f"past_state {list(past.shape)} must be {[b, groups, dk, dv]}")
        else:
            state = past.astype(np.float32)  # (a copy)
        scale = np.float32(scale if scale else 1 / np.sqrt(dk))
        # the output heads: M = max(H, G), head m reads query head m*H // M, state m*G // M
        m = max(heads, groups)
        q_of, s_of = np.arange(m) * heads // m, np.arange(m) * groups // m
        out = np.empty((t, b, m, dv), np.float32)
        for i in range(t):
            if gated:  # exp(g) [B, G, 1 or dk, 1] scales the state's rows
                state *= np.exp(g[i])[..., None]
            vi = v[i]
            if delta:  # v <- beta (v - S^T k)
                vi = rate[i] * (vi - np.einsum("bgkv,bgk->bgv", state, k[i]))
            state += k[i][..., :, None] * vi[..., None, :]
            out[i] = np.einsum("bmk,bmkv->bmv", q[i][:, q_of], state[:, s_of])
        out *= scale
        present_dtype = query.dtype if past is None else past.dtype
        return (out.transpose(1, 0, 2, 3).reshape(b, t, m * dv).astype(query.dtype),
                state.astype(present_dtype))

    def key_heads(self, key, dk, groups):
        """com.microsoft's key heads Hk: the key's width / dk, dividing G (widths > 0)."""
        width = key.shape[-1] if key.ndim else 0
        if dk == 0 or width == 0 or width % dk or groups % (width // dk):
            raise self.fail(f"the key's width {width} must be a positive number of heads of "
                            f"{dk} (> 0) dividing kv_num_heads {groups}")
        return width // dk

    @staticmethod
    def heads(x, n):
        """[B, T, n * d] as float32 [T, B, n, d]."""
        b, t, width = x.shape
        return x.reshape(b, t, n, width // n).transpose(1, 0, 2, 3).astype(np.float32)

    def gate(self, x, name, b, t, widths, groups):
        """decay or beta [B, T, w] as float32 [T, B, G or 1, w / G or 1]."""
        if x.ndim != 3 or x.shape[:2] != (b, t) or x.shape[2] not in widths:
            raise self.fail(f"{name} {list(x.shape)} must be [{b}, {t}, w] with w one of "
                            f"{sorted(set(widths))}")
        n = groups if x.shape[2] >= groups else 1
        return self.heads(x, n)
