"""An operator test file's data cases as one parametrized test."""
import pytest

from shape_logic.testing import check_case


def case_test(op: str, cases: dict, opset: int | None = None, domain: str | None = None):
    """test_case over `cases` (name -> (spec, expected), as check_case takes them), each
    solved at `opset` unless its spec names another (None: as the spec says), its node of
    `domain` where given (com.microsoft's contrib ops)."""
    @pytest.mark.parametrize("name", cases)
    def test_case(name):
        spec, expected = cases[name]
        spec = spec if opset is None else {"opset": opset, **spec}
        check_case(op, spec if domain is None else {**spec, "domain": domain}, expected)
    return test_case
