"""A graph input's element read as a size (TopK's k, ConstantOfShape's shape, Tile's repeats,
Split's sizes, Expand's target, Resize's sizes, a window's length, OneHot's depth, DFT's
length, AffineGrid's size: counts.lp's size_read) is a name of its own, `_c1`, >= 0 wherever
the graph runs (each of those nodes fails on a negative one), that arithmetic keeps: two
TopKs by one k give one size, their join twice it. onnxruntime's symbolic inference gives
each a new symbol."""
import json

import numpy as np
import pytest

from shape_logic import run, solve

from .core.test_cli import cli


def _model():
    from onnx import TensorProto, helper

    from tests.onnx_graphs import N

    i64 = TensorProto.INT64
    g = helper.make_graph([
        N("TopK", "x k", "v1 i1", axis=1), N("TopK", "x k", "v2 i2", axis=1),
        N("Concat", "v1 v2", "j", axis=1),
        N("ConstantOfShape", "s", "c1"), N("ConstantOfShape", "s", "c2"),
        N("Add", "c1 c2", "cc"),
        N("Tile", "x r", "t"),
        N("Split", "x sizes", "p q", axis=0),
        N("HannWindow", "n", "w"), N("Concat", "w w", "ww", axis=0),
        N("Expand", "x e", "ex"),
        helper.make_node("Resize", ["x", "", "", "rs"], ["rz"], mode="nearest")],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["a", "b"]),
              helper.make_tensor_value_info("k", i64, [1]),
              helper.make_tensor_value_info("s", i64, [2]),
              helper.make_tensor_value_info("r", i64, [2]),
              helper.make_tensor_value_info("sizes", i64, [2]),
              helper.make_tensor_value_info("n", i64, []),
              helper.make_tensor_value_info("e", i64, [3]),
              helper.make_tensor_value_info("rs", i64, [2])],
        [helper.make_tensor_value_info(t, TensorProto.FLOAT, None)
         for t in ("j", "cc", "t", "p", "q", "ww", "ex", "rz")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_an_input_read_as_a_size_is_a_name_arithmetic_keeps():
    from tests.onnx_graphs import assert_runtime_shapes_binding_fresh

    model = _model()
    sol = solve(model)
    assert sol.status == "ok"
    name = {place: s for s, place in sol.input_values.items()}
    assert set(name) == {"k[0]", "s[0]", "s[1]", "r[0]", "r[1]", "sizes[0]", "n", "e[0]",
                         "rs[0]", "rs[1]"}
    k, n = name["k[0]"], name["n"]
    assert sol.shape("v1") == sol.shape("v2") == f"[a, {k}]"
    assert sol.shape("j") == f"[a, 2*{k}]"
    assert sol.shape("c1") == sol.shape("c2") == sol.shape("cc") == \
        f"[{name['s[0]']}, {name['s[1]']}]"
    assert sol.shape("t") == f"[{name['r[0]']}*a, {name['r[1]']}*b]"
    assert sol.shape("p") == f"[{name['sizes[0]']}, b]"
    assert sol.shape("q") == f"[a - {name['sizes[0]']}, b]"  # (the sizes add up to a)
    assert sol.shape("ww") == f"[2*{n}]"
    # (a and b may be 1: e's others are the two axes' sizes then)
    assert sol.shape("ex") == f"[{name['e[0]']}, _1, _2]"
    assert sol.shape("rz") == f"[{name['rs[0]']}, {name['rs[1]']}]"
    assert sol.ranges[k] == [0, "b"] and sol.ranges[name["sizes[0]"]] == [0, "a"]
    rng = np.random.default_rng(0)
    feeds = []
    for a, b, kk, s, r, first, nn, e in ((3, 4, 2, [2, 3], [1, 2], 1, 5, [2, 1, 4]),
                                         (2, 5, 0, [0, 4], [0, 3], 0, 0, [0, 2, 1]),
                                         (4, 1, 1, [1, 0], [2, 0], 4, 1, [3, 4, 1])):
        feeds.append({"x": rng.standard_normal((a, b)).astype(np.float32),
                      "k": np.array([kk]), "s": np.array(s), "r": np.array(r),
                      "sizes": np.array([first, a - first]), "n": np.array(nn),
                      "e": np.array(e), "rs": np.array([2 * a, b + 1])})
    # onnxruntime's shapes at each, every name bound by an axis it names alone...
    assert_runtime_shapes_binding_fresh(model, sol, feeds)
    # ... and each name is the value of the element it stands for
    for f in feeds:
        values = {"k[0]": f["k"][0], "s[0]": f["s"][0], "s[1]": f["s"][1], "r[0]": f["r"][0],
                  "r[1]": f["r"][1], "sizes[0]": f["sizes"][0], "n": int(f["n"])}
        values.update({"e[0]": f["e"][0], "rs[0]": f["rs"][0], "rs[1]": f["rs"][1]})
        shown = {"k[0]": ("v1", 1), "s[0]": ("c1", 0), "s[1]": ("c1", 1), "n": ("w", 0),
                 "sizes[0]": ("p", 0), "e[0]": ("ex", 0), "rs[0]": ("rz", 0),
                 "rs[1]": ("rz", 1)}
        outs = run(model, f)  # (our executor checks every tensor against the inference)
        for place, (t, axis) in shown.items():
            if t in outs:
                assert outs[t].shape[axis] == values[place]


def test_a_value_the_graph_fixes_is_said():
    # k's TopK joined to a [1, 4] along the batch: k is 4 wherever the graph runs
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, n]"},
                    "k": {"dtype": "i64", "shape": "[1]"},
                    "y": {"dtype": "f32", "shape": "[1, 4]"}},
         "nodes": [{"name": "t", "op": "TopK", "inputs": ["x", "k"], "outputs": ["v", "i"],
                    "attrs": {"axis": 1}},
                   {"name": "c", "op": "Concat", "inputs": ["v", "y"], "outputs": ["j"],
                    "attrs": {"axis": 0}}]}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("v") == "[b, 4]" and sol.shape("j") == "[b + 1, 4]"
    assert sol.warnings == ['element 0 of input k, read as a size by TopK "t", is 4 wherever '
                            'the graph runs: the graph fixes a value the data gives']
    assert not sol.input_values


def test_the_fixed_value_names_the_node_that_reads_it_as_a_size():
    # k is read by a Shape first, then by the TopK: the warning names the TopK
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, n]"},
                    "k": {"dtype": "i64", "shape": "[1]"},
                    "y": {"dtype": "f32", "shape": "[1, 4]"}},
         "nodes": [{"name": "ks", "op": "Shape", "inputs": ["k"], "outputs": ["kshape"]},
                   {"name": "t", "op": "TopK", "inputs": ["x", "k"], "outputs": ["v", "i"],
                    "attrs": {"axis": 1}},
                   {"name": "c", "op": "Concat", "inputs": ["v", "y"], "outputs": ["j"],
                    "attrs": {"axis": 0}}]}
    sol = solve(g)
    assert sol.warnings == ['element 0 of input k, read as a size by TopK "t", is 4 wherever '
                            'the graph runs: the graph fixes a value the data gives']


@pytest.mark.parametrize("how", ["initializer", "float input", "in a body"])
def test_no_name_where_the_value_is_no_input_size(how):
    # an initializer's k is its value; a float depth is no size of ours (OneHot truncates
    # it); a body reads k through a copy, and its node runs only where the Loop iterates
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, n]"},
                    "k": {"dtype": "i64", "shape": "[1]"}},
         "nodes": [{"op": "TopK", "inputs": ["x", "k"], "outputs": ["v", "i"]}]}
    if how == "initializer":
        g["inputs"].pop("k")
        g["initializers"] = {"k": {"dtype": "i64", "data": [2]}}
        assert solve(g).shape("v") == "[b, 2]"
        return
    if how == "float input":
        g = {"inputs": {"i": {"dtype": "i64", "shape": "[n]"},
                        "d": {"dtype": "f32", "shape": "[]"},
                        "vals": {"dtype": "f32", "shape": "[2]"}},
             "nodes": [{"op": "OneHot", "inputs": ["i", "d", "vals"], "outputs": ["y"]}]}
        sol = solve(g)
        assert sol.shape("y") == "[n, _1]" and not sol.input_values
        return
    body = {"inputs": {"it": {"dtype": "i64", "shape": "[]"},
                       "cond": {"dtype": "bool", "shape": "[]"}},
            "nodes": [{"op": "TopK", "inputs": ["x", "k"], "outputs": ["v", "i"]},
                      {"op": "Identity", "inputs": ["cond"], "outputs": ["c_out"]}],
            "outputs": ["c_out", "v"]}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[b, n]"},
                    "k": {"dtype": "i64", "shape": "[1]"}},
         "initializers": {"m": {"dtype": "i64", "data": 2}},
         "nodes": [{"op": "Loop", "inputs": ["m", ""], "outputs": ["vs"],
                    "attrs": {"body": body}}]}
    sol = solve(g)
    assert sol.status == "ok", sol.to_text()
    assert not sol.input_values and sol.shape("vs") == "[2, b, _1]"


def test_the_names_are_listed_in_text_and_json(tmp_path):
    g = {"inputs": {"s": {"dtype": "i64", "shape": "[2]"}},
         "nodes": [{"op": "ConstantOfShape", "inputs": ["s"], "outputs": ["y"]}]}
    p = tmp_path / "g.json"
    p.write_text(json.dumps(g))
    r = cli("solve", p)
    assert r.returncode == 0 and "y       f32    [_c1, _c2]" in r.stdout
    assert "input values: _c1 = s[0], _c2 = s[1]" in r.stdout
    r = cli("solve", p, "--format", "json")
    assert json.loads(r.stdout)["input_values"] == {"_c1": "s[0]", "_c2": "s[1]"}


def _declared(v, c):
    from onnx import TensorProto, helper

    from tests.onnx_graphs import N

    g = helper.make_graph(
        [N("TopK", "x k", "v i", axis=1), N("ConstantOfShape", "s", "c")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "M"]),
         helper.make_tensor_value_info("k", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, v),
         helper.make_tensor_value_info("i", TensorProto.INT64, None),
         helper.make_tensor_value_info("c", TensorProto.FLOAT, c)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_an_exporters_names_for_the_values_are_kept_and_listed():
    # names of the exporter's own name the values (kept: they say nothing of the input
    # dims); traced sizes would fix them, and are set aside (narrowing.py)
    sol = solve(_declared(["N", "kk"], ["h", "w"]))
    assert sol.shape("v") == "[N, kk]" and sol.shape("c") == "[h, w]" and not sol.warnings
    assert sol.input_values == {"h": "s[0]", "w": "s[1]", "kk": "k[0]"}
    sol = solve(_declared(["N", 3], [2, 5]))
    assert sol.shape("v") == "[N, _c1]" and sol.shape("c") == "[_c2, _c3]"
    assert sol.input_values == {"_c1": "k[0]", "_c2": "s[0]", "_c3": "s[1]"}
    assert sorted(sol.set_aside) == ["c", "v"]


def test_a_declared_name_that_labels_a_value_and_a_size_of_it_is_kept():
    # (fuzz --kind ops --narrowing --seed 9622, graph 1281) a window as long as an input
    # says, and the STFT's frames over 5 samples by steps of 3: the exporter names the
    # window's length and writes the frame count in that name; the graph gives both in
    # its own name for the length, so the declaration only labels them
    from onnx import TensorProto, helper, numpy_helper

    from tests.onnx_graphs import N

    g = helper.make_graph(
        [N("HannWindow", "n", "w"), N("STFT", "x step w", "y", onesided=0)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", 5, 1]),
         helper.make_tensor_value_info("n", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       ["b", "(2 - win)//3 + 2", "win", 2])],
        [numpy_helper.from_array(np.array(3, np.int64), "step")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    sol = solve(model)
    assert sol.status == "ok" and not sol.set_aside and not sol.warnings
    assert sol.shape("y") == "[b, (2 - win)//3 + 2, win, 2]"
    assert sol.input_values == {"win": "n"}
    for n in (1, 2, 5):  # (frames (5 - n)//3 + 1; our executor checks every tensor too)
        out = run(model, {"x": np.ones((2, 5, 1), np.float32), "n": np.array(n)})
        assert out["y"].shape == (2, (2 - n) // 3 + 2, n, 2)
