"""The words of reasons several rule files share (why_text facts in encodings/violations.lp):
one text for every file that derives the reason, checked end to end on one-node graphs
and, for reasons hard to reach alone, on the term as printed."""
import numpy as np
import pytest

from tests.single_diagnostic import the_message
from shape_logic.diagnostics import why_text

ML = "ai.onnx.ml"
MS = "com.microsoft"
TRAINING = "ai.onnx.preview.training"


def node(op, inputs, attrs=None, n_outputs=1, domain="", opset=18, initializers=None):
    """A graph of one node "n" over inputs x0, x1... (a shape, or (dtype, shape); None
    leaves the input out), then the initializers, giving outputs y0, y1..."""
    g: dict = {"opset": opset, "inputs": {}, "nodes": []}
    names = []
    for i, spec in enumerate(inputs):
        if spec is None:
            names.append("")
            continue
        dtype, shape = spec if isinstance(spec, tuple) else ("f32", spec)
        g["inputs"][f"x{i}"] = {"dtype": dtype, "shape": shape}
        names.append(f"x{i}")
    if initializers:
        g["initializers"] = initializers
        names += list(initializers)
    n = {"name": "n", "op": op, "inputs": names,
         "outputs": [f"y{k}" for k in range(n_outputs)], "attrs": attrs or {}}
    if domain:
        n["domain"] = domain
    g["nodes"].append(n)
    return g


def scalar(dtype, value):
    return {"dtype": dtype, "shape": [], "data": value}


# one tree: node 0 (x[1] <= 1) -> leaf 1 (target 0), else leaf 2 (target 1)
TREE = {"nodes_treeids": [0, 0, 0], "nodes_nodeids": [0, 1, 2], "nodes_featureids": [1, 0, 0],
        "nodes_modes": ["BRANCH_LEQ", "LEAF", "LEAF"], "nodes_values": [1.0, 0.0, 0.0],
        "nodes_truenodeids": [1, 0, 0], "nodes_falsenodeids": [2, 0, 0],
        "target_treeids": [0, 0], "target_nodeids": [1, 2], "target_ids": [0, 1],
        "target_weights": [0.3, 0.8], "n_targets": 2}
TENSOR_TREE = {**{k: v for k, v in TREE.items() if k != "nodes_values"},
               "nodes_values_as_tensor": np.array([1.0, 0.0, 0.0])}
# SVC: three classes of one support vector each, two features
S3 = {"classlabels_ints": [0, 1, 2], "vectors_per_class": [1, 1, 1],
      "support_vectors": [0.0, 1.0, 2.0, -3.0, 1.0, 1.0],
      "coefficients": [1.0, -1.0, 0.5, -0.5, 1.0, -1.0], "rho": [0.1, 0.2, 0.3],
      "kernel_type": "RBF", "kernel_params": [0.5, 0.0, 3.0]}
GROUPNORM = {"groups": 32, "activation": 0, "epsilon": 1e-5}
# a Loop body of one carried value (the node passes it M, cond and two values)
LOOP_BODY = {"inputs": ["i", "c", "v"], "outputs": ["c2", "v"],
             "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["c2"]}]}
# a SequenceMap body of two outputs (the node has one)
MAP_BODY = {"inputs": ["e"], "outputs": ["r", "q"],
            "nodes": [{"op": "Relu", "inputs": ["e"], "outputs": ["r"]},
                      {"op": "Relu", "inputs": ["e"], "outputs": ["q"]}]}
# MelWeightMatrix(num_mel_bins, dft_length, sample_rate, lower, upper): dft_length 0
MEL = {"dl": scalar("i64", 0), "rate": scalar("i64", 16000), "lo": scalar("f32", 0.0),
       "hi": scalar("f32", 8000.0)}

CASES = {
    "rank_below_3 (Conv)": (
        node("Conv", ["[1, 3]", "[4, 3]"]),
        'Conv "n": its first input needs rank 3 or more, not 2'),
    "rank_below_3 (GlobalAveragePool)": (
        node("GlobalAveragePool", ["[1, 3]"]),
        'GlobalAveragePool "n": its first input needs rank 3 or more, not 2'),
    "rank_below_2 (Trilu)": (
        node("Trilu", ["[3]"]),
        'Trilu "n": its first input needs rank 2 or more, not 1'),
    "dtype_not_8bit (MatMulInteger)": (
        node("MatMulInteger", [("i32", "[2, 3]"), ("i8", "[3, 4]")]),
        'MatMulInteger "n": its quantized tensors must be int8 or uint8, not i32'),
    "dtype_not_8bit (DynamicQuantizeMatMul)": (
        node("DynamicQuantizeMatMul", ["[2, 3]", ("i32", "[3, 4]"), "[]"], domain=MS),
        'DynamicQuantizeMatMul "n": its quantized tensors must be int8 or uint8, not i32'),
    "scalar_data (ArrayFeatureExtractor)": (
        node("ArrayFeatureExtractor", ["[]", ("i64", "[1]")], domain=ML),
        'ArrayFeatureExtractor "n": its data input may not be a scalar'),
    "scalar_input (Scaler)": (
        node("Scaler", ["[]"], {"scale": [1.0], "offset": [0.0]}, domain=ML),
        'Scaler "n": its first input may not be a scalar'),
    "scalar_input (Imputer)": (
        node("Imputer", ["[]"], {"imputed_value_floats": [0.0],
                                 "replaced_value_float": 0.0}, domain=ML),
        'Imputer "n": its first input may not be a scalar'),
    "scalar_indices (GatherND)": (
        node("GatherND", ["[2, 3]", ("i64", "[]")]),
        'GatherND "n": its indices may not be a scalar: they need rank 1 or more'),
    "body_inputs (Loop)": (
        node("Loop", [("i64", "[]"), ("bool", "[]"), "[2]", "[3]"], {"body": LOOP_BODY},
             n_outputs=2),
        'Loop "n": its subgraph takes the wrong number of inputs (3, 4): a Loop, Scan or '
        "SequenceMap body takes one per tensor the node passes it, a FlexAttention modifier "
        "one"),
    "body_outputs (SequenceMap)": (
        node("SequenceMap", ["s"], {"body": MAP_BODY}),
        'SequenceMap "n": its subgraph gives the wrong number of outputs (2, 1): a Loop, Scan '
        "or SequenceMap body gives one per output of the node (a Loop body its condition "
        "too), a FlexAttention modifier one"),
    "no_body (Loop)": (
        node("Loop", [("i64", "[]"), ("bool", "[]"), "[2]"]),
        'Loop "n": needs its subgraph attribute `body`'),
    "not_a_scalar, its length (Adagrad)": (
        node("Adagrad", ["[2]", ("i64", "[]"), "[3]", "[3]", "[3]"], n_outputs=2,
             domain=TRAINING),
        'Adagrad "n": `x0` must be a scalar or a vector of one element: it has rank or '
        "length 2"),
    "not_a_scalar, its rank (Adagrad)": (
        node("Adagrad", ["[1, 1]", ("i64", "[]"), "[3]", "[3]", "[3]"], n_outputs=2,
             domain=TRAINING),
        'Adagrad "n": `x0` must be a scalar or a vector of one element: it has rank or '
        "length 2"),
    "lengths/2 (Scaler)": (
        node("Scaler", ["[2, 3]"], {"scale": [1.0, 2.0, 3.0], "offset": [0.0]}, domain=ML),
        'Scaler "n": two attribute lists that go in pairs have 1 and 3 elements: they must '
        "be as many"),
    "lengths/4 (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"], {**TREE, "nodes_truenodeids": [1, 0]},
             domain=ML),
        'TreeEnsembleRegressor "n": the parallel lists `nodes_truenodeids` and '
        "`nodes_treeids` have 2 and 3 elements: they must be as many"),
    "negative_axis_before_opset_11 (Flatten)": (
        node("Flatten", ["[2, 3]"], {"axis": -1}, opset=9),
        'Flatten "n": axis -1 is negative: negative axes need opset 11 or later'),
    "negative_axis_before_opset_11 (Squeeze)": (
        node("Squeeze", ["[1, s]"], {"axes": [-2]}, opset=10),
        'Squeeze "n": axis -2 is negative: negative axes need opset 11 or later'),
    "repeated_axis, normalized (MeanVarianceNormalization)": (
        node("MeanVarianceNormalization", ["[n, c]"], {"axes": [1, -1]}),
        'MeanVarianceNormalization "n": `axes` names axis 1 twice'),
    "repeated_axis, of an unknown rank (ReduceSum)": (
        node("ReduceSum", ["x"], initializers={"axes": {"dtype": "i64", "shape": [2],
                                                        "data": [-1, -1]}}),
        'ReduceSum "n": `axes` names axis -1 twice'),
    "empty_axis (ArgMin)": (
        node("ArgMin", ["[0, 3]"], {"axis": 0}),
        'ArgMin "n": axis 0 is empty: it has no element to pick'),
    "no_class_labels (LinearClassifier)": (
        node("LinearClassifier", ["[2, 3]"], {"coefficients": [1.0] * 6,
                                              "intercepts": [0.0, 0.0]},
             n_outputs=2, domain=ML),
        'LinearClassifier "n": needs class labels (classlabels_strings, or the integer '
        "labels): none are given"),
    "coefficients (LinearClassifier)": (
        node("LinearClassifier", ["[2, 3]"], {"coefficients": [1.0] * 4,
                                              "intercepts": [0.0, 0.0],
                                              "classlabels_ints": [0, 1]},
             n_outputs=2, domain=ML),
        'LinearClassifier "n": its 4 coefficients are too few: a linear classifier or '
        "regressor needs 2 times 3 (classes or targets times features), an SVM classifier 2 "
        "times 3 - 1 (support vectors times one less than the classes)"),
    "coefficients (SVMClassifier)": (
        node("SVMClassifier", ["[n, 2]"], {**S3, "coefficients": [1.0] * 5}, n_outputs=2,
             domain=ML),
        'SVMClassifier "n": its 5 coefficients are too few: a linear classifier or regressor '
        "needs 3 times 3 (classes or targets times features), an SVM classifier 3 times 3 - 1 "
        "(support vectors times one less than the classes)"),
    "no_coefficients (LinearRegressor)": (
        node("LinearRegressor", ["[2, 3]"], {"targets": 1}, domain=ML),
        'LinearRegressor "n": needs coefficients: none are given'),
    "kernel_params (SVMClassifier)": (
        node("SVMClassifier", ["[n, 2]"], {**S3, "kernel_params": [0.5, 0.0]}, n_outputs=2,
             domain=ML),
        'SVMClassifier "n": kernel_params has 2 values: it needs 3 (gamma, coef0, degree)'),
    "kernel_type (SVMClassifier)": (
        node("SVMClassifier", ["[n, 2]"], {**S3, "kernel_type": "TANH"}, n_outputs=2,
             domain=ML),
        'SVMClassifier "n": kernel_type TANH is none of LINEAR, POLY, RBF, SIGMOID'),
    "support_vectors (SVMClassifier)": (
        node("SVMClassifier", ["[n, 2]"], {**S3, "support_vectors": [1.0] * 7}, n_outputs=2,
             domain=ML),
        'SVMClassifier "n": support_vectors has 7 values, which do not make 3 support vectors '
        "of one length"),
    "feature_out_of_range/2 (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 1]"], TREE, domain=ML),
        "TreeEnsembleRegressor \"n\": feature id 1 is out of range: the input's feature axis "
        "has size 1"),
    "feature_out_of_range/1 (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"], {**TREE, "nodes_featureids": [-1, 0, 0]},
             domain=ML),
        'TreeEnsembleRegressor "n": feature id -1 is negative'),
    "target_out_of_range/2 (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"], {**TREE, "n_targets": 1}, domain=ML),
        'TreeEnsembleRegressor "n": target id 1 is out of range for n_targets 1'),
    "target_out_of_range/1 (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"], {**TREE, "target_ids": [0, -1]}, domain=ML),
        'TreeEnsembleRegressor "n": target id -1 is negative'),
    "n_targets (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"], {**TREE, "n_targets": 0,
                                                   "target_ids": [0, 0]}, domain=ML),
        'TreeEnsembleRegressor "n": n_targets must be positive, not 0'),
    "base_values (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"], {**TREE, "base_values": [1.0]}, domain=ML),
        'TreeEnsembleRegressor "n": base_values has 1 values, which do not fit 2 classes or '
        "targets: it needs one for each"),
    "node_mode (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[3, 2]"],
             {**TREE, "nodes_modes": ["BRANCH_XX", "LEAF", "LEAF"]}, domain=ML),
        'TreeEnsembleRegressor "n": node mode BRANCH_XX is not one it takes'),
    "tensor_attr_for (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", ["[n, 2]"], TENSOR_TREE, domain=ML),
        'TreeEnsembleRegressor "n": `nodes_values_as_tensor` needs a double input, not f32'),
    "tensor_attr_dtype (TreeEnsembleRegressor)": (
        node("TreeEnsembleRegressor", [("f64", "[n, 2]")],
             {**TENSOR_TREE, "nodes_values_as_tensor": np.array([1.0, 0, 0], np.float32)},
             domain=ML),
        'TreeEnsembleRegressor "n": `nodes_values_as_tensor` must hold doubles, not f32'),
    "tensor_rank (LabelEncoder)": (
        node("LabelEncoder", [("str", "[3]")],
             {"keys_tensor": {"dtype": "str", "shape": [1, 2], "data": [["a", "b"]]},
              "values_int64s": [1, 2]}, domain=ML),
        'LabelEncoder "n": the tensor attribute `keys_tensor` must be 1-D, not of rank 2'),
    "bad_dtype (EyeLike)": (
        node("EyeLike", ["[2, 2]"], {"dtype": 8}),
        'EyeLike "n": dtype 8 is not an element type it can give'),
    "bad_dtype (Bernoulli)": (
        node("Bernoulli", ["[3]"], {"dtype": 8}),
        'Bernoulli "n": dtype 8 is not an element type it can give'),
    "output_datatype (HannWindow)": (
        node("HannWindow", [("i64", "[]")], {"output_datatype": 99}),
        'HannWindow "n": output_datatype 99 is no TensorProto element type'),
    "missing_output (CausalConvWithState)": (
        node("CausalConvWithState", ["[b, c, l]", "[c, 1, 3]"], opset=27),
        'CausalConvWithState "n": needs its output present_state'),
    "dtype_not_numeric (CumSum)": (
        node("CumSum", [("i8", "[3]"), ("i64", "[]")]),
        'CumSum "n": does not take i8 tensors'),
    "dtype_not_numeric (Shrink)": (
        node("Shrink", [("bf16", "[3]")]),
        'Shrink "n": does not take bf16 tensors'),
    "dtype_not_allowed (Gemm)": (
        node("Gemm", [("i8", "[2, 3]"), ("i8", "[3, 4]")]),
        'Gemm "n": does not take i8 tensors at this opset'),
    "last_axis (DFT)": (
        node("DFT", ["[2, 8, 3]"], opset=17),
        "DFT \"n\": its input's last axis is 3 long: it must be 1 (real) or 2 (complex)"),
    "dft_length (MelWeightMatrix)": (
        node("MelWeightMatrix", [("i64", "[]")], opset=17, initializers=MEL),
        "MelWeightMatrix \"n\": dft_length (the DFT's length) must be at least 1, not 0"),
    "flag (DFT)": (
        node("DFT", ["[2, 8, 2]"], {"inverse": 2}, opset=17),
        'DFT "n": inverse must be 0 or 1, not 2'),
    "flag (STFT)": (
        node("STFT", ["[1, 16, 1]", ("i64", "[]")], {"onesided": 3}),
        'STFT "n": onesided must be 0 or 1, not 3'),
    "bad_bits (GatherBlockQuantized)": (
        node("GatherBlockQuantized", [("u8", "[4, 16]"), ("i64", "[2]"), "[4, 2]"],
             {"bits": 3, "block_size": 16}, domain=MS),
        'GatherBlockQuantized "n": bits 3 is not a bit width it takes'),
    "bad_block_size (GatherBlockQuantized)": (
        node("GatherBlockQuantized", [("u8", "[4, 16]"), ("i64", "[2]"), "[4, 2]"],
             {"bits": 4, "block_size": 24}, domain=MS),
        'GatherBlockQuantized "n": block_size 24 is not a power of two of at least 16'),
    "bad_groups (GroupNorm)": (
        node("GroupNorm", ["[n, h, w, 320]", "g", "b"], {**GROUPNORM, "groups": 0},
             domain=MS),
        'GroupNorm "n": groups must be positive, not 0'),
    "channels_not_grouped (GroupNorm)": (
        node("GroupNorm", ["[n, h, w, 300]", "g", "b"], GROUPNORM, domain=MS),
        'GroupNorm "n": its 300 channels do not split evenly into 32 groups'),
    "heads_not_grouped (GroupQueryAttention)": (
        node("GroupQueryAttention", ["[b, s, 512]", "[b, s, 192]", "[b, s, 192]", None, None,
                                     ("i32", "[b]"), ("i32", "[]")],
             {"num_heads": 8, "kv_num_heads": 3}, domain=MS),
        'GroupQueryAttention "n": its 8 query heads do not split evenly among its 3 '
        "key/value heads"),
    "value_without_key (MultiHeadAttention)": (
        node("MultiHeadAttention", ["[b, s, 4, 3, 16]", None, "[b, l, 64]"],
             {"num_heads": 4}, domain=MS),
        'MultiHeadAttention "n": `value` is given without `key`: the two come together'),
    "param_rank (LayerNormalization)": (
        node("LayerNormalization", ["[2, 3]", "[1, 2, 3]"]),
        'LayerNormalization "n": a parameter input has a rank it cannot take (3, 2): '
        "LayerNormalization's Scale and B at most the input's rank, MatMulNBits' scales and "
        "zero_points 1 or 2"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_shared_reason_is_said_in_words(name):
    graph, message = CASES[name]
    assert the_message(graph) == message


def test_reasons_hard_to_reach_alone_are_worded_too():
    # (a gate size that is no multiple of 3 meets the hidden size's first)
    assert why_text("not_divisible(gates, 14, 3)") == \
        "the size 14 of its gates axis is no multiple of 3: it must be 3 times the hidden size"
    assert why_text("inputs_not_r_t_and_3n(6)") == \
        "takes 2 + 3n inputs (R, T, then n each of tensors, gradients and accumulated " \
        "values), not 6"
    # FlexAttention names its modifier, Loop, Scan and SequenceMap give two counts
    assert why_text("body_inputs(score_mod, 2)") == \
        "its subgraph takes the wrong number of inputs (score_mod, 2): a Loop, Scan or " \
        "SequenceMap body takes one per tensor the node passes it, a FlexAttention " \
        "modifier one"
    assert why_text("body_outputs(prob_mod, 0)").startswith(
        "its subgraph gives the wrong number of outputs (prob_mod, 0): ")
    # MatMulNBits names its parameter, LayerNormalization gives two ranks
    assert why_text("param_rank(scales, 3)").startswith(
        "a parameter input has a rank it cannot take (scales, 3): ")
    assert why_text("dtype_not_8bit(u16)") == \
        "its quantized tensors must be int8 or uint8, not u16"
    assert why_text("rank_below_2(1)") == "its first input needs rank 2 or more, not 1"
    assert why_text("scalar_data") == "its data input may not be a scalar"
    assert why_text("lengths(class_ids, 2, class_weights, 3)") == \
        "the parallel lists `class_ids` and `class_weights` have 2 and 3 elements: they " \
        "must be as many"
