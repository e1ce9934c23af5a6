"""Floors from equations that could not be solved (asp/floors.least_roots,
encodings/floors.lp): a value of a symbol at which the equation fails whatever the other
symbols are is no run of the graph.

Found on Swin2SR exported by torch.export: it reshapes [1, h, w, 8] into windows of 4,
[1, h//4, 4, w//4, 4, 8], and leaves the equation 16*(h//4)*(w//4) = h*w. That holds
only where both are multiples of 4; at h = 1..3 the windows' count is 0 and the image's
is not, so h >= 4, and then h//4 >= 1: the Reshape that takes the windows back ([-1,
h//4, w//4, 4, 4, 8]) divides by a count that is not 0, and its -1 is 1 (it was a fresh
name, and 17 tensors after it)."""
import itertools

import numpy as np
import pytest

from onnx import TensorProto, helper

import shape_logic
from tests import onnx_graphs
from shape_logic.asp.floors import least_roots
from shape_logic.match_cast import ExecutionError
from shape_logic.solver import solve
from shape_logic.symbolic.equation import reduced
from shape_logic.symbolic.parse import parse_dim


def windows(size: int = 4):
    """x [1, h, w, 8] cut into windows of size x size by shapes computed from x's (as
    torch.export writes Swin's window partition, allowzero = 1), as [windows, size, size,
    8], and put back: [1, h, w, 8] again, added to x. An ONNX model (onnxruntime runs it
    too)."""
    b = _Builder()
    hq = b.op("Div", b.dim("x", 1), b.const(size))
    wq = b.op("Div", b.dim("x", 2), b.const(size))
    k, eight, rest = b.const([size]), b.const([8]), b.const([-1])
    parts = b.op("Reshape", "x", b.op("Concat", b.const([1]), b.op(
        "Unsqueeze", hq, b.const([0])), k, b.op("Unsqueeze", wq, b.const([0])), k, eight,
        axis=0), allowzero=1)
    grid = b.op("Transpose", parts, perm=[0, 1, 3, 2, 4, 5])
    b.named["wins"] = b.op("Reshape", grid, b.op("Concat", rest, k, k, eight, axis=0))
    attended = b.op("Relu", b.named["wins"])
    b.named["regrid"] = b.op("Reshape", attended, b.op(
        "Concat", rest, b.vec(hq, wq), k, k, eight, axis=0), allowzero=1)
    image = b.op("Reshape", b.op("Transpose", b.named["regrid"], perm=[0, 1, 3, 2, 4, 5]),
                 b.op("Shape", "x"))
    b.nodes.append(helper.make_node("Add", [image, "x"], ["y"], name="add"))
    f32 = TensorProto.FLOAT
    graph = helper.make_graph(
        b.nodes, "windows", [helper.make_tensor_value_info("x", f32, [1, "h", "w", 8])],
        [helper.make_tensor_value_info("y", f32, None)], initializer=b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model, b.named


class _Builder(onnx_graphs._Builder):
    def __init__(self):
        super().__init__()
        self.named = {}


def test_windows_of_four_floor_both_sides_and_the_windows_come_back():
    model, named = windows()
    sol = solve(model, timeout=60)
    assert sol.status == "ok", sol.to_text()
    assert sol.floors == {"h": 4, "w": 4}
    # (the equation 16*(h//4)*(w//4) = h*w as the divisibility it amounts to)
    assert sol.to_json()["constraints"] == ["h%4 = 0", "w%4 = 0"]
    assert sol.shape(named["wins"]) == "[(h//4)*(w//4), 4, 4, 8]"
    # the -1 divides by (h//4)*(w//4)*128, not 0 in any run: 1 (was a fresh name)
    assert sol.shape(named["regrid"]) == "[1, h//4, w//4, 4, 4, 8]"
    assert sol.shape("y") == "[1, h, w, 8]"
    assert not any(s.startswith("_") for t in sol.graph.tensors()
                   for d in (sol.dims(t) or []) for s in d.symbols())


@pytest.mark.parametrize("h,w", [(4, 4), (8, 12), (16, 20)])
def test_the_windows_run_where_both_sides_are_multiples_of_four(h, w):
    x = np.arange(h * w * 8, dtype=np.float32).reshape(1, h, w, 8) / 100
    model, _ = windows()
    out = shape_logic.run(model, {"x": x})
    assert out["y"].shape == (1, h, w, 8)
    np.testing.assert_allclose(out["y"], 2 * x)  # (every value >= 0: the Relu keeps it)
    ort = pytest.importorskip("onnxruntime")
    got = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, out["y"])


@pytest.mark.parametrize("h,w", [(2, 8), (6, 8)])
def test_sizes_the_windows_do_not_fit_are_refused_with_a_message(h, w):
    with pytest.raises(ExecutionError) as e:
        shape_logic.run(windows()[0], {"x": np.zeros((1, h, w, 8), np.float32)})
    assert f"h={h}" in str(e.value)


def _brute_force_least(d, s: str, others: list[str], top: int = 24) -> int:
    """The least value of s at which d = 0 has a solution with the others in 1..top."""
    for v in range(1, top + 1):
        for vals in itertools.product(range(1, top + 1), repeat=len(others)):
            env = {s: v, **dict(zip(others, vals))}
            if d(**env) == 0:
                return v
    return top + 1


EQUATIONS = [  # (text of d = 0, d as a Python function of the symbols)
    ("16*(h//4)*(w//4) - h*w", lambda h, w: 16 * (h // 4) * (w // 4) - h * w),
    ("2*(h//2) - h", lambda h: 2 * (h // 2) - h),
    ("9*(h//3)*(w//3) - h*w", lambda h, w: 9 * (h // 3) * (w // 3) - h * w),
    ("h*w - 12", lambda h, w: h * w - 12),
    ("h*w - h - 20", lambda h, w: h * w - h - 20),
    ("(h//5)*w - 3", lambda h, w: (h // 5) * w - 3),
    ("(h - 1)*(w - 2)*b - 6", lambda h, w, b: (h - 1) * (w - 2) * b - 6),
    ("((h + 3)//4)*((w + 3)//4) - 8", lambda h, w: ((h + 3) // 4) * ((w + 3) // 4) - 8),
]


@pytest.mark.parametrize("text,fn", EQUATIONS, ids=[t for t, _ in EQUATIONS])
def test_a_floor_is_never_above_a_value_with_a_solution(text, fn):
    """Sound: below each floor found, brute force finds no solution either; and where it
    finds none below some value v > 1 for a symbol of a window (`x//k`), the floor is
    found and is exactly v."""
    d = reduced(parse_dim(text))
    found = dict(least_roots(d))
    names = sorted(d.symbol_set())
    for s in names:
        others = [o for o in names if o != s]
        truth = _brute_force_least(lambda **env: fn(**env), s, others)
        assert found.get(s, 1) <= truth, (text, s, found, truth)
    if text.startswith(("16*", "2*", "9*")):  # a multiple's floor: exact
        for s in names:
            assert found[s] == _brute_force_least(fn, s, [o for o in names if o != s])


def test_no_floor_where_every_value_may_have_a_solution():
    assert least_roots(reduced(parse_dim("h*w - 12*b"))) == ()
    assert least_roots(reduced(parse_dim("h + w - 10"))) == ()  # (h = 1, w = 9)


def test_the_text_says_what_requires_each_floor():
    """An equation's floors name the equation (it has no one node: its values meet again
    wherever the graph joins them), as the divisibility condition of the symbol it amounts
    to (16*(h//4)*(w//4) = h*w: h%4 = 0 and w%4 = 0); a convolution's name the
    convolution. Neighbours of one origin say it once."""
    model, _ = windows()
    lines = solve(model, timeout=60).to_text().splitlines()
    assert "floors: h >= 4 (by h%4 = 0), w >= 4 (by w%4 = 0)" in lines
    assert "constraints: h%4 = 0, w%4 = 0" in lines
    conv = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 2, s, 9]"},
                       "w": {"dtype": "f32", "shape": "[3, 2, 5, 1]"}},
            "nodes": [{"op": "Conv", "name": "c", "inputs": ["x", "w"], "outputs": ["y"]}]}
    sol = solve(conv)
    assert sol.floors == {"s": 5}
    assert "floors: s >= 5 (at Conv \"c\")" in sol.to_text().splitlines()
    assert sol.to_json()["floors"] == {"s": 5}  # (the JSON as before: INTERFACE.md)
