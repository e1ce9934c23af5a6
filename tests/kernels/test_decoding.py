"""The kernels of stateful decoding - a KV-cache update (TensorScatter), a causal convolution
carrying its last positions (CausalConvWithState), recurrent linear attention
(LinearAttention), attention with modifiers (FlexAttention; its score_mod and prob_mod
bodies in tests/ops/test_FlexAttention.py) - vs onnx's reference evaluator, and vs
onnxruntime where the reference cannot speak."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)
small = st.integers(1, 4)


@FAST
@given(seed=seeds, rank=st.integers(2, 4), data=st.data(),
       mode=st.sampled_from(["linear", "circular"]), indexed=st.booleans(),
       dtype=st.sampled_from(["f32", "i64", "f16", "bf16"]))
def test_tensor_scatter(seed, rank, data, mode, indexed, dtype):
    rng = np.random.default_rng(seed)
    shape = data.draw(st.lists(small, min_size=rank, max_size=rank))
    axis = data.draw(st.integers(1, rank - 1))
    longest = shape[axis]
    update = list(shape)
    update[axis] = data.draw(st.integers(0, longest))
    arrays = [rand(rng, shape, dtype), rand(rng, update, dtype)]
    if indexed:  # in range for linear mode; any start, even negative, for circular mode
        top = longest - update[axis] if mode == "linear" else 2 * longest
        arrays.append(rng.integers(-1 if mode == "circular" else 0, top + 1,
                                   shape[0]).astype(np.int64))
    attrs = {"mode": mode, "axis": data.draw(st.sampled_from([axis, axis - rank]))}
    check("TensorScatter", arrays, attrs, opset=24)


def test_tensor_scatter_writes_each_batch_entry_at_its_index():
    # a cache of zeros [2, 1, 4, 1]: batch entry 0 written from position 1, entry 1 from 3,
    # wrapping around to position 0 in circular mode
    past = np.zeros((2, 1, 4, 1), np.float32)
    update = np.array([1, 2, 3, 4], np.float32).reshape(2, 1, 2, 1)
    got = check("TensorScatter", [past, update, np.array([1, 3])], {"mode": "circular"},
                opset=24)
    assert got[0][:, 0, :, 0].tolist() == [[0, 1, 2, 0], [4, 0, 0, 3]]


@FAST
@given(seed=seeds, batch=small, channels=small, length=st.integers(0, 6), k=st.integers(1, 5),
       bias=st.booleans(), past=st.booleans(),
       activation=st.sampled_from(["none", "silu", "swish"]))
def test_causal_conv_with_state(seed, batch, channels, length, k, bias, past, activation):
    rng = np.random.default_rng(seed)
    arrays = [rand(rng, (batch, channels, length)), rand(rng, (channels, 1, k)),
              rand(rng, (channels,)) if bias else None,
              rand(rng, (batch, channels, k - 1)) if past else None]
    check("CausalConvWithState", arrays, {"activation": activation}, n_outputs=2, opset=27,
          atol=1e-4)


@FAST
@given(seed=seeds, length=st.integers(1, 4), k=st.integers(1, 4))
def test_causal_conv_with_state_half(seed, length, k):
    # float16, computed in float32 and rounded once (the reference rounds at every step)
    rng = np.random.default_rng(seed)
    arrays = [rand(rng, (2, 3, length), "f16", -1, 1), rand(rng, (3, 1, k), "f16", -1, 1),
              rand(rng, (3,), "f16", -1, 1), rand(rng, (2, 3, k - 1), "f16", -1, 1)]
    check("CausalConvWithState", arrays, {"activation": "silu"}, n_outputs=2, opset=27,
          rtol=1e-2, atol=1e-2)


def test_causal_conv_with_state_decodes_as_it_prefills():
    # running a sequence in two calls, the state carried, gives what one call gives
    from shape_logic.kernels import load_kernel

    rng = np.random.default_rng(0)
    x, w, b = rand(rng, (2, 3, 7)), rand(rng, (3, 1, 4)), rand(rng, (3,))
    kernel = load_kernel("CausalConvWithState")({"activation": "silu"}, opset=27, n_outputs=2)
    whole, state = kernel(x, w, b)
    first, carried = kernel(x[:, :, :5], w, b)
    second, state2 = kernel(x[:, :, 5:], w, b, carried)
    np.testing.assert_allclose(np.concatenate([first, second], axis=2), whole, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_array_equal(state2, state)


@st.composite
def linear_attention_inputs(draw):
    """Inputs of one update rule, with gates in either layout, a past state or none."""
    rng = np.random.default_rng(draw(seeds))
    b, t, groups = draw(st.integers(1, 2)), draw(st.integers(1, 5)), draw(st.integers(1, 3))
    heads = groups * draw(st.integers(1, 3))
    dk, dv = draw(small), draw(small)
    rule = draw(st.sampled_from(["linear", "gated", "delta", "gated_delta"]))
    r = lambda *shape: rand(rng, shape, low=-1, high=1)  # noqa: E731
    key = r(b, t, groups * dk) / np.float32(np.sqrt(dk))  # (keys of about unit length)
    arrays = [r(b, t, heads * dk), key, r(b, t, groups * dv),
              r(b, groups, dk, dv) if draw(st.booleans()) else None, None, None]
    if "gated" in rule:  # log-space decay, per head or per key dimension
        arrays[4] = -rand(rng, (b, t, draw(st.sampled_from([groups, groups * dk]))), low=0,
                          high=1)
    if "delta" in rule:  # an update rate in (0, 1), per head or one
        arrays[5] = rand(rng, (b, t, draw(st.sampled_from([groups, 1]))), low=0, high=1)
    attrs = {"q_num_heads": heads, "kv_num_heads": groups, "update_rule": rule}
    if draw(st.booleans()):
        attrs["scale"] = draw(st.floats(0.1, 2.0))
    return arrays, attrs


@FAST
@given(linear_attention_inputs())
def test_linear_attention(case):
    arrays, attrs = case
    check("LinearAttention", arrays, attrs, n_outputs=2, opset=27, atol=1e-5)


@settings(max_examples=6, deadline=None)
@given(linear_attention_inputs())
def test_linear_attention_matches_onnxruntime(case):
    # onnxruntime's own kernel (the query heads' mapping onto kv heads, the gates' layouts)
    arrays, attrs = case
    check("LinearAttention", arrays, attrs, n_outputs=2, opset=27, atol=1e-5, ort=True)


@pytest.mark.parametrize("dtype, state_dtype", [("f16", "f32"), ("bf16", "f32"),
                                                ("f32", "bf16"), ("bf16", None)])
def test_linear_attention_states_of_another_type(dtype, state_dtype):
    # the output has the query's type, the present state the past state's (the query's
    # without one): a bfloat16 query must not make a float32 state bfloat16, nor the reverse
    from shape_logic.graph import NUMPY_DTYPES

    rng = np.random.default_rng(3)
    f = lambda *shape, d=dtype: rand(rng, shape, d, -1, 1)  # noqa: E731
    past = None if state_dtype is None else f(2, 2, 2, 3, d=state_dtype)
    arrays = [f(2, 3, 8), f(2, 3, 4), f(2, 3, 6), past, -abs(f(2, 3, 2)), abs(f(2, 3, 2))]
    got = check("LinearAttention", arrays, {"q_num_heads": 4, "kv_num_heads": 2}, n_outputs=2,
                opset=27, rtol=1e-2, atol=1e-3)
    assert (got[0].dtype, got[1].dtype) == (np.dtype(NUMPY_DTYPES[dtype]),
                                            np.dtype(NUMPY_DTYPES[state_dtype or dtype]))


@FAST
@given(seed=seeds, b=small, kv=small, group=st.integers(1, 3), lq=small, lk=small, e=small,
       ev=small, dtype=st.sampled_from(["f32", "f64", "f16"]), scaled=st.booleans(),
       precision=st.sampled_from([None, 1, 11]))
def test_flex_attention(seed, b, kv, group, lq, lk, e, ev, dtype, scaled, precision):
    rng = np.random.default_rng(seed)
    arrays = [rand(rng, s, dtype) for s in ([b, kv * group, lq, e], [b, kv, lk, e],
                                            [b, kv, lk, ev])]
    attrs = {"scale": 0.3} if scaled else {}
    if precision is not None:
        attrs["softmax_precision"] = precision
    check("FlexAttention", arrays, attrs, domain="ai.onnx.preview",
          rtol=1e-2 if dtype == "f16" else 1e-3)
