"""Hypothesis runs the same examples on every run (derandomized): a failure in CI can be
reproduced, and CI does not fail at random on a case no change has touched. To look for
new cases, run with another profile: `HYPOTHESIS_PROFILE=explore python -m pytest tests/ops`
(bench/fuzz.py and bench/fuzz_input.py do the same for whole graphs)."""
import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def narrowing_solves(monkeypatch):
    """The solves narrowing makes of a model (narrowing._solved_with), as they are made:
    (the outputs whose declarations are in force, the solve's cancel event or None, the
    floors it starts under)."""
    from shape_logic import narrowing

    calls = []
    solved_with = narrowing._solved_with

    def spy(problem, outputs, cancel=None, floors=None):
        calls.append((list(outputs), cancel, floors))
        return solved_with(problem, outputs, cancel, floors)

    monkeypatch.setattr(narrowing, "_solved_with", spy)
    return calls
