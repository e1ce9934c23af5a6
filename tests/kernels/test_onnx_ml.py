"""The kernels of ONNX's traditional-ML domain (ai.onnx.ml) and of its training preview
(ai.onnx.preview.training) vs onnx's reference evaluator. Where the reference departs
from the operators' definitions (Adam's output types, TreeEnsemble's post_transform,
LabelEncoder's NaN keys), tests/ops/test_<Op>.py checks the kernel on its own."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ops.test_TreeEnsemble import VALUES, random_trees

from .reference import check, rand, seeds, shapes

FAST = settings(max_examples=12, deadline=None)
ML, TRAINING = "ai.onnx.ml", "ai.onnx.preview.training"


@FAST
@given(seed=seeds, shape=shapes, dtype=st.sampled_from(["f32", "f64", "i64", "i32"]),
       threshold=st.sampled_from([0.0, 0.5, -1.0]))
def test_binarizer(seed, shape, dtype, threshold):
    x = rand(np.random.default_rng(seed), shape, dtype)
    check("Binarizer", [x], {"threshold": threshold}, domain=ML)


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
       index_shape=st.sampled_from([(3,), (1, 2), (2, 2)]))
def test_array_feature_extractor(seed, shape, index_shape):
    rng = np.random.default_rng(seed)
    idx = rng.integers(-shape[-1], shape[-1], size=index_shape).astype(np.int64)
    check("ArrayFeatureExtractor", [rand(rng, shape), idx], domain=ML)


@FAST
@given(seed=seeds, keys=st.lists(st.integers(0, 5), min_size=1, max_size=5),
       shape=st.lists(st.integers(1, 4), max_size=2))
def test_label_encoder(seed, keys, shape):
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    words = np.array([f"w{k}" for k in rng.integers(0, 7, size=size)], dtype=object)
    strings = {"keys_strings": [f"w{k}" for k in keys], "values_int64s": list(range(len(keys)))}
    check("LabelEncoder", [words.reshape(shape)], strings, domain=ML)
    ints = rng.integers(0, 7, size=shape).astype(np.int64)
    tensor = {"keys_int64s": keys, "values_tensor": np.arange(len(keys), dtype=np.float64) / 2,
              "default_tensor": np.array([-1.5])}
    check("LabelEncoder", [ints], tensor, domain=ML)


@FAST
@given(seed=seeds, n=st.integers(1, 4), aggregate=st.integers(0, 3),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_tree_ensemble(seed, n, aggregate, dtype):
    rng = np.random.default_rng(seed)
    attrs = random_trees(rng, 2, 3, 2, 3, dtype)
    attrs["aggregate_function"] = aggregate
    x = rng.choice([*VALUES, np.nan], size=(n, 3)).astype(dtype)
    check("TreeEnsemble", [x], attrs, domain=ML)


def _optimizer(rng, roles, shapes_, t, dtype):
    tensors = [np.abs(rand(rng, s, dtype)) for _ in range(roles) for s in shapes_]
    return [np.array(0.1, tensors[0].dtype), np.array(t, np.int64), *tensors]


@FAST
@given(seed=seeds, shapes_=st.lists(shapes, min_size=1, max_size=2), t=st.integers(0, 2),
       dtype=st.sampled_from(["f32", "f64"]))
def test_adagrad_and_momentum(seed, shapes_, t, dtype):
    rng = np.random.default_rng(seed)
    n = len(shapes_)
    check("Adagrad", _optimizer(rng, 3, shapes_, t, dtype),
          {"decay_factor": 0.1, "norm_coefficient": 0.01}, n_outputs=2 * n, domain=TRAINING)
    for mode in ("standard", "nesterov"):
        check("Momentum", _optimizer(rng, 3, shapes_, t, dtype),
              {"alpha": 0.9, "beta": 0.5, "mode": mode, "norm_coefficient": 0.01},
              n_outputs=2 * n, domain=TRAINING)


@FAST
@given(seed=seeds, shapes_=st.lists(shapes, min_size=1, max_size=2))
def test_adam(seed, shapes_):
    # (float tensors at the first step: where the reference keeps the tensors' type)
    rng = np.random.default_rng(seed)
    n = len(shapes_)
    check("Adam", _optimizer(rng, 4, shapes_, 0, "f32"), {"alpha": 0.8, "norm_coefficient": 0.01},
          n_outputs=3 * n, domain=TRAINING)
