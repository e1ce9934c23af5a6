"""Pad: rules/Pad.lp on data cases, and against onnx's reference on random shapes;
onnxruntime's com.microsoft Pad on data cases and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from shape_logic.executor import run
from shape_logic.solver import solve
from shape_logic.testing import check_against_reference, check_case, random_array
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

OPSET = 18


def i64(*v):
    return np.array(v, dtype=np.int64)


CASES = {
    "pads input": ({"inputs": ["[b, s]", i64(1, 2, 3, 4)]}, {"y0": "[b + 4, s + 6]"}),
    "negative pads crop": ({"inputs": ["[b, s]", i64(0, -1, 0, -1)]}, {"y0": "[b, s - 2]"}),
    "constant value input": ({"inputs": ["[b, 3]", i64(0, 1, 0, 1), np.array(0.5, np.float32)]},
                             {"y0": "[b, 5]"}),
    "axes input (opset 18)": ({"inputs": ["[b, s]", i64(1, 2), None, i64(-1)]},
                              {"y0": "[b, s + 3]"}),
    "two axes, unsorted": ({"inputs": ["[b, s, c]", i64(1, 2, 3, 4), None, i64(2, 0)]},
                           {"y0": "[b + 6, s, c + 4]"}),
    "edge mode": ({"inputs": ["[b, 3]", i64(0, 2, 0, 2)], "attrs": {"mode": "edge"}},
                  {"y0": "[b, 7]"}),
    "reflect mode": ({"inputs": ["[4, 3]", i64(3, 0, 3, 0)], "attrs": {"mode": "reflect"}},
                     {"y0": "[10, 3]"}),
    "wrap mode (opset 19)": ({"inputs": ["[4, 3]", i64(5, 0, 5, 0)], "attrs": {"mode": "wrap"},
                              "opset": 19}, {"y0": "[14, 3]"}),
    "pads attribute (opset 2)": ({"inputs": ["[b, s]"], "attrs": {"pads": [1, 2, 3, 4]},
                                  "opset": 2}, {"y0": "[b + 4, s + 6]"}),
    "paddings attribute (opset 1)": ({"inputs": ["[b, s]"], "attrs": {"paddings": [1, 0, 1, 0]},
                                      "opset": 1}, {"y0": "[b + 2, s]"}),
    "runtime pads: the rank": ({"inputs": ["X", ("i64", "[4]")]}, {"x0": "[_1, _2]"}),
    "backward from the output": ({"inputs": ["[b, s]", i64(1, 0, 1, 0)],
                                  "outputs": {"y0": {"shape": "[10, s]"}}},
                                 {"x0": "[8, s]", "bindings": {"b": 8}}),
    "dtype kept": ({"inputs": [("i64", "[2]"), i64(1, 1)]},
                   {"y0": "[4]", "dtypes": {"y0": "i64"}}),
    "cropped below zero": ({"inputs": ["[3, 4]", i64(-2, 0, -2, 0)]}, "error"),
    "pads of the wrong length": ({"inputs": ["[b, s]", i64(1, 2, 3)]}, "error"),
    "pads for the wrong rank": ({"inputs": ["[b, s]", i64(1, 2)]}, "error"),
    "pads not twice the axes": ({"inputs": ["[b, s]", i64(1, 2, 3, 4), None, i64(1)]}, "error"),
    "repeated axis": ({"inputs": ["[b, s]", i64(1, 2, 3, 4), None, i64(1, -1)]}, "error"),
    "axis out of range": ({"inputs": ["[b, s]", i64(1, 2), None, i64(2)]}, "error"),
    "unknown mode": ({"inputs": ["[b, s]", i64(1, 2, 3, 4)], "attrs": {"mode": "foo"}}, "error"),
    "wrap before opset 19": ({"inputs": ["[4, 3]", i64(1, 0, 1, 0)], "attrs": {"mode": "wrap"}},
                             "error"),
    "reflect pad past the size (onnxruntime rejects it)": (
        {"inputs": ["[3, 4]", i64(3, 0, 0, 0)], "attrs": {"mode": "reflect"}}, "error"),
    # (the modes other than constant crop first, then pad from what is left - onnxruntime;
    # fuzz --kind ops --seed 3311, graph 209: the crop was not counted)
    "reflect past what a crop leaves": ({"inputs": ["[3, 4]", i64(1, 0, -2, 0)],
                                         "attrs": {"mode": "reflect"}}, "error"),
    "reflect within what a crop leaves": ({"inputs": ["[3, 4]", i64(1, 0, -1, 0)],
                                           "attrs": {"mode": "reflect"}}, {"y0": "[3, 4]"}),
    "edge-padding what a crop empties": ({"inputs": ["[2, 4]", i64(1, 0, -2, 0)],
                                          "attrs": {"mode": "edge"}}, "error"),
    "edge-cropping an axis to nothing": ({"inputs": ["[2, 4]", i64(0, 0, -2, 0)],
                                          "attrs": {"mode": "edge"}}, "error"),
    "constant-padding what a crop empties": ({"inputs": ["[2, 4]", i64(1, 0, -2, 0)]},
                                             {"y0": "[1, 4]"}),
    "edge-padding an empty axis": ({"inputs": ["[0, 4]", i64(1, 0, 0, 0)],
                                    "attrs": {"mode": "edge"}}, "error"),
    "no pads (opset 11)": ({"inputs": ["[b, s]"], "opset": 11}, "error"),
    "no pads attribute (opset 2)": ({"inputs": ["[b, s]"], "opset": 2}, "error"),
}


test_case = case_test("Pad", CASES, OPSET)


def test_pads_from_a_shape_computation():
    """Pads computed from a dim: Shape -> Gather -> Unsqueeze -> Concat -> Pad."""
    g = {"opset": OPSET, "inputs": {"x": {"shape": "[b, s]"}},
         "initializers": {"i": {"dtype": "i64", "shape": [], "data": 0},
                          "ax": {"dtype": "i64", "shape": [1], "data": [0]},
                          "z": {"dtype": "i64", "shape": [3], "data": [0, 0, 0]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"op": "Gather", "inputs": ["sh", "i"], "outputs": ["g"]},
                   {"op": "Unsqueeze", "inputs": ["g", "ax"], "outputs": ["u"]},
                   {"op": "Concat", "inputs": ["z", "u"], "outputs": ["p"], "attrs": {"axis": 0}},
                   {"op": "Pad", "inputs": ["x", "p"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[b, b + s]"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.data())
def test_matches_reference(shape, data):
    # Where the reference is not ONNX: it rejects negative pads (ONNX crops: the reference
    # may fail alone then) and reflects past the size (onnxruntime rejects that, as do the
    # rules: not drawn).  Empty axes padded by edge/reflect/wrap: both reject.
    r = len(shape)
    mode = data.draw(st.sampled_from(["constant", "edge", "reflect", "wrap"]))
    opset = 19 if mode == "wrap" else OPSET
    x = random_array(shape)
    if data.draw(st.booleans()):  # some axes
        axes = data.draw(st.lists(st.integers(-r, r - 1), min_size=1, max_size=r,
                                  unique_by=lambda a: a % r))
    else:
        axes = None
    k = r if axes is None else len(axes)
    pads = data.draw(st.lists(st.integers(-2, 3), min_size=2 * k, max_size=2 * k))
    padded = list(range(r)) if axes is None else [a % r for a in axes]
    if mode == "reflect":
        assume(all(p <= shape[a] - 1 for j, a in enumerate(padded) for p in (pads[j], pads[j + k])))
    inputs = [x, i64(*pads)] + ([] if axes is None else [None, i64(*axes)])
    check_against_reference("Pad", inputs, {"mode": mode}, opset=opset, const=[1, 3],
                            reference_fails_ok=min(pads) < 0)


def test_a_cropped_axis_bounds_its_symbol_from_below_and_may_be_empty():
    # pads [0, -5] on w: w - 5 holds from w = 5 on (0 elements there, as onnxruntime runs it)
    g = {"opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[2, w]"}},
         "initializers": {"p": {"dtype": "i64", "shape": [4], "data": [0, 0, 0, -5]}},
         "nodes": [{"name": "pad", "op": "Pad", "inputs": ["x", "p"], "outputs": ["y"]}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("y") == "[2, w - 5]" and sol.floors == {"w": 5}
    out = run(g, {"x": np.zeros((2, 5), np.float32)})
    assert out["y"].shape == (2, 0)


def test_a_reflect_pad_floors_the_axis_it_reflects():
    # EnCodec's frames padded by reflection: a pad of 3 needs 4 elements (onnxruntime and
    # torch refuse a larger pad), so w >= 4; cropping 2 first leaves w - 2, so w >= 6
    from shape_logic.executor import ExecutionError

    def graph(pads):
        return {"opset": 18, "inputs": {"x": {"dtype": "f32", "shape": "[2, w]"}},
                "initializers": {"p": {"dtype": "i64", "shape": [4], "data": pads}},
                "nodes": [{"name": "pad", "op": "Pad", "inputs": ["x", "p"], "outputs": ["y"],
                           "attrs": {"mode": "reflect"}}]}

    sol = solve(graph([0, 3, 0, 1]))
    assert sol.status == "ok" and sol.shape("y") == "[2, w + 4]" and sol.floors == {"w": 4}
    assert 'floors: w >= 4 (at Pad "pad")' in sol.to_text().splitlines()
    assert solve(graph([0, 3, 0, -2])).floors == {"w": 6}
    assert run(graph([0, 3, 0, 1]), {"x": np.zeros((2, 4), np.float32)})["y"].shape == (2, 8)
    with pytest.raises(ExecutionError):
        run(graph([0, 3, 0, 1]), {"x": np.zeros((2, 3), np.float32)})


# onnxruntime's com.microsoft Pad: opset 11's at any opset (pads and value inputs, no axes),
# pads [2 * rank] or [1, 2 * rank], X f16, f32 or f64; wrap too (onnxruntime takes it)
MS_CASES = {
    "pads input at opset 9": ({"inputs": ["[b, s]", i64(1, 2, 3, 4)], "opset": 9},
                              {"y0": "[b + 4, s + 6]"}),
    "pads [1, 2 * rank]": ({"inputs": ["[b, s]", np.array([[1, 2, 3, 4]], np.int64)]},
                           {"y0": "[b + 4, s + 6]"}),
    "runtime pads [1, 4]: the rank": ({"inputs": ["X", ("i64", "[1, 4]")]},
                                      {"x0": "[_1, _2]"}),
    "runtime pads of rows unknown: one": ({"inputs": ["[b, s]", ("i64", "[k, 4]")]},
                                          {"x1": "[1, 4]"}),
    "runtime pads of unknown shape": ({"inputs": ["[b, s]", ("i64", "P")]},
                                      {"y0": "[_1, _2]"}),
    "value [1, 1]": ({"inputs": ["[b, 3]", i64(0, 1, 0, 1), ("f32", "[1, 1]")]},
                     {"y0": "[b, 5]"}),
    "negative pads crop": ({"inputs": [("f16", "[b, s]"), i64(0, -1, 0, -1)]},
                           {"y0": "[b, s - 2]", "dtypes": {"y0": "f16"}}),
    "wrap at opset 13": ({"inputs": ["[4, 3]", i64(5, 0, 5, 0)], "attrs": {"mode": "wrap"},
                          "opset": 13}, {"y0": "[14, 3]"}),
    "reflect: an empty axis the pads leave alone": (
        {"inputs": ["[0, 2]", i64(0, 0, 0, 1)], "attrs": {"mode": "reflect"}}, {"y0": "[0, 3]"}),
    "reflect past the size": ({"inputs": ["[3, 4]", i64(3, 0, 0, 0)],
                               "attrs": {"mode": "reflect"}}, "error"),
    "pads [2, 2]": ({"inputs": ["[b, s]", np.array([[1, 2], [3, 4]], np.int64)]}, "error"),
    "pads [1, 1, 4]": ({"inputs": ["[b, s]", np.array([[[1, 2, 3, 4]]], np.int64)]}, "error"),
    "pads for the wrong rank": ({"inputs": ["[b, s]", i64(1, 2)]}, "error"),
    "int32 pads": ({"inputs": ["[b, s]", ("i32", "[4]")]}, "error"),
    "int64 data": ({"inputs": [("i64", "[b, s]"), i64(1, 2, 3, 4)]}, "error"),
    "value of two": ({"inputs": ["[b, s]", i64(1, 2, 3, 4), ("f32", "[2]")]}, "error"),
    "value of another type": ({"inputs": ["[b, s]", i64(1, 2, 3, 4), ("f64", "[]")]}, "error"),
    "an axes input": ({"inputs": ["[b, s]", i64(1, 2), None, i64(1)]}, "error"),
    "no pads (the attribute is not its)": ({"inputs": ["[b, s]"], "attrs": {"pads": [1, 2, 3, 4]},
                                            "opset": 9}, "input error"),
}


@pytest.mark.parametrize("name", MS_CASES)
def test_com_microsoft_case(name):
    spec, expected = MS_CASES[name]
    check_case("Pad", {"opset": OPSET, **spec, "domain": MS}, expected)


def _onnxruntime_checks(shape, pads, mode) -> bool:
    """Whether onnxruntime checks these pads as the rules do: of an empty input in a mode
    other than constant, it checks no crop, nor a reflect pad's size, where its output is
    empty anyway ([0] by [-1, 1] in edge, [3, 0] by [3, 0, 0, 0] in reflect); we check
    them as for any input."""
    r = len(shape)
    return mode == "constant" or 0 not in shape or min(pads) >= 0 and (
        mode != "reflect" or all(max(pads[a], pads[a + r]) < shape[a] or shape[a] == 0
                                 for a in range(r)))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.data(),
       st.sampled_from(["constant", "edge", "reflect", "wrap"]),
       st.sampled_from([np.float32, np.float16]))
def test_com_microsoft_matches_onnxruntime(shape, data, mode, dtype):
    """Our kernel's values and the rules' shapes and types against onnxruntime's CPU kernel:
    constant pads (negative ones crop; past what reflect or the other modes can take: both
    refuse them), [2 * rank] or [1, 2 * rank], a value absent, a runtime scalar or [1]."""
    r = len(shape)
    pads = np.array(data.draw(st.lists(st.integers(-2, 3), min_size=2 * r, max_size=2 * r)),
                    np.int64)
    assume(_onnxruntime_checks(shape, list(pads), mode))
    if data.draw(st.booleans()):
        pads = pads[None]
    arrays = [random_array(shape).astype(dtype), pads]
    value = data.draw(st.sampled_from([None, [], [1]]))
    if value is not None:
        arrays.append(np.full(value, 1.5, dtype))
    # (onnxruntime's CPU kernel wraps no empty input, even by pads of 0: "Unexpected mode
    # of 3", a limit of its kernel, which numpy's and onnx's reference run)
    check_against_onnxruntime("Pad", arrays, {"mode": mode}, const=(1,),
                              ort_fails_ok=mode == "wrap" and 0 in shape)
