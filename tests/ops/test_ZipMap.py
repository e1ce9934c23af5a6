"""ZipMap (ai.onnx.ml 1): rules/ZipMap.lp on data cases; the rule and our kernel against
onnxruntime on one node (the sequence's length; the maps as its Python API gives them);
skl2onnx's classifiers with their ZipMap (its default) solved, and run by the executor
and `shape-logic run` as onnxruntime runs them."""
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import shape_logic
from shape_logic.kernels import load_kernel
from shape_logic.kernels.base import KernelError
from shape_logic.testing import infer
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML

ROOT = Path(__file__).resolve().parents[2]
INTS = {"classlabels_int64s": [4, 5, 6]}


def zm(shape, dtype="f32", **attrs):
    return {"inputs": [(dtype, shape)], "attrs": attrs or INTS, "domain": ML}


CASES = {
    "rows of scores": (zm("[n, 3]"), {"x0": "[n, 3]"}),
    "the classes bound to the labels": (zm("[n, c]"), {"x0": "[n, 3]", "bindings": {"c": 3}}),
    "string labels": (zm("[n, c]", classlabels_strings=["a", "b"]), {"x0": "[n, 2]"}),
    "a 1-D X is one row": (zm("[c]"), {"x0": "[3]"}),
    "an empty list is none": (zm("[n, 3]", classlabels_int64s=[4, 5, 6],
                                 classlabels_strings=[]), {"x0": "[n, 3]"}),
    "unknown rank": (zm("X"), {"x0": "X"}),
    # errors
    "fewer labels than classes": (zm("[n, 4]"), "error"),
    "more labels than classes": (zm("[n, 2]"), "error"),
    "both label lists": (zm("[n, 3]", classlabels_int64s=[1, 2, 3],
                            classlabels_strings=["a", "b", "c"]), "error"),
    "no labels": (zm("[n, 3]", classlabels_int64s=[]), "error"),
    "double X": (zm("[n, 3]", "f64"), "error"),
    "int64 X": (zm("[n, 3]", "i64"), "error"),
    "rank 3 X": (zm("[n, 3, 1]"), "error"),
    "scalar X": (zm("[]"), "error"),
}

test_case = case_test("ZipMap", CASES)


@pytest.mark.parametrize("shape, length", [("[n, 3]", "n"), ("[7, c]", 7), ("[3]", 1)])
def test_the_sequence_has_a_map_per_row(shape, length):
    sol = infer("ZipMap", [("f32", shape)], INTS, domain=ML)
    assert sol.status == "ok" and sol.sequence("y0") == {"length": length}
    assert sol.dtype("y0") is None and sol.dims("y0") is None  # (maps: no tensor's shape)


# ----- one node against onnxruntime

def ort_zipmap(x, attrs):
    """onnxruntime's sequence of maps (a list of dicts) for one ZipMap node; its lists
    built typed (an empty one too)."""
    import onnxruntime as ort
    from onnx import AttributeProto, helper

    kinds = {"classlabels_int64s": AttributeProto.INTS,
             "classlabels_strings": AttributeProto.STRINGS}
    node = helper.make_node("ZipMap", ["x0"], ["y0"], domain=ML)
    node.attribute.extend(helper.make_attribute(k, v, attr_type=kinds[k])
                          for k, v in attrs.items())
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x0", elem, x.shape)],
                              [helper.make_empty_tensor_value_info("y0")])
    model = helper.make_model(graph, ir_version=10, opset_imports=[
        helper.make_opsetid("", 21), helper.make_opsetid(ML, 1)])
    so = ort.SessionOptions()
    so.log_severity_level = 4
    session = ort.InferenceSession(model.SerializeToString(), so,
                                   providers=["CPUExecutionProvider"])
    return session.run(None, {"x0": x})[0]


def _same_maps(got, want):
    assert type(got) is not np.ndarray and len(got) == len(want)
    for g, w in zip(got, want):
        assert list(g) == list(w) and [type(k) for k in g] == [type(k) for k in w], (g, w)
        assert all(type(v) is float for v in g.values()), g
        np.testing.assert_array_equal(list(g.values()), list(w.values()))


def _dtype_name(x):
    return {np.float32: "f32", np.float64: "f64", np.int64: "i64"}[x.dtype.type]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(0, 4), c=st.integers(1, 4),
       rank=st.sampled_from([1, 2, 2, 2, 2, 3]), strings=st.booleans(),
       more=st.sampled_from([0] * 6 + [1, -1, None]), dup=st.booleans(),
       other=st.sampled_from([None] * 4 + [[], "full"]),
       dtype=st.sampled_from([np.float32] * 6 + [np.float64]))
def test_matches_onnxruntime(seed, n, c, rank, strings, more, dup, other, dtype):
    rng = np.random.default_rng(seed)
    labels = 0 if more is None else c + more  # (mostly a label per class)
    shape = {1: (c,), 2: (n, c), 3: (n, c, 1)}[rank]
    x = rng.standard_normal(shape).astype(dtype)
    names = rng.choice(list("abcdefg"), size=labels) if strings \
        else rng.integers(-3, 9, size=labels)
    if dup and labels > 1:
        names[-1] = names[0]  # a label twice: its last column's score
    key, rest = ("classlabels_strings", "classlabels_int64s") if strings \
        else ("classlabels_int64s", "classlabels_strings")
    attrs = {key: [str(v) for v in names] if strings else [int(v) for v in names]}
    if other is not None:
        attrs[rest] = [] if other == [] else ["x", "y"] if not strings else [1, 2]
    spec = [(_dtype_name(x), "[" + ", ".join(map(str, shape)) + "]")]
    try:
        want = ort_zipmap(x, attrs)
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        sol = infer("ZipMap", spec, attrs, domain=ML)
        assert sol.status == "error", f"onnxruntime refuses ({str(e)[:200]}), the rules accept"
        with pytest.raises(KernelError):
            load_kernel("ZipMap")(attrs, domain=ML)(x)
        return
    _same_maps(load_kernel("ZipMap")(attrs, domain=ML)(x)[0], want)
    sol = infer("ZipMap", spec, attrs, domain=ML)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.sequence("y0") == {"length": len(want)}
    if 0 in shape:
        return  # symbols stand for sizes >= 1
    # every dim a symbol: the length is the rows' (a 1-D X is one row)
    names = [f"s{i}" for i in range(len(shape))]
    sol = infer("ZipMap", [(spec[0][0], "[" + ", ".join(names) + "]")], attrs, domain=ML)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.sequence("y0") == {"length": "s0" if len(shape) == 2 else 1}


# ----- skl2onnx's classifiers, their ZipMap on (to_onnx's default)

def _classifiers():
    pytest.importorskip("skl2onnx")
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from skl2onnx import to_onnx

    rng = np.random.default_rng(0)
    x = rng.standard_normal((40, 4)).astype(np.float32)
    three = np.digitize(x[:, 1], [-0.5, 0.5])
    words = np.array(["cat", "dog", "eel"])[three]
    models = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, est, y in (
                ("logistic regression", LogisticRegression(), three),
                ("random forest, string labels",
                 RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0), words)):
            models[name] = to_onnx(est.fit(x, y), x[:1])
    return x, models


@pytest.fixture(scope="module")
def classifiers():
    return _classifiers()


@pytest.mark.parametrize("name", ["logistic regression", "random forest, string labels"])
def test_skl2onnx_classifier_solved_and_run(classifiers, name, tmp_path):
    import onnxruntime as ort

    x, models = classifiers
    model = models[name]
    assert model.graph.node[-1].op_type == "ZipMap"
    sol = shape_logic.solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    batch = str(sol.dims("X")[0])  # the unnamed batch: a symbol
    assert sol.shape("output_label") == f"[{batch}]"
    assert sol.sequence("output_probability") == {"length": batch}
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for n in (1, 7):
        want_label, want_maps = session.run(None, {"X": x[:n]})
        got = shape_logic.run(model, {"X": x[:n]})
        assert got["output_label"].tolist() == want_label.tolist()
        assert len(got["output_probability"]) == n
        for g, w in zip(got["output_probability"], want_maps):
            assert list(g) == list(w)
            np.testing.assert_allclose(list(g.values()), list(w.values()), rtol=1e-5,
                                       atol=1e-6)
    # the command line: printed, and written as JSON (JSON's keys are strings)
    (tmp_path / "m.onnx").write_bytes(model.SerializeToString())
    np.save(tmp_path / "x.npy", x[:3])
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "run", tmp_path / "m.onnx",
                        "--input", f"X={tmp_path / 'x.npy'}", "-o", tmp_path / "out"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    key = "string" if "string" in name else "int64"
    assert f"output_probability: sequence of 3 maps {{{key}: float32}}" in r.stdout
    written = json.loads((tmp_path / "out" / "output_probability.json").read_text())
    want = session.run(None, {"X": x[:3]})[1]
    assert len(written) == 3
    for g, w in zip(written, want):
        assert list(g) == [str(k) for k in w]
        np.testing.assert_allclose(list(g.values()), list(w.values()), rtol=1e-5, atol=1e-6)
    assert (tmp_path / "out" / "output_label.npy").exists()
