"""How the reasons of rule files Adam.lp to GatherBlockQuantized.lp are worded: their
why_text facts (encodings/schema.lp), end to end on one-node graphs, and directly for the
reasons another clash of the same node reports first."""
import pytest

from tests.single_diagnostic import the_message
from shape_logic.diagnostics import why_text

MS = "com.microsoft"


def node(op, inputs, attrs=None, n_outputs=1, opset=None, domain=None, initializers=None):
    """A graph of one node "n" of `op`: inputs x0, x1... given as (dtype, shape), or None
    for one that `initializers` gives; outputs y0, y1..."""
    names = [f"x{k}" for k in range(len(inputs))]
    g = {"inputs": {name: {"dtype": d, "shape": s}
                    for name, spec in zip(names, inputs) if spec is not None
                    for d, s in [spec]},
         "nodes": [{"name": "n", "op": op, "inputs": names,
                    "outputs": [f"y{k}" for k in range(n_outputs)], "attrs": attrs or {}}]}
    if domain:
        g["nodes"][0]["domain"] = domain
    if opset:
        g["opset"] = opset
    if initializers:
        g["initializers"] = initializers
    return g


F4 = ("f32", "[3]")
CUMSUM_X = ("f32", "[3, 4]")
CONVT = [("f32", "[1, 2, 5, 5]"), ("f32", "[2, 4, 3, 3]")]
QKV = [("f32", "[1, 6, 4, 8]"), ("f32", "[1, 4, 5, 8]"), ("f32", "[1, 4, 5, 8]")]
IDS = ("i64", "[2]")
SEQUENCE = {"inputs": {"e0": {"dtype": "f32", "shape": "[2, 3]"}}, "nodes": [
    {"name": "s", "op": "SequenceConstruct", "inputs": ["e0"], "outputs": ["s"]},
    {"name": "n", "op": "ConcatFromSequence", "inputs": ["s"], "outputs": ["y"],
     "attrs": {"axis": 0, "new_axis": 2}}]}


def einsum(equation, shape="[3]"):
    return node("Einsum", [("f32", shape)], {"equation": equation})


CASES = {
    "Adam: seven inputs": (
        node("Adam", [("f32", "[]"), ("i64", "[]")] + [F4] * 5, n_outputs=3,
             domain="ai.onnx.preview.training"),
        'Adam "n": takes R, T and four inputs per optimized tensor (X, G, V, H: '
        "2 + 4n inputs), not 7"),
    "AffineGrid: a size of three values": (
        node("AffineGrid", [("f32", "[2, a, b]"), ("i64", "[3]")], opset=20),
        'AffineGrid "n": `size` has 3 values: it must have 4 (2-D: N, C, H, W) or 5 '
        "(3-D: N, C, D, H, W)"),
    "Attention (com.microsoft): heads that do not divide the hidden size": (
        node("Attention", [("f32", "[2, 5, 30]"), ("f32", "[30, 90]"), ("f32", "[90]")],
             {"num_heads": 4}, domain="com.microsoft"),
        'Attention "n": the hidden size 30 is no multiple of its 4 heads'),
    "BatchNormalization: statistics out of inference": (
        node("BatchNormalization", [("f32", "[2, 3, 4]")] + [F4] * 4, n_outputs=3),
        'BatchNormalization "n": has 3 outputs: with training_mode 0 it gives Y alone'),
    "BatchNormalization: two outputs in training": (
        node("BatchNormalization", [("f32", "[2, 3, 4]")] + [F4] * 4, n_outputs=2,
             attrs={"training_mode": 1}),
        'BatchNormalization "n": has 2 outputs: in training mode it gives exactly 3, Y, '
        "running_mean and running_var"),
    "BitCast: an unknown type code": (
        node("BitCast", [("f32", "[2]")], {"to": 99}, opset=26),
        'BitCast "n": `to` 99 names no element type it knows'),
    "BitCast: to strings": (
        node("BitCast", [("f32", "[2]")], {"to": 8}, opset=26),
        'BitCast "n": strings have no bits to cast: neither the input nor `to` may be a '
        "string"),
    "BitCast: 32 bits to 64": (
        node("BitCast", [("f32", "[2]")], {"to": 7}, opset=26),
        'BitCast "n": casts f32 (32 bits) to i64 (64 bits): the bit widths must be equal'),
    "BitShift: signed before opset 28": (
        node("BitShift", [("i32", "[2]"), ("i32", "[2]")], {"direction": "LEFT"}),
        'BitShift "n": takes unsigned integers before opset 28, not i32'),
    "Cast: to UNDEFINED": (
        node("Cast", [("f32", "[2]")], {"to": 0}),
        'Cast "n": `to` 0 names no element type (UNDEFINED is 0)'),
    "CenterCropPad: a float shape": (
        node("CenterCropPad", [("f32", "[4, 5]"), ("f32", "[2]")]),
        'CenterCropPad "n": its shape input must be int32 or int64, not f32'),
    "Clip: a bound of two elements": (
        node("Clip", [("f32", "[4, 5]"), ("f32", "[2]")]),
        'Clip "n": the bound `x1` must be a single value (a scalar or one element)'),
    "ConcatFromSequence: new_axis 2": (
        SEQUENCE, 'ConcatFromSequence "n": new_axis must be 0 or 1, not 2'),
    "Constant: two values": (
        node("Constant", [], {"value_int": 1, "value_float": 2.0}),
        'Constant "n": has both value_float and value_int: it takes exactly one value '
        "attribute"),
    "Constant: no value": (
        node("Constant", []),
        'Constant "n": has no value attribute: it takes exactly one (value, value_int, '
        "value_ints, value_float, ...)"),
    "ConstantOfShape: a shape of rank 2": (
        node("ConstantOfShape", [("i64", "[2, 2]")]),
        'ConstantOfShape "n": its input is the shape, a vector of sizes: not of rank 2'),
    "ConstantOfShape: a value of two elements": (
        node("ConstantOfShape", [("i64", "[2]")],
             {"value": {"dtype": "f32", "shape": [2], "data": [1.0, 2.0]}}),
        'ConstantOfShape "n": its attribute `value` must hold exactly one element'),
    "ConvInteger: a matrix zero point": (
        node("ConvInteger", [("u8", "[1, 2, 5, 5]"), ("u8", "[4, 2, 3, 3]"), ("u8", "[1, 1]")]),
        'ConvInteger "n": the zero point (input 2) must be a scalar or a vector, not of '
        "rank 2"),
    "ConvTranspose: output_padding of the stride": (
        node("ConvTranspose", CONVT, {"output_padding": [1, 2], "strides": [2, 2]}),
        'ConvTranspose "n": output_padding 2 on spatial axis 1 (from 0) must be below its '
        "stride 2"),
    "ConvTranspose: an output_shape out of reach": (
        node("ConvTranspose", CONVT, {"output_shape": [20, 5]}),
        'ConvTranspose "n": output_shape 20 on spatial axis 0 (from 0) is too large: it '
        "must be below stride * input size + dilated kernel"),
    "CumSum: an axis of two elements": (
        node("CumSum", [CUMSUM_X, ("i64", "[2]")]),
        'CumSum "n": its `axis` input must hold one value, not 2'),
    "CumSum: an axis matrix": (
        node("CumSum", [CUMSUM_X, ("i64", "[1, 1]")]),
        'CumSum "n": its `axis` input must be a scalar or of one element, not of rank 2'),
    "CumSum: a float axis": (
        node("CumSum", [CUMSUM_X, ("f32", "[]")]),
        'CumSum "n": its `axis` input must be int32 or int64, not f32'),
    "DFT: along the complex axis": (
        node("DFT", [("f32", "[3, 8, 2]")], {"axis": 2}, opset=17),
        'DFT "n": axis 2 is the last axis, which holds the real and imaginary parts: it '
        "cannot be transformed"),
    "DeformConv: an offset_group of 4 for 6 channels": (
        node("DeformConv", [("f32", "[1, 6, 5, 5]"), ("f32", "[4, 6, 3, 3]"), ("f32", "O")],
             {"offset_group": 4}, opset=19),
        'DeformConv "n": offset_group 4 does not divide its 6 channels'),
    "EmbedLayerNormalization (com.microsoft): more positions than its table has rows": (
        node("EmbedLayerNormalization",
             [("i32", "[2, 65]"), ("i32", "[2, 65]"), ("f32", "[20, 8]"), ("f32", "[64, 8]"),
              ("f32", "[2, 8]"), ("f32", "[8]"), ("f32", "[8]")], n_outputs=3, domain=MS),
        'EmbedLayerNormalization "n": its 65 positions read past its position table of 64 '
        "rows"),
    "Einsum: an empty equation": (
        einsum(""), 'Einsum "n": the equation is empty'),
    "Einsum: two operands for one input": (
        einsum("i,i->i"), 'Einsum "n": the equation has 2 operands where the node has 1 inputs'),
    "Einsum: two arrows": (
        node("Einsum", [("f32", "A")], {"equation": "i->i->i"}),
        'Einsum "n": the equation has more than one `->`'),
    "Einsum: a digit": (
        einsum("i->i1"),
        'Einsum "n": `1` in the equation is no letter: axes are named a-z and A-Z'),
    "Einsum: two dots in an operand": (
        einsum("..ij->ij", "[3, 4]"),
        'Einsum "n": term 0 of the equation (an operand from 0, or the output) has dots that '
        "are not one `...`"),
    "Einsum: two dots in the output": (
        einsum("ij->..ij", "[3, 4]"),
        'Einsum "n": term output of the equation (an operand from 0, or the output) has dots '
        "that are not one `...`"),
    "Einsum: more letters than axes": (
        einsum("...ij->ij"), 'Einsum "n": operand 0 has 2 letters besides `...` but rank 1'),
    "Einsum: fewer letters than the operand's axes": (
        einsum("ij->i", "[2, 3, 4]"),
        'Einsum "n": operand 0 has 2 letters in the equation but rank 3: one letter per axis'),
    "Einsum: an output letter of no operand": (
        einsum("i->j"), 'Einsum "n": the output\'s letter j names no axis of the operands'),
    "Einsum: an output letter twice": (
        einsum("i->ii"), 'Einsum "n": the output names letter i more than once'),
    "Einsum: a comma in the output": (
        einsum("ij->i,j", "[3, 4]"), 'Einsum "n": the output of the equation has a comma'),
    "Expand: sizes that do not broadcast": (
        node("Expand", [("f32", "[4]"), None],
             initializers={"x1": {"dtype": "i64", "shape": [2], "data": [2, 3]}}),
        'Expand "n": axis 0 of its input, 4, and the shape\'s 3 do not broadcast: they must '
        "be equal, or one of them 1"),
    "Expand: a negative size": (
        node("Expand", [("f32", "[4]"), None],
             initializers={"x1": {"dtype": "i64", "shape": [2], "data": [-2, 4]}}),
        'Expand "n": element 0 of the shape is negative: -2'),
    "FeatureVectorizer: a scalar": (
        node("FeatureVectorizer", [("f32", "[2, 3]"), ("f32", "[]")],
             {"inputdimensions": [3, 1]}, domain="ai.onnx.ml"),
        'FeatureVectorizer "n": input 1 is a scalar: each input is [N, ...] or a vector'),
    "FeatureVectorizer: a count short": (
        node("FeatureVectorizer", [("f32", "[2, 3]"), ("f32", "[2, 1]")],
             {"inputdimensions": [3]}, domain="ai.onnx.ml"),
        'FeatureVectorizer "n": inputdimensions gives 1 counts for 2 inputs: one per input'),
    "FeatureVectorizer: a negative count": (
        node("FeatureVectorizer", [("f32", "[2, 3]")], {"inputdimensions": [-3]},
             domain="ai.onnx.ml"),
        'FeatureVectorizer "n": inputdimensions has a negative count: -3'),
    "FlexAttention: 6 query heads over 4": (
        node("FlexAttention", QKV, domain="ai.onnx.preview"),
        'FlexAttention "n": its 6 query heads are no multiple of its 4 key/value heads'),
    "FlexAttention: an int64 softmax": (
        node("FlexAttention", [("f32", "[1, 4, 4, 8]")] + QKV[1:], {"softmax_precision": 7},
             domain="ai.onnx.preview"),
        'FlexAttention "n": softmax_precision 7 is none of float (1), float16 (10), '
        "bfloat16 (16), double (11)"),
    "FusedMatMul: transBatchA over ranks 3 and 2": (
        node("FusedMatMul", [("f32", "[2, 3, 4]"), ("f32", "[4, 5]")], {"transBatchA": 1},
             domain=MS),
        'FusedMatMul "n": transBatchA and transBatchB take A and B of one rank, 3 or more, '
        "not 3 and 2"),
    "GatherBlockQuantized: int8 data": (
        node("GatherBlockQuantized", [("i8", "[8, 32]"), IDS, ("f32", "S")],
             {"block_size": 16}, domain=MS),
        'GatherBlockQuantized "n": `data` must be int4, uint4, uint8 or a float8/float4 '
        "type, not i8"),
    "GatherBlockQuantized: float8 scales of size 3 for 4": (
        node("GatherBlockQuantized", [("f8e4m3fn", "[8, 32, 4]"), IDS, ("f32", "[8, 2, 3]")],
             {"block_size": 16}, domain=MS),
        "GatherBlockQuantized \"n\": the scales' axis 2 is 3: for float8/float4 data it must "
        "be 1 or 4, the values' size there"),
    "GatherBlockQuantized: a vector of data": (
        node("GatherBlockQuantized", [("i4", "[32]"), IDS, ("f32", "S")],
             {"block_size": 16, "quantize_axis": 0}, domain=MS),
        'GatherBlockQuantized "n": `data` must have rank 2 or more, not 1'),
    "GatherBlockQuantized: uint8 gathered on axis 1": (
        node("GatherBlockQuantized", [("u8", "[8, 32]"), IDS, ("f32", "S")],
             {"block_size": 16, "gather_axis": 1, "quantize_axis": 0}, domain=MS),
        'GatherBlockQuantized "n": uint8 data are gathered on axis 0, not 1'),
    "GatherBlockQuantized: uint8 gathered where quantized": (
        node("GatherBlockQuantized", [("u8", "[8, 32]"), IDS, ("f32", "S")],
             {"block_size": 16, "gather_axis": 0, "quantize_axis": 0}, domain=MS),
        'GatherBlockQuantized "n": uint8 data of fewer than 8 bits may not be gathered and '
        "quantized on one axis, 0"),
    "GatherBlockQuantized: int4 blocks of 0": (
        node("GatherBlockQuantized", [("i4", "[8, 32]"), IDS, ("f32", "S")],
             {"block_size": 0}, domain=MS),
        'GatherBlockQuantized "n": block_size 0 is for float8/float4 data only'),
    "GatherBlockQuantized: float8 zero points": (
        node("GatherBlockQuantized",
             [("f8e4m3fn", "[8, 32]"), IDS, ("f32", "S"), ("f8e4m3fn", "Z")],
             {"block_size": 16}, domain=MS),
        'GatherBlockQuantized "n": float8/float4 data take no zero points'),
}


@pytest.mark.parametrize("graph, message", CASES.values(), ids=CASES.keys())
def test_a_reason_is_said_in_words(graph, message):
    assert the_message(graph) == message


def test_reasons_worded_for_other_arguments():
    # (an odd width, channels a block does not divide, in a graph:
    # tests/test_diagnostics_own_reason.py)
    assert why_text("blocksize_does_not_divide_channels(2, 6)") == \
        "blocksize 2 squared does not divide its 6 channels"
    assert why_text("bit_widths(u8, 8, i4, 4)") == \
        "casts u8 (8 bits) to i4 (4 bits): the bit widths must be equal"
    assert why_text("string_type") == \
        "strings have no bits to cast: neither the input nor `to` may be a string"
