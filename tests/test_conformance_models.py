"""ONNX's model test cases (pytorch-converted, pytorch-operator, simple; see
shape_logic/conformance_models.py): the solver's output shapes and the executor's outputs
against the recorded ones, and the shapes solved with every input dim a symbol
(conformance_symbolic.py) sound at the recorded sizes."""
import re
import warnings

import pytest

from shape_logic.conformance import check_case
from shape_logic.conformance_exec import run_case
from shape_logic.conformance_models import model_cases
from shape_logic.conformance_symbolic import check_case as check_symbolic

CASES = {f"{c.kind}/{c.name}": c for c in model_cases()}
# StringNormalizer's output length is how many strings are not stopwords: it depends on
# the input's strings, which the solver is not given (a count's name, `_c1`, never a guess)
OPEN_BY_DATA = re.compile(r"^simple/test_strnorm_model_")


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_case(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shapes, run = check_case(CASES[name]), run_case(CASES[name])
    assert run.ok, f"{name}: {run.message}"
    symbolic = check_symbolic(CASES[name])
    assert symbolic is None or symbolic.verdict == "sound", symbolic
    if OPEN_BY_DATA.search(name) and not shapes.ok:  # (without stopwords it is known)
        assert re.search(r"inferred \[(\d+, )*_c1\]", shapes.message), shapes.message
        return
    assert shapes.ok, f"{name}: {shapes.message}"


def test_the_cases_are_there():
    kinds = {c.kind for c in CASES.values()}
    assert kinds == {"pytorch-converted", "pytorch-operator", "simple"} and len(CASES) >= 120
