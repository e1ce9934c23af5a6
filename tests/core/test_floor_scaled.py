"""Resize's floor(dim * scale) as onnxruntime (an f32 product) and onnx's reference (the
exact product) compute it: asp/float_ints.floor_scaled, checked against both runtimes'
arithmetic over every dim the size assumption allows (dims below 2^18)."""
from fractions import Fraction

import numpy as np
import pytest

from shape_logic.asp.float_ints import floor_fraction, floor_scaled
from shape_logic.symbolic.expr import Expr

SCALES = [0.3, 0.7, 1 / 3, 2 / 3, 0.1, 0.6, 0.9, 1.2, 2.7, 0.45, 1.5, 0.25, 0.8, 1.1, 3.3,
          0.05, 0.99, 1.01, 7.3]
h = Expr.sym("h")


def f32_scale(s: float) -> Fraction:
    return Fraction(float(np.float32(s)))


def both_runtimes(x: np.ndarray, scale: Fraction):
    """floor(x * scale) with the product in f32 (onnxruntime) and exact (the reference)."""
    f32 = np.floor(x.astype(np.float32) * np.float32(scale)).astype(np.int64)
    exact = (x * scale.numerator) // scale.denominator  # (the denominator is a power of 2)
    return f32, exact


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("coef, const", [(1, 0), (2, 1), (3, 2)])
def test_a_stated_floor_holds_for_every_dim_below_2_18(s, coef, const):
    scale, dim = f32_scale(s), h * coef + const
    near = floor_fraction(dim, scale)
    if near is None:
        assert floor_scaled(dim, scale) is None
        return
    x = np.arange(1, 2**18, dtype=np.int64) * coef + const
    f32, exact = both_runtimes(x, scale)
    assert np.array_equal(f32, exact), f"{s}: the runtimes disagree, yet {near} is stated"
    assert np.array_equal((x * near.numerator) // near.denominator, f32), (s, near)
    e = floor_scaled(dim, scale)  # the dim the rule gets is that fraction's floor
    for v in (1, 7, 10, 999, 2**18 - 1):
        want = ((coef * v + const) * near.numerator) // near.denominator
        assert e.subs({"h": Expr.const(v)}) == Expr.const(want)


def test_which_scales_are_stated():
    """0.3 (a little above 3/10) is; 0.7 and 0.9 (a little below) are not, as 10 * 0.7 is
    6.99999988 exactly and 7 in f32: the runtimes disagree."""
    def read(s):
        return floor_scaled(h, f32_scale(s))
    assert str(read(0.3)) == "3*h//10" and str(read(0.1)) == "h//10"
    assert str(read(1.5)) == "3*h//2"  # an exact product
    assert read(0.7) is None and read(0.9) is None
    f32, exact = both_runtimes(np.array([10]), f32_scale(0.7))
    assert (f32[0], exact[0]) == (7, 6)
    # a known dim: the f32 product is computed (20 * 0.7 floors to 14 in f32, 13 exactly)
    assert floor_scaled(Expr.const(20), f32_scale(0.7)) is None
    assert floor_scaled(Expr.const(16), f32_scale(0.3)) == Expr.const(4)
