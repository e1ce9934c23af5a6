"""How the reasons of the rule files from SVMRegressor to Upsample (and of families.lp's
legacy broadcast and sequences.lp's positions) are worded: each a tiny graph whose single
diagnostic says it in words (their why_text facts), else a direct why_text of the term."""
import pytest

from tests.single_diagnostic import f32, i64, one, the_message
from shape_logic.diagnostics import why_text

ML = "ai.onnx.ml"
MS = "com.microsoft"


def two_elements(last, position):
    """A sequence `s` of two [2] tensors (node "c"), then `last` (a node "n") at `p`."""
    return {"inputs": {"e": f32("[2]")}, "initializers": {"p": i64(position, scalar=True)},
            "nodes": [{"name": "c", "op": "SequenceConstruct", "inputs": ["e", "e"],
                       "outputs": ["s"]}, last]}


SVR = {"coefficients": [1.0, -2.0, 0.5], "rho": [0.5], "n_supports": 3,
       "support_vectors": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "kernel_type": "RBF",
       "kernel_params": [0.1, 0.0, 3.0]}
# TreeEnsemble: node 0 (x[0] <= 1.5) -> leaf 0, else node 1 (x[1] in {1, 2}) -> leaf 1, else 2
TREE = {"tree_roots": [0], "nodes_featureids": [0, 1],
        "nodes_modes": {"dtype": "u8", "shape": [2], "data": [0, 6]},
        "nodes_splits": {"dtype": "f32", "shape": [2], "data": [1.5, 0.0]},
        "nodes_truenodeids": [0, 1], "nodes_trueleafs": [1, 1], "nodes_falsenodeids": [1, 2],
        "nodes_falseleafs": [0, 1],
        "membership_values": {"dtype": "f32", "shape": [3], "data": [1.0, 2.0, float("nan")]},
        "leaf_targetids": [0, 1, 0],
        "leaf_weights": {"dtype": "f32", "shape": [3], "data": [1.0, 2.0, 3.0]}, "n_targets": 2}
# one tree of the classic ensembles: a root on feature 0 and two leaves
NODES = {"nodes_treeids": [0, 0, 0], "nodes_nodeids": [0, 1, 2], "nodes_featureids": [0, 0, 0],
         "nodes_modes": ["BRANCH_LEQ", "LEAF", "LEAF"], "nodes_values": [0.5, 0.0, 0.0],
         "nodes_truenodeids": [1, 0, 0], "nodes_falsenodeids": [2, 0, 0]}
CLASSES = {**NODES, "class_treeids": [0, 0], "class_nodeids": [1, 2], "class_ids": [0, 1],
           "class_weights": [1.0, 1.0], "classlabels_int64s": [0, 1]}
TARGETS = {**NODES, "target_treeids": [0, 0], "target_nodeids": [1, 2], "target_ids": [0, 0],
           "target_weights": [1.0, 2.0], "n_targets": 1}
# a Scan body: a running sum, state s [n] plus slice x [n]
ACC = {"inputs": ["s", "x"], "outputs": ["s2", "y"],
       "nodes": [{"op": "Add", "inputs": ["s", "x"], "outputs": ["s2"]},
                 {"op": "Identity", "inputs": ["s2"], "outputs": ["y"]}]}
TFIDF = {"mode": "TF", "ngram_indexes": [0, 1], "ngram_counts": [0, 2], "min_gram_length": 1,
         "max_gram_length": 1, "max_skip_count": 0, "pool_int64s": [1, 2]}
SKIP_GN = {"groups": 32, "activation": 1}


def skip_group_norm(skip):
    inputs = {"x": f32("[1, 8, 8, 64]"), "g": f32("[64]"), "b": f32("[64]"), "k": f32(skip)}
    return one("SkipGroupNorm", inputs, domain=MS, **SKIP_GN)


CASES = {
    "SVMRegressor: an empty rho": (
        one("SVMRegressor", {"x": f32("[2, 2]")}, domain=ML, **{**SVR, "rho": []}),
        'SVMRegressor "n": the attribute rho is empty'),
    "SVMRegressor: fewer coefficients than vectors": (
        one("SVMRegressor", {"x": f32("[2, 2]")}, domain=ML, **{**SVR, "coefficients": [1.0]}),
        'SVMRegressor "n": has 1 coefficients, fewer than its 3 support vectors (n_supports)'),
    "Scaler: a scale per feature, or one": (
        one("Scaler", {"x": f32("[2, 3]")}, domain=ML, scale=[1.0, 2.0], offset=[0.0, 0.0]),
        'Scaler "n": scale has 2 values for 3 features: it needs one, or one per feature'),
    "Scan: a scan axis past the input's": (
        one("Scan", {"s": f32("[3]"), "x": f32("[5, 3]")}, 2, body=ACC, num_scan_inputs=1,
            scan_input_axes=[-3]),
        'Scan "n": scan axis -3 is out of range for a scan input of rank 2'),
    "ScatterElements: max before opset 18": (
        one("ScatterElements", {"x": f32("[2, 3]"), "i": {"dtype": "i64", "shape": "[2, 3]"},
                                "u": f32("[2, 3]")}, opset=16, reduction="max"),
        'ScatterElements "n": reduction max is not one it takes at its opset '
        "(none; add and mul from opset 16; max and min from 18)"),
    "ScatterND: more coordinates than axes": (
        one("ScatterND", {"x": f32("[2, 3]"), "i": {"dtype": "i64", "shape": "[4, 3]"},
                          "u": f32("[4]")}),
        "ScatterND \"n\": its indices' last axis is 3 long, more than the data's rank 2"),
    "SequenceConstruct: a sequence of sequences": (
        {"inputs": {"t": f32("[2, 3]")},
         "nodes": [{"name": "pair", "op": "SequenceConstruct", "inputs": ["t", "t"],
                    "outputs": ["p"]},
                   {"name": "n", "op": "SequenceConstruct", "inputs": ["p"], "outputs": ["s"]}]},
        'SequenceConstruct "n": `p` is a sequence: the elements of a sequence must be tensors'),
    "SequenceErase: nothing to erase": (
        {"inputs": {}, "nodes": [{"name": "e", "op": "SequenceEmpty", "outputs": ["s"]},
                                 {"name": "n", "op": "SequenceErase", "inputs": ["s"],
                                  "outputs": ["y"]}]},
        'SequenceErase "n": erases from an empty sequence'),
    "SequenceErase: a position past the end": (
        two_elements({"name": "n", "op": "SequenceErase", "inputs": ["s", "p"],
                      "outputs": ["y"]}, 5),
        'SequenceErase "n": position 5 is out of range for a sequence of 2 elements'),
    "SequenceInsert: a sequence as the element": (
        {"inputs": {"t": f32("[2, 3]")},
         "nodes": [{"name": "pair", "op": "SequenceConstruct", "inputs": ["t", "t"],
                    "outputs": ["p"]},
                   {"name": "e", "op": "SequenceEmpty", "outputs": ["s"]},
                   {"name": "n", "op": "SequenceInsert", "inputs": ["s", "p"],
                    "outputs": ["y"]}]},
        'SequenceInsert "n": inserts `p`, a sequence: the elements of a sequence must be '
        "tensors"),
    "SkipGroupNorm: a 3-D skip": (
        skip_group_norm("[1, 1, 64]"),
        'SkipGroupNorm "n": its skip must be 2-D or 4-D, not of rank 3'),
    "SkipGroupNorm: a skip's H neither X's nor 1": (
        skip_group_norm("[1, 4, 1, 64]"),
        "SkipGroupNorm \"n\": axis 1 of its skip is 4: it must be 1 or the input's 8"),
    "SkipSimplifiedLayerNormalization: a 4-D input": (
        one("SkipSimplifiedLayerNormalization",
            {"x": f32("[2, 3, 4, 8]"), "k": f32("[2, 3, 4, 8]"), "g": f32("[8]")}, domain=MS),
        'SkipSimplifiedLayerNormalization "n": its input (x) and skip (s) must be 2-D or 3-D: '
        "x has rank 4"),
    "Slice: starts of rank 2": (
        one("Slice", {"x": f32("[4, 5]")},
            inits={"st": {"dtype": "i64", "shape": [1, 1], "data": [[0]]}, "en": i64(2)}),
        'Slice "n": starts must be a vector, not of rank 2'),
    "Slice: a zero step": (
        one("Slice", {"x": f32("[4, 6]")},
            inits={"s": i64(0), "e": i64(3), "a": i64(0), "t": i64(0)}),
        'Slice "n": steps[0] is 0: a step may not be 0'),
    "Slice (opset 9): fewer ends than starts": (
        one("Slice", {"x": f32("[4, 6]")}, opset=9, starts=[0, 0], ends=[3]),
        'Slice "n": ends has 1 elements where starts has 2: they must be as many'),
    "Slice (opset 9): starts as an input": (
        one("Slice", {"x": f32("[4, 6]")}, opset=9, inits={"s": i64(0)}, starts=[0], ends=[3]),
        'Slice "n": takes 1 input before opset 10 (starts, ends and axes are attributes), '
        "not 2"),
    "Split: fewer sizes than outputs": (
        one("Split", {"x": f32("[6, 2]")}, 3, inits={"s": i64(2, 4)}),
        'Split "n": split gives 2 sizes for 3 outputs: one per output'),
    "Split: a negative size": (
        one("Split", {"x": f32("[6, 2]")}, 2, inits={"s": i64(8, -2)}),
        'Split "n": split[1] is negative: -2'),
    "Split: num_outputs and the outputs": (
        one("Split", {"x": f32("[6, 2]")}, 2, num_outputs=3),
        'Split "n": num_outputs is 3, but it has 2 outputs'),
    "Split: num_outputs 0": (
        one("Split", {"x": f32("[6, 2]")}, 0, num_outputs=0),
        'Split "n": num_outputs must be positive, not 0'),
    "Split: sizes and num_outputs": (
        one("Split", {"x": f32("[6, 2]")}, 2, inits={"s": i64(2, 4)}, num_outputs=2),
        'Split "n": is given both the split input and num_outputs: it takes one of them only'),
    "Split: neither sizes nor num_outputs": (
        one("Split", {"x": f32("[6, 2]")}, 2),
        'Split "n": needs the split input or the num_outputs attribute (at opset 18 and later)'),
    "SplitToSequence: a zero split": (
        one("SplitToSequence", {"x": f32("[6, 2]")}, inits={"s": i64(0, scalar=True)}),
        'SplitToSequence "n": a scalar split must be positive, not 0'),
    "SplitToSequence: a 2-D split": (
        one("SplitToSequence", {"x": f32("[6, 2]"), "s": {"dtype": "i64", "shape": "[1, 2]"}}),
        'SplitToSequence "n": its split must be a scalar or a vector, not of rank 2'),
    "StringNormalizer: title case": (
        one("StringNormalizer", {"x": {"dtype": "str", "shape": "[3]"}},
            case_change_action="TITLE"),
        'StringNormalizer "n": case_change_action TITLE is none of NONE, LOWER, UPPER'),
    "TensorScatter: the batch axis": (
        one("TensorScatter", {"p": f32("[2, 5, 3]"), "u": f32("[2, 5, 3]")}, opset=24, axis=-3),
        'TensorScatter "n": axis -3 is the batch axis 0: the sequence axis may not be'),
    "TensorScatter: an update longer than the cache": (
        one("TensorScatter", {"p": f32("[2, 5, 3]"), "u": f32("[2, 7, 3]")}, opset=24, axis=1),
        "TensorScatter \"n\": the update is 7 long along its sequence axis, longer than the "
        "cache's 5"),
    "TensorScatter: a linear write past the end": (
        one("TensorScatter", {"p": f32("[2, 5, 3]"), "u": f32("[2, 2, 3]")}, opset=24,
            inits={"w": i64(4, 0)}, axis=1),
        "TensorScatter \"n\": batch entry 0 writes 2 steps from position 4, past the cache's "
        "end at 5 (linear mode)"),
    "TfIdfVectorizer: float input": (
        one("TfIdfVectorizer", {"x": f32("[2, 5]")}, **TFIDF),
        'TfIdfVectorizer "n": takes string, int32 or int64 tensors, not f32'),
    "TfIdfVectorizer: n-gram lengths out of order": (
        one("TfIdfVectorizer", {"x": {"dtype": "i64", "shape": "[2, 5]"}},
            **{**TFIDF, "min_gram_length": 2}),
        'TfIdfVectorizer "n": min_gram_length 2 is above max_gram_length 1'),
    "Squeeze: an axis of another size than 1": (
        one("Squeeze", {"x": f32("[2, 3]")}, inits={"a": i64(1)}),
        'Squeeze "n": axis 1 has size 3: only axes of size 1 can be squeezed'),
    "Tile: repeats of another length": (
        one("Tile", {"x": f32("[2, 3]")}, inits={"r": i64(2)}),
        'Tile "n": repeats has 1 entries for an input of rank 2: it needs one per axis'),
    "Tile: a negative repeat": (
        one("Tile", {"x": f32("[2, 3]")}, inits={"r": i64(1, -2)}),
        'Tile "n": the repeat count of axis 1 is negative: -2'),
    "TopK: a negative k": (
        one("TopK", {"x": f32("[2, 3]")}, 2, inits={"k": i64(-1)}),
        'TopK "n": k must not be negative: -1'),
    "TopK: k past the axis": (
        one("TopK", {"x": f32("[2, 3]")}, 2, inits={"k": i64(5)}),
        'TopK "n": k = 5 is more than the 3 elements of its axis'),
    "Transpose: perm names no axis": (
        one("Transpose", {"x": f32("[2, 3]")}, perm=[0, 2]),
        'Transpose "n": perm[1] = 2 is not an axis of the input'),
    "Transpose: perm of another length": (
        one("Transpose", {"x": f32("[2, 3, 4]")}, perm=[1, 0]),
        'Transpose "n": perm has 2 entries for an input of rank 3: it needs one per axis'),
    "Transpose: perm of another length, past the rank": (
        one("Transpose", {"x": f32("[2, 3]")}, perm=[0, 2, 1]),
        'Transpose "n": perm has 3 entries for an input of rank 2: it needs one per axis'),
    "Transpose: perm names an axis twice": (
        one("Transpose", {"x": f32("[2, 3]")}, perm=[1, 1]),
        'Transpose "n": perm names axis 1 twice'),
    "TreeEnsemble: aggregate_function 4": (
        one("TreeEnsemble", {"x": f32("[4, 2]")}, domain=ML, **{**TREE, "aggregate_function": 4}),
        'TreeEnsemble "n": aggregate_function 4 is not one it takes'),
    "TreeEnsemble: node mode 7": (
        one("TreeEnsemble", {"x": f32("[4, 2]")}, domain=ML,
            **{**TREE, "nodes_modes": {"dtype": "u8", "shape": [2], "data": [0, 7]}}),
        'TreeEnsemble "n": nodes_modes 7 is not one it takes'),
    "TreeEnsemble: no set for the member node": (
        one("TreeEnsemble", {"x": f32("[4, 2]")}, domain=ML,
            **{**TREE, "membership_values": {"dtype": "f32", "shape": [1], "data": [1.0]}}),
        'TreeEnsemble "n": membership_values holds 0 NaN-ended sets for 1 BRANCH_MEMBER '
        "nodes: one per node"),
    "TreeEnsembleClassifier: one string label": (
        one("TreeEnsembleClassifier", {"x": f32("[4, 2]")}, 2, domain=ML,
            **{**{k: v for k, v in CLASSES.items() if k != "classlabels_int64s"},
               "classlabels_strings": ["a"], "class_ids": [0, 0]}),
        'TreeEnsembleClassifier "n": has a single string label: onnxruntime needs two or more'),
    "TreeEnsembleClassifier: a class past the labels": (
        one("TreeEnsembleClassifier", {"x": f32("[4, 2]")}, 2, domain=ML,
            **{**CLASSES, "class_ids": [0, 2]}),
        'TreeEnsembleClassifier "n": class id 2 is out of range for its 2 class labels'),
    "TreeEnsembleRegressor: a median": (
        one("TreeEnsembleRegressor", {"x": f32("[4, 2]")}, domain=ML,
            **{**TARGETS, "aggregate_function": "MEDIAN"}),
        'TreeEnsembleRegressor "n": aggregate_function MEDIAN is none of SUM, AVERAGE, MIN, MAX'),
    "Upsample (opset 7): a scale below 1": (
        one("Upsample", {"x": f32("[2, 3]")}, opset=7, scales=[1.0, 0.5]),
        'Upsample "n": the scale of axis 1 is below 1'),
    "Add (opset 6): a second input of more axes": (
        one("Add", {"a": f32("[2, 3]"), "b": f32("[2, 3, 4]")}, opset=6, broadcast=1),
        "Add \"n\": with broadcast = 1, its second input's rank 3 is above the first's, 2"),
    "Add (opset 6): a second input past the first's axes": (
        one("Add", {"a": f32("[2, 3, 4]"), "b": f32("[4, 7]")}, opset=6, broadcast=1, axis=2),
        "Add \"n\": with broadcast = 1, its second input's 2 axes from axis 2 do not fit in the "
        "first's 3"),
    "SequenceAt: a position before the start": (
        two_elements({"name": "n", "op": "SequenceAt", "inputs": ["s", "p"], "outputs": ["y"]},
                     -3),
        'SequenceAt "n": position -3 is out of range for a sequence of 2 elements'),
}


@pytest.mark.parametrize("name", CASES)
def test_the_reason_is_said_in_words(name):
    graph, message = CASES[name]
    assert the_message(graph) == message


def test_reasons_worded_for_other_arguments():
    # (in graphs, where a clash at an input comes with them:
    # tests/test_diagnostics_own_reason.py)
    assert why_text("blocksize_does_not_divide(2, 2, 5)") == \
        "blocksize 2 does not divide axis 2 of the input, of size 5"
    assert why_text("uneven_split(7, 2)") == "its axis of size 7 does not split into 2 equal pieces"
    assert why_text("list_lengths(axes, 2, 1)") == \
        "axes has 1 elements where starts has 2: they must be as many"
    assert why_text("position(3, 2)") == \
        "position 3 is out of range for a sequence of 2 elements"


def test_a_linear_write_and_a_skip_name_their_values_in_order():
    assert why_text("linear_write_past_cache_end(1, 3, 4, 6)") == \
        "batch entry 1 writes 4 steps from position 3, past the cache's end at 6 (linear mode)"
    assert why_text("skip_dim(2, 3, 5)") == "axis 2 of its skip is 3: it must be 1 or the input's 5"
    assert why_text("input_rank(s, 1)") == \
        "its input (x) and skip (s) must be 2-D or 3-D: s has rank 1"
    assert why_text("broadcast_axes_outside_input(-1, 2, 3)") == \
        "with broadcast = 1, its second input's 2 axes from axis -1 do not fit in the first's 3"
