"""QLinearConcat (com.microsoft): rules on data cases (Concat of the tensors at inputs 2, 5,
8, ...), and against onnxruntime."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_onnxruntime


def case(*shapes, axis=1, dtype="u8"):
    inputs = ["S", (dtype, "[]")]
    for s in shapes:
        inputs += [(dtype, s), "[]", (dtype, "[]")]
    return {"inputs": inputs, "attrs": {"axis": axis}, "domain": MS}


CASES = {
    "three tensors": (case("[b, 3]", "[b, 4]", "[b, 1]"),
                      {"y0": "[b, 8]", "dtypes": {"y0": "u8", "x0": "f32", "x3": "f32"}}),
    "a negative axis, symbolic sizes": (case("[b, 3]", "[b, k]", axis=-1), {"y0": "[b, k + 3]"}),
    "the other axes are shared": (case("[b, 3]", "[c, 4]"), {"x5": "[b, 4]", "y0": "[b, 7]"}),
    "one tensor": (case("[2, 3]", axis=0), {"y0": "[2, 3]"}),
    "int8": (case("[n, 2]", "[m, 2]", axis=0, dtype="i8"), {"y0": "[m + n, 2]"}),
    "off-axis sizes differ": (case("[2, 3]", "[3, 4]"), "error"),
    "ranks differ": (case("[2, 3]", "[2, 3, 1]"), "error"),
    "axis out of range": (case("[2, 3]", "[2, 3]", axis=2), "error"),
    "a tensor without its zero point": ({"inputs": ["S", ("u8", "[]"), ("u8", "[2]"), "[]",
                                                    ("u8", "[]"), ("u8", "[2]"), "[]"],
                                         "attrs": {"axis": 0}, "domain": MS}, "error"),
    "uint8 and int8": ({"inputs": ["S", ("u8", "[]"), ("u8", "[2]"), "[]", ("u8", "[]"),
                                   ("i8", "[2]"), "[]", ("i8", "[]")], "attrs": {"axis": 0},
                        "domain": MS}, "error"),
    "axis missing": ({"inputs": case("[2]")["inputs"], "domain": MS}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("QLinearConcat", spec, expected)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.integers(1, 4), min_size=1, max_size=3),
       rank=st.integers(1, 3), data=st.data(), signed=st.booleans())
def test_matches_onnxruntime(seed, sizes, rank, data, signed):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-rank, rank - 1))
    dtype, (lo, hi) = (np.int8, (-128, 128)) if signed else (np.uint8, (0, 256))
    q = lambda s: rng.integers(lo, hi, s).astype(dtype)  # noqa: E731
    scale = lambda: np.float32(rng.random() * 0.1 + 0.01)  # noqa: E731
    base = [2, 3, 2][:rank]
    arrays = [scale(), q(())]
    for n in sizes:
        shape = list(base)
        shape[axis] = n
        arrays += [q(shape), scale(), q(())]
    want = check_against_onnxruntime("QLinearConcat", arrays, {"axis": axis}, rtol=0, atol=1)
    assert want is not None
