"""ONNX's node test cases with every input dim a symbol (shape_logic/conformance_symbolic.py):
every fifth case, for time; `python -m shape_logic.conformance_symbolic` runs them all
(1824 sound, 0 wrong, 0 rejected, 0 gave up at the last count)."""
import pytest

from shape_logic.conformance import supported_cases
from shape_logic.conformance_symbolic import check_case

SAMPLE = {c.name: c for c in list(supported_cases())[::5]}


@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_symbolic_case(name):
    outcome = check_case(SAMPLE[name])
    if outcome is None:
        pytest.skip("an input axis of 0 (symbols stand for sizes >= 1)")
    assert outcome.verdict == "sound", f"{outcome.verdict}: {outcome.message}"


def test_a_scan_body_that_surely_runs_shares_the_graph_names():
    """LinearAttention's function expanded (a Scan over the sequence) with symbolic inputs:
    the body's copies of `d0_2//8` are the graph's, by their names (encodings/scopes.lp's
    scope_name); compared as dims only, the two spellings met in every broadcast and the
    solve gave up at the time limit."""
    case = next(c for c in supported_cases() if c.name == "test_linear_attention_fp16_expanded")
    outcome = check_case(case)
    assert outcome.verdict == "sound" and outcome.known >= 6, outcome
