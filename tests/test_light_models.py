"""onnx's "light" models (onnx/backend/test/data/light) through the executor: inputs made
as onnx's backend test runner makes them, the output compared with the recorded one."""
import os
import sys

import numpy as np
import pytest

from shape_logic.asp.program import available_ops
from shape_logic.executor import Program
from shape_logic.kernels import run_threads

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
from executor import light_models, load_case

MODELS = {os.path.basename(p)[6:-5]: p for p in light_models()}
# the biggest: a few seconds each unchecked, more when solved (still run in CI)
SLOW = {"densenet121", "vgg19", "inception_v2", "resnet50", "inception_v1"}


def params():
    for name in sorted(MODELS):
        marks = [pytest.mark.slow] if name in SLOW else []
        yield pytest.param(name, marks=marks, id=name)


def run_model(name: str, check: bool):
    model, feeds, want = load_case(MODELS[name])
    out = Program(model, check=check).run(feeds)
    (got,) = out.values()
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-5)
    return out


def test_all_light_models_found():
    assert len(MODELS) >= 9, sorted(MODELS)


def machine(monkeypatch, others: int) -> None:
    """Runs as on a machine where `others` threads of other processes run: 0 gives the
    threads to BLAS, more to our parts (kernels/run_threads.py), whatever else the
    machine running the tests does."""
    monkeypatch.setattr(run_threads, "others_running", lambda proc="/proc": others)
    monkeypatch.setattr(run_threads, "RECHECK", 0.0)


@pytest.mark.parametrize("name", params())
def test_light_model_values(name, monkeypatch):
    machine(monkeypatch, 0)  # (a quiet machine: OpenBLAS's threads)
    run_model(name, check=False)


@pytest.mark.parametrize("name", params())
def test_light_model_checked(name, monkeypatch):
    machine(monkeypatch, 64)  # (a busy one: our parts)
    model, _, _ = load_case(MODELS[name])
    missing = sorted({n.op_type for n in model.graph.node} - set(available_ops()))
    if missing:
        pytest.skip(f"no rule files yet for {', '.join(missing)}: shapes cannot be solved")
    out = run_model(name, check=True)
    assert out.data_dependent == {}
