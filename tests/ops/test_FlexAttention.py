"""FlexAttention (ai.onnx.preview): rules/FlexAttention.lp on data cases (bodies as graph
objects), the rule against onnx's reference and our kernel on random shapes, and the
kernel's values against the reference with score_mod and prob_mod bodies."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, random_array
from tests.ops.cases import case_test

PREVIEW = "ai.onnx.preview"


def flex(inputs, opset=18, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": PREVIEW, "opset": opset}


def body(nodes, out="out", initializers=None):
    return {"inputs": ["scores"], "outputs": [out], "nodes": nodes,
            "initializers": initializers or {}}


# the scores as they come (a body that changes nothing)
IDENTITY = body([{"op": "Identity", "inputs": ["scores"], "outputs": ["out"]}])
# a causal mask: -inf where the key comes after the query, read from the scores' shape
CAUSAL = body([
    {"op": "Shape", "inputs": ["scores"], "outputs": ["shape"]},
    {"op": "Gather", "inputs": ["shape", "two"], "outputs": ["l"], "attrs": {"axis": 0}},
    {"op": "Gather", "inputs": ["shape", "three"], "outputs": ["s"], "attrs": {"axis": 0}},
    {"op": "Range", "inputs": ["zero", "l", "one"], "outputs": ["qi"]},
    {"op": "Range", "inputs": ["zero", "s", "one"], "outputs": ["ki"]},
    {"op": "Unsqueeze", "inputs": ["qi", "last"], "outputs": ["q2"]},
    {"op": "GreaterOrEqual", "inputs": ["q2", "ki"], "outputs": ["keep"]},
    {"op": "Where", "inputs": ["keep", "scores", "low"], "outputs": ["out"]}],
    initializers={"zero": {"dtype": "i64", "data": 0}, "one": {"dtype": "i64", "data": 1},
                  "two": {"dtype": "i64", "data": 2}, "three": {"dtype": "i64", "data": 3},
                  "last": {"dtype": "i64", "data": [1]},
                  "low": {"dtype": "f32", "data": -1e9}})
# a body that gives the scores back as [B*Hq, L, S]: not the shape it takes
FLATTENED = body([{"op": "Reshape", "inputs": ["scores", "to"], "outputs": ["out"]}],
                 initializers={"to": {"dtype": "i64", "data": [-1, 0, 0]}})
# a body that reshapes the scores to [2, 3, 4, 5] and back: the graph's sizes follow
FIXED = body([{"op": "Reshape", "inputs": ["scores", "to"], "outputs": ["out"]}],
             initializers={"to": {"dtype": "i64", "data": [2, 3, 4, 5]}})
# a body that gives float64 for float scores
WIDENED = body([{"op": "Cast", "inputs": ["scores"], "outputs": ["out"], "attrs": {"to": 11}}])
QKV = ["[b, h, l, e]", "[b, h, s, e]", "[b, h, s, f]"]

CASES = {
    "self attention": (flex(QKV), {"y0": "[b, h, l, f]"}),
    "grouped-query attention": (flex(["[b, 8, l, e]", "[b, 2, s, e]", "[b, 2, s, f]"]),
                                {"y0": "[b, 8, l, f]"}),
    "sizes met on every tensor": (flex(["Q", "[b, k, s, 16]", "[b, k, s, 32]"]),
                                  {"x0": "[b, _1, _2, 16]", "y0": "[b, _1, _2, 32]"}),
    "the output gives the values' head size": (
        {**flex(["[b, h, l, e]", "[b, h, s, e]", "V"]),
         "outputs": {"y0": {"shape": "[2, 4, 6, 8]"}}},
        {"x2": "[2, 4, s, 8]", "bindings": {"b": 2, "h": 4, "l": 6}}),
    "a score_mod body": (flex(QKV, score_mod=CAUSAL), {"y0": "[b, h, l, f]"}),
    "both bodies": (flex(QKV, score_mod=CAUSAL, prob_mod=IDENTITY), {"y0": "[b, h, l, f]"}),
    # the body runs whenever the node does: what it requires of the scores holds
    "a body that fixes the scores' shape": (
        flex(QKV, score_mod=FIXED), {"y0": "[2, 3, 4, f]", "x1": "[2, 3, 5, e]",
                                     "bindings": {"b": 2, "h": 3, "l": 4, "s": 5}}),
    "fp16 in, the softmax in float": (flex([("f16", QKV[0]), ("f16", QKV[1]), ("f16", QKV[2])],
                                           prob_mod=WIDENED), "error"),
    "double in, the softmax in double": (
        flex([("f64", QKV[0]), ("f64", QKV[1]), ("f64", QKV[2])], prob_mod=WIDENED),
        {"dtypes": {"y0": "f64"}}),
    "softmax_precision double": (flex(QKV, score_mod=WIDENED, softmax_precision=11),
                                 {"dtypes": {"y0": "f32"}}),
    # errors
    "rank 3 queries": (flex(["[b, l, e]", QKV[1], QKV[2]]), "error"),
    "head sizes of queries and keys differ": (flex(["[b, h, l, 16]", "[b, h, s, 8]", "V"]),
                                              "error"),
    "keys and values of different lengths": (flex(["Q", "[b, h, 5, e]", "[b, h, 6, e]"]),
                                             "error"),
    "query heads not a multiple of key/value heads": (
        flex(["[b, 6, l, e]", "[b, 4, s, e]", "[b, 4, s, e]"]), "error"),
    "a body that changes the shape": (flex(QKV, score_mod=FLATTENED), "error"),
    "a float body given float64": (flex(QKV, score_mod=WIDENED), "error"),
    "softmax_precision int64": (flex(QKV, softmax_precision=7), "error"),
    "integer inputs": (flex([("i32", QKV[0]), ("i32", QKV[1]), ("i32", QKV[2])]), "error"),
}


test_case = case_test("FlexAttention", CASES)


dims = st.integers(1, 4)


@settings(max_examples=25, deadline=None)
@given(dims, dims, st.integers(1, 3), dims, dims, dims, dims,
       st.sampled_from(["ok", "batch", "head size", "length", "kv heads"]), st.booleans())
def test_matches_reference(b, hkv, group, length, s, e, ev, broken, scale):
    """The rule's shapes are the reference's, and our kernel's too, on random sizes (some
    broken in one place: the rule must then reject what the reference rejects)."""
    hq = hkv * group
    if broken == "batch":  # (not from 1: the reference's matmul broadcasts a batch of 1,
        b = max(b, 2)      # which the operator's definition does not allow)
    q, k, v = [b, hq, length, e], [b, hkv, s, e], [b, hkv, s, ev]
    if broken == "batch":
        k[0] += 1
    elif broken == "head size":
        k[3] += 1
    elif broken == "length":
        v[2] += 1
    elif broken == "kv heads" and group > 1:
        k[1] = v[1] = hkv + 1  # no longer divides hq (hq is a multiple of hkv >= 1)
        if hq % k[1] == 0:
            return
    arrays = [random_array(q), random_array(k), random_array(v)]
    check_against_reference("FlexAttention", arrays, {"scale": 0.5} if scale else None,
                            domain=PREVIEW)


def _onnx_body(name, nodes, inits=()):
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("scores", TensorProto.FLOAT, None)
    y = helper.make_tensor_value_info("out", TensorProto.FLOAT, None)
    return helper.make_graph(nodes, name, [x], [y], initializer=list(inits))


@pytest.mark.parametrize("mods", ["score_mod", "prob_mod", "both"])
def test_kernel_values_match_the_reference(mods):
    """Our kernel's values with bodies (a soft cap on the scores, a scale on the
    probabilities) and grouped-query heads, against onnx's reference."""
    from onnx import helper, numpy_helper
    from onnx.reference import ReferenceEvaluator

    from shape_logic import run
    from shape_logic.testing import onnx_node_model

    cap = numpy_helper.from_array(np.array(2.0, np.float32), "cap")
    soft_cap = _onnx_body("soft_cap", [
        helper.make_node("Div", ["scores", "cap"], ["t"]),
        helper.make_node("Tanh", ["t"], ["u"]),
        helper.make_node("Mul", ["u", "cap"], ["out"])], [cap])
    half = numpy_helper.from_array(np.array(0.5, np.float32), "half")
    halve = _onnx_body("halve", [helper.make_node("Mul", ["scores", "half"], ["out"])], [half])
    attrs = {}
    if mods in ("score_mod", "both"):
        attrs["score_mod"] = soft_cap
    if mods in ("prob_mod", "both"):
        attrs["prob_mod"] = halve
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s).astype(np.float32)
              for s in ([2, 4, 3, 8], [2, 2, 5, 8], [2, 2, 5, 6])]
    model = onnx_node_model("FlexAttention", arrays, attrs, 1, 18, domain=PREVIEW)
    want = ReferenceEvaluator(model).run(None, {f"x{k}": a for k, a in enumerate(arrays)})[0]
    # the whole way: imported, solved, shapes checked while it runs
    got = run(model, {f"x{k}": a for k, a in enumerate(arrays)})["y0"]
    assert got.shape == want.shape == (2, 4, 3, 6)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mod", [FLATTENED, WIDENED])
def test_a_body_that_changes_the_shape_or_type_fails_on_the_executor(mod):
    from shape_logic import run

    graph = {"opset": 18, "inputs": {"q": {"shape": "[1, 2, 3, 4]"}, "k": {"shape": "[1, 2, 5, 4]"},
                                     "v": {"shape": "[1, 2, 5, 4]"}},
             "outputs": {"y": {}},
             "nodes": [{"op": "FlexAttention", "domain": PREVIEW, "inputs": ["q", "k", "v"],
                        "outputs": ["y"], "attrs": {"score_mod": mod}}]}
    arrays = {n: np.ones(s, np.float32) for n, s in
              (("q", [1, 2, 3, 4]), ("k", [1, 2, 5, 4]), ("v", [1, 2, 5, 4]))}
    with pytest.raises(Exception) as info:
        run(graph, arrays, check=False)
    assert "must keep the shape and element type" in str(info.value)
