"""Signal-processing kernels vs onnx's reference evaluator: the spectral windows, DFT, STFT,
MelWeightMatrix."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)


@pytest.mark.parametrize("op", ["HannWindow", "HammingWindow", "BlackmanWindow"])
@FAST
@given(n=st.integers(0, 16), periodic=st.integers(0, 1), out=st.sampled_from([1, 11, 10]))
def test_windows(op, n, periodic, out):
    # (f16: the reference computes in f16, we in f64 and round once: a few ulps apart)
    check(op, [np.array(n, np.int64)], {"periodic": periodic, "output_datatype": out},
          opset=17, const=(0,), atol=2e-3 if out == 10 else 1e-5)


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 6), min_size=1, max_size=3),
       last=st.integers(1, 2), opset=st.sampled_from([17, 20]), inverse=st.integers(0, 1),
       onesided=st.integers(0, 1), n=st.one_of(st.none(), st.integers(1, 9)), data=st.data())
def test_dft(seed, shape, last, opset, inverse, onesided, n, data):
    x = rand(np.random.default_rng(seed), shape + [last])
    r = len(shape) + 1
    axis = data.draw(st.integers(-r, r - 2))
    attrs = {"inverse": inverse, "onesided": onesided}
    arrays = [x, None if n is None else np.array(n, np.int64)]
    if opset == 20:
        arrays.append(np.array(axis, np.int64))
    else:
        attrs["axis"] = axis
    check("DFT", arrays, attrs, opset=opset, const=(1, 2), atol=1e-4)


@FAST
@given(seed=seeds, batch=st.integers(1, 3), length=st.integers(1, 20), last=st.integers(1, 2),
       step=st.integers(1, 5), n=st.one_of(st.none(), st.integers(1, 20)),
       windowed=st.booleans(), onesided=st.integers(0, 1))
def test_stft(seed, batch, length, last, step, n, windowed, onesided):
    rng = np.random.default_rng(seed)
    window = rand(rng, [n or length]) if windowed else None
    arrays = [rand(rng, [batch, length, last]), np.array(step, np.int64), window,
              None if n is None else np.array(n, np.int64)]
    check("STFT", arrays, {"onesided": onesided}, opset=17, const=(1, 3), atol=1e-4)


@FAST
@given(m=st.integers(1, 40), n=st.integers(8, 1024), rate=st.sampled_from([8000, 16000]),
       lo=st.floats(0.0, 300.0), top=st.floats(0.1, 0.45), out=st.sampled_from([1, 11]))
def test_mel_weight_matrix(m, n, rate, lo, top, out):
    arrays = [np.array(m, np.int64), np.array(n, np.int64), np.array(rate, np.int64),
              np.array(lo, np.float32), np.array(max(lo + 1, top * rate), np.float32)]
    check("MelWeightMatrix", arrays, {"output_datatype": out}, opset=17,
          const=(0, 1, 2, 3, 4), atol=1e-6)
