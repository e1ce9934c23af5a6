"""A BatchNormalization's per-channel scale moved into the Conv that alone reads it
(exec_fold.scale_into_conv): the same values up to rounding, with or without a Relu in
between, with groups and padding; not where a scale is not positive, the normalization's
output has another reader or is a graph output."""
import numpy as np
import pytest

from shape_logic import executor
from shape_logic.executor import Program

F32 = np.float32


def bn_conv(rng, relu=True, group=1, pads=(1, 1, 1, 1), c=4, m=6, scale=None,
            kernel=(3, 3)):
    """y = Conv(Relu(BatchNormalization(x))) (the Relu optional)."""
    inits = {"s": rng.uniform(0.5, 2, c) if scale is None else np.asarray(scale, float),
             "bb": rng.uniform(-1, 1, c), "mu": rng.uniform(-1, 1, c),
             "v": rng.uniform(0.5, 2, c),
             "w": rng.uniform(-1, 1, (m, c // group, *kernel)), "b": rng.uniform(-1, 1, m)}
    nodes = [{"name": "bn", "op": "BatchNormalization", "inputs": ["x", "s", "bb", "mu", "v"],
              "outputs": ["h"], "attrs": {"epsilon": 1e-3}}]
    act = "h"
    if relu:
        nodes.append({"name": "r", "op": "Relu", "inputs": ["h"], "outputs": ["a"]})
        act = "a"
    nodes.append({"name": "c", "op": "Conv", "inputs": [act, "w", "b"], "outputs": ["y"],
                  "attrs": {"pads": list(pads), "group": group}})
    shape = (2, c, 7, 6)
    g = {"inputs": {"x": {"dtype": "f32", "shape": str(list(shape))}},
         "initializers": {k: {"dtype": "f32", "shape": list(v.shape),
                              "data": v.astype(F32).tolist()} for k, v in inits.items()},
         "nodes": nodes, "outputs": {"y": {}}}
    return g, {"x": rng.standard_normal(shape).astype(F32) * 2}


def unfolded(monkeypatch, g, x):
    with monkeypatch.context() as m:
        m.setattr(executor, "scale_into_conv", lambda steps, *a: steps)
        return Program(g).run(x)


@pytest.mark.parametrize("relu,group,pads,kernel", [
    (True, 1, (1, 1, 1, 1), (3, 3)),
    (False, 1, (1, 1, 1, 1), (3, 3)),
    (True, 2, (0, 2, 1, 0), (3, 2)),
    (True, 4, (0, 0, 0, 0), (1, 1)),
    (True, 1, (0, 0, 0, 0), (1, 1)),
])
def test_folded_scale_gives_the_same_values(monkeypatch, relu, group, pads, kernel):
    rng = np.random.default_rng(group * 10 + relu + len(kernel))
    g, x = bn_conv(rng, relu, group, pads, m=4 if group == 4 else 6, kernel=kernel)
    program = Program(g)
    bn = next(s for s in program.steps if s.node.op == "BatchNormalization")
    conv = next(s for s in program.steps if s.node.op == "Conv")
    assert bn.kernel.unscaled and "#scaled-by:bn" in conv.node.inputs[1]
    got = program.run(x)["y"]
    np.testing.assert_allclose(got, unfolded(monkeypatch, g, x)["y"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("why", ["negative scale", "zero scale", "second reader", "output",
                                 "read in a body"])
def test_not_folded(monkeypatch, why):
    rng = np.random.default_rng(3)
    scale = {"negative scale": [1, -0.5, 1, 2], "zero scale": [1, 0, 1, 2]}.get(why)
    g, x = bn_conv(rng, scale=scale)
    if why == "second reader":
        g["nodes"].append({"name": "n", "op": "Neg", "inputs": ["a"], "outputs": ["z"]})
        g["outputs"]["z"] = {}
    if why == "output":
        g["outputs"]["a"] = {}
    if why == "read in a body":  # an If's branch reads `a` from the graph around it
        branch = {"inputs": [], "outputs": ["n"],
                  "nodes": [{"op": "Neg", "inputs": ["a"], "outputs": ["n"]}]}
        g["inputs"]["c"] = {"dtype": "bool", "shape": "[]"}
        g["nodes"].append({"name": "if", "op": "If", "inputs": ["c"], "outputs": ["z"],
                           "attrs": {"then_branch": branch, "else_branch": branch}})
        g["outputs"]["z"] = {}
        x = {**x, "c": np.array(True)}
    program = Program(g)
    assert not next(s for s in program.steps
                    if s.node.op == "BatchNormalization").kernel.unscaled
    got = program.run(x)
    for name, want in unfolded(monkeypatch, g, x).items():
        np.testing.assert_array_equal(got[name], want)
