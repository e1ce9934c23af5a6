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
