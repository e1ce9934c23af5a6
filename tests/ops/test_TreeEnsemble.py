"""TreeEnsemble (ai.onnx.ml 5): rules/TreeEnsemble.lp on data cases, and the rule against
onnx's reference and our kernel on random trees (shapes, types and values)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import node_kernel
from shape_logic.testing import check_against_reference, reference_outputs
from tests.ops.cases import case_test

ML = "ai.onnx.ml"

# one tree: node 0 (x[0] <= 1.5) -> leaf 0 (target 0), else node 1 (x[1] in {1, 2})
# -> leaf 1 (target 1), else leaf 2 (target 0)
TREE = {"tree_roots": [0], "nodes_featureids": [0, 1], "nodes_modes": np.array([0, 6], np.uint8),
        "nodes_splits": np.array([1.5, 0.0], np.float32), "nodes_truenodeids": [0, 1],
        "nodes_trueleafs": [1, 1], "nodes_falsenodeids": [1, 2], "nodes_falseleafs": [0, 1],
        "membership_values": np.array([1.0, 2.0, np.nan], np.float32),
        "leaf_targetids": [0, 1, 0], "leaf_weights": np.array([1.0, 2.0, 3.0], np.float32),
        "n_targets": 2}


def te(inputs, **attrs):
    return {"inputs": inputs, "attrs": {**TREE, **attrs}, "domain": ML}


def without(key):
    return {"inputs": ["[n, 2]"], "attrs": {k: v for k, v in TREE.items() if k != key},
            "domain": ML}


CASES = {
    "rows by targets": (te(["[n, f]"]), {"y0": "[n, 2]", "dtypes": {"y0": "f32"}}),
    "double": (te([("f64", "[4, 3]")], n_targets=5), {"y0": "[4, 5]", "dtypes": {"y0": "f64"}}),
    "no n_targets: left open": (without("n_targets"), {"y0": "[n, _1]"}),
    "the rows back from the output": ({**te(["X"]), "outputs": {"y0": {"shape": "[7, 2]"}}},
                                      {"x0": "[7, _1]"}),
    # errors
    "rank 3 X": (te(["[n, f, 2]"]), "error"),
    "integer X": (te([("i64", "[n, 2]")]), "error"),
    "a feature past X's": (te(["[n, 1]"]), "error"),
    "a target past n_targets": (te(["[n, 2]"], n_targets=1), "error"),
    "no tree_roots": (without("tree_roots"), "error"),
    "a root past the nodes": (te(["[n, 2]"], tree_roots=[0, 2]), "error"),
    "a branch to a missing leaf": (te(["[n, 2]"], nodes_falsenodeids=[1, 3]), "error"),
    "lists of different lengths": (te(["[n, 2]"], nodes_featureids=[0, 1, 1]), "error"),
    "fewer weights than leaves": (te(["[n, 2]"], leaf_weights=np.array([1.0, 2.0], np.float32)),
                                  "error"),
    "mode 7": (te(["[n, 2]"], nodes_modes=np.array([0, 7], np.uint8)), "error"),
    "no set for the member node": (te(["[n, 2]"], membership_values=np.array([1.0], np.float32)),
                                   "error"),
    "aggregate_function 4": (te(["[n, 2]"], aggregate_function=4), "error"),
    "n_targets 0": (te(["[n, 2]"], n_targets=0, leaf_targetids=[0, 0, 0]), "error"),
}


test_case = case_test("TreeEnsemble", CASES)


VALUES = [0.5, 1.0, 1.5, 2.0, 3.0]  # features and splits: ties happen


def random_trees(rng, n_trees, n_features, n_targets, max_depth, split_type):
    """Trees with their nodes numbered in the order onnx's reference visits them (a node,
    its true subtree, its false subtree), so that it takes the member sets in the
    operator's order; members are never 0 (the reference ends a set there)."""
    nodes = {k: [] for k in ("feature", "mode", "split", "true", "tleaf", "false", "fleaf",
                             "track")}
    leaves, members, roots = [], [], []

    def grow(depth):
        if depth == max_depth or (depth > 0 and rng.random() < 0.3):
            leaves.append((int(rng.integers(n_targets)), float(rng.choice([-2.0, 0.5, 1.0, 4.0]))))
            return len(leaves) - 1, 1
        i = len(nodes["feature"])
        mode = int(rng.integers(7))
        for k, v in (("feature", int(rng.integers(n_features))), ("mode", mode),
                     ("split", float(rng.choice(VALUES))), ("track", int(rng.integers(2)))):
            nodes[k].append(v)
        for k in ("true", "tleaf", "false", "fleaf"):
            nodes[k].append(0)
        if mode == 6:
            members.extend([*rng.choice(VALUES, size=int(rng.integers(1, 3))), np.nan])
        nodes["true"][i], nodes["tleaf"][i] = grow(depth + 1)
        nodes["false"][i], nodes["fleaf"][i] = grow(depth + 1)
        return i, 0

    for _ in range(n_trees):
        roots.append(grow(0)[0])
    attrs = {"tree_roots": roots, "nodes_featureids": nodes["feature"],
             "nodes_modes": np.array(nodes["mode"], np.uint8),
             "nodes_splits": np.array(nodes["split"], split_type),
             "nodes_truenodeids": nodes["true"], "nodes_trueleafs": nodes["tleaf"],
             "nodes_falsenodeids": nodes["false"], "nodes_falseleafs": nodes["fleaf"],
             "nodes_missing_value_tracks_true": nodes["track"],
             "leaf_targetids": [t for t, _ in leaves],
             "leaf_weights": np.array([w for _, w in leaves], split_type), "n_targets": n_targets}
    if members:
        attrs["membership_values"] = np.array(members, split_type)
    return attrs


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 5), n_features=st.integers(1, 3),
       n_targets=st.integers(1, 3), n_trees=st.integers(1, 3), depth=st.integers(1, 3),
       dtype=st.sampled_from([np.float32, np.float64]), aggregate=st.integers(0, 3),
       post=st.sampled_from([0, 0, 1, 2, 3, 4]),
       broken=st.sampled_from([None, None, None, "feature", "rank"]))
def test_matches_reference(seed, n, n_features, n_targets, n_trees, depth, dtype, aggregate,
                           post, broken):
    """The rule's shapes are the reference's and our kernel's; the kernel's values are
    the reference's (which ignores post_transform: those are compared without it)."""
    rng = np.random.default_rng(seed)
    attrs = random_trees(rng, n_trees, n_features, n_targets, depth,
                         np.float64 if dtype == np.float64 else np.float32)
    attrs.update(aggregate_function=aggregate, post_transform=post)
    x = rng.choice([*VALUES, np.nan], size=(n, n_features)).astype(dtype)
    if broken == "feature":  # the first root reads a feature X does not have
        attrs["nodes_featureids"][attrs["tree_roots"][0]] = n_features
    elif broken == "rank":
        x = x[0]
    check_against_reference("TreeEnsemble", [x], attrs, domain=ML)
    if broken is None:
        (got,) = node_kernel("TreeEnsemble", ML, attrs, 18, 1)(x)
        (want,) = reference_outputs("TreeEnsemble", [x], {**attrs, "post_transform": 0},
                                    domain=ML)
        if post == 0:
            # (the reference rounds to X's type after each leaf: AVERAGE of 1/3 - 2/3 + 1/3)
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_post_transforms():
    """SOFTMAX, LOGISTIC, SOFTMAX_ZERO and PROBIT on known scores (one leaf per target)."""
    attrs = {**TREE, "leaf_weights": np.array([0.0, 0.25, 0.0], np.float32),
             "aggregate_function": 1}
    x = np.array([[2.0, 1.0]], np.float32)  # -> leaf 1: scores [0, 0.25]
    scores = np.array([0.0, 0.25])
    soft = np.exp(scores) / np.exp(scores).sum()
    want = {1: soft, 2: 1 / (1 + np.exp(-scores)), 3: [0.0, 1.0]}
    for post, expected in want.items():
        (got,) = node_kernel("TreeEnsemble", ML, {**attrs, "post_transform": post}, 18, 1)(x)
        np.testing.assert_allclose(got[0], expected, rtol=1e-6)
    (got,) = node_kernel("TreeEnsemble", ML, {**attrs, "post_transform": 4}, 18, 1)(x)
    # probit(0.25) = -0.6745 (Winitzki's approximation: within 2e-3)
    assert abs(got[0, 1] + 0.6745) < 2e-3


def test_a_tree_that_loops_fails():
    attrs = {**TREE, "nodes_falsenodeids": [1, 0], "nodes_falseleafs": [0, 0]}
    with pytest.raises(Exception, match="circle"):
        node_kernel("TreeEnsemble", ML, attrs, 18, 1)(np.array([[2.0, 5.0]], np.float32))


def test_post_transforms_agree_with_onnxruntime():
    """NONE, SOFTMAX_ZERO and PROBIT as onnxruntime computes them (the reference ignores
    post_transform). SOFTMAX (1) and LOGISTIC (2) follow ONNX's numbering, checked against
    their definitions in test_post_transforms: onnxruntime 1.32 reads the two the other way
    round (its own enum: 1 LOGISTIC, 2 SOFTMAX), so they are not compared with it."""
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    attrs = {**TREE, "leaf_weights": np.array([0.2, 0.7, 0.4], np.float32),
             "aggregate_function": 1}
    x = np.array([[1.0, 1.0], [2.0, 2.0], [2.0, 7.0], [0.5, 3.0]], np.float32)
    for post in (0, 3, 4):
        given = {**attrs, "post_transform": post}
        node = helper.make_node("TreeEnsemble", ["X"], ["Y"], domain=ML, **{
            k: numpy_helper.from_array(v, k) if isinstance(v, np.ndarray) else v
            for k, v in given.items()})
        graph = helper.make_graph(
            [node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [None, 2])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
        model = helper.make_model(graph, ir_version=10, opset_imports=[
            helper.make_opsetid("", 21), helper.make_opsetid(ML, 5)])
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        (want,) = session.run(None, {"X": x})
        (got,) = node_kernel("TreeEnsemble", ML, given, 18, 1)(x)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
