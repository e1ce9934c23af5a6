"""The table of ONNX attribute schemas shipped beside attributes.py, and solving a JSON
graph without importing onnx (or ml_dtypes): ~0.8 s of every command-line run here."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shape_logic import attributes

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "axon_conv.json"


def _shipped_table() -> dict:
    """The shipped table; the test skips where it was written from another onnx version
    (the solver then reads onnx's registry)."""
    shipped = json.loads(attributes.TABLE.read_text())
    if shipped["onnx"] != attributes._onnx_version():
        pytest.skip(f"table written from onnx {shipped['onnx']}, installed "
                    f"{attributes._onnx_version()}: the solver reads onnx's registry "
                    "(regenerate it with attributes.write_table())")
    return shipped


def test_the_shipped_table_is_onnx_s_registry():
    assert _shipped_table()["ops"] == attributes.schema_table()


@pytest.mark.parametrize("op, opset, key, kind", [
    ("Conv", 17, "group", "INT"),
    ("Squeeze", 11, "axes", "INTS"),   # an attribute until opset 13...
    ("ReduceMax", 18, "axes", None),   # ... and an input from 18 on (no attribute)
    ("Upsample", 7, "scales", "FLOATS"),
    ("Resize", 10, "mode", "STRING"),
    ("Relu", 1, "consumed_inputs", "INTS"),
])
def test_attribute_types_as_onnx_gives_them(op, opset, key, kind):
    onnx_defs = pytest.importorskip("onnx.defs")
    types = attributes._attribute_types(op, opset)
    want = onnx_defs.get_schema(op, opset, "").attributes
    assert types == {k: int(a.type) for k, a in want.items()}
    assert types.get(key) == (None if kind is None else getattr(attributes.A, kind))


def test_a_json_graph_is_solved_without_importing_onnx():
    _shipped_table()
    code = ("import sys, shape_logic; s = shape_logic.solve(sys.argv[1]); "
            "print(s.status, 'onnx' in sys.modules, 'ml_dtypes' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["ok", "False", "False"]


def test_a_misspelt_attribute_is_still_an_input_error(tmp_path):
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 3, 8, 8]"},
                    "w": {"dtype": "f32", "shape": "[4, 3, 3, 3]"}},
         "nodes": [{"name": "c", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"],
                    "attrs": {"stride": [1, 1]}}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g))
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "solve", str(path)],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "Conv has no attribute 'stride'" in r.stderr and "Traceback" not in r.stderr


def test_the_shipped_tables_are_the_registries_of_ai_onnx_ml_and_onnxruntime():
    shipped = _shipped_table()
    assert shipped["ml"] == attributes.schema_table(attributes.ML_DOMAIN)
    ort = pytest.importorskip("onnxruntime")
    if shipped["onnxruntime"] != ort.__version__:
        pytest.skip(f"table written from onnxruntime {shipped['onnxruntime']}")
    assert shipped["contrib"] == attributes.contrib_table()


def _contrib_graph(op, inputs, attrs, domain="com.microsoft"):
    return {"inputs": {f"x{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(inputs)},
            "nodes": [{"name": "n", "op": op, "domain": domain, "attrs": attrs,
                       "inputs": [f"x{k}" for k in range(len(inputs))], "outputs": ["y"]}]}


@pytest.mark.parametrize("op, inputs, attrs, message", [
    # a type onnxruntime refuses too ("Mismatched attribute type"), once read as a number
    # bigger than every expert count by the rules
    ("MoEGroupRouter", ["[4, 8]", "[8]"], {"top_k": "two"},
     "MoEGroupRouter attribute 'top_k' must be an integer, not 'two'"),
    # a name onnxruntime refuses too ("Unrecognized attribute")
    ("FastGelu", ["[4, 8]"], {"approximate": 1}, "FastGelu has no attribute 'approximate'"),
    ("Conv", ["[1, 16, 5, 5]", "[16, 16, 3, 3]"], {"activation": 3},
     "Conv attribute 'activation' must be a string, not 3"),
])
def test_onnxruntime_s_attributes_are_checked_as_onnx_s(tmp_path, op, inputs, attrs, message):
    domain = "com.microsoft.nchwc" if op == "Conv" else "com.microsoft"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_contrib_graph(op, inputs, attrs, domain)))
    r = subprocess.run([sys.executable, "-m", "shape_logic.cli", "solve", str(path)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_ai_onnx_ml_floats_may_be_nan():
    """skl2onnx writes SimpleImputer(missing_values=nan) as Imputer's replaced_value_float
    NaN: a value it takes (ONNX's own operators take none)."""
    from shape_logic.testing import infer

    sol = infer("Imputer", ["[n, 2]"], {"imputed_value_floats": [1.0, 2.0],
                                         "replaced_value_float": float("nan")},
                domain="ai.onnx.ml")
    assert sol.status == "ok" and sol.shape("y0") == "[n, 2]"
    with pytest.raises(attributes.InputError, match="not NaN"):
        infer("LeakyRelu", ["[n, 2]"], {"alpha": float("nan")})
