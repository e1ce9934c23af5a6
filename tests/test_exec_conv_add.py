"""Conv + Add fusion (exec_rewrite.fuse_conv_add): a residual Add (or two-input Sum) of a
Conv's output runs in place on the Conv's result, a Relu after it too; the same bits as
the unfused graph, and only where the shapes are equal and the Conv's output has no
other reader."""
import numpy as np
import pytest

import shape_logic.executor as executor
from shape_logic.executor import Program

F32 = np.float32


def residual(rng, op="Add", other_shape=(1, 4, 5, 5), relu=True, bias=True, late=False):
    """y = [Relu](Conv(x) + o), o a second input (`late`: o made by a node after the Conv)."""
    inits = {"w": rng.uniform(-1, 1, (4, 2, 3, 3))}
    conv_in = ["x", "w"]
    if bias:
        inits["b"] = rng.uniform(-1, 1, (4,))
        conv_in.append("b")
    nodes = [{"name": "c", "op": "Conv", "inputs": conv_in, "outputs": ["h"],
              "attrs": {"pads": [1, 1, 1, 1], "group": 2}}]
    other = "o"
    if late:
        nodes.append({"name": "neg", "op": "Neg", "inputs": ["o"], "outputs": ["no"]})
        other = "no"
    nodes.append({"name": "add", "op": op, "inputs": [other, "h"], "outputs": ["s"]})
    if relu:
        nodes.append({"name": "r", "op": "Relu", "inputs": ["s"], "outputs": ["y"]})
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 4, 5, 5]"},
                    "o": {"dtype": "f32", "shape": str(list(other_shape))}},
         "initializers": {k: {"dtype": "f32", "shape": list(v.shape),
                              "data": v.astype(F32).tolist()} for k, v in inits.items()},
         "nodes": nodes, "outputs": {"y" if relu else "s": {}}}
    feeds = {"x": rng.standard_normal((1, 4, 5, 5)).astype(F32),
             "o": rng.standard_normal(other_shape).astype(F32)}
    return g, feeds


def unfused(monkeypatch, g, x):
    with monkeypatch.context() as m:
        m.setattr(executor, "fuse_conv_add", lambda steps, *a: steps)
        return next(iter(Program(g).run(x).values()))


@pytest.mark.parametrize("op,relu,bias,late", [("Add", True, True, False),
                                               ("Sum", True, False, False),
                                               ("Add", False, True, True),
                                               ("Sum", True, True, True)])
def test_fused_add_gives_the_same_bits(monkeypatch, op, relu, bias, late):
    rng = np.random.default_rng(hash((op, relu, bias, late)) % 1000)
    g, x = residual(rng, op, relu=relu, bias=bias, late=late)
    program = Program(g)
    convs = [s for s in program.steps if s.node.op == "Conv"]
    assert [s.node.op for s in program.steps] == ["Neg"] * late + ["Conv"]
    assert convs[0].kernel.relu == relu
    assert [a[0] for a in convs[0].aliases[0]] == ["h"] + ["s"] * relu
    np.testing.assert_array_equal(next(iter(program.run(x).values())),
                                  unfused(monkeypatch, g, x))


@pytest.mark.parametrize("why", ["broadcast", "three inputs", "second reader"])
def test_not_fused(monkeypatch, why):
    rng = np.random.default_rng(3)
    g, x = residual(rng, "Sum" if why == "three inputs" else "Add",
                    other_shape=(1, 4, 1, 5) if why == "broadcast" else (1, 4, 5, 5))
    if why == "three inputs":
        g["nodes"][1]["inputs"].append("o")
    if why == "second reader":
        g["nodes"].append({"name": "n", "op": "Neg", "inputs": ["h"], "outputs": ["z"]})
        g["outputs"]["z"] = {}
    program = Program(g)
    assert "Conv" in [s.node.op for s in program.steps]
    assert any(s.node.op in ("Add", "Sum") for s in program.steps)
    got = program.run(x)
    np.testing.assert_array_equal(got["y"], unfused(monkeypatch, g, x))
