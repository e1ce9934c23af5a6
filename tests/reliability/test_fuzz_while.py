"""While-loop fuzzing in CI (bench/fuzz_while.py runs as many as asked): random loops that a
counter's comparison stops, their scan outputs' length against onnxruntime's at 15 sizes."""
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fuzz_while  # noqa: E402


def test_random_while_loops_are_counted_soundly():
    r = random.Random(53)
    outcomes = [fuzz_while.check(fuzz_while.random_model(r)[0]) for _ in range(30)]
    assert "wrong" not in outcomes
    # counted where the condition decides it, open where it does not (a step of 2, a start
    # the condition may refuse)
    assert outcomes.count("known") >= 6 and outcomes.count("open") >= 6, outcomes
