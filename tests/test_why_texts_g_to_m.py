"""How the reasons of the rule files GatherND.lp to Mod.lp are worded (their why_text facts):
each case a one-node graph whose single diagnostic says the reason in words, not as a term."""
import numpy as np
import pytest

from tests.single_diagnostic import the_message
from shape_logic.diagnostics import why_text

MS, ML = "com.microsoft", "ai.onnx.ml"


def graph(op, inputs, attrs=None, outputs=("y",), domain=None, opset=None):
    """One node "n" of `op` over inputs x0, x1... (a shape string, a (dtype, shape) pair, or
    None for an input left out)."""
    tensors, names = {}, []
    for i, spec in enumerate(inputs):
        if spec is None:
            names.append("")
            continue
        dtype, shape = spec if isinstance(spec, tuple) else ("f32", spec)
        names.append(f"x{i}")
        tensors[f"x{i}"] = {"dtype": dtype, "shape": shape}
    node = {"name": "n", "op": op, "inputs": names, "outputs": list(outputs),
            "attrs": attrs or {}}
    if domain:
        node["domain"] = domain
    g = {"inputs": tensors, "nodes": [node]}
    if opset:
        g["opset"] = opset
    return g


message = the_message


GQA = {"num_heads": 8, "kv_num_heads": 2}
GQA_TAIL = [("i32", "[b]"), ("i32", "[]")]  # seqlens_k, total_sequence_length
LA_QKV = ["[b, t, 512]", "[b, t, 128]", "[b, t, 256]"]
LA_GATES = ["[b, t, 2]", "[b, t, 2]"]
LC = {"coefficients": [0.5, -1.0, 0.25, 1.0, 0.0, -0.5], "intercepts": [0.1, 0.2, 0.3],
      "classlabels_ints": [4, 5, 6]}
NBITS = {"K": 40, "N": 5, "bits": 4, "block_size": 16}  # 3 blocks of 8 bytes
NBITS_B = ("u8", "[5, 3, 8]")


def attention(inputs, **attrs):
    return graph("LinearAttention", inputs, {"q_num_heads": 8, "kv_num_heads": 2, **attrs},
                 outputs=("y", "state"), opset=27)


def classifier(**attrs):
    given = {k: v for k, v in {**LC, **attrs}.items() if v is not None}
    return graph("LinearClassifier", ["[n, 2]"], given, outputs=("y", "z"), domain=ML)


def nbits(inputs, **attrs):
    return graph("MatMulNBits", inputs, {**NBITS, **attrs}, domain=MS)


CASES = {
    "GatherND: an index longer than the data's axes": (
        graph("GatherND", ["[2, 3]", ("i64", "[4, 3]")]),
        'GatherND "n": its indices address 3 axes after 0 batch axes: more than the data\'s '
        "rank 2"),
    "GatherND: batch_dims as many as the indices' axes": (
        graph("GatherND", ["[2, 1, 4]", ("i64", "[2, 1]")], {"batch_dims": 2}),
        'GatherND "n": batch_dims 2 must be less than the indices\' rank 2'),
    "Gelu: an unknown approximation": (
        graph("Gelu", ["[2, 3]"], {"approximate": "fast"}, opset=20),
        'Gelu "n": approximate fast is neither none nor tanh'),
    "Gemm: a 3-D C": (
        graph("Gemm", ["[2, 3]", "[3, 4]", "[1, 2, 4]"]),
        'Gemm "n": its input C must have rank 2 or less, not 3'),
    "Gemm: a 3-D A": (
        graph("Gemm", ["[2, 3, 4]", "[4, 5]"]),
        'Gemm "n": its input A must be a matrix (rank 2), not of rank 3'),
    "Gemm: a vector B": (
        graph("Gemm", ["[2, 3]", "[3]"]),
        'Gemm "n": its input B must be a matrix (rank 2), not of rank 1'),
    "GRU: weights of two directions, running forward": (
        graph("GRU", ["[5, 2, 4]", "[2, 9, 4]", "[2, 9, 3]"], {"hidden_size": 3}, opset=14),
        'GRU "n": its tensors have 2 directions where direction forward runs 1'),
    "GridSample: 5-D in opset 16": (
        graph("GridSample", ["[1, 2, 3, 4, 5]", "[1, 3, 4, 5, 3]"], opset=16),
        'GridSample "n": takes 4-D inputs only before opset 20, not rank 5 (opset 16)'),
    "GridSample: an unknown padding mode": (
        graph("GridSample", ["[1, 2, 3, 4]", "[1, 3, 4, 2]"], {"padding_mode": "wrap"},
              opset=16),
        'GridSample "n": padding_mode wrap is none of zeros, border, reflection'),
    "GroupNormalization: groups that do not divide the channels": (
        graph("GroupNormalization", ["[2, 6, 4]", "[6]", "[6]"], {"num_groups": 4}, opset=21),
        'GroupNormalization "n": num_groups 4 does not divide its 6 channels'),
    "GroupQueryAttention: a key without a value": (
        graph("GroupQueryAttention", ["[b, s, 512]", "[b, s, 128]", None, None, None]
              + GQA_TAIL, GQA, domain=MS),
        'GroupQueryAttention "n": `key` is given without `value`: the two come together'),
    "GroupQueryAttention: a past key without a past value": (
        graph("GroupQueryAttention", ["[b, s, 512]", "[b, s, 128]", "[b, s, 128]",
                                      "[b, 2, p, 64]", None] + GQA_TAIL, GQA, domain=MS),
        'GroupQueryAttention "n": `past_key` is given without `past_value`: the two come '
        "together"),
    "GroupQueryAttention: a past value without a past key": (
        graph("GroupQueryAttention", ["[b, s, 512]", "[b, s, 128]", "[b, s, 128]", None,
                                      "[b, 2, p, 64]"] + GQA_TAIL, GQA, domain=MS),
        'GroupQueryAttention "n": `past_value` is given without `past_key`: the two come '
        "together"),
    "HannWindow: a float size": (
        graph("HannWindow", [("f32", "[]")], opset=17),
        'HannWindow "n": its size must be int32 or int64, not f32'),
    "ImageDecoder: an unknown pixel format": (
        graph("ImageDecoder", [("u8", "[100]")], {"pixel_format": "RGBA"}, opset=20),
        'ImageDecoder "n": pixel_format RGBA is none of RGB, BGR, Grayscale'),
    "Imputer: no imputed values": (
        graph("Imputer", ["[n, 2]"], domain=ML),
        'Imputer "n": needs exactly one non-empty list of imputed values, imputed_value_floats '
        "or imputed_value_int64s"),
    "Imputer: integer values for a float input": (
        graph("Imputer", ["[n, 2]"], {"imputed_value_int64s": [1]}, domain=ML),
        'Imputer "n": its f32 input takes imputed values of its own kind, not int ones '
        "(imputed_value_floats for float inputs, imputed_value_int64s for integer ones)"),
    "Imputer: float values for an integer input": (
        graph("Imputer", [("i32", "[n, 2]")], {"imputed_value_floats": [1.0]}, domain=ML),
        'Imputer "n": its i32 input takes imputed values of its own kind, not float ones '
        "(imputed_value_floats for float inputs, imputed_value_int64s for integer ones)"),
    "LSTM: weights of one direction, bidirectional": (
        graph("LSTM", ["[5, 2, 4]", "[1, 12, 4]", "[1, 12, 3]"],
              {"hidden_size": 3, "direction": "bidirectional"}, opset=14),
        'LSTM "n": its tensors have 1 directions where direction bidirectional runs 2'),
    "LRN: a 3-D input": (
        graph("LRN", ["[2, 6, 4]"], {"size": 3}),
        'LRN "n": takes 4-D inputs only, not rank 3'),
    "LabelEncoder: classes_strings over floats": (
        graph("LabelEncoder", [("f32", "[3]")], {"classes_strings": ["a"]}, domain=ML),
        'LabelEncoder "n": with classes_strings it maps strings to int64 and back: its input '
        "may not be f32"),
    "LabelEncoder: no values": (
        graph("LabelEncoder", [("str", "[3]")], {"keys_strings": ["a", "b"]}, domain=ML),
        'LabelEncoder "n": needs exactly one keys_* and one values_* attribute: it has 0 of '
        "kind v (k: keys_*, v: values_*)"),
    "LabelEncoder: two lists of values": (
        graph("LabelEncoder", [("str", "[3]")], {"keys_strings": ["a", "b"],
                                                 "values_int64s": [1, 2],
                                                 "values_floats": [1.0, 2.0]}, domain=ML),
        'LabelEncoder "n": needs exactly one keys_* and one values_* attribute: it has 2 of '
        "kind v (k: keys_*, v: values_*)"),
    "LabelEncoder: a default of another type": (
        graph("LabelEncoder", [("str", "[3]")],
              {"keys_strings": ["a", "b"], "values_tensor": np.array([1, 2], np.int32),
               "default_tensor": np.array([0], np.int64)}, domain=ML),
        'LabelEncoder "n": default_tensor is i64 where values_tensor is i32: they must be of '
        "one type"),
    "LabelEncoder: a default of two elements": (
        graph("LabelEncoder", [("str", "[3]")],
              {"keys_strings": ["a", "b"], "values_tensor": np.array([1, 2], np.int32),
               "default_tensor": np.array([0, 1], np.int32)}, domain=ML),
        'LabelEncoder "n": default_tensor must hold one element: its axis 0 has 2'),
    "LinearAttention: a query width of no whole heads": (
        attention(["[b, t, 500]", "K", "[b, t, 256]", None] + LA_GATES),
        'LinearAttention "n": the query\'s width 500 is no multiple of its 8 query heads '
        "(q_num_heads)"),
    "LinearAttention: a value width of no whole heads": (
        attention(["[b, t, 512]", "K", "[b, t, 255]", None] + LA_GATES),
        'LinearAttention "n": the value\'s width 255 is no multiple of its 2 kv heads '
        "(kv_num_heads)"),
    "LinearAttention: a beta neither per head nor one": (
        attention(LA_QKV + [None, "[b, t, 2]", "[b, t, 3]"]),
        'LinearAttention "n": beta\'s last axis is 3: it must be 1 or kv_num_heads, 2'),
    "LinearAttention: an unknown update rule": (
        attention(LA_QKV, update_rule="mamba"),
        'LinearAttention "n": update_rule mamba is none of linear, gated, delta, gated_delta'),
    "LinearAttention: gated delta without decay": (
        attention(LA_QKV + [None, None, "[b, t, 2]"]),
        'LinearAttention "n": needs its input decay under update_rule gated_delta'),
    "LinearAttention: the linear rule given a decay": (
        attention(LA_QKV + [None, "[b, t, 2]"], update_rule="linear"),
        'LinearAttention "n": takes no input decay under update_rule linear'),
    "LinearClassifier: two label lists": (
        classifier(classlabels_strings=["a", "b", "c"]),
        'LinearClassifier "n": gives both classlabels_strings and classlabels_ints: it takes '
        "one list of labels"),
    "LinearClassifier: no intercepts": (
        classifier(intercepts=None),
        'LinearClassifier "n": needs intercepts, one per class: none are given'),
    "LinearClassifier: an empty list of intercepts": (
        classifier(intercepts=[]),
        'LinearClassifier "n": needs intercepts, one per class: none are given'),
    "LinearClassifier: fewer labels than classes": (
        classifier(classlabels_ints=[1, 2]),
        'LinearClassifier "n": its labels (2) do not fit its intercepts (3): one intercept '
        "needs 2 labels, more need a label each"),
    "LinearClassifier: a binary classifier of three labels": (
        classifier(coefficients=[0.5, -1.0], intercepts=[0.1]),
        'LinearClassifier "n": its labels (3) do not fit its intercepts (1): one intercept '
        "needs 2 labels, more need a label each"),
    "LinearClassifier: coefficients not a multiple of the classes": (
        classifier(coefficients=[1.0] * 7),
        'LinearClassifier "n": its 7 coefficients do not split evenly among its 3 classes '
        "(intercepts)"),
    "LinearRegressor: no targets": (
        graph("LinearRegressor", ["[n, 2]"], {"targets": 0, "coefficients": [1.0, 2.0]},
              domain=ML),
        'LinearRegressor "n": targets must be positive, not 0'),
    "LpNormalization: p = 3": (
        graph("LpNormalization", ["[2, 6, 4]"], {"p": 3}),
        'LpNormalization "n": p 3 is neither 1 nor 2'),
    "MatMul: a scalar operand": (
        graph("MatMul", ["[]", "[3, 4]"]),
        'MatMul "n": its operand `x0` is a scalar: matmul takes rank 1 or more'),
    "MatMulNBits: int8 zero points": (
        nbits(["[b, 40]", NBITS_B, "[5, 3]", ("i8", "[5, 2]")]),
        'MatMulNBits "n": zero_points must be uint8 or a float type (f16, bf16, f32), not i8'),
    "MatMulNBits: a packed weight of too few blocks": (
        nbits(["[b, 40]", ("u8", "[5, 2, 8]"), "[5, 3]"]),
        'MatMulNBits "n": axis 1 of the packed weight B is 2 where K, N, bits and block_size '
        "need 3 (or 0)"),
    "MatMulNBits: scales of too few blocks": (
        nbits(["[b, 40]", NBITS_B, "[5, 2]"]),
        'MatMulNBits "n": axis 1 of scales is 2 where it needs 3'),
    "MatMulNBits: flat scales of the wrong size": (
        nbits(["[b, 40]", NBITS_B, "[16]"]),
        'MatMulNBits "n": the flat scales tensor has 16 elements where it needs 15'),
    "MatMulNBits: g_idx of the wrong size": (
        nbits(["[b, 40]", NBITS_B, "[5, 3]", None, ("i32", "[41]")]),
        'MatMulNBits "n": g_idx has 41 elements where it needs one per row of K (40) or of its '
        "padded blocks"),
    "MatMulNBits: a negative N": (
        nbits(["[b, 40]", ("u8", "W"), "S"], N=-1),
        'MatMulNBits "n": N must not be negative: -1'),
    "MaxPool: storage_order 2": (
        graph("MaxPool", ["[1, 2, 8, 8]"], {"kernel_shape": [2, 2], "storage_order": 2}),
        'MaxPool "n": storage_order must be 0 or 1, not 2'),
    "Mod: fmod 2": (
        graph("Mod", ["[3]", "[3]"], {"fmod": 2}),
        'Mod "n": fmod 2 is neither 0 nor 1'),
    "Mod: floats without fmod": (
        graph("Mod", ["[3]", "[3]"]),
        'Mod "n": its f32 elements need fmod = 1 before opset 28'),
}


@pytest.mark.parametrize("name", CASES)
def test_a_reason_is_said_in_words(name):
    g, want = CASES[name]
    assert message(g) == want


def branch():
    return {"inputs": [], "outputs": ["out"],
            "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["out"]}]}


def test_an_if_without_its_else_branch():
    g = {"inputs": {"c": {"dtype": "bool", "shape": "[]"}},
         "nodes": [{"name": "if", "op": "If", "inputs": ["c"], "outputs": ["y"],
                    "attrs": {"then_branch": branch()}}]}
    assert message(g) == 'If "if": has no else_branch: it needs both then_branch and else_branch'


def test_an_if_with_more_outputs_than_its_branches():
    two = {"inputs": [], "outputs": ["out", "out2"],
           "nodes": [{"op": "Identity", "inputs": ["c"], "outputs": ["out"]},
                     {"op": "Identity", "inputs": ["c"], "outputs": ["out2"]}]}
    g = {"inputs": {"c": {"dtype": "bool", "shape": "[]"}},
         "nodes": [{"name": "if", "op": "If", "inputs": ["c"], "outputs": ["y", "z"],
                    "attrs": {"then_branch": branch(), "else_branch": two}}]}
    assert message(g) == ('If "if": the If has 2 outputs and its then_branch 1: they must be '
                          "as many")


def test_no_mel_bands():
    g = {"opset": 17,
         "inputs": {"r": {"dtype": "i64", "shape": "[]"}, "lo": {"dtype": "f32", "shape": "[]"},
                    "hi": {"dtype": "f32", "shape": "[]"}},
         "initializers": {"m": {"dtype": "i64", "shape": [], "data": 0},
                          "d": {"dtype": "i64", "shape": [], "data": 64}},
         "nodes": [{"name": "mel", "op": "MelWeightMatrix",
                    "inputs": ["m", "d", "r", "lo", "hi"], "outputs": ["y"]}]}
    assert message(g) == 'MelWeightMatrix "mel": num_mel_bins must be at least 1, not 0'


def test_the_terms_as_printed():
    # (reasons whose graphs the cases above do not build, or other values of their arguments)
    assert why_text("batch_dims_too_large(3, 2)") == \
        "batch_dims 3 must be less than the indices' rank 2"
    assert why_text("param_dim(zero_points, 0, 4, 5)") == \
        "axis 0 of zero_points is 4 where it needs 5"
    assert why_text("missing_input(beta, delta)") == "needs its input beta under update_rule delta"
    assert why_text("input_not_taken(beta, gated)") == "takes no input beta under update_rule gated"
    assert why_text("attributes(k, 0)") == \
        "needs exactly one keys_* and one values_* attribute: it has 0 of kind k " \
        "(k: keys_*, v: values_*)"
    assert why_text("no_branch(then_branch)") == \
        "has no then_branch: it needs both then_branch and else_branch"
    assert why_text("rank_not_4(3, 16)") == \
        "takes 4-D inputs only before opset 20, not rank 3 (opset 16)"
    assert why_text("rank_not_4(5)") == "takes 4-D inputs only, not rank 5"
    # (missing_input with one argument keeps the shared text)
    assert why_text("missing_input(C)") == "needs its input C"
