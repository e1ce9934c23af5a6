"""LpPool: rules/LpPool.lp on data cases, and against onnx's reference."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case

from .pooling import (backward_range, check_pool, common_pool_quirks, draw_pool,
                      one_output_cases)

CASES = one_output_cases({"p": 3})


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("LpPool", *CASES[name])


def test_backward_range():
    # (h - 2)//2 + 1 = 112: h is 224 or 225
    backward_range("LpPool", CASES, 224)


@st.composite
def pools(draw):
    def adjust(draw, attrs, auto_pad, nsp):
        common_pool_quirks(attrs, auto_pad)
        if draw(st.booleans()):
            attrs["p"] = draw(st.integers(1, 3))

    return draw_pool(draw, adjust)


@settings(max_examples=20, deadline=None)
@given(pools())
def test_matches_reference(case):
    check_pool("LpPool", *case)
