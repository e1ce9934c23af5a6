"""Cast: rules/Cast.lp on data cases, and against onnx's reference on random shapes."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import ONNX_ELEM, check_against_reference, check_case, random_array

from . import values
from .values import i64
from tests.ops.cases import case_test

CODES = {1: "f32", 2: "u8", 3: "i8", 4: "u16", 5: "i16", 6: "i32", 7: "i64", 8: "str", 9: "bool",
         10: "f16", 11: "f64", 12: "u32", 13: "u64", 14: "c64", 15: "c128", 16: "bf16",
         17: "f8e4m3fn", 18: "f8e4m3fnuz", 19: "f8e5m2", 20: "f8e5m2fnuz", 21: "u4", 22: "i4",
         23: "f4e2m1", 24: "f8e8m0", 25: "u2", 26: "i2"}

CASES = {
    "to int64": ({"inputs": ["[b, s, 768]"], "attrs": {"to": 7}},
                 {"y0": "[b, s, 768]", "dtypes": {"y0": "i64"}}),
    "scalar": ({"inputs": [("i64", "[]")], "attrs": {"to": 1}},
               {"y0": "[]", "dtypes": {"y0": "f32"}}),
    "a type name before opset 6": ({"inputs": ["[b]"], "attrs": {"to": "INT32"}, "opset": 5},
                                   {"y0": "[b]", "dtypes": {"y0": "i32"}}),
    "float8 by its name": ({"inputs": ["[b]"], "attrs": {"to": "FLOAT8E5M2"}, "opset": 5},
                           {"y0": "[b]", "dtypes": {"y0": "f8e5m2"}}),
    "an element type ONNX has not defined": ({"inputs": ["[b]"], "attrs": {"to": 99}},
                                             {"y0": "[b]", "dtypes": {"y0": None}}),
    "backward from the output": ({"inputs": ["S"], "attrs": {"to": 9},
                                  "outputs": {"y0": {"shape": "[4, n]"}}}, {"x0": "[4, n]"}),
    "to is required": ({"inputs": ["[3]"]}, "error"),
    "UNDEFINED is no type": ({"inputs": ["[3]"], "attrs": {"to": 0}}, "error"),
    "output dtype clashes": ({"inputs": ["[3]"], "attrs": {"to": 7},
                              "outputs": {"y0": {"dtype": "i32"}}}, "error"),
    "output annotation clashes": ({"inputs": ["[2, 3]"], "attrs": {"to": 7},
                                   "outputs": {"y0": {"shape": "[3, 2]"}}}, "error"),
    "two inputs": ({"inputs": ["[3]", "[3]"], "attrs": {"to": 7}}, "error"),
}


test_case = case_test("Cast", CASES)


@pytest.mark.parametrize("code", CODES)
def test_codes(code):
    check_case("Cast", {"inputs": ["[n]"], "attrs": {"to": code}},
               {"y0": "[n]", "dtypes": {"y0": CODES[code]}})


def reshape_target(inputs, to, then=()):
    """What the rules know of the cast elements (values.reshape_target)."""
    return values.reshape_target("Cast", inputs, {"to": to}, then)


VALUE_CASES = {
    "int64 to int32, small values": ([i64(2, 3)], 6, (), "[2, 3]"),
    "int64 to int64, symbolic": (["[b, s]"], 7, (), "[b, s]"),
    "int32 to int64 widens": ([np.array([2, 3], np.int32)], 7, (), "[2, 3]"),
    "int64 to uint8 in range": ([i64(200)], 2, (), "[200]"),
    "int64 to uint8 out of range: unknown": ([i64(300)], 2, (), None),
    "int64 to int8 out of range: unknown": ([i64(128)], 3, (), None),
    "int64 to uint32, negative: unknown": ([i64(-1)], 12, (), None),
    # (dims are assumed below 2^24, encodings/floats.lp: a dim fits 32 bits, not 16)
    "symbolic values narrowed to int32": (["[b, s]"], 6, (), "[b, s]"),
    "symbolic values narrowed to uint32": (["[b, s]"], 12, (), "[b, s]"),
    "symbolic values narrowed to int16 may wrap: unknown": (["[b, s]"], 5, (), None),
    "float to int64 truncates": ([np.array([2.7, 3.0], np.float32)], 7, (), "[2, 3]"),
    "negative floats truncate toward zero": ([np.array([-2.7])], 7, ("Neg",), "[2]"),
    "float to uint8 out of range: unknown": ([np.array([300.5])], 2, (), None),
    "int64 to float16 beyond its integers: unknown": ([i64(4097)], 10, (), None),
    # (a bool's 1 and 0: OptionalHasElement -> Not -> Cast, as torch.jit.script writes it)
    "bool to int64": ([np.array([True, True, True])], 7, (), "[1, 1, 1]"),
    "bool to uint8": ([np.array([True, True])], 2, (), "[1, 1]"),
    # (tf2onnx's strided slices: sizes through float32 back to int32)
    "symbolic floats to int32": (["[b, s] as f32"], 6, [("Cast", {"to": 7})], "[b, s]"),
    "symbolic floats to int16 may wrap: unknown": (["[b, s] as f32"], 5,
                                                   [("Cast", {"to": 7})], None),
    # (integers cast to floats and back: tests/test_float_values.py)
    # (a bool's 0 and 1 into a float, a float into a wider one: encodings/casts.lp)
    "bool to float32": ([np.array([True, True])], 1, [("Cast", {"to": 7})], "[1, 1]"),
    "float32 to float64 keeps a fraction": ([np.array([2.5, 3.0], np.float32)], 11,
                                            [("Cast", {"to": 7})], "[2, 3]"),
    "symbolic values to bool may be 0: unknown": (["[b, s]"], 9, [("Cast", {"to": 7})], None),
}


@pytest.mark.parametrize("case", VALUE_CASES.values(), ids=VALUE_CASES.keys())
def test_values(case):
    inputs, to, then, expected = case
    got = reshape_target(inputs, to, then)
    if expected is None:  # nothing may be known: only fresh names
        assert re.fullmatch(r"\[_\d+(, _\d+)*\]", got), got
    else:
        assert got == expected


DTYPES = ["f16", "f32", "f64", "i8", "i32", "i64", "u8", "u16", "bool"]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from(DTYPES), st.sampled_from(DTYPES))
def test_matches_reference(shape, source, target):
    check_against_reference("Cast", [random_array(shape, source)], {"to": ONNX_ELEM[target]})
