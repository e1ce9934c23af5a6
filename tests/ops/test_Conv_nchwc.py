"""Conv, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool and Upsample of domain
com.microsoft.nchwc, with ReorderInput and ReorderOutput: whole models optimized by
onnxruntime (nchwc_models.py), solved by our rules at symbolic n, h, w and run by our
executor against the original model's outputs; and the NCHWc Conv node against
onnxruntime's on random (already blocked) filters."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import helper

from shape_logic.kernels import nchwc
from tests.contrib_ops import check_against_onnxruntime

from .nchwc_models import NCHWC, check_model, learned_block, weight

N = helper.make_node


def test_conv_relu_conv_pool_stack():
    # 24 output channels: padded to the block; the plain MaxPool reads the reordered output
    check_model([N("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]), N("Relu", ["c1"], ["r1"]),
                 N("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
                 N("MaxPool", ["c2"], ["y"], kernel_shape=[2, 2], strides=[2, 2])],
                {"w1": weight(16, 3, 3, 3), "b1": weight(16), "w2": weight(24, 16, 3, 3)},
                want_ops=("Conv", "ReorderOutput"))


def test_strides_dilations_depthwise_pointwise_residual():
    check_model([N("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
                 N("Relu", ["c1"], ["r1"]),
                 N("Conv", ["r1", "w2", "b2"], ["c2"], pads=[2, 1, 2, 1], dilations=[2, 1]),
                 N("Conv", ["c2", "w3"], ["c3"], pads=[1, 1, 1, 1], group=40),
                 N("Conv", ["c3", "w4", "b4"], ["c4"]),
                 N("Add", ["c4", "r1"], ["a4"]), N("Relu", ["a4"], ["r4"]),
                 N("Conv", ["r4", "w5"], ["c5"], pads=[0, 1, 2, 1], strides=[1, 2]),
                 N("Sigmoid", ["c5"], ["y"])],
                {"w1": weight(32, 3, 3, 3), "w2": weight(40, 32, 3, 3), "b2": weight(40),
                 "w3": weight(40, 1, 3, 3), "w4": weight(32, 40, 1, 1), "b4": weight(32),
                 "w5": weight(48, 32, 3, 3)})


def test_grouped_conv_and_pools_upsample():
    check_model([N("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
                 N("Conv", ["c1", "w2"], ["c2"], pads=[1, 1, 1, 1], group=2),
                 N("MaxPool", ["c2"], ["p2"], kernel_shape=[3, 3], strides=[2, 2],
                   pads=[1, 1, 1, 1]),
                 N("AveragePool", ["p2"], ["q2"], kernel_shape=[2, 2], strides=[2, 2]),
                 N("Upsample", ["q2", "sc"], ["u2"], mode="nearest"),
                 N("Conv", ["u2", "w3"], ["c3"], pads=[1, 1, 1, 1]),
                 N("GlobalAveragePool", ["c3"], ["y"])],
                {"w1": weight(64, 3, 3, 3), "w2": weight(64, 32, 3, 3),
                 "sc": np.array([1, 1, 2, 3], np.float32), "w3": weight(32, 64, 3, 3)},
                opset=9, want_ops=("Conv", "MaxPool", "AveragePool", "Upsample",
                                   "GlobalAveragePool"))


def test_pools_of_a_reordered_input():
    # a plain Conv (group 4, not converted) then pools: a ReorderInput of 32 channels (of
    # every block)
    check_model([N("Conv", ["x", "w1"], ["c1"], group=4, pads=[1, 1, 1, 1]),
                 N("MaxPool", ["c1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
                 N("AveragePool", ["p1"], ["q1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                   count_include_pad=1),
                 N("GlobalMaxPool", ["q1"], ["y"])],
                {"w1": weight(32, 2, 3, 3)}, channels=8,
                want_ops=("ReorderInput", "MaxPool", "AveragePool", "GlobalMaxPool"))


def test_linear_upsample_and_input_channels_at_the_block():
    check_model([N("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]), N("Relu", ["c1"], ["r1"]),
                 N("Upsample", ["r1", "sc"], ["u1"], mode="linear"),
                 N("Conv", ["u1", "w2"], ["y"], strides=[2, 2])],
                {"w1": weight(16, 16, 3, 3), "sc": np.array([1, 1, 2, 2], np.float32),
                 "w2": weight(16, 16, 1, 1)}, channels=16, opset=9,
                want_ops=("Conv", "ReorderInput", "Upsample"))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plain=st.booleans(), k=st.integers(1, 3),
       stride=st.integers(1, 2), dilation=st.integers(1, 2), pad=st.integers(0, 2),
       act=st.sampled_from(["", "Relu", "Sigmoid", "LeakyRelu"]), bias=st.booleans(),
       add=st.booleans(), depthwise=st.booleans())
def test_conv_node_matches_onnxruntime(seed, plain, k, stride, dilation, pad, act, bias, add,
                                       depthwise):
    # the filter's bytes are random: blocked or not, both kernels read them alike
    blk = nchwc.BLOCK = learned_block()
    rng = np.random.default_rng(seed)
    c = 3 if plain else 2 * blk
    m = c if depthwise and not plain else 2 * blk
    group = c if depthwise and not plain else 1
    x = rng.standard_normal((2, c, 7, 6)).astype(np.float32)
    w = rng.standard_normal((m, c // group, k, k)).astype(np.float32)
    out = [(d + 2 * pad - dilation * (k - 1) - 1) // stride + 1 for d in (7, 6)]
    b = rng.standard_normal(m).astype(np.float32) if bias else None
    s = rng.standard_normal((2, m, *out)).astype(np.float32) if add else None
    attrs = {"strides": [stride] * 2, "pads": [pad] * 4, "dilations": [dilation] * 2,
             "group": group}
    if act:
        attrs.update(activation=act, **({"activation_params": [0.1]} if act == "LeakyRelu"
                                        else {}))
    assert check_against_onnxruntime("Conv", [x, w, b, s], attrs, domain=NCHWC) is not None


@pytest.mark.parametrize("op,attrs", [
    ("MaxPool", {"kernel_shape": [3, 2], "strides": [2, 1], "pads": [1, 0, 1, 1],
                 "dilations": [1, 2], "ceil_mode": 1}),
    ("AveragePool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
                     "count_include_pad": 1, "ceil_mode": 1}),
    ("AveragePool", {"kernel_shape": [2, 3], "auto_pad": "SAME_UPPER"}),
    ("GlobalMaxPool", {}), ("GlobalAveragePool", {}),
    ("Upsample", {"scales": [1, 1, 3, 2]}),
    ("Upsample", {"scales": [1, 1, 2, 2], "mode": "linear",
                  "coordinate_transformation_mode": "align_corners"}),
    ("Upsample", {"scales": [1, 1, 2, 3], "mode": "linear",
                  "coordinate_transformation_mode": "half_pixel"}),
])
def test_pool_node_matches_onnxruntime(op, attrs):
    blk = nchwc.BLOCK = learned_block()
    x = np.random.default_rng(1).standard_normal((2, 2 * blk, 7, 6)).astype(np.float32)
    assert check_against_onnxruntime(op, [x], attrs, domain=NCHWC) is not None


@pytest.mark.parametrize("op,shape,attrs", [
    ("Conv", [[1, 20, 5, 5], [16, 20, 3, 3]], {}),       # 20 input channels: no block's
    ("Conv", [[1, 8, 5, 5], [12, 8, 3, 3]], {}),        # 12 output channels: no block's
    ("Conv", [[1, 3, 5, 5, 5], [16, 3, 3, 3, 3]], {}),  # 3-D
    ("Conv", [[1, 3, 5, 5], [16, 3, 3, 3]], {"activation": "Gelu"}),
    ("MaxPool", [[1, 12, 5, 5]], {"kernel_shape": [2, 2]}),
    ("GlobalAveragePool", [[1, 12, 5, 5]], {}),
    ("Upsample", [[1, 16, 5, 5]], {"scales": [1, 2, 2, 2]}),
    ("Upsample", [[1, 16, 5, 5]], {"scales": [1, 1, 2, 2], "mode": "cubic"}),
    ("Upsample", [[1, 16, 5, 5]], {"scales": [1, 1, 2, 2],
                                   "coordinate_transformation_mode": "pytorch_half_pixel"}),
])
def test_rejections_agree(op, shape, attrs):
    arrays = [np.ones(s, np.float32) for s in shape]
    assert check_against_onnxruntime(op, arrays, attrs, domain=NCHWC) is None
