"""Integers held exactly by float elements: positions and lengths that an exporter casts to
float (`torch.arange(past, past + t, dtype=float32)`), and integer-valued float constants.

A float element we follow as an integer E must equal E at run time, so every function here
answers "no value" unless the float type holds the integer exactly:

- a known integer: exactly when it is representable (at most `bits` significant bits, below
  the type's largest finite value), checked here, with no assumption;
- a symbolic integer: we cannot bound it, so we ASSUME what holds in practice: a size a
  graph computes in float that is linear in dims with small coefficients (a position, a
  length: `past_seq + seq`; coefficients adding up to at most 64) is below 2^24, within
  f32's exact range, and a product of two dims (an element count of a matrix) below 2^53,
  within f64's. Other expressions, and any symbolic value in f16 or bf16 (exact only up to
  2^11 and 2^8), are not followed.

IEEE arithmetic rounds the exact result, so add, sub and mul of exactly held integers give
the exact integer whenever that integer is held exactly itself; a quotient is an integer
only when the division is exact (then it is held as well: it is smaller than the dividend).
An inexact quotient of known integers is the float the type rounds it to (`quotient`).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..symbolic import ops
from ..symbolic.bounds import bounds
from ..symbolic.expr import Expr

# dtype -> (significant bits, exponent of the smallest power of 2 above the largest finite)
FLOAT_TYPES = {"f16": (11, 16), "bf16": (8, 128), "f32": (24, 128), "f64": (53, 1024)}
# dtype -> highest degree (in dims) of a symbolic integer assumed held exactly (see above)
SYMBOLIC_DEGREE = {"f32": 1, "f64": 2}


def held(e: Expr, dtype: str) -> bool:
    """Whether a float of `dtype` holds the integer e exactly (symbolic: by the assumption)."""
    if dtype not in FLOAT_TYPES:
        return False
    if e.is_int:
        bits, emax = FLOAT_TYPES[dtype]
        m = abs(e.value)
        if m == 0:
            return True
        odd = m >> ((m & -m).bit_length() - 1)  # m without its trailing zero bits
        return odd.bit_length() <= bits and m < 2**emax
    return e.degree() <= SYMBOLIC_DEGREE.get(dtype, 0) and _weight(e) <= MAX_WEIGHT


MAX_WEIGHT = 64  # the coefficients of a symbolic integer followed, added up in magnitude


def _weight(e: Expr) -> int:
    return sum(abs(c) for mono, c in e.terms if mono)


def integer_of_real(r: float, dtype: str) -> Expr | None:
    """The integer a float element r is, when it is one (an integer-valued constant)."""
    if not math.isfinite(r) or r != math.floor(r):
        return None
    e = Expr.const(int(r))
    return e if held(e, dtype) else None


def arith(name: str, x: Expr, y: Expr, dtype: str) -> Expr | float | None:
    """The float operation `name` (add | sub | mul | div) on exactly held integers x and y,
    when its result is an integer held exactly; an inexact quotient of known integers as
    the float it rounds to (`quotient`); None otherwise."""
    if name == "div":
        if not (y.is_int and y.value != 0):
            lo, hi = bounds(y)
            if lo < 1 and hi > -1:  # y may be 0: x / 0 is no integer
                return None
        out = ops.exact_div(x, y)
        if out is None:
            return quotient(x, y, dtype)
    else:
        out = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y}[name]()
    return out if out is not None and held(out, dtype) else None


# the float types whose division NumPy computes as the runtime does (IEEE: the exact
# quotient rounded to the type)
QUOTIENT_TYPES = {"f32": np.float32, "f64": np.float64}


def quotient(x: Expr, y: Expr, dtype: str) -> float | None:
    """x / y in the float type `dtype`, for known integers it holds exactly (y not 0): the
    quotient as the type rounds it (an inexact one too: Range's trip count is
    Ceil((limit - start) / delta)). None for symbolic operands and other types."""
    if not (x.is_int and y.is_int and y.value and dtype in QUOTIENT_TYPES):
        return None
    if not (held(x, dtype) and held(y, dtype)):
        return None
    t = QUOTIENT_TYPES[dtype]
    return float(t(x.value) / t(y.value))


# the 32-bit integer types a symbolic integer may be narrowed to -> signed?
NARROW_INT_TYPES = {"i32": True, "u32": False}


# integer types -> (signed?, bits): their arithmetic wraps around
INT_TYPE_BITS = {"i8": (True, 8), "i16": (True, 16), "i32": (True, 32), "i64": (True, 64),
                 "u8": (False, 8), "u16": (False, 16), "u32": (False, 32), "u64": (False, 64)}


def type_holds(e: Expr, dtype: str) -> bool:
    """Whether the integer type `dtype` holds e: a known integer within its range (past it
    the runtime's result has wrapped around: INT64_MAX + 1, a Slice end exporters write, is
    INT64_MIN), or a symbolic one held under the size assumption: a size in dims fits 64
    bits (input dims are below 2^62), 32-bit types only hold what int_held says."""
    if dtype not in INT_TYPE_BITS:
        return False
    if not e.is_int:
        return INT_TYPE_BITS[dtype][1] == 64 or int_held(e, dtype)
    signed, bits = INT_TYPE_BITS[dtype]
    lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed else (0, 1 << bits)
    return lo <= e.value < hi


def int_held(e: Expr, dtype: str) -> bool:
    """Whether a 32-bit integer type holds the symbolic integer e (a length, a position cast
    to int32, as onnxruntime's contrib ops take them). By the same assumption, a linear
    expression whose coefficients add up to at most 64 is below 2^24 (and its constant term
    is checked to be below 2^30): below 2^31 in magnitude; unsigned types also need e >= 0."""
    if dtype not in NARROW_INT_TYPES or e.is_int or e.degree() > 1:
        return False
    signed = NARROW_INT_TYPES[dtype]
    if _weight(e) > MAX_WEIGHT or abs(e.constant_term()) >= 2**30:
        return False
    return signed or bounds(e)[0] >= 0


def floor_scaled(x: Expr, scale: Fraction) -> Expr | None:
    """floor(x * scale) for a dim x and a Resize scale (an f32's exact value), as both
    onnxruntime's f32 product and onnx's reference's exact one floor it; None where they
    may differ or it cannot be told.

    A known x: the f32 product is computed (20 * 0.7 is 13.99999976 exactly, 14.0 in f32:
    no value). A symbolic x: an exact product x * m / 2^k, m the scale's odd part, which is
    when x * m is held exactly in f32 - by the assumption above, m at most MAX_WEIGHT (1.5
    and 0.25); or x times a simple fraction p/q just below the scale (`_fraction_below`:
    0.3 is 5033165 / 2^24, a little above 3/10), floored: (3*x)//10."""
    if x.is_int:
        product = np.float32(x.value) * np.float32(scale)
        if not np.isfinite(product) or math.floor(product) != math.floor(x.value * scale):
            return None
        return Expr.const(math.floor(x.value * scale))
    near = floor_fraction(x, scale)
    if near is None:
        return None
    if near.denominator == 1:
        return x * int(near)
    return ops.floordiv(x * near.numerator, near.denominator)


def floor_fraction(x: Expr, scale: Fraction) -> Fraction | None:
    """For a symbolic x: the fraction p/q with floor(x * scale) = (p*x)//q in both runtimes
    (the scale itself, or a simple fraction just below it); None if there is none."""
    m = abs(scale.numerator)
    odd = m >> ((m & -m).bit_length() - 1) if m else 0
    if held(x * Expr.const(odd), "f32"):
        return scale
    return _fraction_below(x, scale)


MAX_DENOMINATOR = 64  # of the simple fractions a scale is read as (_fraction_below)


def _fraction_below(x: Expr, scale: Fraction) -> Fraction | None:
    """p/q (q at most MAX_DENOMINATOR) with floor(x * scale) = (p*x)//q for every x the
    assumption above allows (a linear x of weight w and constant c is at most w * 2^18 + c),
    whether the product is exact or rounded to f32. Write x * p/q = k + r/q (r < q): when
    0 <= scale - p/q = d, the exact product is k + r/q + x*d and the f32 one exceeds it by
    at most x * scale * 2^-24, so both floor to k if x * (d + scale * 2^-24) < 1/q. Below
    p/q (0.7 is 11744051 / 2^24) the exact product of an x that q divides is under the
    integer x * p/q and floors one lower, while f32 may round it up: no fraction."""
    if x.degree() != 1 or _weight(x) > MAX_WEIGHT or scale <= 0:
        return None
    top = _weight(x) * 2**18 + abs(x.constant_term())
    near = scale.limit_denominator(MAX_DENOMINATOR)
    gap = scale - near
    if gap < 0 or top * scale >= 2**24:
        return None
    if top * (gap + scale / 2**24) >= Fraction(1, near.denominator):
        return None
    return near

def power(x: Fraction, e: Fraction, dtype: str) -> Expr | None:
    """Pow(x, e) of known elements in the float type `dtype` where it is an integer held
    exactly that every runtime computes exactly: a whole exponent 0..3 of an integer (a
    product of exactly held integers, onnxruntime's own for 2 and 3), or the exponent 1/2
    of a perfect square (its square root: correctly rounded, so exact). HF's vision models
    take a patch grid's side as `int(num_positions ** 0.5)`: Pow(16.0, 0.5), then Cast."""
    if x.denominator != 1 or not held(Expr.const(x.numerator), dtype):
        return None
    if e.denominator == 1 and 0 <= e <= 3:
        out = Expr.const(x.numerator ** e.numerator)
    elif e == Fraction(1, 2) and x >= 0 and math.isqrt(x.numerator) ** 2 == x.numerator:
        out = Expr.const(math.isqrt(x.numerator))
    else:
        return None
    return out if held(out, dtype) else None
