"""TreeEnsembleRegressor (ai.onnx.ml 1, 3): rules/TreeEnsembleRegressor.lp on data cases;
the rule and our kernel against onnxruntime on random forests (shapes, types, values) and
against onnx's reference (SUM and AVERAGE without a transform)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, VALUES, check_ml, random_forest, run_kernel

# one tree: node 0 (x[1] <= 1) -> leaf 1 (target 0: 0.3), else leaf 2 (target 1: 0.8)
TREE = {"nodes_treeids": [0, 0, 0], "nodes_nodeids": [0, 1, 2], "nodes_featureids": [1, 0, 0],
        "nodes_modes": ["BRANCH_LEQ", "LEAF", "LEAF"], "nodes_values": [1.0, 0.0, 0.0],
        "nodes_truenodeids": [1, 0, 0], "nodes_falsenodeids": [2, 0, 0],
        "target_treeids": [0, 0], "target_nodeids": [1, 2], "target_ids": [0, 1],
        "target_weights": [0.3, 0.8], "n_targets": 2}


def ter(inputs, drop=(), **attrs):
    given = {k: v for k, v in {**TREE, **attrs}.items() if k not in drop}
    return {"inputs": inputs, "attrs": given, "domain": ML}


CASES = {
    "rows and targets": (ter(["[n, f]"]), {"y0": "[n, 2]", "dtypes": {"y0": "f32"}}),
    "double X, float Y": (ter([("f64", "[4, 2]")], n_targets=3),
                          {"y0": "[4, 3]", "dtypes": {"y0": "f32"}}),
    "a 1-D X is one row": (ter([("i64", "[f]")]), {"y0": "[1, 2]"}),
    "the rows back from Y": ({**ter(["[m, f]"]), "outputs": {"y0": {"shape": "[7, 2]"}}},
                             {"x0": "[7, f]"}),
    "tensor thresholds for a double X": (ter([("f64", "[n, 2]")], drop=["nodes_values"],
                                             nodes_values_as_tensor=np.array([1.0, 0, 0])),
                                         {"y0": "[n, 2]"}),
    "average, base values": (ter(["[n, 2]"], aggregate_function="AVERAGE",
                                 base_values=[1.0, 2.0]), {"y0": "[n, 2]"}),
    # errors
    "no n_targets": (ter(["[n, 2]"], drop=["n_targets"]), "error"),
    "n_targets 0": (ter(["[n, 2]"], n_targets=0, target_ids=[0, 0]), "error"),
    "a target past n_targets": (ter(["[n, 2]"], n_targets=1), "error"),
    "rank 3 X": (ter(["[n, 2, 2]"]), "error"),
    "string X": (ter([("str", "[n, 2]")]), "error"),
    "a feature past X's": (ter(["[n, 1]"]), "error"),
    "lists of different lengths": (ter(["[n, 2]"], nodes_truenodeids=[1, 0]), "error"),
    "weights of different lengths": (ter(["[n, 2]"], target_weights=[0.3]), "error"),
    "one base value for two targets": (ter(["[n, 2]"], base_values=[1.0]), "error"),
    "an unknown aggregate": (ter(["[n, 2]"], aggregate_function="MEDIAN"), "error"),
    "an unknown post_transform": (ter(["[n, 2]"], post_transform="SIGMOID"), "error"),
    "tensor thresholds for a float X": (ter(["[n, 2]"], drop=["nodes_values"],
                                            nodes_values_as_tensor=np.array([1.0, 0, 0])),
                                        "error"),
}

test_case = case_test("TreeEnsembleRegressor", CASES)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 5), n_features=st.integers(1, 3),
       n_targets=st.integers(1, 3), n_trees=st.integers(1, 3), depth=st.integers(1, 3),
       dtype=st.sampled_from([np.float32, np.float64]),
       aggregate=st.sampled_from(["SUM", "AVERAGE", "MIN", "MAX"]),
       post=st.sampled_from(["NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"]),
       base=st.booleans(), tensors=st.booleans(),
       broken=st.sampled_from([None, None, None, "feature", "rank", "target"]))
def test_matches_onnxruntime(seed, n, n_features, n_targets, n_trees, depth, dtype,
                             aggregate, post, base, tensors, broken):
    rng = np.random.default_rng(seed)
    attrs = random_forest(rng, n_trees, n_features, depth, n_targets, "target")
    attrs.update(n_targets=n_targets, aggregate_function=aggregate, post_transform=post)
    if base:
        attrs["base_values"] = [float(v) for v in rng.choice([-0.5, 0.25, 1.0], n_targets)]
    if tensors:  # the double lists (onnxruntime refuses them for a float X)
        attrs["nodes_values_as_tensor"] = np.array(attrs.pop("nodes_values"))
        attrs["target_weights_as_tensor"] = np.array(attrs.pop("target_weights"))
    x = rng.choice([*VALUES, np.nan], size=(n, n_features)).astype(dtype)
    if broken == "feature":
        attrs["nodes_featureids"][0] = n_features
    elif broken == "rank":
        x = x[0] if n > 1 else x.reshape(1, n_features, 1)
    elif broken == "target":
        attrs["target_ids"][0] = n_targets
    check_ml("TreeEnsembleRegressor", [x], attrs, 1, rtol=1e-4, atol=1e-5)


def test_against_reference():
    """onnx's reference (which computes no post_transform) on SUM and AVERAGE."""
    x = np.array([[0.0, 1.0], [2.0, 3.0], [1.0, 0.5]], np.float32)
    for aggregate in ("SUM", "AVERAGE"):
        attrs = {**TREE, "aggregate_function": aggregate, "post_transform": "NONE",
                 "target_ids": [0, 0], "n_targets": 2}
        (got,) = run_kernel("TreeEnsembleRegressor", [x], attrs)
        (want,) = reference_outputs("TreeEnsembleRegressor", [x], attrs, domain=ML)
        np.testing.assert_allclose(got, want, rtol=1e-6)
