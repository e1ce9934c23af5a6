"""Tokenizer (com.microsoft): rules/Tokenizer.lp on data cases, and the rules and the kernel
against onnxruntime (separators, character tokenization, tokenexp, marks, empty inputs).
The token axis is the strings' to decide: a fresh name, or 0 for an empty input."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from shape_logic.testing import infer
from tests.contrib_ops import MS, ort_contrib
from tests.ops.cases import case_test

from .strings import WORDS, assert_dims_fit

OP = "Tokenizer"
B = {"mark": 0, "pad_value": "#", "mincharnum": 1}
SPACE = {**B, "separators": [" "]}

CASES = {
    "[N, C]: one axis more": ({"inputs": [("str", "[n, c]")], "attrs": SPACE},
                              {"y0": "[n, c, _1]", "dtypes": {"y0": "str"}}),
    "[C] by character, marked": ({"inputs": [("str", "[c]")],
                                  "attrs": {**B, "mark": 1, "separators": [""]}},
                                 {"y0": "[c, _1]"}),
    "tokenexp": ({"inputs": [("str", "[3]")], "attrs": {**B, "tokenexp": "[a-z]+"}},
                 {"y0": "[3, _1]"}),
    "an empty [0]": ({"inputs": [("str", "[0]")], "attrs": SPACE}, {"y0": "[0]"}),
    "an empty [N, 0]": ({"inputs": [("str", "[n, 0]")], "attrs": SPACE}, {"y0": "[n, 0]"}),
    "an empty [0, C]": ({"inputs": [("str", "[0, c]")], "attrs": SPACE}, {"y0": "[0, 0]"}),
    "backward: rank 3 is [N, C]'s": ({"inputs": [("str", "X")], "attrs": SPACE,
                                      "outputs": {"y0": {"shape": "[2, 3, k]"}}},
                                     {"x0": "[2, 3]"}),
    "a scalar": ({"inputs": [("str", "[]")], "attrs": SPACE}, "error"),
    "rank 3": ({"inputs": [("str", "[2, 3, 4]")], "attrs": SPACE}, "error"),
    "numbers": ({"inputs": ["[3]"], "attrs": SPACE}, "error"),
    "no mark": ({"inputs": [("str", "[3]")],
                 "attrs": {"pad_value": "#", "mincharnum": 1, "separators": [" "]}}, "error"),
    "mincharnum 0": ({"inputs": [("str", "[3]")], "attrs": {**SPACE, "mincharnum": 0}},
                     "error"),
    "mincharnum 2 by character": ({"inputs": [("str", "[3]")],
                                   "attrs": {**B, "mincharnum": 2, "separators": [""]}},
                                  "error"),
    "... and by tokenexp '.'": ({"inputs": [("str", "[3]")],
                                 "attrs": {**B, "mincharnum": 2, "tokenexp": "."}}, "error"),
    "neither separators nor tokenexp": ({"inputs": [("str", "[3]")], "attrs": B}, "error"),
    "an empty tokenexp": ({"inputs": [("str", "[3]")], "attrs": {**B, "tokenexp": ""}},
                          "error"),
}


test_case = case_test(OP, CASES, domain=MS)

PATTERNS = [{"separators": [" "]}, {"separators": ["-", " "]}, {"separators": [""]},
            {"separators": ["[ -]+"]}, {"tokenexp": "[a-z]+"}, {"tokenexp": "."},
            {"tokenexp": "[A-Z]*"}, {"separators": ["e*"]}, {"separators": [" "], "tokenexp": "x"}]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.lists(st.integers(0, 3), min_size=1,
                                                       max_size=2),
       pattern=st.sampled_from(PATTERNS), mark=st.integers(0, 1), least=st.integers(1, 2))
def test_matches_onnxruntime(seed, shape, pattern, mark, least):
    """Values against onnxruntime's; the shapes: its dims or a fresh name (the token axis),
    concrete and with every input dim a symbol; where it rejects, so do the rules."""
    words = np.array(WORDS + ["é-ü", "   "], dtype=object)
    x = np.random.default_rng(seed).choice(words, size=shape)
    attrs = {**B, "mark": mark, "mincharnum": least, **pattern}
    try:
        (want,) = ort_contrib(OP, [x], attrs)
    except Exception:  # noqa: BLE001 - onnxruntime's errors have no common type
        assert infer(OP, [("str", list(shape))], attrs, domain=MS).status == "error"
        return
    (got,) = load_kernel(OP)(attrs, domain=MS)(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert (got == want).all(), (got.tolist(), want.tolist())
    sol = infer(OP, [("str", list(shape))], attrs, domain=MS)
    assert sol.status == "ok" and sol.dtype("y0") == "str"
    assert_dims_fit(sol, "y0", want.shape)
    if 0 not in shape:  # (symbols stand for sizes >= 1)
        names = [f"s{i}" for i in range(len(shape))]
        sol = infer(OP, [("str", "[" + ", ".join(names) + "]")], attrs, domain=MS)
        assert sol.shape("y0") == "[" + ", ".join(names) + ", _1]", sol.shape("y0")
