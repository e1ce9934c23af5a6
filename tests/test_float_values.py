"""Integers carried through float elements (encodings/floats.lp): dims cast to float, float
arithmetic on them, Range over them, and casts back to int64. Each graph ends in a
ConstantOfShape whose shape is the value followed, so the printed shape says what is known;
every case is also run by the executor at two sizes, which checks each inferred shape."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import shape_logic
from shape_logic import solve
from shape_logic.symbolic.expr import Expr

SIZES = [dict(b=2, s=3), dict(b=5, s=8)]
FLOAT, INT64, DOUBLE, FLOAT16 = 1, 7, 11, 10


def graph(nodes, result, consts=()):
    """x : [b, s] f32; `b` and `s` are its dims as int64 scalars, `bs` their product;
    `nodes` compute the int64 scalar `result`, which sizes the output `y`."""
    g = {"opset": 18, "inputs": {"x": {"dtype": "f32", "shape": "[b, s]"}},
         "initializers": {"i0": {"dtype": "i64", "data": 0}, "i1": {"dtype": "i64", "data": 1},
                          "ax": {"dtype": "i64", "data": [0]}},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["shape"]},
                   {"op": "Gather", "inputs": ["shape", "i0"], "outputs": ["b"]},
                   {"op": "Gather", "inputs": ["shape", "i1"], "outputs": ["s"]},
                   {"op": "Mul", "inputs": ["b", "s"], "outputs": ["bs"]},
                   {"op": "Add", "inputs": ["b", "s"], "outputs": ["b_plus_s"]},
                   *nodes,
                   {"op": "Unsqueeze", "inputs": [result, "ax"], "outputs": ["size"]},
                   {"op": "ConstantOfShape", "inputs": ["size"], "outputs": ["y"]}]}
    for name, (dtype, v) in dict(consts).items():
        g["initializers"][name] = {"dtype": dtype, "data": v}
    return g


def cast(x, to, y):
    return {"op": "Cast", "inputs": [x], "outputs": [y], "attrs": {"to": to}}


def op(name, *inputs, out):
    return {"op": name, "inputs": list(inputs), "outputs": [out]}


F = {"one": ("f32", 1.0), "two": ("f32", 2.0), "half": ("f32", 0.5), "zero": ("f32", 0.0),
     "seven": ("i64", 7), "three": ("i64", 3), "minus3": ("i64", -3)}

CASES = {
    "cast to float and back": ([cast("s", FLOAT, "f"), cast("f", INT64, "r")], "[s]"),
    "plus one": ([cast("s", FLOAT, "f"), op("Add", "f", "one", out="g"),
                  cast("g", INT64, "r")], "[s + 1]"),
    "subtracted from, negated": ([cast("s", FLOAT, "f"), op("Sub", "one", "f", out="g"),
                                  op("Neg", "g", out="h"), cast("h", INT64, "r")], "[s - 1]"),
    "doubled, then halved exactly": ([cast("s", FLOAT, "f"), op("Mul", "f", "two", out="g"),
                                      op("Div", "g", "two", out="h"), cast("h", INT64, "r")],
                                     "[s]"),
    "doubled, floored": ([cast("s", FLOAT, "f"), op("Mul", "f", "two", out="g"),
                          op("Floor", "g", out="h"), cast("h", INT64, "r")], "[2*s]"),
    "plus the ceiling of 0.5": ([cast("s", FLOAT, "f"), op("Ceil", "half", out="c"),
                                 op("Add", "f", "c", out="g"), cast("g", INT64, "r")],
                                "[s + 1]"),
    "halved: not an integer in general, unknown": (
        [cast("s", FLOAT, "f"), op("Div", "f", "two", out="g"), cast("g", INT64, "r")], None),
    "times 0.5: unknown": ([cast("s", FLOAT, "f"), op("Mul", "f", "half", out="g"),
                           cast("g", INT64, "r")], None),
    "a product of dims in f32 may exceed 2^24: unknown": (
        [cast("bs", FLOAT, "f"), cast("f", INT64, "r")], None),
    "a product of dims in f64": ([cast("bs", DOUBLE, "f"), cast("f", INT64, "r")], "[b*s]"),
    "f32 to f64 and back": ([cast("s", FLOAT, "f"), cast("f", DOUBLE, "g"),
                             cast("g", FLOAT, "h"), cast("h", INT64, "r")], "[s]"),
    "a dim in f16 may exceed 2^11: unknown": ([cast("s", FLOAT16, "f"), cast("f", INT64, "r")],
                                              None),
    # torch.arange(past, past + t, dtype=float32): the rotary positions of a LLaMA block
    "Range over dims cast to float": ([cast("b", FLOAT, "lo"), cast("b_plus_s", FLOAT, "hi"),
                                       op("Range", "lo", "hi", "one", out="pos"),
                                       op("Shape", "pos", out="n"),
                                       op("Squeeze", "n", out="r")], "[s]"),
    "Range with a float step": ([cast("s", FLOAT, "hi"),
                                 op("Range", "zero", "hi", "two", out="pos"),
                                 op("Shape", "pos", out="n"), op("Squeeze", "n", out="r")],
                                "[(s + 1)//2]"),
    # Range's function: its trip count is Ceil((limit - start) / delta), an inexact quotient
    # of known integers (the float the type rounds it to: real(..), floats.lp)
    "the ceiling of an inexact quotient": ([
        cast("s", FLOAT, "f"), cast("seven", FLOAT, "f7"), cast("minus3", FLOAT, "f3"),
        op("Div", "f7", "f3", out="q"), op("Ceil", "q", out="c"),
        op("Sub", "f", "c", out="g"), cast("g", INT64, "r")], "[s + 2]"),
    "the floor of an inexact quotient": ([
        cast("s", DOUBLE, "f"), cast("seven", DOUBLE, "f7"), cast("three", DOUBLE, "f3"),
        op("Div", "f7", "f3", out="q"), op("Floor", "q", out="c"),
        op("Add", "f", "c", out="g"), cast("g", INT64, "r")], "[s + 2]"),
    "an inexact quotient cast to int64 (truncated)": ([
        cast("seven", FLOAT, "f7"), cast("three", FLOAT, "f3"), op("Div", "f7", "f3", out="q"),
        cast("q", INT64, "r")], "[2]"),
    "Range from 0.5: unknown": ([cast("s", FLOAT, "hi"),
                                 op("Range", "half", "hi", "one", out="pos"),
                                 op("Shape", "pos", out="n"), op("Squeeze", "n", out="r")],
                                None),
}


@pytest.mark.parametrize("name", CASES)
def test_value_followed_where_exact(name):
    nodes, expected = CASES[name]
    g = graph(nodes, "r", F)
    sol = solve(g)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    if expected is None:  # nothing may be known: a fresh name
        assert re.fullmatch(r"\[_\d+\]", sol.shape("y")), sol.shape("y")
    else:
        assert sol.shape("y") == expected
    for sizes in SIZES:  # the executor checks every inferred shape against the run
        x = np.zeros((sizes["b"], sizes["s"]), np.float32)
        got = shape_logic.run(g, {"x": x})["y"].shape
        if expected is not None:
            subs = {k: Expr.const(v) for k, v in sizes.items()}
            assert (sol.dims("y")[0].subs(subs).value,) == got


def test_known_integers_beyond_a_float_types_exact_range():
    # 2049 is no f16 (it becomes 2048); 2048 is; 2^24 + 1 is no f32
    def through(v, to):
        g = graph([cast("v", to, "f"), cast("f", INT64, "r")], "r", {"v": ("i64", v)})
        return solve(g).shape("y")

    assert through(2048, FLOAT16) == "[2048]"
    assert re.fullmatch(r"\[_\d+\]", through(2049, FLOAT16))
    assert through(2**24, FLOAT) == "[16777216]"
    assert re.fullmatch(r"\[_\d+\]", through(2**24 + 1, FLOAT))
    assert through(2**24 + 1, DOUBLE) == "[16777217]"


NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
CODE = {"f16": FLOAT16, "f32": FLOAT, "f64": DOUBLE}
UFUNC = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(NUMPY)), st.sampled_from(sorted(UFUNC)),
       st.integers(0, 2**25 + 3), st.integers(1, 2**13))
def test_known_integers_match_numpy(dtype, name, a, b):
    # integers cast to a float type, combined, cast back: whatever the solver states is
    # what numpy computes in that type (near the types' exact ranges: 2^11, 2^24)
    t = NUMPY[dtype]
    with np.errstate(all="ignore"):
        want = UFUNC[name](np.array(a).astype(t), np.array(b).astype(t))
    g = graph([cast("a", CODE[dtype], "fa"), cast("bb", CODE[dtype], "fb"),
               op(name, "fa", "fb", out="g"), cast("g", INT64, "r")], "r",
              {"a": ("i64", a), "bb": ("i64", b)})
    dims = solve(g).dims("y")
    if dims[0].is_int:
        assert np.isfinite(want) and dims[0].value == int(want), (dims[0], want)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(NUMPY)), st.sampled_from(["Ceil", "Floor"]),
       st.integers(0, 2**25 + 3), st.integers(1, 2**13))
def test_rounded_quotients_of_known_integers_match_numpy(dtype, name, a, b):
    # an inexact quotient is the float the type rounds it to: its ceiling or floor is what
    # numpy computes in that type (f16's quotients are not followed)
    t = NUMPY[dtype]
    with np.errstate(all="ignore"):
        want = {"Ceil": np.ceil, "Floor": np.floor}[name](np.array(a).astype(t) / t(b))
    g = graph([cast("a", CODE[dtype], "fa"), cast("bb", CODE[dtype], "fb"),
               op("Div", "fa", "fb", out="q"), op(name, "q", out="g"),
               cast("g", INT64, "r")], "r", {"a": ("i64", a), "bb": ("i64", b)})
    dims = solve(g).dims("y")
    if dims[0].is_int:
        assert np.isfinite(want) and dims[0].value == int(want), (dims[0], want)
    elif dtype != "f16" and a < 2**24:  # held exactly: followed, exact or not
        raise AssertionError(f"{a} / {b} in {dtype}: {dims[0]}")


def test_symbolic_values_narrowed_to_32_bits():
    """A length cast to int32 (onnxruntime's contrib ops take them so) keeps its value when,
    with every dim below 2^24, it is surely below 2^31: linear, coefficients adding up to
    at most 64; unsigned also needs it >= 0."""
    from shape_logic.asp.float_ints import int_held
    from shape_logic.symbolic.parse import parse_dim

    assert int_held(parse_dim("past + seq"), "i32")
    assert int_held(parse_dim("64*s - 1"), "i32")
    assert not int_held(parse_dim("65*s"), "i32")  # may reach 65 * 2^24 > 2^31
    assert not int_held(parse_dim("b*s"), "i32")  # a product of dims may exceed 2^31
    assert not int_held(parse_dim("s + 1073741824"), "i32")
    assert int_held(parse_dim("s - 1"), "u32") and not int_held(parse_dim("1 - s"), "u32")
    assert not int_held(parse_dim("s"), "i16") and not int_held(parse_dim("s"), "i64")


def test_symbolic_values_followed_into_floats_have_small_coefficients():
    # the assumption covers positions and lengths (linear, coefficients adding up to at
    # most 64); 1000*s may well be beyond f32's exact integers
    from shape_logic.asp.float_ints import held
    from shape_logic.symbolic.parse import parse_dim

    assert held(parse_dim("past + seq"), "f32") and held(parse_dim("b*s"), "f64")
    assert not held(parse_dim("1000*s"), "f32") and not held(parse_dim("b*s"), "f32")
    assert not held(parse_dim("s"), "f16")
