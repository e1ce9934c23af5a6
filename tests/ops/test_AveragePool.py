"""AveragePool: rules/AveragePool.lp on data cases, and against onnx's reference."""
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case

from .pooling import (backward_range, check_pool, common_pool_quirks, draw_pool,
                      one_output_cases)

# (AveragePool has dilations since opset 19)
CASES = one_output_cases({"count_include_pad": 1}, dilations_opset=19)


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    check_case("AveragePool", *CASES[name])


def test_backward_range():
    # (h - 2)//2 + 1 = 112: h is 224 or 225
    backward_range("AveragePool", CASES, 224)


@st.composite
def pools(draw):
    def adjust(draw, attrs, auto_pad, nsp):
        common_pool_quirks(attrs, auto_pad)
        if draw(st.booleans()):
            attrs["count_include_pad"] = draw(st.integers(0, 1))

    return draw_pool(draw, adjust)


@settings(max_examples=20, deadline=None)
@given(pools())
def test_matches_reference(case):
    check_pool("AveragePool", *case, opset=19)
