"""The channel-shuffle fusion (exec_shuffle.py): a Conv whose output only goes through
Reshape -> Transpose -> Reshape that moves whole channels writes its channels in that
order itself; the results equal the unfused graph's, and the unmade tensors are checked."""
import numpy as np
import pytest

import shape_logic.executor as executor
from shape_logic.executor import Program, ShapeMismatch
from shape_logic.kernels import load_kernel

F32 = np.float32


def shuffle_graph(rng, x_shape, w_shape, attrs, split, perm=(0, 2, 1, 3, 4), bias=True,
                  relu=True, equal_filters=False):
    """x -> Conv (-> Relu) -> Reshape [N, split..., H', W'] -> Transpose perm -> Reshape back."""
    w = rng.uniform(-1, 1, w_shape).astype(F32)
    b = rng.uniform(-1, 1, w_shape[:1]).astype(F32)
    if equal_filters:  # channel 1 repeats channel 0 (same group): copied, not recomputed
        w[1], b[1] = w[0], b[0]
    inits = {"w": w}
    conv_in = ["x", "w"]
    if bias:
        inits["b"] = b
        conv_in.append("b")
    (probe,) = load_kernel("Conv")(attrs)(np.zeros(x_shape, F32), w)
    n, m, *sizes = probe.shape
    inits["s1"] = np.array([n, *split, *sizes], np.int64)
    inits["s2"] = np.array([0, -1, *sizes], np.int64)
    nodes = [{"name": "c", "op": "Conv", "inputs": conv_in, "outputs": ["h"], "attrs": attrs}]
    src = "h"
    if relu:
        nodes.append({"name": "r", "op": "Relu", "inputs": ["h"], "outputs": ["hr"]})
        src = "hr"
    nodes += [{"name": "r1", "op": "Reshape", "inputs": [src, "s1"], "outputs": ["a"]},
              {"name": "t", "op": "Transpose", "inputs": ["a"], "outputs": ["bt"],
               "attrs": {"perm": list(perm)}},
              {"name": "r2", "op": "Reshape", "inputs": ["bt", "s2"], "outputs": ["y"]}]
    g = {"inputs": {"x": {"dtype": "f32", "shape": str(list(x_shape))}},
         "initializers": {k: {"dtype": "i64" if v.dtype == np.int64 else "f32",
                              "shape": list(v.shape), "data": v.tolist()}
                          for k, v in inits.items()},
         "nodes": nodes, "outputs": {"y": {}}}
    return g, {"x": rng.standard_normal(x_shape).astype(F32)}


def unfused(monkeypatch, g, x):
    with monkeypatch.context() as m:
        m.setattr(executor, "fuse_conv_shuffle", lambda steps, *a: steps)
        program = Program(g)
    assert "Transpose" in [s.node.op for s in program.steps]
    return program.run(x)["y"]


CASES = {
    # ShuffleNet's: groups of the Conv = groups of the shuffle: rows written in place
    "grouped 1x1": ((2, 12, 5, 4), (12, 3, 1, 1), {"group": 4}, (4, 3)),
    "grouped 3x3, strides, pads": ((1, 6, 7, 8), (12, 2, 3, 3),
                                   {"group": 3, "strides": [2, 1], "pads": [1, 0, 2, 1]},
                                   (3, 4)),
    "dilated, SAME": ((1, 4, 9, 9), (8, 2, 3, 2),
                      {"group": 2, "dilations": [2, 1], "auto_pad": "SAME_UPPER"}, (2, 4)),
    "depthwise": ((1, 6, 6, 6), (6, 1, 3, 3), {"group": 6, "pads": [1, 1, 1, 1]}, (3, 2)),
    # 2 Conv groups, 3 shuffle groups: not evenly spaced, one gather at the end
    "other groups": ((1, 4, 5, 5), (12, 2, 1, 1), {"group": 2}, (3, 4)),
    "dense": ((1, 3, 6, 5), (8, 3, 2, 2), {"pads": [0, 1, 1, 0]}, (2, 4)),
}


@pytest.mark.parametrize("relu", [True, False])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("case", sorted(CASES))
def test_fused_shuffle_equals_the_unfused_graph(monkeypatch, case, bias, relu):
    rng = np.random.default_rng(len(case) + 2 * bias + relu)
    x_shape, w_shape, attrs, split = CASES[case]
    g, x = shuffle_graph(rng, x_shape, w_shape, attrs, split, bias=bias, relu=relu)
    program = Program(g)
    assert [s.node.op for s in program.steps] == ["Conv"]
    (step,) = program.steps
    assert step.node.outputs == ["y"]
    checked = [a[0] for a in step.aliases[0]]
    assert set(checked) == {"h", "a", "bt"} | ({"hr"} if relu else set())
    got = program.run(x)["y"]
    want = unfused(monkeypatch, g, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_equal_filters_stay_equal_in_the_new_order(monkeypatch):
    rng = np.random.default_rng(7)
    g, x = shuffle_graph(rng, (1, 8, 6, 6), (8, 2, 3, 3), {"group": 4, "pads": [1] * 4},
                         (4, 2), equal_filters=True)
    got = Program(g).run(x)["y"]
    # channel 0 goes to 0, channel 1 (its repeat) to 4 (the shuffle of 4 groups of 2)
    assert np.array_equal(got[:, 4], got[:, 0])
    np.testing.assert_allclose(got, unfused(monkeypatch, g, x), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("perm,fused", [((0, 2, 1, 3, 4), True), ((0, 1, 2, 4, 3), False),
                                        ((0, 1, 2, 3, 4), True)])
def test_only_chains_that_move_whole_channels(monkeypatch, perm, fused):
    rng = np.random.default_rng(3)
    g, x = shuffle_graph(rng, (1, 4, 4, 4), (4, 2, 1, 1), {"group": 2}, (2, 2), perm=perm)
    program = Program(g)
    assert ([s.node.op for s in program.steps] == ["Conv"]) == fused
    np.testing.assert_allclose(program.run(x)["y"], unfused(monkeypatch, g, x), rtol=1e-6)


def test_not_fused_when_a_middle_tensor_is_read_elsewhere():
    rng = np.random.default_rng(4)
    g, x = shuffle_graph(rng, (1, 4, 4, 4), (4, 2, 1, 1), {"group": 2}, (2, 2))
    g["outputs"]["a"] = {}
    assert "Transpose" in [s.node.op for s in Program(g).steps]


def test_unmade_tensors_are_still_checked():
    """The chain's first Reshape is declared with a shape the graph cannot give: the
    fused run reports it, naming that tensor (its shape is checked as if it were made)."""
    rng = np.random.default_rng(5)
    g, x = shuffle_graph(rng, (1, 4, 4, 4), (4, 2, 1, 1), {"group": 2}, (2, 2))
    program = Program(g)
    (step,) = program.steps
    step.aliases[0] = [(t, o, (1, 2, 2, 4, 5)) if t == "a" else (t, o, *s)
                       for t, o, *s in step.aliases[0]]
    with pytest.raises(ShapeMismatch, match="tensor 'a'"):
        program.run(x)
