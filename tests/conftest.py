"""Hypothesis runs the same examples on every run (derandomized): a failure in CI can be
reproduced, and CI does not fail at random on a case no change has touched. To look for
new cases, run with another profile: `HYPOTHESIS_PROFILE=explore python -m pytest tests/ops`
(bench/fuzz.py and bench/fuzz_input.py do the same for whole graphs)."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
