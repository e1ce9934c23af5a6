"""LabelEncoder (ai.onnx.ml): rules/LabelEncoder.lp on data cases, and the rule against
onnx's reference and our kernel (shapes, element types and values)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import node_kernel
from shape_logic.testing import check_against_reference, reference_outputs
from tests.ops.cases import case_test

ML = "ai.onnx.ml"
STR = np.dtype(object)


def le(inputs, **attrs):
    return {"inputs": inputs, "attrs": attrs, "domain": ML}


KEYS_S, VALS_I = {"keys_strings": ["a", "b"]}, {"values_int64s": [1, 2]}
CASES = {
    "strings to int64": (le([("str", "[b, n]")], **KEYS_S, **VALS_I),
                         {"y0": "[b, n]", "dtypes": {"y0": "i64"}}),
    "int64 to floats": (le([("i64", "[n]")], keys_int64s=[3, 4], values_floats=[0.5, 1.0]),
                        {"y0": "[n]", "dtypes": {"y0": "f32"}}),
    "floats to strings": (le(["[2, 3]"], keys_floats=[0.5], values_strings=["x"]),
                          {"y0": "[2, 3]", "dtypes": {"y0": "str"}}),
    "tensors": (le([("i16", "[n]")], keys_tensor=np.array([1, 2], np.int16),
                   values_tensor=np.array([1.5, 2.5]), default_tensor=np.array([0.0])),
                {"y0": "[n]", "dtypes": {"y0": "f64"}}),
    "ai.onnx.ml 1: strings to positions": (
        le([("str", "[n]")], classes_strings=["a", "b"]), {"y0": "[n]", "dtypes": {"y0": "i64"}}),
    "ai.onnx.ml 1: positions to strings": (
        le([("i64", "[n]")], classes_strings=["a", "b"]), {"dtypes": {"y0": "str"}}),
    # errors
    "X is not of the keys' type": (le([("i64", "[3]")], **KEYS_S, **VALS_I), "error"),
    "no values": (le([("str", "[3]")], **KEYS_S), "error"),
    "two kinds of values": (le([("str", "[3]")], **KEYS_S, **VALS_I, values_floats=[1.0, 2.0]),
                            "error"),
    "lists of different lengths": (le([("str", "[3]")], keys_strings=["a", "b", "c"], **VALS_I),
                                   "error"),
    "a 2-D keys tensor": (le([("i32", "[3]")], keys_tensor=np.array([[1, 2]], np.int32), **VALS_I),
                          "error"),
    "a default of another type": (
        le([("str", "[3]")], **KEYS_S, values_tensor=np.array([1, 2], np.int32),
           default_tensor=np.array([0], np.int64)), "error"),
    "a default of two elements": (
        le([("str", "[3]")], **KEYS_S, values_tensor=np.array([1, 2], np.int32),
           default_tensor=np.array([0, 1], np.int32)), "error"),
    "bool keys": (le([("bool", "[3]")], keys_tensor=np.array([True, False]), **VALS_I), "error"),
}


test_case = case_test("LabelEncoder", CASES)


# the key and value types: an attribute list, or a tensor of a numpy type
KINDS = {"strings": STR, "int64s": np.int64, "floats": np.float32, "tensor i32": np.int32,
         "tensor i16": np.int16, "tensor f64": np.float64, "tensor str": STR}


def _part(prefix, kind, data):
    if kind.startswith("tensor"):
        return {f"{prefix}_tensor": data}
    return {f"{prefix}_{kind}": data.tolist()}


def _elements(dtype, ints):
    if dtype == STR:
        return np.array([f"w{i}" for i in ints], dtype=object)
    ints = np.asarray(list(ints), dtype=np.int64)
    return ints.astype(dtype) / 2 if np.dtype(dtype).kind == "f" else ints.astype(dtype)


@settings(max_examples=40, deadline=None)
@given(keys=st.sampled_from(sorted(KINDS)), values=st.sampled_from(sorted(KINDS)),
       key_ints=st.lists(st.integers(0, 6), min_size=1, max_size=5),
       x_ints=st.lists(st.integers(0, 8), max_size=6), rows=st.integers(1, 2))
def test_matches_reference(keys, values, key_ints, x_ints, rows):
    """Shapes and types as the reference's, and the same values (repeated keys too)."""
    kt, vt = KINDS[keys], KINDS[values]
    attrs = {**_part("keys", keys, _elements(kt, key_ints)),
             **_part("values", values, _elements(vt, range(10, 10 + len(key_ints))))}
    if values.startswith("tensor"):
        attrs["default_tensor"] = _elements(vt, [99])
    x = _elements(kt, x_ints * rows).reshape(rows, -1)
    check_against_reference("LabelEncoder", [x], attrs, domain=ML)
    (want,) = reference_outputs("LabelEncoder", [x], attrs, domain=ML)
    (got,) = node_kernel("LabelEncoder", ML, attrs, 18, 1)(x)
    np.testing.assert_array_equal(got.astype(want.dtype), want)


def test_nan_keys_match_nan():
    """A NaN key matches a NaN element (the operator's definition; onnx's reference does
    not), and the last of repeated keys wins."""
    k = node_kernel("LabelEncoder", ML, {"keys_floats": [np.nan, 1.0, 1.0],
                                         "values_int64s": [7, 8, 9]}, 18, 1)
    (got,) = k(np.array([np.nan, 1.0, 2.0], np.float32))
    assert got.tolist() == [7, 9, -1]


def test_v1_classes_strings():
    k = node_kernel("LabelEncoder", ML, {"classes_strings": ["a", "b"], "default_int64": 5,
                                         "default_string": "?"}, 18, 1)
    assert k(np.array(["b", "a", "z"], dtype=object))[0].tolist() == [1, 0, 5]
    assert k(np.array([1, 0, 2, -1], np.int64))[0].tolist() == ["b", "a", "?", "?"]
