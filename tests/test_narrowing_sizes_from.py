"""Declared outputs computed by a node whose sizes are read from an input's values
(`sizes_from` in encodings/schema.lp, stated by the operator's rule file; narrowing reads
it in shape_logic/data_sizes.py). Where the data holds those values, a traced size
declared downstream holds at the traced values only: it is set aside. Where shapes and
constants make them, or the values of an input that sizes nothing, the model is solved
once."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from tests.test_narrowing_open_dims import _solves

F, I64 = TensorProto.FLOAT, TensorProto.INT64

# GrowTo(X, S) -> Y: X's elements in a tensor of the sizes S's values give - an operator
# that no file of the project knows, described by this one rule file alone
GROW_TO = """%*! GrowTo(X, S) -> Y: a tensor of the sizes S's values give. *%
grow(N, X, S, Y) :- op(N, "GrowTo"), input(N, 0, X), input(N, 1, S), output(N, 0, Y).
arity("GrowTo", 2, 2).
same_dtype(X, Y) :- grow(N, X, S, Y).
rank(S, 1) :- grow(N, X, S, Y).
rank(Y, L) :- grow(N, X, S, Y), dim(S, 0, L), L < 1073741824.
dim(Y, I, V) :- grow(N, X, S, Y), value(S, I, V).
"""
SIZES_FROM = "sizes_from(N, 1) :- grow(N, X, S, Y).\n"


def _model(nodes, inputs, outputs, inits=(), opset=18, domains=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)] + [
        helper.make_opsetid(d, 1) for d in domains])
    m.ir_version = 8
    return m


def _grow(declared: list, sizes_from_input: bool):
    """x [n, 12] grown to the sizes `s` holds: a graph input, or Shape(x) doubled."""
    nodes = [helper.make_node("GrowTo", ["x", "s"], ["y"])]
    inputs = [helper.make_tensor_value_info("x", F, ["n", 12])]
    inits = []
    if sizes_from_input:
        inputs.append(helper.make_tensor_value_info("s", I64, [2]))
    else:
        nodes[:0] = [helper.make_node("Shape", ["x"], ["xs"]),
                     helper.make_node("Mul", ["xs", "two"], ["s"])]
        inits = [numpy_helper.from_array(np.array(2, np.int64), "two")]
    return _model(nodes, inputs, [helper.make_tensor_value_info("y", F, declared)], inits)


def test_an_operator_of_a_users_rule_file_that_states_sizes_from(tmp_path, monkeypatch):
    # the rule file alone says that GrowTo's sizes come from S's values: a declaration
    # traced at s = [4, 12] is set aside, no Python table names the operator
    (tmp_path / "GrowTo.lp").write_text(GROW_TO + SIZES_FROM)
    sol = solve(_grow([4, 12], sizes_from_input=True), rules=[str(tmp_path)])
    assert sol.status == "ok" and list(sol.set_aside) == ["y"]
    assert sol.shape("y") == "[_1, _2]"
    # sizes computed from shapes: the graph gives them, solved once
    made = _solves(monkeypatch)
    sol = solve(_grow(["2*n", 24], sizes_from_input=False), rules=[str(tmp_path)])
    assert sol.shape("y") == "[2*n, 24]" and not sol.warnings and len(made) == 1


def test_without_sizes_from_the_traced_size_was_kept(tmp_path):
    # (what the line says: without it, nothing tells narrowing the sizes are open)
    (tmp_path / "GrowTo.lp").write_text(GROW_TO)
    sol = solve(_grow([4, 12], sizes_from_input=True), rules=[str(tmp_path)])
    assert not sol.set_aside and sol.shape("y") == "[4, 12]"


def test_a_traced_image_size_is_set_aside():
    # ImageDecoder's H and W are the stream's header's: a traced [480, 640, 3] was kept
    m = _model([helper.make_node("ImageDecoder", ["stream"], ["img"])],
               [helper.make_tensor_value_info("stream", TensorProto.UINT8, ["n"])],
               [helper.make_tensor_value_info("img", TensorProto.UINT8, [480, 640, 3])],
               opset=20)
    sol = solve(m)
    assert list(sol.set_aside) == ["img"] and sol.shape("img") == "[_1, _2, 3]"


def test_a_traced_total_sequence_length_of_group_query_attention_is_set_aside():
    # (com.microsoft: a node of a domain was never looked at) the present's length is
    # total_sequence_length's value, here a graph input's: a traced 7 was kept
    node = helper.make_node("GroupQueryAttention", ["q", "", "", "", "", "seqlens", "total"],
                            ["y", "pk", "pv"], domain="com.microsoft", num_heads=8,
                            kv_num_heads=2)
    i32 = TensorProto.INT32
    m = _model([node], [helper.make_tensor_value_info("q", F, ["b", "s", 768]),
                        helper.make_tensor_value_info("seqlens", i32, ["b"]),
                        helper.make_tensor_value_info("total", i32, [])],
               [helper.make_tensor_value_info("y", F, ["b", "s", 512]),
                helper.make_tensor_value_info("pk", F, ["b", 2, 7, 64]),
                helper.make_tensor_value_info("pv", F, ["b", 2, 7, 64])],
               domains=["com.microsoft"])
    sol = solve(m)
    assert sorted(sol.set_aside) == ["pk", "pv"] and sol.shape("pk") == "[b, 2, _1, 64]"
    assert sol.shape("y") == "[b, s, 512]"


def test_a_traced_size_of_a_piece_split_at_sizes_an_input_holds_is_set_aside():
    # SplitToSequence's pieces are split's size: a graph input's, piece 0 traced [n, 4]
    # was kept (SequenceAt's position, SequenceInsert's and SequenceErase's state it too)
    zero = numpy_helper.from_array(np.array(0, np.int64), "zero")
    m = _model([helper.make_node("SplitToSequence", ["x", "split"], ["s"], axis=1),
                helper.make_node("SequenceAt", ["s", "zero"], ["y"])],
               [helper.make_tensor_value_info("x", F, ["n", 12]),
                helper.make_tensor_value_info("split", I64, [])],
               [helper.make_tensor_value_info("y", F, ["n", 4])], [zero])
    sol = solve(m)
    assert list(sol.set_aside) == ["y"] and sol.shape("y") == "[n, _1]"


def _mel():
    """MelWeightMatrix of 8 bands of a 16-point DFT, at a sample rate a graph input holds:
    Y [9, 8] whatever the rate."""
    consts = [numpy_helper.from_array(np.array(v, d), k) for k, v, d in (
        ("bins", 8, np.int64), ("dft", 16, np.int64), ("lo", 0, np.float32),
        ("hi", 4000, np.float32))]
    return _model([helper.make_node("MelWeightMatrix", ["bins", "dft", "rate", "lo", "hi"],
                                    ["y"])],
                  [helper.make_tensor_value_info("rate", I64, [])],
                  [helper.make_tensor_value_info("y", F, [9, 8])], consts, opset=17)


def _resize_roi():
    """x [n, 3, h, w] resized by constant scales 2, roi a graph input (which sizes
    nothing but with tf_crop_and_resize)."""
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    return _model([helper.make_node("Resize", ["x", "roi", "scales"], ["y"])],
                  [helper.make_tensor_value_info("x", F, ["n", 3, "h", "w"]),
                   helper.make_tensor_value_info("roi", F, [8])],
                  [helper.make_tensor_value_info("y", F, ["n", 3, "2*h", "2*w"])], [scales])


def _topk():
    """The 5 largest of x [n, 10] (data): k a constant, Values declared [n, 5]."""
    k = numpy_helper.from_array(np.array([5], np.int64), "k")
    return _model([helper.make_node("TopK", ["x", "k"], ["v", "i"])],
                  [helper.make_tensor_value_info("x", F, ["n", 10])],
                  [helper.make_tensor_value_info("v", F, ["n", 5]),
                   helper.make_tensor_value_info("i", I64, ["n", 5])], [k])


@pytest.mark.parametrize("model, name, shape", [
    (_mel, "y", "[9, 8]"), (_resize_roi, "y", "[n, 3, 2*h, 2*w]"), (_topk, "v", "[n, 5]")])
def test_an_input_whose_values_size_nothing_is_no_reason_to_solve_again(
        monkeypatch, model, name, shape):
    # MelWeightMatrix's sample rate, Resize's roi (but with tf_crop_and_resize), TopK's X:
    # data there decides no size (each was solved twice)
    made = _solves(monkeypatch)
    sol = solve(model())
    assert sol.shape(name) == shape and not sol.warnings and len(made) == 1
