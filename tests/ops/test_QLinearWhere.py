"""QLinearWhere (com.microsoft): rules/QLinearWhere.lp on data cases (Where's three-way
broadcast, per-tensor parameters), and the rules and the kernel against onnxruntime on random
quantized tensors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime


def case(c, x, y, dtype="u8", scale="[]", zero="[]"):
    z = (dtype, zero)
    return {"inputs": [("bool", c), (dtype, x), scale, z, (dtype, y), scale, z, scale, z],
            "domain": MS}


CASES = {
    "same shapes": (case("[b, s]", "[b, s]", "[b, s]"),
                    {"y0": "[b, s]", "dtypes": {"y0": "u8", "x2": "f32", "x8": "u8"}}),
    "three-way broadcast": (case("[b, 1, s]", "[h, 1]", "[s]"), {"y0": "[b, h, s]"}),
    "a scalar condition": (case("[]", "[4, 1]", "[1, 3]"), {"y0": "[4, 3]"}),
    "the condition gives the rank": (case("[2, 1, 1, 5]", "[]", "[3, 1]"),
                                     {"y0": "[2, 1, 3, 5]"}),
    "int8": (case("[n]", "[n]", "[n]", "i8"), {"dtypes": {"y0": "i8", "x3": "i8"}}),
    "parameters as vectors of one": (case("[n]", "[n]", "[n]", scale="[1]", zero="[1]"),
                                     {"y0": "[n]"}),
    "parameters of unknown shapes or a symbolic length": (
        case("[n]", "[n]", "[n]", scale="S", zero="[k]"), {"y0": "[n]", "x3": "[k]"}),
    "backward: a 1 against a known size": (case("[b, 1]", "[1, 4]", "[b, 4]"),
                                           {"y0": "[b, 4]"}),
    "sizes that do not broadcast": (case("[2, 3]", "[4, 3]", "[3]"), "error"),
    "X and Y differ": (case("[n]", "[3]", "[4]"), "error"),
    "per-axis scales": (case("[n, 4]", "[n, 4]", "[n, 4]", scale="[4]"), "error"),
    "a zero point of rank 2": (case("[n]", "[n]", "[n]", zero="[1, 1]"), "error"),
    "float tensors": (case("[n]", "[n]", "[n]", "f32"), "error"),
    "uint8 X, int8 Y": ({"inputs": [("bool", "[n]"), ("u8", "[n]"), "[]", ("u8", "[]"),
                                    ("i8", "[n]"), "[]", ("i8", "[]"), "[]", ("u8", "[]")],
                         "domain": MS}, "error"),
    "a uint8 condition": ({"inputs": [("u8", "[n]"), ("u8", "[n]"), "[]", ("u8", "[]"),
                                      ("u8", "[n]"), "[]", ("u8", "[]"), "[]", ("u8", "[]")],
                           "domain": MS}, "error"),
    "f16 scales": ({"inputs": [("bool", "[n]"), ("u8", "[n]"), ("f16", "[]"), ("u8", "[]"),
                               ("u8", "[n]"), ("f16", "[]"), ("u8", "[]"), ("f16", "[]"),
                               ("u8", "[]")], "domain": MS}, "error"),
    "no output zero point": ({"inputs": [("bool", "[n]"), ("u8", "[n]"), "[]", ("u8", "[]"),
                                         ("u8", "[n]"), "[]", ("u8", "[]"), "[]"],
                              "domain": MS}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QLinearWhere", spec, expected)


SHAPES = [((2, 3), (2, 3), (2, 3)), ((4,), (3, 1), (1,)), ((2, 1, 4), (3, 1), ()),
          ((), (2, 2), (2, 2)), ((3, 1), (), (1, 5)), ((1, 2, 1), (2, 1, 1), (1, 1, 3))]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shapes=st.sampled_from(SHAPES), signed=st.booleans(),
       vectors=st.booleans(), same=st.booleans(), perm=st.permutations([0, 1, 2]))
def test_matches_onnxruntime(seed, shapes, signed, vectors, same, perm):
    """Values exactly onnxruntime's (its lookup tables, float32); `same`: X's scale and
    zero point are Z's (its copying path)."""
    rng = np.random.default_rng(seed)
    c_shape, x_shape, y_shape = (shapes[i] for i in perm)
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    pshape = (1,) if vectors else ()
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    scale = lambda: np.full(pshape, rng.random() * 0.1 + 0.01, np.float32)  # noqa: E731
    zs, zz = scale(), q(pshape)
    xs, xz = (zs, zz) if same else (scale(), q(pshape))
    arrays = [rng.random(c_shape) > 0.5, q(x_shape), xs, xz, q(y_shape), scale(), q(pshape),
              zs, zz]
    assert check_against_onnxruntime("QLinearWhere", arrays, rtol=0, atol=0) is not None


@pytest.mark.parametrize("shapes, pshape", [
    (((2, 3), (4, 3), (3,)), ()), (((0, 4), (3, 1), (1,)), ()),
    (((2, 3), (2, 3), (2, 3)), (3,)), (((2, 3), (2, 3), (2, 3)), (1, 1)),
])
def test_onnxruntime_rejects_what_the_rules_reject(shapes, pshape):
    """(X's and Y's scales other than Z's: where they are Z's, onnxruntime copies X and Y and
    never reads more than the first element of each parameter)"""
    c, x, y = shapes
    u8 = lambda s: np.zeros(s, np.uint8)  # noqa: E731
    s = lambda v: np.full(pshape, v, np.float32)  # noqa: E731
    arrays = [np.ones(c, bool), u8(x), s(0.1), u8(pshape), u8(y), s(0.2), u8(pshape), s(0.3),
              u8(pshape)]
    assert check_against_onnxruntime("QLinearWhere", arrays) is None


def test_onnxruntime_rejects_mixed_types():
    arrays = [np.ones(3, bool), np.zeros(3, np.uint8), np.float32(0.1), np.uint8(0),
              np.zeros(3, np.int8), np.float32(0.1), np.int8(0), np.float32(0.1), np.uint8(0)]
    assert check_against_onnxruntime("QLinearWhere", arrays) is None
