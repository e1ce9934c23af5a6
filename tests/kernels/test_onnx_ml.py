"""The kernels of ONNX's traditional-ML domain (ai.onnx.ml) and of its training preview
(ai.onnx.preview.training) vs onnx's reference evaluator. Where the reference departs
from the operators' definitions (Adam's output types, TreeEnsemble's post_transform,
LabelEncoder's NaN keys), tests/ops/test_<Op>.py checks the kernel on its own."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ops.ml_cases import VALUES as FOREST_VALUES, random_forest
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


# the operators skl2onnx writes (ai.onnx.ml 1/3): the reference where it follows the same
# rules as onnxruntime (tests/ops/test_<Op>.py compares each with onnxruntime itself)
@FAST
@given(seed=seeds, n=st.integers(1, 4), classes=st.integers(3, 4),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_tree_ensemble_classifier(seed, n, classes, dtype):
    """(three classes or more, weights positive: two-class scores and the label of a row
    whose classes all scored below 0 are the reference's own)"""
    rng = np.random.default_rng(seed)
    attrs = random_forest(rng, 2, 3, 3, classes, "class", weights=[0.25, 0.5, 1.0])
    attrs.update(classlabels_int64s=list(range(classes)), post_transform="NONE")
    check("TreeEnsembleClassifier", [rng.choice(FOREST_VALUES, size=(n, 3)).astype(dtype)],
          attrs, 2, domain=ML)


@FAST
@given(seed=seeds, n=st.integers(1, 4), targets=st.integers(1, 3),
       aggregate=st.sampled_from(["SUM", "AVERAGE"]))
def test_tree_ensemble_regressor(seed, n, targets, aggregate):
    rng = np.random.default_rng(seed)
    attrs = random_forest(rng, 2, 3, 3, targets, "target")
    attrs.update(n_targets=targets, aggregate_function=aggregate, post_transform="NONE")
    check("TreeEnsembleRegressor", [rng.choice(FOREST_VALUES, size=(n, 3)).astype(np.float32)],
          attrs, domain=ML)


@FAST
@given(seed=seeds, n=st.integers(1, 4), f=st.integers(1, 3), classes=st.integers(2, 4),
       post=st.sampled_from(["NONE", "SOFTMAX", "LOGISTIC"]))
def test_linear_models(seed, n, f, classes, post):
    rng = np.random.default_rng(seed)
    x = rand(rng, (n, f))
    coef = rng.standard_normal(classes * f).round(2).tolist()
    intercepts = rng.standard_normal(classes).round(2).tolist()
    check("LinearClassifier", [x], {"coefficients": coef, "intercepts": intercepts,
                                    "classlabels_ints": list(range(classes)),
                                    "post_transform": post}, 2, domain=ML)
    check("LinearRegressor", [x], {"coefficients": coef, "intercepts": intercepts,
                                   "targets": classes, "post_transform": "NONE"}, domain=ML)


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 4), min_size=2, max_size=2),
       norm=st.sampled_from(["MAX", "L1", "L2"]))
def test_scaler_normalizer_imputer(seed, shape, norm):
    """(Normalizer on positive values: the reference's L2 drops the signs)"""
    rng = np.random.default_rng(seed)
    x = rand(rng, shape, low=0.5)
    k = shape[1]
    check("Scaler", [x], {"offset": rng.standard_normal(k).tolist(),
                          "scale": rng.standard_normal(k).tolist()}, domain=ML)
    check("Normalizer", [x], {"norm": norm}, domain=ML)
    x[0, 0] = np.nan
    check("Imputer", [x], {"imputed_value_floats": rng.standard_normal(k).tolist(),
                           "replaced_value_float": float("nan")}, domain=ML)


@FAST
@given(seed=seeds, n=st.integers(1, 4), kind=st.sampled_from(["LINEAR", "POLY", "RBF",
                                                              "SIGMOID"]))
def test_svms(seed, n, kind):
    rng = np.random.default_rng(seed)
    x = rand(rng, (n, 2))
    common = {"kernel_type": kind, "kernel_params": [0.3, 0.5, 2.0]}
    check("SVMRegressor", [x], {**common, "n_supports": 3, "rho": [0.5],
                                "coefficients": rng.standard_normal(3).tolist(),
                                "support_vectors": rng.standard_normal(6).tolist()}, domain=ML)
    check("SVMClassifier", [x], {**common, "classlabels_ints": [0, 1, 2],
                                 "vectors_per_class": [1, 1, 1], "rho": [0.1, 0.2, 0.3],
                                 "coefficients": rng.standard_normal(6).tolist(),
                                 "support_vectors": rng.standard_normal(6).tolist()},
          2, domain=ML)


@FAST
@given(seed=seeds, shape=st.lists(st.integers(1, 3), min_size=1, max_size=2))
def test_encoders(seed, shape):
    """(onnx's reference has no CategoryMapper: onnxruntime's)"""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=shape).astype(np.int64)
    check("OneHotEncoder", [x], {"cats_int64s": [0, 1, 3]}, domain=ML)
    check("CategoryMapper", [x], {"cats_int64s": [0, 1, 3], "cats_strings": ["a", "b", "c"]},
          domain=ML, ort=True)
    check("FeatureVectorizer", [rand(rng, (2, 3)), rand(rng, (2, 2))],
          {"inputdimensions": [3, 3]}, domain=ML)
