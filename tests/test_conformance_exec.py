"""ONNX's node test cases through `shape_logic.run` (see shape_logic/conformance_exec.py):
every case must match its recorded outputs, except the known failures below."""
import re
from importlib.util import find_spec

import pytest

from shape_logic.conformance_exec import run_case, runnable_cases

# Known failures, each with its reason. Cases matching these may pass one day (xfail is
# not strict); any other failure fails the suite.
KNOWN_FAILURES: list[re.Pattern] = [
    # (the small types NumPy lacks - bfloat16, float8, float4, 4- and 2-bit integers - are
    # ml_dtypes', shape_logic/graph.py)
    # Bernoulli's values are random draws: the recorded ones are NumPy's legacy generator's
    # (np.random.binomial, unseeded even in test_bernoulli_seed), which no runtime
    # reproduces; the shapes and types match (tests/test_conformance_shapes.py)
    re.compile(r"^test_bernoulli(_double|_seed)?(_expanded)?$"),
]

CASES = {c.name: c for c in runnable_cases()}


def known(name: str) -> bool:
    return any(p.search(name) for p in KNOWN_FAILURES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_node_case(name):
    if name.startswith("test_image_decoder") and find_spec("PIL") is None:
        pytest.skip("ImageDecoder's kernel decodes with Pillow (the test extra has it)")
    outcome = run_case(CASES[name])
    if not outcome.ok and known(name):
        pytest.xfail(outcome.message)
    state = "checked" if outcome.checked else "unchecked"
    assert outcome.ok, f"{name} ({state}): {outcome.message}"


def test_enough_cases_run():
    assert len(CASES) > 1000
