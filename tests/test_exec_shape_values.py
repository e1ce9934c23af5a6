"""Values the input shapes decide are made by a plan's first run and reused by its later
runs (exec_shape_values.py): never those the data decides, never random ones, never a
graph output, never a large one."""
import numpy as np
import pytest

from shape_logic.executor import Program
from shape_logic.exec_shape_values import MAX_ELEMENTS

F32 = np.float32
I64 = {"dtype": "i64"}


def flatten_by_shape() -> dict:
    """x [b, s, 4] reshaped to [b * s, 4] through the shape arithmetic an exporter writes:
    Shape -> Gather -> Mul -> Unsqueeze -> Concat -> Reshape."""
    return {
        "inputs": {"x": {"dtype": "f32", "shape": "[b, s, 4]"}},
        "initializers": {"zero": dict(I64, data=0), "one": dict(I64, data=1),
                         "axes": dict(I64, data=[0]), "four": dict(I64, data=[4])},
        "nodes": [{"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                  {"name": "g0", "op": "Gather", "inputs": ["sh", "zero"], "outputs": ["b"]},
                  {"name": "g1", "op": "Gather", "inputs": ["sh", "one"], "outputs": ["s"]},
                  {"name": "mul", "op": "Mul", "inputs": ["b", "s"], "outputs": ["bs"]},
                  {"name": "unsq", "op": "Unsqueeze", "inputs": ["bs", "axes"],
                   "outputs": ["bsv"]},
                  {"name": "cat", "op": "Concat", "inputs": ["bsv", "four"],
                   "outputs": ["target"], "attrs": {"axis": 0}},
                  {"name": "reshape", "op": "Reshape", "inputs": ["x", "target"],
                   "outputs": ["flat"]},
                  {"name": "relu", "op": "Relu", "inputs": ["flat"], "outputs": ["y"]}],
        "outputs": {"y": {}},
    }


def counting(monkeypatch, *ops) -> dict:
    """How many times each of the kernels of `ops` runs."""
    from shape_logic.kernels import load_kernel

    calls = {op: 0 for op in ops}
    for op in ops:
        cls = load_kernel(op)
        real = cls.run

        def run(self, *a, _op=op, _real=real, **k):
            calls[_op] += 1
            return _real(self, *a, **k)

        monkeypatch.setattr(cls, "run", run)
    return calls


def data(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(F32)


def test_shape_steps_run_once_per_plan(monkeypatch):
    program = Program(flatten_by_shape())
    calls = counting(monkeypatch, "Shape", "Concat", "Reshape")
    for seed in range(3):  # one plan: the shape steps run in the first run only
        x = data(2, 3, 4, seed=seed)
        np.testing.assert_array_equal(program.run({"x": x})["y"], np.maximum(x, 0).reshape(6, 4))
    assert calls == {"Shape": 1, "Concat": 1, "Reshape": 3}
    (plan,) = program._plans.values()
    skipped = {s.node.name for s in program.steps if id(s) in plan.skips}
    assert skipped == {"shape", "g0", "g1", "mul", "unsq", "cat"}
    assert not plan.values["target"].flags.writeable
    x = data(5, 1, 4)  # another plan: its own values
    np.testing.assert_array_equal(program.run({"x": x})["y"], np.maximum(x, 0).reshape(5, 4))
    assert calls == {"Shape": 2, "Concat": 2, "Reshape": 4}


def test_the_profile_lists_a_skipped_step_at_no_time():
    program = Program(flatten_by_shape())
    prof = program.run({"x": data(2, 3, 4)}, profile=True, warmup=1, repeat=3).profile
    assert prof.nodes["cat"].calls == 3 and prof.nodes["cat"].real == 0.0
    assert prof.nodes["relu"].calls == 3


def test_a_shape_the_data_decides_is_made_in_every_run():
    """NonZero's count is the data's: the Shape of its output is not a plan's value."""
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"}},
         "nodes": [{"name": "nz", "op": "NonZero", "inputs": ["x"], "outputs": ["idx"]},
                   {"name": "shape", "op": "Shape", "inputs": ["idx"], "outputs": ["sh"]},
                   {"name": "cast", "op": "Cast", "inputs": ["sh"], "outputs": ["y"],
                    "attrs": {"to": 1}},
                   {"name": "neg", "op": "Neg", "inputs": ["y"], "outputs": ["z"]}],
         "outputs": {"z": {}}}
    program = Program(g)
    for k in (1, 3, 2):
        x = np.zeros(5, F32)
        x[:k] = 1
        np.testing.assert_array_equal(program.run({"x": x})["z"], [-1.0, -k])
    (plan,) = program._plans.values()
    assert plan.skips == set()


def test_what_an_input_s_values_give_is_computed_in_every_run(monkeypatch):
    """A small integer input's values are part of the plan's signature (exec_feeds), but
    what the steps compute from them is not a plan's value: a run computes it."""
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[6]"}, "t": {"dtype": "i64", "shape": "[2]"}},
         "initializers": {"two": dict(I64, data=[1, 1])},
         "nodes": [{"name": "add", "op": "Add", "inputs": ["t", "two"], "outputs": ["t1"]},
                   {"name": "sub", "op": "Sub", "inputs": ["t1", "two"], "outputs": ["t2"]},
                   {"name": "r", "op": "Reshape", "inputs": ["x", "t2"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    program = Program(g)
    calls = counting(monkeypatch, "Add", "Sub")
    x = np.arange(6, dtype=F32)
    for target in ([2, 3], [3, 2], [2, 3], [6, 1]):
        assert program.run({"x": x, "t": np.array(target)})["y"].shape == tuple(target)
    assert len(program._plans) == 3 and calls == {"Add": 4, "Sub": 4}
    assert all(p.skips == set() for p in program._plans.values())


def test_random_and_large_values_and_graph_outputs_are_made_in_every_run():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 8]"}},
         "nodes": [{"name": "shape", "op": "Shape", "inputs": ["x"], "outputs": ["sh"]},
                   {"name": "rand", "op": "RandomUniformLike", "inputs": ["x"],
                    "outputs": ["r"]},
                   {"name": "big", "op": "ConstantOfShape", "inputs": ["sh"],
                    "outputs": ["zeros"]},
                   {"name": "add", "op": "Add", "inputs": ["r", "zeros"], "outputs": ["y"]}],
         "outputs": {"y": {}, "sh": {}}}
    program = Program(g)
    x = np.zeros((MAX_ELEMENTS // 8 + 1, 8), F32)  # (zeros: one element past the bound)
    first, second = program.run({"x": x}), program.run({"x": x})
    assert not np.array_equal(first["y"], second["y"])  # (random: never reused)
    (plan,) = program._plans.values()
    assert plan.skips == set()  # shape: a graph output; big: too large
    second["sh"][0] = 0  # a graph output is the caller's own array
    assert program.run({"x": x})["sh"].tolist() == [x.shape[0], 8]


@pytest.mark.parametrize("b", [1, 3])
def test_a_plan_s_values_are_checked_in_its_first_run(b, monkeypatch):
    """A shape step that goes wrong fails the first run of its plan, as any step."""
    from shape_logic.match_cast import ShapeMismatch

    program = Program(flatten_by_shape())
    from shape_logic.kernels.Concat import Concat

    real = Concat.run
    monkeypatch.setattr(Concat, "run", lambda self, *a, **k: real(self, *a, **k)[:1])
    with pytest.raises(ShapeMismatch, match="target"):
        program.run({"x": data(b, 2, 4)})


def test_a_plan_s_later_runs_bind_what_its_first_did(monkeypatch):
    """Inputs of one signature are checked by the plan's first run; later runs take what
    it bound (and the constants folded at build time are checked once, their shapes
    concrete)."""
    from shape_logic.match_cast import Binder

    program = Program(flatten_by_shape())
    first = program.run({"x": data(2, 3, 4)})
    checks = []
    real = Binder.check
    monkeypatch.setattr(Binder, "check", lambda self, t, *a: (checks.append(t),
                                                               real(self, t, *a))[1])
    again = program.run({"x": data(2, 3, 4, seed=1)})
    assert again.bindings == first.bindings == {"b": 2, "s": 3}
    assert "x" not in checks and not {"zero", "one", "axes", "four"} & set(checks)


def test_inputs_that_disagree_fail_in_every_run():
    from shape_logic.match_cast import ShapeMismatch

    g = {"inputs": {"a": {"dtype": "f32", "shape": "[n, 2]"},
                    "b": {"dtype": "f32", "shape": "[n, 2]"}},
         "nodes": [{"name": "add", "op": "Add", "inputs": ["a", "b"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    program = Program(g)
    for _ in range(2):  # (no plan is kept for inputs that fail their checks)
        with pytest.raises(ShapeMismatch, match="n"):
            program.run({"a": data(3, 2), "b": data(4, 2)})
    assert program._plans == {}
