"""The tests elementwise operators of one family share, made per operator by its own test
module (tests/ops/test_<Op>.py): the same data cases for the rule file, and the rule
against onnx's reference (with our kernel, shape_logic.testing) on random shapes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.graph import NUMPY_DTYPES
from shape_logic.testing import check_against_reference, check_case, random_array

FLOAT_TYPES = ["f16", "f32", "f64"]

# one float tensor in, one of its shape and type out
FLOAT_UNARY_CASES = {
    "symbolic shape": ({"inputs": ["[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
    "dtype": ({"inputs": [("f16", "[n, 3]")]}, {"y0": "[n, 3]", "dtypes": {"y0": "f16"}}),
    "backward from the output": ({"inputs": ["S"], "outputs": {"y0": {"shape": "[4, n]"}}},
                                 {"x0": "[4, n]"}),
    "output annotation clashes": ({"inputs": ["[2, 3]"],
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "output dtype clashes": ({"inputs": ["[2, 3]"], "outputs": {"y0": {"dtype": "f64"}}},
                             "error"),
    "two inputs": ({"inputs": ["[2]", "[2]"]}, "error"),
    "integer elements": ({"inputs": [("i64", "[3]")]}, "error"),
}

# two integer tensors broadcast into one of their type (the bitwise operators)
INTEGER_BINARY_CASES = {
    "broadcast": ({"inputs": [("i32", "[b, 1, 4]"), ("i32", "[s, 4]")]},
                  {"y0": "[b, s, 4]", "dtypes": {"y0": "i32"}}),
    "unsigned": ({"inputs": [("u8", "[n]"), ("u8", "[]")]}, {"y0": "[n]", "dtypes": {"y0": "u8"}}),
    "backward from the output": ({"inputs": [("i64", "A"), ("i64", "[3]")],
                                  "outputs": {"y0": {"shape": "[2, 3]"}}}, {"y0": "[2, 3]"}),
    "shapes do not broadcast": ({"inputs": [("i32", "[2]"), ("i32", "[3]")]}, "error"),
    "dtypes differ": ({"inputs": [("i32", "[2]"), ("i64", "[2]")]}, "error"),
    "float elements": ({"inputs": ["[2]", "[2]"]}, "error"),
    "bool elements": ({"inputs": [("bool", "[2]"), ("bool", "[2]")]}, "error"),
    "one input": ({"inputs": [("i32", "[2]")]}, "error"),
}

# two bool tensors broadcast into one bool tensor (the logical operators; before opset 7,
# broadcasting from an axis on request)
BOOL_BINARY_CASES = {
    "same shapes": ({"inputs": [("bool", "[b, s, 768]"), ("bool", "[b, s, 768]")]},
                    {"y0": "[b, s, 768]"}),
    "trailing axes": ({"inputs": [("bool", "[b, s, 768]"), ("bool", "[768]")]},
                      {"y0": "[b, s, 768]"}),
    "axes of 1 broadcast": ({"inputs": [("bool", "[b, 1, 768]"), ("bool", "[s, 1]")]},
                            {"y0": "[b, s, 768]"}),
    "scalar operand": ({"inputs": [("bool", "[]"), ("bool", "[b, 3]")]}, {"y0": "[b, 3]"}),
    "symbols that may be 1 stay apart": ({"inputs": [("bool", "[n]"), ("bool", "[m]")]},
                                         {"y0": "[max(m, n)]"}),
    "a literal decides, the symbol stays": ({"inputs": [("bool", "[n]"), ("bool", "[3]")]},
                                            {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": [("bool", "[n, k]"), ("bool", "[k]")],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": [("bool", "[n]"), ("bool", "[m]")],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]"}),
    "dtype": ({"inputs": [("bool", "[n]"), ("bool", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "bool"}}),
    "incompatible axes": ({"inputs": [("bool", "[2, 3]"), ("bool", "[4]")]}, "error"),
    "incompatible after backward inference": ({"inputs": [("bool", "[n]"), ("bool", "[3]")],
                                                "outputs": {"y0": {"shape": "[2]"}}}, "error"),
    "one input": ({"inputs": [("bool", "[3]")]}, "error"),
    "float operand": ({"inputs": [("bool", "[3]"), ("f32", "[3]")]}, "error"),
    "bool output": ({"inputs": [("bool", "[3]"), ("bool", "[3]")],
                     "outputs": {"y0": {"dtype": "f32"}}}, "error"),
    "opset 6, broadcast from axis 1": (
        {"inputs": [("bool", "[2, 3, 4, 5]"), ("bool", "[3, 4]")], "opset": 6,
         "attrs": {"broadcast": 1, "axis": 1}},
        {"y0": "[2, 3, 4, 5]"}),
    "opset 6 without broadcast: one shape": (
        {"inputs": [("bool", "[n, 3]"), ("bool", "[2, m]")], "opset": 6},
        {"y0": "[2, 3]", "x0": "[2, 3]"}),
}

# two tensors broadcast together: the shapes every binary operator gives alike
BROADCAST_CASES = {
    "same shapes": ({"inputs": ["[b, s, 768]", "[b, s, 768]"]}, {"y0": "[b, s, 768]"}),
    "trailing axes": ({"inputs": ["[b, s, 768]", "[768]"]}, {"y0": "[b, s, 768]"}),
    "axes of 1 broadcast": ({"inputs": ["[b, 1, 768]", "[s, 1]"]},
                            {"y0": "[b, s, 768]"}),
    "scalar operand": ({"inputs": ["[]", "[b, 3]"]}, {"y0": "[b, 3]"}),
    "symbols that may be 1 stay apart": ({"inputs": ["[n]", "[m]"]},
                                         {"y0": "[max(m, n)]"}),
    "a literal decides, the symbol stays": ({"inputs": ["[n]", "[3]"]},
                                            {"y0": "[3]", "x0": "[n]"}),
    "backward from the output": ({"inputs": ["[n, k]", "[k]"],
                                   "outputs": {"y0": {"shape": "[4, 7]"}}},
                                 {"x0": "[4, 7]", "x1": "[7]"}),
    "an output axis of 1 needs 1s": ({"inputs": ["[n]", "[m]"],
                                       "outputs": {"y0": {"shape": "[1]"}}},
                                     {"x0": "[1]", "x1": "[1]"}),
    "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
    "incompatible after backward inference": ({"inputs": ["[n]", "[3]"],
                                                "outputs": {"y0": {"shape": "[2]"}}}, "error"),
    "one input": ({"inputs": ["[3]"]}, "error"),
    "dtype mix": ({"inputs": [("f32", "[3]"), ("i64", "[3]")]}, "error"),
}

# two tensors of one type compared elementwise, with broadcasting: a bool tensor
COMPARISON_CASES = {
    **BROADCAST_CASES,
    "dtype": ({"inputs": [("f16", "[n]"), ("f16", "[1]")]},
              {"y0": "[n]", "dtypes": {"y0": "bool"}}),
    "bool output": ({"inputs": ["[3]", "[3]"],
                     "outputs": {"y0": {"dtype": "f32"}}}, "error"),
}


def arithmetic_cases(dtype: str) -> dict:
    """The cases of an arithmetic operator on two tensors of one type (`dtype`, one it
    takes), broadcast into one of that type."""
    return {
        **BROADCAST_CASES,
        "dtype": ({"inputs": [(dtype, "[n]"), (dtype, "[1]")]},
                  {"y0": "[n]", "dtypes": {"y0": dtype}}),
        "output dtype clashes": ({"inputs": ["[3]", "[3]"],
                                  "outputs": {"y0": {"dtype": "f64"}}}, "error"),
    }


# (the arithmetic operators, Equal, Greater and Less before opset 7: broadcasting from
# an axis on request)
LEGACY_BINARY_CASES = {
    "opset 6, broadcast from axis 1": (
        {"inputs": ["[2, 3, 4, 5]", "[3, 4]"], "opset": 6,
         "attrs": {"broadcast": 1, "axis": 1}},
        {"y0": "[2, 3, 4, 5]"}),
    "opset 6 without broadcast: one shape": (
        {"inputs": ["[n, 3]", "[2, m]"], "opset": 6},
        {"y0": "[2, 3]", "x0": "[2, 3]"}),
}

def variadic_cases(dtype: str, other: str) -> dict:
    """The cases of an operator on one to any number of tensors of one type (Max, Min,
    Sum, Mean), broadcast together; `other`: a type the operator takes too."""
    return {
        "one input": ({"inputs": ["[b, s]"]}, {"y0": "[b, s]"}),
        "two inputs broadcast": ({"inputs": ["[b, 1, 768]", "[s, 1]"]},
                                 {"y0": "[b, s, 768]"}),
        "three inputs broadcast": ({"inputs": ["[b, 1, 1]", "[s, 1]", "[768]"]},
                                   {"y0": "[b, s, 768]"}),
        "symbols that may be 1 stay apart": ({"inputs": ["[n]", "[m]", "[k]"]},
                                             {"y0": "[max(k, max(m, n))]"}),
        "a literal decides": ({"inputs": ["[n]", "[3]", "[1]"]},
                              {"y0": "[3]", "x0": "[n]"}),
        "backward from the output": ({"inputs": ["[n, k]", "[k]", "[1]"],
                                      "outputs": {"y0": {"shape": "[4, 7]"}}},
                                     {"x0": "[4, 7]", "x1": "[7]"}),
        "an output axis of 1 needs 1s": ({"inputs": ["[n]", "[m]", "[p]"],
                                          "outputs": {"y0": {"shape": "[1]"}}},
                                         {"x0": "[1]", "x1": "[1]", "x2": "[1]"}),
        "dtype": ({"inputs": [(dtype, "[n]"), (dtype, "[1]")]},
                  {"y0": "[n]", "dtypes": {"y0": dtype}}),
        "dtype mix": ({"inputs": [(dtype, "[3]"), (dtype, "[3]"), (other, "[3]")]}, "error"),
        "output dtype clashes": ({"inputs": [(dtype, "[3]")],
                                  "outputs": {"y0": {"dtype": other}}}, "error"),
        "no inputs": ({"inputs": []}, "error"),
        "incompatible axes": ({"inputs": ["[2, 3]", "[4]"]}, "error"),
        "the third input clashes": ({"inputs": ["[2, 3]", "[3]", "[2]"]}, "error"),
    }


def case_test(op: str, cases: dict, opset: int):
    """A test per data case: the rule file infers what the case expects."""
    @pytest.mark.parametrize("name", cases)
    def test_case(name):
        spec, expected = cases[name]
        check_case(op, {"opset": opset, **spec}, expected)
    return test_case


def float_unary_tests(op: str, domain: tuple | None = None, attrs=st.just(None),
                      opset: int = 18):
    """test_case and test_matches_reference of a float unary operator. Values are drawn
    from `domain` (low, high) where the function is defined on part of the line only,
    else from random_array; `attrs` draws the attributes (a strategy of dicts)."""
    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(FLOAT_TYPES),
           st.integers(0, 2**32 - 1), attrs)
    def test_matches_reference(shape, dtype, seed, attributes):
        if domain is None:
            x = random_array(shape, dtype, np.random.default_rng(seed))
        else:
            x = np.random.default_rng(seed).uniform(*domain, shape).astype(NUMPY_DTYPES[dtype])
        check_against_reference(op, [x], attributes, opset=opset)
    return case_test(op, FLOAT_UNARY_CASES, opset), test_matches_reference


@st.composite
def broadcasting_pair(draw):
    """Two shapes that broadcast: a suffix of one, some of its axes 1, in either order."""
    a = draw(st.lists(st.integers(1, 4), max_size=3))
    b = [1 if draw(st.booleans()) else d for d in a[draw(st.integers(0, len(a))):]]
    return (a, b) if draw(st.booleans()) else (b, a)


def integer_binary_tests(op: str, opset: int = 18):
    """test_case and test_matches_reference of a broadcasting operator on integers."""
    @settings(max_examples=20, deadline=None)
    @given(broadcasting_pair(), st.sampled_from(["i8", "i32", "i64", "u8", "u64"]),
           st.integers(0, 2**32 - 1))
    def test_matches_reference(shapes, dtype, seed):
        rng = np.random.default_rng(seed)
        a, b = (random_array(s, dtype, rng) for s in shapes)
        check_against_reference(op, [a, b], None, opset=opset)
    return case_test(op, INTEGER_BINARY_CASES, opset), test_matches_reference


@st.composite
def operand_shapes(draw, n: int | None = 2):
    """n shapes (None: 1 to 4) that broadcast, except where an axis was drawn freely (it may
    clash). No 0-size axes: the symbolic comparison assumes every symbol is >= 1."""
    rank = draw(st.integers(0, 4))
    out = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    shapes = []
    for _ in range(draw(st.integers(1, 4)) if n is None else n):
        r = draw(st.integers(0, rank))
        shapes.append([draw(st.sampled_from([d, d, 1, draw(st.integers(1, 5))]))
                       for d in out[rank - r:]])
    return shapes


def bool_binary_tests(op: str, opset: int = 18):
    """test_case and test_matches_reference of a logical operator on two bool tensors."""
    @settings(max_examples=20, deadline=None)
    @given(operand_shapes())
    def test_matches_reference(shapes):
        arrays = [random_array(s, "bool") for s in shapes]
        check_against_reference(op, arrays, None, opset=opset)
    return case_test(op, BOOL_BINARY_CASES, opset), test_matches_reference


def comparison_tests(op: str, legacy: bool, opset: int = 18):
    """test_case and test_matches_reference of a comparison; `legacy`: the operator exists
    before opset 7 (its broadcast and axis attributes)."""
    @settings(max_examples=20, deadline=None)
    @given(operand_shapes(), st.sampled_from(["f32", "f64", "i32", "i64", "u8"]))
    def test_matches_reference(shapes, dtype):
        arrays = [random_array(s, dtype) for s in shapes]
        check_against_reference(op, arrays, None, opset=opset)
    cases = {**COMPARISON_CASES, **(LEGACY_BINARY_CASES if legacy else {})}
    return case_test(op, cases, opset), test_matches_reference
