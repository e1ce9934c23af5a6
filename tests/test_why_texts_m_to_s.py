"""How the reasons of the rule files MultiHeadAttention .. SVMClassifier are worded: each a
tiny graph whose one diagnostic says the broken requirement in words (the rule file's
why_text facts), and the reasons hard to reach in a graph through why_text itself."""
import pytest

import shape_logic
from tests.single_diagnostic import the_message
from shape_logic.diagnostics import why_text

MS, ML = "com.microsoft", "ai.onnx.ml"


def t(dtype, shape):
    return {"dtype": dtype, "shape": shape}


def c(dtype, shape, data):
    return {"dtype": dtype, "shape": shape, "data": data}


def message(op, inputs, attrs=None, opset=None, domain=None, n_outputs=1):
    """The one diagnostic's message of a graph of one node "n" of `op` on `inputs` (x0, x1..,
    None for an input left out; an entry with data is an initializer)."""
    g = {"inputs": {}, "initializers": {}, "nodes": []}
    names = []
    for k, spec in enumerate(inputs):
        names.append("" if spec is None else f"x{k}")
        if spec is not None:
            g["initializers" if "data" in spec else "inputs"][f"x{k}"] = spec
    node = {"name": "n", "op": op, "inputs": names,
            "outputs": [f"y{k}" for k in range(n_outputs)], "attrs": attrs or {}}
    if domain:
        node["domain"] = domain
    g["nodes"].append(node)
    if opset:
        g["opset"] = opset
    return the_message(g)


VALUES = c("f32", "[2]", [0.0, 1.0])
NMS = [t("f32", "[1, 6, 4]"), t("f32", "[1, 2, 6]")]
# a [1, 3, 4, 4] image resized by scales (2x on its two spatial axes)
RESIZE_BY_2 = [t("f32", "[1, 3, 4, 4]"), None, c("f32", "[4]", [1.0, 1.0, 2.0, 2.0])]
# SVC: three classes of one support vector each, two features
S3 = {"classlabels_ints": [0, 1, 2], "vectors_per_class": [1, 1, 1],
      "support_vectors": [0.0, 1.0, 2.0, -3.0, 1.0, 1.0],
      "coefficients": [1.0, -1.0, 0.5, -0.5, 1.0, -1.0], "rho": [0.1, 0.2, 0.3],
      "kernel_type": "RBF", "kernel_params": [0.5, 0.0, 3.0]}

CASES = {
    "query_rank": (
        ("MultiHeadAttention", [t("f32", "[2, 3, 4, 8]")], {"num_heads": 2}, None, MS),
        'MultiHeadAttention "n": the query must be 3-D, or 5-D packing queries, keys and '
        "values, not of rank 4"),
    "key_rank": (
        ("MultiHeadAttention", [t("f32", "[2, 3, 8]"), t("f32", "[2, 3, 8, 1, 1]"),
                                t("f32", "[2, 3, 8]")], {"num_heads": 2}, None, MS),
        'MultiHeadAttention "n": with separate keys and values the key must be 3-D, or 4-D '
        "split in heads, not of rank 5"),
    "bias_with_4d_keys": (
        ("MultiHeadAttention", [t("f32", "[2, 3, 8]"), t("f32", "[2, 2, 5, 4]"),
                                t("f32", "[2, 2, 5, 4]"), t("f32", "[24]")],
         {"num_heads": 2}, None, MS),
        'MultiHeadAttention "n": a bias (input 3) cannot go with 4-D keys and values, '
        "already split in heads"),
    "bias_with_packed_kv": (
        ("MultiHeadAttention", [t("f32", "[2, 3, 8]"), t("f32", "[2, 5, 2, 2, 4]"), None,
                                t("f32", "[24]")], {"num_heads": 2}, None, MS),
        'MultiHeadAttention "n": a bias (input 3) cannot go with keys and values packed in '
        "one input"),
    "sample_size": (
        ("Multinomial", [t("f32", "[2, 5]")], {"sample_size": 0}, None, None),
        'Multinomial "n": sample_size must be at least 1, not 0'),
    "target_dtype": (
        ("NegativeLogLikelihoodLoss", [t("f32", "[2, 5]"), t("f32", "[2]")], None, None, None),
        'NegativeLogLikelihoodLoss "n": its target must be int32 or int64, not f32'),
    "reduction": (
        ("NegativeLogLikelihoodLoss", [t("f32", "[2, 5]"), t("i64", "[2]")],
         {"reduction": "max"}, None, None),
        'NegativeLogLikelihoodLoss "n": reduction max is none of none, sum, mean'),
    "bad_center_point_box": (
        ("NonMaxSuppression", NMS, {"center_point_box": 2}, None, None),
        'NonMaxSuppression "n": center_point_box must be 0 or 1, not 2'),
    "not_one_value, a length": (
        ("NonMaxSuppression", NMS + [t("i64", "[2]")], None, None, None),
        'NonMaxSuppression "n": input 2 must hold one value, a scalar or a vector of one '
        "element, not 2"),
    "not_one_value, a rank": (
        ("NonMaxSuppression", NMS + [t("i64", "[1]"), t("f32", "[1, 1]")], None, None, None),
        'NonMaxSuppression "n": input 3 must hold one value, a scalar or a vector of one '
        "element, not a tensor of rank 2"),
    "norm": (
        ("Normalizer", [t("f32", "[2, 5]")], {"norm": "L3"}, None, ML),
        'Normalizer "n": norm L3 is none of MAX, L1, L2'),
    "depth": (
        ("OneHot", [t("i64", "[3]"), c("i64", "[]", 0), VALUES], None, None, None),
        'OneHot "n": depth must be at least 1, not 0'),
    "depth_elements": (
        ("OneHot", [t("i64", "[3]"), t("i64", "[2]"), VALUES], None, None, None),
        'OneHot "n": depth must be one value, not 2 elements'),
    "depth_rank": (
        ("OneHot", [t("i64", "[3]"), t("i64", "[1, 1]"), VALUES], None, None, None),
        'OneHot "n": depth must be a scalar or a vector of one element, not of rank 2'),
    "values_length": (
        ("OneHot", [t("i64", "[3]"), c("i64", "[]", 4), c("f32", "[3]", [0.0, 1.0, 2.0])],
         None, None, None),
        'OneHot "n": values must hold two elements, [off, on], not 3'),
    "values_shape": (
        ("OneHot", [t("i64", "[3]"), c("i64", "[]", 4), t("f32", "[2, 1]")], None, None,
         None),
        'OneHot "n": values must be a vector of two elements, [off, on], not of rank 2'),
    "directions: RNN": (
        ("RNN", [t("f32", "[5, 2, 4]"), t("f32", "[2, 3, 4]"), t("f32", "[2, 3, 3]")],
         {"hidden_size": 3}, 14, None),
        'RNN "n": its tensors have 2 directions where direction forward runs 1'),
    "categories, none": (
        ("OneHotEncoder", [t("i64", "[3]")], None, None, ML),
        'OneHotEncoder "n": needs exactly one of the attributes cats_strings and cats_int64s'),
    "categories, both": (
        ("OneHotEncoder", [t("i64", "[3]")], {"cats_int64s": [1, 2], "cats_strings": ["a"]},
         None, ML),
        'OneHotEncoder "n": needs exactly one of the attributes cats_strings and cats_int64s'),
    "no_type": (
        ("Optional", [], None, None, None),
        'Optional "n": without an input it needs the attribute `type`, the element type of '
        "the empty optional"),
    "optional_of_an_optional": (
        ("Optional", [{"dtype": "f32", "shape": "[2]", "optional": True}], None, None, None),
        'Optional "n": its input is an optional already: ONNX has no optional of an optional'),
    "slope_rank_above_input": (
        ("PRelu", [t("f32", "[2, 3]"), t("f32", "[2, 2, 3]")], None, None, None),
        "PRelu \"n\": the slope has rank 3, above the input's 2: it must broadcast to the "
        "input"),
    "slope_neither_channels_nor_input": (
        ("PRelu", [t("f32", "[2, 3, 4]"), t("f32", "[3, 4]")], None, 6, None),
        "PRelu \"n\": before opset 7 a slope of several elements is a vector over the "
        "input's channels or has its shape: rank 2 is neither for an input of rank 3"),
    "slope_neither_channels_nor_input, a scalar input": (
        ("PRelu", [t("f32", "[]"), t("f32", "[3]")], None, 6, None),
        "PRelu \"n\": before opset 7 a slope of several elements is a vector over the "
        "input's channels or has its shape: rank 1 is neither for an input of rank 0"),
    "pads_length": (
        ("Pad", [t("f32", "[2, 3]"), c("i64", "[3]", [1, 1, 1])], None, None, None),
        'Pad "n": it has 3 pads for 2 padded axes: it needs two per axis, the begins then '
        "the ends"),
    "not_a_scalar: Pad's constant_value": (
        ("Pad", [t("f32", "[2, 3]"), c("i64", "[4]", [1, 1, 1, 1]), c("f32", "[2]", [0.0, 1.0])],
         None, None, None),
        'Pad "n": `constant_value` must be a scalar or a vector of one element: it has rank or '
        "length 2"),
    "mode_before_opset_19": (
        ("Pad", [t("f32", "[2, 3]"), c("i64", "[4]", [1, 1, 1, 1])], {"mode": "wrap"}, 18,
         None),
        'Pad "n": mode wrap is only in opset 19 and later'),
    "missing_pads": (
        ("Pad", [t("f32", "[2, 3]")], None, 10, None),
        'Pad "n": needs the attribute pads (paddings in opset 1) before opset 11'),
    "inputs_not_triples": (
        ("QLinearConcat", [t("f32", "[]"), t("u8", "[]"), t("u8", "[2, 3]"), t("f32", "[]"),
                           t("u8", "[]"), t("u8", "[2, 3]")], {"axis": 0}, None, MS),
        "QLinearConcat \"n\": its 6 inputs are not the output's scale and zero point "
        "followed by a tensor, its scale and its zero point for each tensor joined"),
    "input_rank": (
        ("QLinearGlobalAveragePool", [t("u8", "[2, 3]"), t("f32", "[]"), t("u8", "[]"),
                                      t("f32", "[]"), t("u8", "[]")], None, None, MS),
        'QLinearGlobalAveragePool "n": the input needs a batch, a channel and a spatial '
        "axis: rank 2 is below 3"),
    "dtype_not_quantizable": (
        ("QuantizeLinear", [t("f64", "[2, 3]"), t("f64", "[]")], None, 21, None),
        'QuantizeLinear "n": quantizes f32, f16, bf16 or i32 tensors, not f64'),
    "scale_rank": (
        ("QuantizeLinear", [t("f32", "[2, 3]"), t("f32", "[2, 3]")], None, None, None),
        'QuantizeLinear "n": without blocks (block_size 0) the scale must be a scalar or a '
        "vector, not of rank 2"),
    "scale_above_input": (
        ("RMSNormalization", [t("f32", "[3, 4]"), t("f32", "[2, 3, 4]")], None, 23, None),
        'RMSNormalization "n": its scale has rank 3, more than the input\'s 2: it must '
        "broadcast to the input"),
    "scale_above_input: SimplifiedLayerNormalization": (
        ("SimplifiedLayerNormalization", [t("f32", "[3, 4]"), t("f32", "[1, 3, 4]")], None,
         None, None),
        'SimplifiedLayerNormalization "n": its scale has rank 3, more than the input\'s 2: '
        "it must broadcast to the input"),
    "zero_delta": (
        ("Range", [c("i64", "[]", 1), c("i64", "[]", 10), c("i64", "[]", 0)], None, None,
         None),
        'Range "n": its delta is 0: the range would never reach its limit'),
    "input_rank_not_0_or_1": (
        ("Range", [t("i64", "[1, 1]"), t("i64", "[]"), t("i64", "[]")], None, None, None),
        'Range "n": `x0` must be a scalar or a vector of one element, not of rank 2'),
    "not_a_scalar: Range's start of two elements": (
        ("Range", [t("i64", "[2]"), t("i64", "[]"), t("i64", "[]")], None, None, None),
        'Range "n": `x0` must be a scalar or a vector of one element: it has rank or '
        "length 2"),
    "too_many_axes": (
        ("ReduceSum", [t("f32", "[2, 3]"), c("i64", "[3]", [0, 1, 1])], None, None, None),
        'ReduceSum "n": it lists 3 axes for an input of rank 2: some repeat or are out of '
        "range"),
    "several_inferred_axes": (
        ("Reshape", [t("f32", "[2, 3]"), c("i64", "[2]", [-1, -1])], None, None, None),
        'Reshape "n": its target shape has more than one -1: only one size can be inferred'),
    "bad_target": (
        ("Reshape", [t("f32", "[2, 3]"), c("i64", "[2]", [3, -2])], None, None, None),
        'Reshape "n": entry 1 of the target shape is -2: an entry is a size, 0 (a copy) or '
        "-1 (inferred)"),
    "zero_and_inferred": (
        ("Reshape", [t("f32", "[2, 3]"), c("i64", "[2]", [0, -1])], {"allowzero": 1}, None,
         None),
        'Reshape "n": with allowzero = 1 its target shape may not hold both a 0 and a -1'),
    "copied_axis_out_of_range": (
        ("Reshape", [t("f32", "[6]"), c("i64", "[2]", [6, 0])], None, None, None),
        "Reshape \"n\": entry 1 of the target shape is 0, a copy of the input's axis 1, "
        "which an input of rank 1 does not have"),
    "count_not_divisible": (
        ("Reshape", [t("f32", "[2, 3, 4]"), c("i64", "[2]", [5, -1])], None, None, None),
        "Reshape \"n\": its input's 24 elements are no multiple of 5, the product of the "
        "target's other sizes: no size fits its -1"),
    "count_not_divisible, with a copied axis": (
        ("Reshape", [t("f32", "[2, 3, 4]"), c("i64", "[3]", [0, -1, 5])], None, None, None),
        "Reshape \"n\": its input's 24 elements are no multiple of 10, the product of the "
        "target's other sizes: no size fits its -1"),
    "entries_for_axes": (
        ("Resize", [t("f32", "[1, 3, 4, 4]"), None, c("f32", "[3]", [1.0, 2.0, 2.0])],
         {"axes": [2, 3]}, None, None),
        'Resize "n": its scales or sizes give 3 values for the 2 axes of `axes`'),
    "scales_and_sizes": (
        ("Resize", RESIZE_BY_2 + [c("i64", "[4]", [1, 3, 8, 8])], None, None, None),
        'Resize "n": it is given both scales and sizes: one of them, the other empty or left '
        "out"),
    "bad_choice: mode": (
        ("Resize", RESIZE_BY_2, {"mode": "bicubic"}, None, None),
        'Resize "n": mode bicubic is not one it takes'),
    "bad_choice: coordinate_transformation_mode": (
        ("Resize", RESIZE_BY_2, {"coordinate_transformation_mode": "corners"}, None, None),
        'Resize "n": coordinate_transformation_mode corners is not one it takes'),
    "bad_choice: nearest_mode": (
        ("Resize", RESIZE_BY_2, {"nearest_mode": "round"}, None, None),
        'Resize "n": nearest_mode round is not one it takes'),
    "bad_axis": (
        ("ReverseSequence", [t("f32", "[2, 3]"), t("i64", "[3]")], {"batch_axis": 2}, None,
         None),
        'ReverseSequence "n": batch_axis must be 0 or 1, not 2'),
    "same_axes": (
        ("ReverseSequence", [t("f32", "[2, 3]"), t("i64", "[3]")],
         {"batch_axis": 1, "time_axis": 1}, None, None),
        'ReverseSequence "n": batch_axis and time_axis are both 1: they must differ'),
    "bad_coordinate_transformation_mode": (
        ("RoiAlign", [t("f32", "[1, 3, 8, 8]"), t("f32", "[2, 4]"), t("i64", "[2]")],
         {"coordinate_transformation_mode": "asymmetric"}, None, None),
        'RoiAlign "n": coordinate_transformation_mode asymmetric is neither half_pixel nor '
        "output_half_pixel"),
    "frame_step": (
        ("STFT", [t("f32", "[1, 16, 1]"), c("i64", "[]", 0), None, c("i64", "[]", 4)], None,
         17, None),
        'STFT "n": frame_step must be at least 1, not 0'),
    "frame_length": (
        ("STFT", [t("f32", "[1, 16, 1]"), c("i64", "[]", 2), None, c("i64", "[]", 0)], None,
         17, None),
        'STFT "n": a frame must be at least 1 point long, not 0'),
    "frame_longer_than_signal": (
        ("STFT", [t("f32", "[1, 4, 1]"), c("i64", "[]", 1), t("f32", "[8]")], None, 17,
         None),
        "STFT \"n\": a frame of 8 points is longer than the signal's 4"),
    "prob_lengths": (
        ("SVMClassifier", [t("f32", "[4, 2]")],
         {**S3, "prob_a": [1.0, 2.0, 3.0], "prob_b": [0.0, 0.1]}, None, ML),
        'SVMClassifier "n": prob_a has 3 values and prob_b 2: they must be as many'),
    "vectors_per_class": (
        ("SVMClassifier", [t("f32", "[4, 2]")], {**S3, "vectors_per_class": [2, 1]}, None,
         ML),
        'SVMClassifier "n": vectors_per_class has 2 values for 3 classes: it needs one per '
        "class"),
    "rho": (
        ("SVMClassifier", [t("f32", "[4, 2]")], {**S3, "rho": [0.1, 0.2]}, None, ML),
        'SVMClassifier "n": rho has 2 values, fewer than the 3 pairs of classes'),
    "prob_a": (
        ("SVMClassifier", [t("f32", "[4, 2]")],
         {**S3, "prob_a": [1.0, 2.0], "prob_b": [0.0, 0.1]}, None, ML),
        'SVMClassifier "n": prob_a has 2 values, fewer than the 3 pairs of classes'),
}


@pytest.mark.parametrize("case", CASES)
def test_an_invalid_node_says_its_reason_in_words(case):
    (op, inputs, attrs, opset, domain), want = CASES[case]
    n_outputs = 2 if op == "SVMClassifier" else 1
    assert message(op, inputs, attrs, opset, domain, n_outputs) == want


def test_an_empty_optional_has_no_element_to_get():
    g = {"nodes": [{"name": "o", "op": "Optional", "inputs": [], "outputs": ["o"],
                    "attrs": {"type": {"dtype": "f32"}}},
                   {"name": "g", "op": "OptionalGetElement", "inputs": ["o"], "outputs": ["y"]}]}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.message == 'OptionalGetElement "g": the optional is empty: it holds no element to get'


def test_reasons_hard_to_reach_in_a_graph():
    # (a target of another rank than the input's less one, in a graph:
    # tests/test_diagnostics_own_reason.py)
    assert why_text("target_rank(1, 3)") == (
        "the target has rank 1 where an input of rank 3 needs one less (the input without "
        "its class axis)")
    # (65536 labels: a graph that slow to solve)
    assert why_text("too_many_classes(65536)") == (
        "has 65536 class labels: onnxruntime takes fewer than 65536")
    # (the same names of other arities are other reasons: SkipSimplifiedLayerNormalization's
    # input_rank/2, the shared scale_rank/2)
    assert why_text("input_rank(2)") == (
        "the input needs a batch, a channel and a spatial axis: rank 2 is below 3")
    assert why_text("scale_rank(3)") == (
        "without blocks (block_size 0) the scale must be a scalar or a vector, not of rank 3")
    assert why_text("scale_rank(1, 2)") == (
        "its input 1 must be a scalar or a vector, not of rank 2")
