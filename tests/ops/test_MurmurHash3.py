"""MurmurHash3 (com.microsoft): rules/MurmurHash3.lp on data cases, and the rules and the
kernel against onnxruntime on random tensors of every type it hashes (the hashes exact)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

CASES = {
    "uint32 by default": ({"inputs": [("i64", "[b, n]")]},
                          {"y0": "[b, n]", "dtypes": {"y0": "u32"}}),
    "positive 1: uint32": ({"inputs": [("str", "[n]")], "attrs": {"positive": 1}},
                           {"y0": "[n]", "dtypes": {"y0": "u32"}}),
    "positive 0: int32": ({"inputs": [("i32", "[b, 3]")], "attrs": {"positive": 0, "seed": 7}},
                          {"y0": "[b, 3]", "dtypes": {"y0": "i32"}}),
    "positive 2: int32 (not 1)": ({"inputs": [("f64", "[n]")], "attrs": {"positive": 2}},
                                  {"dtypes": {"y0": "i32"}}),
    "a seed beyond clingo's integers": ({"inputs": [("u64", "[n]")],
                                         "attrs": {"seed": 5000000000}},
                                        {"y0": "[n]", "dtypes": {"y0": "u32"}}),
    "a scalar": ({"inputs": [("u32", "[]")]}, {"y0": "[]"}),
    "backward: x's shape from the output": ({"inputs": [("str", "X")],
                                             "outputs": {"y0": {"shape": "[3, k]"}}},
                                            {"x0": "[3, k]"}),
    "declared int32, positive by default": ({"inputs": [("i32", "[3]")],
                                             "outputs": {"y0": {"dtype": "i32"}}}, "error"),
    "int8": ({"inputs": [("i8", "[3]")]}, "error"),
    "float16": ({"inputs": [("f16", "[3]")]}, "error"),
    "bool": ({"inputs": [("bool", "[3]")]}, "error"),
    "two inputs": ({"inputs": [("i32", "[3]"), ("i32", "[3]")]}, "error"),
}


test_case = case_test("MurmurHash3", CASES, domain=MS)


TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)),
               max_size=9)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(1, 4), max_size=3),
       data=st.data(), kind=st.sampled_from(["i4", "u4", "i8", "u8", "f4", "f8", "str"]),
       positive=st.sampled_from([None, 0, 1, 2]),
       hash_seed=st.sampled_from([None, 0, 42, -1, 2**32 - 1, 2**33 + 3]))
def test_matches_onnxruntime(seed, shape, data, kind, positive, hash_seed):
    rng = np.random.default_rng(seed)
    if kind == "str":
        n = int(np.prod(shape))
        x = np.array(data.draw(st.lists(TEXT, min_size=n, max_size=n))).reshape(shape)
    elif kind[0] == "f":
        x = (rng.standard_normal(shape) * 100).astype(kind)
    else:
        x = rng.integers(0, 256, shape + [int(kind[1])], np.uint8).view(kind).reshape(shape)
    attrs = {k: v for k, v in (("positive", positive), ("seed", hash_seed)) if v is not None}
    want = check_against_onnxruntime("MurmurHash3", [x], attrs, rtol=0, atol=0)
    assert want is not None


@pytest.mark.parametrize("x", [np.zeros(3, np.int8), np.zeros(3, np.float16),
                               np.zeros(3, np.bool_)])
def test_onnxruntime_rejects_what_the_rules_reject(x):
    assert check_against_onnxruntime("MurmurHash3", [x]) is None


def test_known_hashes():
    """The reference MurmurHash3_x86_32 values (the empty string with seed 0 is 0; "hello"
    with seed 0 is 0x248BFA47), and an int32 by its 4 bytes."""
    from shape_logic.kernels import load_kernel

    (h,) = load_kernel("MurmurHash3")({}, domain=MS)(np.array(["", "hello"]))
    assert h.tolist() == [0, 0x248BFA47]
    (h,) = load_kernel("MurmurHash3")({"positive": 0}, domain=MS)(np.array([1], np.int32))
    want = check_against_onnxruntime("MurmurHash3", [np.array([1], np.int32)], {"positive": 0})
    assert h.dtype == np.int32 and h.tolist() == want[0].tolist()
