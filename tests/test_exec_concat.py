"""Concat chains (exec_concat.chain_concats, kernels/Concat.py reserve/extends): Concats
each extending the one before fill one buffer; the same values as plain joins, every
intermediate join (graph outputs too) still intact; not chained where a link's input
has another Concat reader."""
import numpy as np
import pytest

from shape_logic import executor
from shape_logic.executor import Program
from shape_logic.kernels import load_kernel

F32 = np.float32


def dense_block(rng, layers=3, axis=1, c0=3, growth=2, extra_readers=True, shape=(2, 5, 4)):
    """x0 = x; x_k = Concat(x_{k-1}, Neg(x_{k-1})[:growth channels via Conv]) ...; every
    x_k also read by a ReduceSum (a reader of each intermediate join)."""
    n, h, w = shape
    nodes, inits, outs = [], {}, {}
    cur, c = "x", c0
    for k in range(layers):
        inits[f"w{k}"] = rng.uniform(-1, 1, (growth, c, 1, 1))
        nodes.append({"name": f"conv{k}", "op": "Conv", "inputs": [cur, f"w{k}"],
                      "outputs": [f"n{k}"]})
        if axis != 1:  # (the Conv's channels; joined along another axis: same shape)
            nodes[-1]["inputs"][1] = f"w{k}"
        nodes.append({"name": f"cat{k}", "op": "Concat", "inputs": [cur, f"n{k}"],
                      "outputs": [f"x{k}"], "attrs": {"axis": axis}})
        if extra_readers:
            nodes.append({"name": f"sum{k}", "op": "ReduceSum", "inputs": [f"x{k}"],
                          "outputs": [f"s{k}"], "attrs": {"keepdims": 0}})
            outs[f"s{k}"] = {}
        cur, c = f"x{k}", c + growth
    outs[cur] = {}
    g = {"inputs": {"x": {"dtype": "f32", "shape": str([n, c0, h, w])}},
         "initializers": {k: {"dtype": "f32", "shape": list(v.shape),
                              "data": v.astype(F32).tolist()} for k, v in inits.items()},
         "nodes": nodes, "outputs": outs}
    return g, {"x": rng.standard_normal((n, c0, h, w)).astype(F32)}


def unchained(monkeypatch, g, x):
    with monkeypatch.context() as m:
        m.setattr(executor, "chain_concats", lambda steps, *a: steps)
        return Program(g).run(x)


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("layers", [2, 4])
def test_chained_concats_give_the_same_values(monkeypatch, batch, layers):
    rng = np.random.default_rng(batch * 10 + layers)
    g, x = dense_block(rng, layers, shape=(batch, 5, 4))
    program = Program(g)
    cats = [s for s in program.steps if s.node.op == "Concat"]
    assert cats[0].kernel.reserve == 3 + 2 * layers
    assert [s.kernel.extends for s in cats] == [False] + [True] * (layers - 1)
    for _ in range(2):  # (a second run: a new buffer)
        got = program.run(x)
        for name, want in unchained(monkeypatch, g, x).items():
            np.testing.assert_array_equal(got[name], want)


def test_a_second_concat_reader_breaks_the_chain(monkeypatch):
    rng = np.random.default_rng(1)
    g, x = dense_block(rng, 3)
    g["nodes"].append({"name": "other", "op": "Concat", "inputs": ["x0", "x0"],
                       "outputs": ["o"], "attrs": {"axis": 1}})
    g["outputs"]["o"] = {}
    program = Program(g)
    cats = {s.node.name: s.kernel for s in program.steps if s.node.op == "Concat"}
    assert not cats["cat1"].extends and cats["cat2"].extends and cats["cat1"].reserve
    got = program.run(x)
    for name, want in unchained(monkeypatch, g, x).items():
        np.testing.assert_array_equal(got[name], want)


def test_intermediate_outputs_stay_intact(monkeypatch):
    rng = np.random.default_rng(2)
    g, x = dense_block(rng, 3, extra_readers=False)
    g["outputs"]["x0"] = {}
    g["outputs"]["x1"] = {}
    program = Program(g)
    cats = {s.node.name: s.kernel for s in program.steps if s.node.op == "Concat"}
    assert cats["cat1"].extends and cats["cat2"].extends
    got = program.run(x)
    for name, want in unchained(monkeypatch, g, x).items():
        np.testing.assert_array_equal(got[name], want)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_kernel_extends_a_prefix_view(axis):
    """The kernel alone: a head reserving room, links extending it along any axis, and
    a link given an array that is no prefix view joins as usual."""
    rng = np.random.default_rng(3)
    parts = [rng.standard_normal((2, 3, 4)).astype(F32) for _ in range(4)]
    ax = axis % 3
    total = sum(p.shape[ax] for p in parts)
    head = load_kernel("Concat")({"axis": axis})
    head.reserve = total
    link = load_kernel("Concat")({"axis": axis})
    link.extends = True
    (y,) = head(parts[0], parts[1])
    (z,) = link(y, parts[2], parts[3])
    np.testing.assert_array_equal(z, np.concatenate(parts, axis=ax))
    np.testing.assert_array_equal(y, np.concatenate(parts[:2], axis=ax))  # intact
    assert z.base is y.base
    (plain,) = link(parts[0].copy(), parts[1])  # not a view: joined as usual
    np.testing.assert_array_equal(plain, np.concatenate(parts[:2], axis=ax))
    assert plain.base is None
    (over,) = link(z, parts[0])  # no room left: joined as usual
    np.testing.assert_array_equal(over, np.concatenate(parts + parts[:1], axis=ax))
