"""Moving a Conv's constant bias into the pad-free Conv that alone reads its output
(exec_rewrite.push_conv_bias): the same values up to float rounding, and only where the
graph allows it (no padding in the reader, no Relu between, one reader)."""
import numpy as np
import pytest

import shape_logic.executor as executor
from shape_logic.executor import Program

F32 = np.float32


def two_convs(rng, x_shape, a_w, a_attrs, b_w, b_attrs, b_bias=True, relu=False, extra=False):
    inits = {"wa": rng.uniform(-1, 1, a_w), "ba": rng.uniform(-2, 2, a_w[:1]),
             "wb": rng.uniform(-1, 1, b_w)}
    b_in = ["h", "wb"]
    if b_bias:
        inits["bb"] = rng.uniform(-1, 1, b_w[:1])
        b_in.append("bb")
    nodes = [{"name": "a", "op": "Conv", "inputs": ["x", "wa", "ba"],
              "outputs": ["h0" if relu else "h"], "attrs": a_attrs}]
    if relu:
        nodes.append({"name": "r", "op": "Relu", "inputs": ["h0"], "outputs": ["h"]})
    nodes.append({"name": "b", "op": "Conv", "inputs": b_in, "outputs": ["y"],
                  "attrs": b_attrs})
    outputs = {"y": {}}
    if extra:
        nodes.append({"name": "n", "op": "Neg", "inputs": ["h"], "outputs": ["z"]})
        outputs["z"] = {}
    g = {"inputs": {"x": {"dtype": "f32", "shape": str(list(x_shape))}},
         "initializers": {k: {"dtype": "f32", "shape": list(v.shape),
                              "data": v.astype(F32).tolist()} for k, v in inits.items()},
         "nodes": nodes, "outputs": outputs}
    return g, {"x": rng.standard_normal(x_shape).astype(F32)}


def unpushed(monkeypatch, g, x):
    with monkeypatch.context() as m:
        m.setattr(executor, "push_conv_bias", lambda steps, *a: steps)
        return Program(g).run(x)["y"]


def pushed(program) -> bool:
    a = next(s for s in program.steps if s.node.name == "a")
    return len(a.node.inputs) == 2


CASES = {
    # ShuffleNet's: a depthwise 3x3 into a grouped 1x1
    "depthwise into grouped 1x1": ((1, 8, 7, 6), (8, 1, 3, 3),
                                   {"group": 8, "pads": [1, 1, 1, 1]},
                                   (6, 4, 1, 1), {"group": 2}),
    "strided into dilated, strided 2x3": ((2, 4, 9, 9), (6, 2, 3, 3),
                                          {"group": 2, "strides": [2, 1], "pads": [1, 0, 1, 2]},
                                          (4, 3, 2, 3), {"group": 2, "dilations": [1, 2],
                                                         "strides": [1, 2]}),
    "into VALID": ((1, 3, 6, 6), (5, 3, 1, 1), {}, (2, 5, 3, 3), {"auto_pad": "VALID"}),
}


@pytest.mark.parametrize("b_bias", [True, False])
@pytest.mark.parametrize("case", sorted(CASES))
def test_pushed_bias_gives_the_same_values(monkeypatch, case, b_bias):
    rng = np.random.default_rng(len(case) + b_bias)
    x_shape, a_w, a_attrs, b_w, b_attrs = CASES[case]
    g, x = two_convs(rng, x_shape, a_w, a_attrs, b_w, b_attrs, b_bias=b_bias)
    program = Program(g)
    assert pushed(program)
    np.testing.assert_allclose(program.run(x)["y"], unpushed(monkeypatch, g, x),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("why", ["reader pads", "reader SAME", "relu between",
                                 "two readers"])
def test_not_pushed_where_it_would_change_values(monkeypatch, why):
    rng = np.random.default_rng(9)
    b_attrs = {"pads": [0, 1, 0, 0]} if why == "reader pads" else \
        {"auto_pad": "SAME_UPPER"} if why == "reader SAME" else {}
    g, x = two_convs(rng, (1, 3, 6, 6), (4, 3, 3, 3), {"pads": [1, 1, 1, 1]}, (2, 4, 3, 3),
                     b_attrs, relu=why == "relu between", extra=why == "two readers")
    program = Program(g)
    assert not pushed(program)
    np.testing.assert_allclose(program.run(x)["y"], unpushed(monkeypatch, g, x),
                               rtol=1e-5, atol=1e-5)


def test_pushed_through_a_fused_channel_shuffle(monkeypatch):
    """The first Conv writes its channels shuffled (exec_shuffle.py): its bias moves in
    that order."""
    from .test_exec_shuffle import shuffle_graph

    rng = np.random.default_rng(11)
    g, x = shuffle_graph(rng, (1, 6, 5, 5), (12, 2, 3, 3), {"group": 3, "pads": [1] * 4},
                         (3, 4), relu=False)
    wb = rng.uniform(-1, 1, (4, 6, 1, 1)).astype(F32)
    g["initializers"]["wb"] = {"dtype": "f32", "shape": [4, 6, 1, 1], "data": wb.tolist()}
    g["nodes"][-1]["outputs"] = ["s"]
    g["nodes"].append({"name": "b", "op": "Conv", "inputs": ["s", "wb"], "outputs": ["y"],
                       "attrs": {"group": 2}})
    program = Program(g)
    assert [(s.node.op, len(s.node.inputs)) for s in program.steps] == [("Conv", 2),
                                                                        ("Conv", 3)]
    with monkeypatch.context() as m:
        m.setattr(executor, "push_conv_bias", lambda steps, *a: steps)
        m.setattr(executor, "fuse_conv_shuffle", lambda steps, *a: steps)
        want = Program(g).run(x)["y"]
    np.testing.assert_allclose(program.run(x)["y"], want, rtol=1e-5, atol=1e-5)
