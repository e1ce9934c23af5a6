"""ONNX's model test cases (onnx/backend/test/data: pytorch-converted, pytorch-operator,
simple) as conformance cases: `python -m shape_logic.conformance_models`.

These are whole models, mostly PyTorch layers exported at opset 6 (legacy broadcasting,
PRelu's per-channel slope), with recorded inputs and outputs in protobuf files. Each is
checked as a node case is: the solver's output shapes and dtypes from the inputs' shapes
(shape_logic/conformance.py) and the executor's outputs (conformance_exec.py). Cases
whose inputs or outputs are not tensors (sequences) or that use an operator without a
rule file are left out.
"""
from __future__ import annotations

import glob
import os
import warnings
from dataclasses import dataclass, field
from functools import lru_cache

from .asp.program import available_ops
from .conformance import _tensor_io, case_ops

KINDS = ("pytorch-converted", "pytorch-operator", "simple")


@dataclass
class ModelCase:
    """What conformance.check_case and conformance_exec.run_case read of a node case."""

    name: str
    kind: str
    model: object
    data_sets: list = field(default_factory=list)  # [(inputs, outputs)]
    rtol: float = 1e-3
    atol: float = 1e-7


def _tensors(directory: str, prefix: str) -> list:
    """The arrays of a data set's input_K.pb (or output_K.pb) files, in K's order."""
    import onnx
    from onnx import numpy_helper

    paths = glob.glob(os.path.join(directory, f"{prefix}_*.pb"))
    return [numpy_helper.to_array(onnx.load_tensor(path))
            for path in sorted(paths, key=lambda p: int(p.rsplit("_", 1)[1][:-len(".pb")]))]


@lru_cache(maxsize=1)
def model_cases() -> tuple[ModelCase, ...]:
    """Every model case of KINDS whose inputs and outputs are tensors and whose operators
    all have rule files."""
    import onnx

    root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
    known = set(available_ops())
    out = []
    for kind in KINDS:
        for d in sorted(glob.glob(os.path.join(root, kind, "*"))):
            model = onnx.load(os.path.join(d, "model.onnx"))
            sets = [(_tensors(s, "input"), _tensors(s, "output"))
                    for s in sorted(glob.glob(os.path.join(d, "test_data_set_*")))]
            case = ModelCase(os.path.basename(d), kind, model, sets)
            if sets and _tensor_io(case) and case_ops(case) <= known:
                out.append(case)
    return tuple(out)


if __name__ == "__main__":
    from .conformance import check_case
    from .conformance_exec import run_case

    shapes = runs = 0
    cases = model_cases()
    for case in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s, r = check_case(case), run_case(case)
        shapes, runs = shapes + s.ok, runs + r.ok
        if not (s.ok and r.ok):
            print(f"{case.kind}/{case.name}: " + "; ".join(
                f"{what}: {o.message}" for what, o in (("shapes", s), ("run", r)) if not o.ok))
    print(f"shapes {shapes}/{len(cases)}, executor {runs}/{len(cases)}")
