"""CategoryMapper (ai.onnx.ml 1): rules/CategoryMapper.lp on data cases; the rule and our
kernel against onnxruntime (shapes, types, values)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml

CATS = {"cats_strings": ["cat", "dog", "eel"], "cats_int64s": [1, 2, 3]}


def cm(inputs, **attrs):
    return {"inputs": inputs, "attrs": {**CATS, **attrs}, "domain": ML}


CASES = {
    "strings to int64": (cm([("str", "[n, 2]")]), {"y0": "[n, 2]", "dtypes": {"y0": "i64"}}),
    "int64 to strings": (cm([("i64", "[]")], default_string="?"),
                         {"y0": "[]", "dtypes": {"y0": "str"}}),
    "backward": ({**cm([("i64", "X")]), "outputs": {"y0": {"shape": "[4, k]"}}},
                 {"x0": "[4, k]"}),
    # errors
    "float X": (cm([("f32", "[n]")]), "error"),
    "lists of different lengths": (cm([("str", "[n]")], cats_int64s=[1, 2]), "error"),
    "no int64s": ({"inputs": [("str", "[n]")], "attrs": {"cats_strings": ["a"]},
                   "domain": ML}, "error"),
}

test_case = case_test("CategoryMapper", CASES)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), shape=st.lists(st.integers(1, 3), max_size=3),
       strings=st.booleans(), defaults=st.booleans())
def test_matches_onnxruntime(seed, shape, strings, defaults):
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 5, size=shape)
    names = np.array(["ant", "cat", "dog", "eel", "fox"], dtype=object)
    x = names[keys] if strings else keys.astype(np.int64)
    attrs = dict(CATS)
    if defaults:
        attrs.update(default_int64=-7, default_string="none")
    check_ml("CategoryMapper", [np.asarray(x, dtype=object) if strings else x], attrs, 1)
