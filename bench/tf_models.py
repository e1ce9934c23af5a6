"""Models as tf2onnx converts them from TensorFlow and Keras (bench/tf_export.py: Keras
applications at any image size, Keras text and audio models, tf.functions of data-dependent
and computed sizes, branches and loops). tf2onnx writes NHWC graphs with Transposes around
every convolution, sizes through Shape, Cast and Slice, and `unk__N` dim_params for the
dims it does not know.

Per model, the three tools as bench/compare_peers.py scores them (onnxruntime's truths at
two input sizes) and what we say the graph requires of its input sizes, checked at the
sizes of the other feed and more (bench/pypi_models.requirements).

tensorflow and tf2onnx pin a protobuf of their own, so the models are exported by another
interpreter, once, into bench/.tf_models (ignored by git):

    python bench/tf_models.py [--tf-python PATH] [--opset N] [--only NAME ...]

--tf-python: an interpreter with tensorflow and tf2onnx (default: $SHAPE_LOGIC_TF_PYTHON;
`python -m venv env && env/bin/pip install tensorflow-cpu tf2onnx` makes one). --opset: the
ONNX opset tf2onnx converts to (default 17; others into bench/.tf_models/opsetN): tf2onnx
lowers differently by opset (at 11 it writes Einsum, which opset 12 brought, with an
attribute N of TensorFlow's, and onnxruntime and we refuse the file).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_peers as C  # noqa: E402
import pypi_models  # noqa: E402
from tests.onnx_graphs import random_feeds  # noqa: E402

CACHE = os.path.join(HERE, ".tf_models")
R = np.random.default_rng(0)


def export(python: str | None, only: list, opset: int | None = None) -> list:
    """The names exported into CACHE (for another `opset`, its own directory), exporting
    those missing with `python`."""
    global CACHE
    if opset is not None:
        CACHE = os.path.join(HERE, ".tf_models", f"opset{opset}")
    names = _names()
    missing = [n for n in (only or names) if not os.path.exists(_path(n, ".json"))]
    if missing:
        if not python:
            sys.exit(f"tf_models: {', '.join(missing)} not in {CACHE}: give --tf-python")
        subprocess.run([python, os.path.join(HERE, "tf_export.py"),
                        *(["--opset", str(opset)] if opset else []), CACHE, *missing],
                       check=True)
    return [n for n in (only or names) if os.path.exists(_path(n, ".json"))]


def _names() -> list:
    """The models of tf_export.MODELS, read from its text (it imports tensorflow)."""
    import ast

    tree = ast.parse(open(os.path.join(HERE, "tf_export.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "MODELS":
            return [k.value for k in node.value.keys]
    return []


def _path(name: str, ext: str) -> str:
    return os.path.join(CACHE, name + ext)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tf-python", default=os.environ.get("SHAPE_LOGIC_TF_PYTHON"))
    ap.add_argument("--opset", type=int)
    ap.add_argument("--only", nargs="*", default=[])
    args = ap.parse_args(argv)
    pypi_models.quiet_peers()
    totals = {t: [0, 0, 0, 0.0] for t in C.TOOLS}
    print(f"{'model':22} {'tensors':>7}  " + "  ".join(f"{t:>24}" for t in C.TOOLS))
    for name in export(args.tf_python, args.only, args.opset):
        with open(_path(name, ".json")) as f:
            sizes = json.load(f)
        model = onnx.load(_path(name, ".onnx"))
        scored = random_feeds(model, sizes, R)
        # (what we require checked at the scored sizes: tf_export gives no others)
        pypi_models.score_file(name, _path(name, ".onnx"), scored, scored, totals, 22, model)
    n = totals["shape-logic"][1]
    print(f"{'total':22} {n:7d}  " + "  ".join(
        C.compact_cell(k, n, w, dt) for k, n, w, dt in totals.values()))


if __name__ == "__main__":
    main()
