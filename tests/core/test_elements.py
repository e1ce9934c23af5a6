"""encodings/elements.lp: the known elements of small integer tensors keep their values
when Transpose and Slice move them between axes (torch's F.pad computes its pads by
reversing and transposing an [n, 2] matrix), checked against NumPy on random cases."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic import solve
from shape_logic.solver import Problem


def known_values(graph: dict, tensor: str) -> dict:
    """Element index -> integer value, of the elements of `tensor` the solve knows."""
    ctl, _ = Problem.load(graph).control("", sourced=False)
    out = {}
    for a in ctl.symbolic_atoms.by_signature("value", 3):
        t, i, v = a.symbol.arguments
        if t.type.name == "String" and t.string == tensor and v.type.name == "Number":
            out[i.number] = v.number
    return out


def one_node(op: str, x: np.ndarray, attrs=None, inputs=()) -> dict:
    inits = {"x": {"dtype": "i64", "shape": list(x.shape), "data": x.tolist()}}
    for name, data in inputs:
        inits[name] = {"dtype": "i64", "shape": [len(data)], "data": list(data)}
    return {"opset": 18, "inputs": {}, "initializers": inits,
            "nodes": [{"op": op, "inputs": ["x"] + [n for n, _ in inputs], "outputs": ["y"],
                       "attrs": attrs or {}}]}


matrices = st.lists(st.integers(1, 4), min_size=2, max_size=3).flatmap(
    lambda shape: st.just(np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) * 3 - 7))


@settings(max_examples=25, deadline=None)
@given(matrices, st.data())
def test_transpose_moves_the_elements(x, data):
    perm = data.draw(st.permutations(range(x.ndim)))
    want = np.transpose(x, perm).ravel()
    got = known_values(one_node("Transpose", x, {"perm": list(perm)}), "y")
    assert got == dict(enumerate(want.tolist()))


@settings(max_examples=40, deadline=None)
@given(matrices, st.data())
def test_slice_takes_the_elements(x, data):
    axes = data.draw(st.lists(st.integers(0, x.ndim - 1), min_size=1, max_size=x.ndim,
                              unique=True))
    starts = [data.draw(st.integers(-5, 5)) for _ in axes]
    ends = [data.draw(st.integers(-6, 6) | st.sampled_from([2**63 - 1, -2**63 + 1]))
            for _ in axes]
    steps = [data.draw(st.sampled_from([1, 2, -1, -2, 3])) for _ in axes]
    index = [slice(None)] * x.ndim
    for a, b, e, k in zip(axes, starts, ends, steps):
        index[a] = slice(b, e, k)
    want = x[tuple(index)].ravel()
    g = one_node("Slice", x, inputs=[("st", starts), ("en", ends), ("ax", axes),
                                     ("sp", steps)])
    assert known_values(g, "y") == dict(enumerate(want.tolist()))


def test_torch_pad_computes_its_pads():
    # the legacy exporter's F.pad(x, (1, 2, 3, 4)): [1, 2, 3, 4, 0, 0, 0, 0] as [4, 2],
    # reversed along axis 0, transposed and flattened: [0, 0, 3, 1, 0, 0, 4, 2]
    inits = {"p": {"dtype": "i64", "shape": [4], "data": [1, 2, 3, 4]},
             "four": {"dtype": "i64", "shape": [1], "data": [4]},
             "m12": {"dtype": "i64", "shape": [2], "data": [-1, 2]},
             "m1": {"dtype": "i64", "shape": [1], "data": [-1]},
             "z": {"dtype": "i64", "shape": [1], "data": [0]},
             "big": {"dtype": "i64", "shape": [1], "data": [-2**63 + 1]}}
    nodes = [
        {"op": "ConstantOfShape", "inputs": ["four"], "outputs": ["zeros"],
         "attrs": {"value": {"dtype": "i64", "shape": [1], "data": [0]}}},
        {"op": "Concat", "inputs": ["p", "zeros"], "outputs": ["c"], "attrs": {"axis": 0}},
        {"op": "Reshape", "inputs": ["c", "m12"], "outputs": ["r"]},
        {"op": "Slice", "inputs": ["r", "m1", "big", "z", "m1"], "outputs": ["s"]},
        {"op": "Transpose", "inputs": ["s"], "outputs": ["t"], "attrs": {"perm": [1, 0]}},
        {"op": "Reshape", "inputs": ["t", "m1"], "outputs": ["pads"]},
        {"op": "Pad", "inputs": ["x", "pads"], "outputs": ["y"], "attrs": {"mode": "reflect"}},
    ]
    g = {"opset": 18, "inputs": {"x": {"dtype": "f32", "shape": "[b, 3, h, w]"}},
         "initializers": inits, "nodes": nodes}
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert known_values(g, "pads") == dict(enumerate([0, 0, 3, 1, 0, 0, 4, 2]))
    assert sol.shape("y") == "[b, 3, h + 7, w + 3]"
