"""Independent branches between a fork and a join (exec_branches.py): found only where no
branch needs another's tensors, run one per thread with the same results as one thread,
frees after the group, shape checks in every branch, the first failure in sequential
order, and a profile that lists every node once."""
import numpy as np
import pytest

from shape_logic.exec_branches import Group
from shape_logic.executor import ExecutionError, Program, ShapeMismatch
from shape_logic.kernels import workers

F32 = np.float32


def inception(rng, extra_reader=False):
    """x -> Relu -> {conv a; conv b -> conv c; maxpool -> conv d} -> Concat."""
    def w(shape):
        return {"dtype": "f32", "shape": list(shape),
                "data": rng.uniform(-1, 1, shape).astype(F32).tolist()}

    pad = {"pads": [1, 1, 1, 1]}
    nodes = [{"name": "r", "op": "Relu", "inputs": ["x"], "outputs": ["f"]},
             {"name": "a", "op": "Conv", "inputs": ["f", "wa"], "outputs": ["ya"]},
             {"name": "b", "op": "Conv", "inputs": ["f", "wb"], "outputs": ["hb"]},
             {"name": "c", "op": "Conv", "inputs": ["hb", "wc"], "outputs": ["yc"],
              "attrs": pad},
             {"name": "p", "op": "MaxPool", "inputs": ["f"], "outputs": ["hp"],
              "attrs": {"kernel_shape": [3, 3], "strides": [1, 1], **pad}},
             {"name": "d", "op": "Conv", "inputs": ["hp", "wd"], "outputs": ["yd"]},
             {"name": "j", "op": "Concat", "inputs": ["ya", "yc", "yd"], "outputs": ["y"],
              "attrs": {"axis": 1}}]
    outputs = {"y": {}}
    if extra_reader:  # a branch's inner tensor read outside: no group
        nodes.append({"name": "n", "op": "Neg", "inputs": ["hb"], "outputs": ["z"]})
        outputs["z"] = {}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 4, 6, 6]"}},
         "initializers": {"wa": w((3, 4, 1, 1)), "wb": w((2, 4, 1, 1)),
                          "wc": w((5, 2, 3, 3)), "wd": w((2, 4, 1, 1))},
         "nodes": nodes, "outputs": outputs}
    return g, {"x": rng.standard_normal((1, 4, 6, 6)).astype(F32)}


@pytest.fixture
def branches_pay(monkeypatch):
    monkeypatch.setattr(workers, "MIN_WORK", 1)


def groups(program):
    return [i for i in program.items if isinstance(i, Group)]


def test_the_branches_of_a_block_are_one_group_longest_first():
    g, _ = inception(np.random.default_rng(0))
    (group,) = groups(Program(g))
    names = [[s.node.name for s in b] for b in group.branches]
    assert names[0] == ["b", "c"] and sorted(names[1:]) == [["a"], ["p", "d"]]
    order = [s.node.name for s in Program(g).steps]
    assert [s.node.name for s in group.steps] == [n for n in order if n in "abcpd"]


def test_a_branch_tensor_read_outside_is_no_group():
    g, _ = inception(np.random.default_rng(0), extra_reader=True)
    assert groups(Program(g)) == []  # c's chain starts at hb, not at the fork f


@pytest.mark.parametrize("threads", [2, 3])
def test_branches_on_threads_give_the_same_results(branches_pay, threads):
    """The same values as one thread (a convolution split by columns may round its
    products differently in the last bit), and the same bits from run to run (parts
    are fixed; which thread takes one does not matter)."""
    g, x = inception(np.random.default_rng(1))
    one = Program(g, threads=1).run(x)["y"]
    program = Program(g, threads=threads, blas_threads=1)
    first = program.run(x)["y"]
    np.testing.assert_allclose(first, one, rtol=1e-5, atol=1e-6)
    for _ in range(5):
        np.testing.assert_array_equal(program.run(x)["y"], first)


def test_profile_lists_every_node_once_and_the_run_wall_time(branches_pay):
    g, x = inception(np.random.default_rng(2))
    prof = Program(g, threads=2, blas_threads=1).run(x, profile=True, warmup=1, repeat=3).profile
    assert sorted(prof.nodes) == ["a", "b", "c", "d", "j", "p", "r"]
    assert all(r.calls == 3 for r in prof.nodes.values()) and prof.runs == 3
    assert "ms per run" in prof.report()


def test_a_mismatch_in_a_branch_is_caught_there(branches_pay, monkeypatch):
    """A kernel that returns a wrong shape in one branch: the check names its tensor."""
    from shape_logic.kernels.MaxPool import MaxPool

    g, x = inception(np.random.default_rng(3))
    program = Program(g, threads=2, blas_threads=1)
    real = MaxPool.run
    monkeypatch.setattr(MaxPool, "run", lambda self, *a, **k: real(self, *a, **k)[..., 1:])
    with pytest.raises(ShapeMismatch, match="tensor 'hp'"):
        program.run(x)


def test_of_two_failing_branches_the_first_in_order_is_raised(branches_pay, monkeypatch):
    from shape_logic.kernels.Conv import Conv

    g, x = inception(np.random.default_rng(4))
    program = Program(g, threads=2, blas_threads=1)

    def fail(self, x, w, *rest, **kw):
        raise ValueError(f"boom {w.shape[0]}")

    monkeypatch.setattr(Conv, "run", fail)
    for _ in range(5):  # whichever thread fails first: node "a" comes first in order
        with pytest.raises(ExecutionError, match='Conv node "a"'):
            program.run(x)


def test_a_step_between_branch_steps_still_finds_what_it_reads(branches_pay):
    """f is read by both branches and by n, which came between them in the sequential
    order and runs after the group: f must not be freed with the group."""
    nodes = [{"name": "a", "op": "Relu", "inputs": ["f"], "outputs": ["ya"]},
             {"name": "n", "op": "Neg", "inputs": ["f"], "outputs": ["z"]},
             {"name": "b", "op": "Sigmoid", "inputs": ["f"], "outputs": ["yb"]},
             {"name": "j", "op": "Add", "inputs": ["ya", "yb"], "outputs": ["y"]}]
    g = {"inputs": {"f": {"dtype": "f32", "shape": "[2, 3]"}}, "nodes": nodes,
         "outputs": {"y": {}, "z": {}}}
    program = Program(g, threads=2, blas_threads=1)
    assert [s.node.name for s in program.steps] == ["a", "n", "b", "j"]
    assert len(groups(program)) == 1
    x = {"f": np.arange(6, dtype=F32).reshape(2, 3) - 2}
    out = program.run(x)
    np.testing.assert_array_equal(out["z"], -x["f"])
    np.testing.assert_allclose(out["y"], np.maximum(x["f"], 0) + 1 / (1 + np.exp(-x["f"])),
                               rtol=1e-6)
