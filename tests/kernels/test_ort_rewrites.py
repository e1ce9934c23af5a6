"""The kernels of the operators onnxruntime's own tools write into models (its graph
optimizer's FusedConv and FusedGemm, its quantizers' QGemm, QLinearSoftmax,
QLinearAveragePool, QLinearLeakyRelu and DynamicQuantizeLSTM) against onnxruntime, on the
paths tests/ops' shape tests do not take: 3-D and dilated convolutions, every activation's
parameters, sequence lengths; and its transformer optimizer's RelativePositionBias, which
onnxruntime runs on CUDA only, against T5's own bucketing (transformers, where installed)."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shape_logic.kernels import load_kernel

from .reference import seeds
from .test_contrib import FAST, checked, makers, quantized


@FAST
@given(seed=seeds, dilation=st.integers(1, 2), act=st.sampled_from(
    [("Relu", []), ("LeakyRelu", [0.3]), ("Clip", [-1.0, 0.25]), ("HardSigmoid", [0.1, 0.6]),
     ("Tanh", [])]), addend=st.booleans())
def test_fused_conv_3d_dilated(seed, dilation, act, addend):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((1, 4, 5, 6, 7)).astype(np.float32)
    w = rng.standard_normal((6, 2, 2, 2, 2)).astype(np.float32)
    out = [d - dilation for d in (5, 6, 7)]
    z = rng.standard_normal([1, 6] + out).astype(np.float32) if addend else None
    attrs = {"group": 2, "dilations": [dilation] * 3, "activation": act[0]}
    if act[1]:
        attrs["activation_params"] = act[1]
    checked("FusedConv", [x, w, rng.standard_normal(6).astype(np.float32), z], attrs)


@FAST
@given(seed=seeds, act=st.sampled_from(["Elu", "ThresholdedRelu", "Selu", "ScaledTanh",
                                        "ParametricSoftplus", "HardSigmoid", "Softsign"]))
def test_fused_gemm_parameters(seed, act):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((3, 4)).astype(np.float32) * 2
    b = rng.standard_normal((5, 4)).astype(np.float32)
    params = {"activation_alpha": float(rng.random() + 0.2),
              "activation_beta": float(rng.random() + 0.2),
              "activation_gamma": float(rng.random() + 0.5)}
    checked("FusedGemm", [a, b, rng.standard_normal((1, 5)).astype(np.float32)],
            {"transB": 1, "alpha": 0.5, "beta": 2.0, "activation": act, **params})


@FAST
@given(seed=seeds, signed=st.booleans(), opset=st.sampled_from([11, 13]),
       axis=st.integers(-3, 2))
def test_qlinear_softmax_and_leaky_relu(seed, signed, opset, axis):
    rng = np.random.default_rng(seed)
    q, s = makers(rng, signed)
    x = quantized(rng, (2, 3, 4), signed)
    checked("QLinearSoftmax", [x, s(), q(), np.float32(1 / 256), q()],
            {"opset": opset, "axis": axis}, rtol=0, atol=1)
    checked("QLinearLeakyRelu", [x, s(), None, s(), q()], {"alpha": 0.2}, rtol=0, atol=1)


@FAST
@given(seed=seeds, signed=st.booleans(), last=st.booleans(), same=st.booleans())
def test_qlinear_average_pool_3d(seed, signed, last, same):
    rng = np.random.default_rng(seed)
    q, s = makers(rng, signed)
    x = quantized(rng, (1, 4, 5, 6, 3) if last else (1, 3, 4, 5, 6), signed)
    attrs = {"kernel_shape": [2, 3, 2], "strides": [1, 2, 2], "channels_last": int(last)}
    if same:
        attrs["auto_pad"] = "SAME_UPPER"
    checked("QLinearAveragePool", [x, s(), q(), s(), q()], attrs, rtol=0, atol=1)


@FAST
@given(seed=seeds, per_column=st.booleans(), scaled=st.booleans())
def test_qgemm_float_output(seed, per_column, scaled):
    rng = np.random.default_rng(seed)
    a = quantized(rng, (4, 6), False)
    b = quantized(rng, (6, 3), True)
    cols = (3,) if per_column else ()
    arrays = [a, np.float32(0.03), np.uint8(120), b, (rng.random(cols) * 0.02 + 0.01).astype(
        np.float32), np.zeros(cols, np.int8), rng.integers(-99, 99, (3,)).astype(np.int32)]
    if scaled:  # y_scale without y_zero_point: still float32, divided by it
        arrays.append(np.float32(0.25))
    checked("QGemm", arrays, {"alpha": 2.0}, rtol=1e-5, atol=1e-4)


@FAST
@given(seed=seeds, direction=st.sampled_from(["forward", "reverse", "bidirectional"]))
def test_dynamic_quantize_lstm_sequence_lengths(seed, direction):
    rng = np.random.default_rng(seed)
    d, h = (2 if direction == "bidirectional" else 1), 3
    f = lambda *shape: (rng.standard_normal(shape) * 0.5).astype(np.float32)  # noqa: E731
    lens = rng.integers(1, 5, 3).astype(np.int32)
    arrays = [f(4, 3, 2), quantized(rng, (d, 2, 4 * h), False),
              quantized(rng, (d, h, 4 * h), False), f(d, 8 * h), lens, f(d, 3, h), f(d, 3, h),
              f(d, 3 * h), np.full((d,), 0.01, np.float32), np.full((d,), 128, np.uint8),
              np.full((d,), 0.01, np.float32), np.full((d,), 128, np.uint8)]
    checked("DynamicQuantizeLSTM", arrays, {"hidden_size": h, "direction": direction},
            n_outputs=3, rtol=0.05, atol=0.05)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, buckets=st.sampled_from([8, 32]),
       length=st.integers(1, 150), bidirectional=st.booleans(),
       max_distance=st.sampled_from([16, 128]))
def test_matches_t5_s_own_bucketing(seed, buckets, length, bidirectional, max_distance):
    # (T5 takes max_distance above the exact half of its buckets: at or below it, the
    # logarithm divides by log(1) = 0 or less)
    assume(max_distance > buckets // (4 if bidirectional else 2))
    torch = pytest.importorskip("torch")
    t5 = pytest.importorskip("transformers.models.t5.modeling_t5")
    rng = np.random.default_rng(seed)
    weight = rng.standard_normal((buckets, 3)).astype(np.float32)  # T5's Embedding(buckets, heads)
    position = torch.arange(length)
    bucket = t5.T5Attention._relative_position_bucket(
        position[None, :] - position[:, None], bidirectional=bidirectional,
        num_buckets=buckets, max_distance=max_distance).numpy()
    want = weight[bucket].transpose(2, 0, 1)[None]  # [1, heads, q, k]
    # (the table as onnxruntime's optimizer stores it: T5's weight transposed, shape kept)
    table = np.ascontiguousarray(weight.T).reshape(weight.shape)
    attrs = {"max_distance": max_distance, "is_bidirectional": int(bidirectional)}
    (got,) = load_kernel("RelativePositionBias")(attrs, domain="com.microsoft")(
        table, np.array(length, np.int64), np.array(length, np.int64))
    np.testing.assert_array_equal(got, want)


@FAST
@given(seed=seeds, unidirectional=st.booleans(), heads=st.sampled_from([1, 2]))
def test_qattention_unidirectional(seed, unidirectional, heads):
    rng = np.random.default_rng(seed)
    d = 4 * heads
    arrays = [quantized(rng, (2, 5, d), False), quantized(rng, (d, 3 * d), True),
              rng.standard_normal(3 * d).astype(np.float32), np.float32(0.03),
              np.float32(0.01), None, np.uint8(100), np.int8(0)]
    checked("QAttention", arrays, {"num_heads": heads, "unidirectional": int(unidirectional)},
            rtol=1e-4, atol=1e-4)


@FAST
@given(seed=seeds, signed=st.booleans())
def test_qembed_layer_normalization_with_a_mask(seed, signed):
    rng = np.random.default_rng(seed)
    q, s = makers(rng, signed)
    mask = (rng.random((2, 6)) < 0.7).astype(np.int32)
    arrays = [rng.integers(0, 30, (2, 6)).astype(np.int32),
              rng.integers(0, 2, (2, 6)).astype(np.int32), q(30, 8), q(6, 8), q(2, 8), q(8),
              q(8), mask] + [s() for _ in range(5)] + [q() for _ in range(5)]
    checked("QEmbedLayerNormalization", arrays, {"epsilon": 1e-5}, n_outputs=2, rtol=1e-4,
            atol=1e-4)
