"""A Relu fused into a Conv or BatchNormalization moves past the MaxPool that alone reads
its output (exec_rewrite.pool_after_relu): Relu(MaxPool(x)) = MaxPool(Relu(x)), the same
values; not where a window may hold padding alone, nor where the Relu's output has
another reader or is a graph output."""
import numpy as np
import pytest

from shape_logic import executor
from shape_logic.executor import Program

F32 = np.float32


def conv_relu_pool(rng, pool_attrs, producer="Conv", x_shape=(1, 3, 9, 8)):
    """y = MaxPool(Relu(Conv(x) [-> BatchNormalization]))."""
    c = x_shape[1]
    inits = {"w": rng.uniform(-1, 1, (4, c, 3, 3)), "b": rng.uniform(-1, 1, (4,))}
    inits["b"][0] = -50  # a channel the Relu makes all zeros
    nodes = [{"name": "c", "op": "Conv", "inputs": ["x", "w", "b"], "outputs": ["h"],
              "attrs": {"pads": [1, 1, 1, 1]}}]
    act = "h"
    if producer == "BatchNormalization":  # a Relu after a BN the Conv cannot take (Neg)
        for k, v in {"s": rng.uniform(0.5, 1, 4), "bb": np.array([-100, 0, 0, 0.]),
                     "m": rng.uniform(-1, 1, 4), "v": rng.uniform(0.5, 1, 4)}.items():
            inits[k] = v
        nodes.append({"name": "neg", "op": "Neg", "inputs": ["h"], "outputs": ["hn"]})
        nodes.append({"name": "bn", "op": "BatchNormalization",
                      "inputs": ["hn", "s", "bb", "m", "v"], "outputs": ["hb"]})
        act = "hb"
    nodes.append({"name": "r", "op": "Relu", "inputs": [act], "outputs": ["a"]})
    nodes.append({"name": "p", "op": "MaxPool", "inputs": ["a"], "outputs": ["y"],
                  "attrs": pool_attrs})
    g = {"inputs": {"x": {"dtype": "f32", "shape": str(list(x_shape))}},
         "initializers": {k: {"dtype": "f32", "shape": list(v.shape),
                              "data": v.astype(F32).tolist()} for k, v in inits.items()},
         "nodes": nodes, "outputs": {"y": {}}}
    return g, {"x": rng.standard_normal(x_shape).astype(F32)}


def unmoved(monkeypatch, g, x):
    with monkeypatch.context() as m:
        m.setattr(executor, "pool_after_relu", lambda steps, *a: steps)
        return Program(g).run(x)


POOLS = {
    "3x3/2": {"kernel_shape": [3, 3], "strides": [2, 2]},
    "3x3/2 padded": {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
    "2x2/2": {"kernel_shape": [2, 2], "strides": [2, 2]},
    "3x2/1 uneven pads": {"kernel_shape": [3, 2], "pads": [2, 0, 0, 1]},
    "1x1": {"kernel_shape": [1, 1]},
}


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("producer", ["Conv", "BatchNormalization"])
def test_moved_relu_gives_the_same_values(monkeypatch, pool, producer):
    rng = np.random.default_rng(len(pool) + len(producer))
    g, x = conv_relu_pool(rng, POOLS[pool], producer)
    program = Program(g)
    src = next(s for s in program.steps if s.node.op == producer)
    pool_step = next(s for s in program.steps if s.node.op == "MaxPool")
    assert (src.kernel.relu, pool_step.kernel.relu) == (False, True)
    got = program.run(x)["y"]
    want = unmoved(monkeypatch, g, x)["y"]
    assert want.min() >= 0 and (want == 0).any()  # the Relu cut something
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("why", ["padding only", "ceil_mode", "dilated", "second reader",
                                 "output", "same_upper"])
def test_not_moved(monkeypatch, why):
    attrs = {"kernel_shape": [2, 2], "strides": [2, 2]}
    if why == "padding only":
        attrs["pads"] = [2, 0, 0, 0]
    elif why == "ceil_mode":
        attrs["ceil_mode"] = 1
    elif why == "dilated":
        attrs["dilations"] = [2, 1]
    elif why == "same_upper":
        attrs["auto_pad"] = "SAME_UPPER"
    rng = np.random.default_rng(5)
    g, x = conv_relu_pool(rng, attrs)
    if why == "second reader":
        g["nodes"].append({"name": "n", "op": "Neg", "inputs": ["a"], "outputs": ["z"]})
        g["outputs"]["z"] = {}
    if why == "output":
        g["outputs"]["a"] = {}
    program = Program(g)
    conv = next(s for s in program.steps if s.node.op == "Conv")
    assert conv.kernel.relu
    assert not next(s for s in program.steps if s.node.op == "MaxPool").kernel.relu
    got = program.run(x)
    for name, want in unmoved(monkeypatch, g, x).items():
        np.testing.assert_array_equal(got[name], want)
