"""Axes without any value get fresh names, one per class of equal axes (encodings/voids.lp);
that program part is grounded only when the decoder meets such an axis."""
import shape_logic
from shape_logic import solver


def _counting(monkeypatch) -> list:
    calls = []
    real = solver.ground_voids

    def counted(ctl, funcs):
        calls.append(1)
        return real(ctl, funcs)

    monkeypatch.setattr(solver, "ground_voids", counted)
    return calls


def test_axes_without_a_value_share_fresh_names_along_equalities(monkeypatch):
    calls = _counting(monkeypatch)
    # s's values are not known, its length is: y has rank 2 and no dims; Relu keeps them,
    # Transpose swaps them
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[6]"}, "s": {"dtype": "i64", "shape": "[2]"}},
         "nodes": [{"op": "Reshape", "inputs": ["x", "s"], "outputs": ["y"]},
                   {"op": "Relu", "inputs": ["y"], "outputs": ["z"]},
                   {"op": "Transpose", "inputs": ["z"], "outputs": ["t"]}]}
    sol = shape_logic.solve(g)
    assert sol.shape("y") == sol.shape("z") == "[_1, _2]"
    assert sol.shape("t") == "[_2, _1]"
    assert calls == [1]


def test_no_void_axis_no_voids_grounding(monkeypatch):
    calls = _counting(monkeypatch)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, 3]"}},
         "nodes": [{"op": "Relu", "inputs": ["x"], "outputs": ["y"]}]}
    assert shape_logic.solve(g).shape("y") == "[b, 3]"
    assert calls == []
