"""The tests every reduction (ReduceSum, ReduceMean, ReduceMax...) shares, made per
operator by its own test module: its rule file (ReduceSum.lp's rules, `% uses: ReduceSum`)
on data cases, and against onnx's reference with our kernel on random shapes and axes; and
those ArgMax and ArgMin share."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_against_reference, check_case, random_array


def axes(*values):
    return np.array(values, dtype=np.int64)


def reduction_cases(since: int, before: int) -> dict:
    """The data cases of a reduction whose `axes` is an input since opset `since` (an
    attribute at opset `before`)."""
    return {
        # axes given by the input's values
        "one axis kept": ({"inputs": ["[b, s, h]", axes(1)]}, {"y0": "[b, 1, h]"}),
        "one axis dropped": ({"inputs": ["[b, s, h]", axes(1)], "attrs": {"keepdims": 0}},
                             {"y0": "[b, h]"}),
        "negative axis": ({"inputs": ["[b, s, h]", axes(-1)], "attrs": {"keepdims": 0}},
                          {"y0": "[b, s]"}),
        "two axes kept": ({"inputs": ["[b, s, h]", axes(0, -1)]}, {"y0": "[1, s, 1]"}),
        "two axes dropped": ({"inputs": ["[b, s, h]", axes(2, 0)], "attrs": {"keepdims": 0}},
                             {"y0": "[s]"}),
        "every axis listed": ({"inputs": ["[b, s]", axes(1, 0)], "attrs": {"keepdims": 0}},
                              {"y0": "[]"}),
        "dtype kept": ({"inputs": [("f16", "[b, s]"), axes(0)]},
                       {"y0": "[1, s]", "dtypes": {"y0": "f16"}}),
        # no axes: all of them, or none with noop_with_empty_axes
        "no axes input": ({"inputs": ["[b, s, h]"]}, {"y0": "[1, 1, 1]"}),
        "no axes input, dropped": ({"inputs": ["[b, s, h]"], "attrs": {"keepdims": 0}},
                                   {"y0": "[]"}),
        "absent axes input": ({"inputs": ["[b, s, h]", None], "attrs": {"keepdims": 0}},
                              {"y0": "[]"}),
        "empty axes": ({"inputs": ["[b, s, h]", axes()]}, {"y0": "[1, 1, 1]"}),
        "empty axes, noop": ({"inputs": ["[b, s, h]", axes()],
                              "attrs": {"noop_with_empty_axes": 1, "keepdims": 0}},
                             {"y0": "[b, s, h]"}),
        "no axes, noop": ({"inputs": ["[b, s, h]"], "attrs": {"noop_with_empty_axes": 1}},
                          {"y0": "[b, s, h]"}),
        "noop with axes given": ({"inputs": ["[b, s, h]", axes(1)],
                                  "attrs": {"noop_with_empty_axes": 1, "keepdims": 0}},
                                 {"y0": "[b, h]"}),
        "scalar": ({"inputs": ["[]"]}, {"y0": "[]"}),
        # axes whose values are unknown: only what is certain
        "unknown axes keep the rank and the 1s": ({"inputs": ["[b, 1, h]", ("i64", "[k]")]},
                                                  {"y0": "[_1, 1, _2]"}),
        "unknown axes, backward: a Y axis not 1 was kept": (
            {"inputs": ["x", ("i64", "[k]")], "outputs": {"y0": {"shape": "[1, 4]"}}},
            {"x0": "[_1, 4]"}),
        # (two axes may be one, reduced once: rank 1 or 2; one axis is one: rank 2)
        "unknown axes, known count, dropped": ({"inputs": ["[b, s, h]", ("i64", "[2]")],
                                                "attrs": {"keepdims": 0}},
                                               {"y0": "_1"}),
        "one unknown axis, dropped": ({"inputs": ["[b, s, h]", ("i64", "[1]")],
                                       "attrs": {"keepdims": 0}},
                                      {"y0": "[_1, _2]"}),
        "unknown axes, unknown count, dropped": ({"inputs": ["[b, s, h]", ("i64", "[k]")],
                                                  "attrs": {"keepdims": 0}},
                                                 {"y0": "_1"}),
        # axes as an attribute, before opset `since`
        "attribute axes": ({"inputs": ["[b, s, h]"], "attrs": {"axes": [1], "keepdims": 0},
                            "opset": before}, {"y0": "[b, h]"}),
        "attribute, negative axes": ({"inputs": ["[b, s, h]"], "attrs": {"axes": [-2, 0]},
                                      "opset": before}, {"y0": "[1, 1, h]"}),
        "attribute absent": ({"inputs": ["[b, s, h]"], "opset": before}, {"y0": "[1, 1, 1]"}),
        "attribute empty": ({"inputs": ["[b, s, h]"], "attrs": {"axes": [], "keepdims": 0},
                             "opset": before}, {"y0": "[]"}),
        f"noop ignored before opset {since}": ({"inputs": ["[b, s]"],
                                               "attrs": {"noop_with_empty_axes": 1},
                                               "opset": before}, {"y0": "[1, 1]"}),
        # backwards from the output
        "backward, dropped": ({"inputs": ["x", axes(1)], "attrs": {"keepdims": 0},
                               "outputs": {"y0": {"shape": "[4, 5]"}}}, {"x0": "[4, _1, 5]"}),
        "backward, kept": ({"inputs": ["x", axes(-2)], "outputs": {"y0": {"shape": "[4, 1, 5]"}}},
                           {"x0": "[4, _1, 5]"}),
        "backward rank, unknown axes": ({"inputs": ["x", ("i64", "[1]")], "attrs": {"keepdims": 0},
                                         "outputs": {"y0": {"shape": "[4, 5]"}}},
                                        {"x0": "[_1, _2, _3]"}),
        "backward rank, two unknown axes: 2 or 3": (
            {"inputs": ["x", ("i64", "[2]")], "attrs": {"keepdims": 0},
             "outputs": {"y0": {"shape": "[4]"}}}, {"x0": "x"}),
        "backward, attribute": ({"inputs": ["x"], "attrs": {"axes": [0], "keepdims": 0},
                                 "opset": before, "outputs": {"y0": {"shape": "[n]"}}},
                                {"x0": "[_1, n]"}),
        # errors
        "axis out of range": ({"inputs": ["[b, s, h]", axes(3)]}, "error"),
        "negative axis out of range": ({"inputs": ["[b, s, h]", axes(-4)]}, "error"),
        # an axis listed twice is reduced once (onnxruntime, ONNX's inference; not the
        # reference evaluator: test_matches_reference checks those against our kernel)
        "repeated axis": ({"inputs": ["[b, s, h]", axes(1, -2)], "attrs": {"keepdims": 0}},
                          {"y0": "[b, h]"}),
        "more axes than X has": ({"inputs": ["[b, s]", ("i64", "[3]")]}, "error"),
        "axes of a scalar": ({"inputs": ["[]", axes(0)]}, "error"),
        "axes not 1-D": ({"inputs": ["[b, s]", ("i64", "[1, 1]")]}, "error"),
        "axes not int64": ({"inputs": ["[b, s]", ("i32", "[1]")]}, "error"),
        f"axes input before opset {since}": ({"inputs": ["[b, s]", axes(0)], "opset": before},
                                            "error"),
        f"axes attribute since opset {since}": ({"inputs": ["[b, s]"], "attrs": {"axes": [0]}},
                                               "error"),
        "attribute axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axes": [2]},
                                         "opset": before}, "error"),
        "output rank clash": ({"inputs": ["[b, s, h]", axes(1)],
                               "outputs": {"y0": {"shape": "[b, h]"}}}, "error"),
        "output dim clash": ({"inputs": ["[2, 3]", axes(0)], "attrs": {"keepdims": 0},
                              "outputs": {"y0": {"shape": "[2]"}}}, "error"),
    }


def reduction_tests(op: str, since: int = 18, scalar_reference_fails: bool = False):
    """test_case and test_matches_reference of reduction `op`, whose `axes` is an input
    since opset `since` (an attribute five opsets before, where the cases try it). With
    `scalar_reference_fails`, onnx's reference may fail on 0-d inputs."""
    before = since - 5
    cases = reduction_cases(since, before)

    @pytest.mark.parametrize("name", cases)
    def test_case(name):
        check_case(op, *cases[name])

    @pytest.mark.filterwarnings("ignore::RuntimeWarning")  # empty means, logs of 0: values only
    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(0, 3), max_size=3), st.lists(st.integers(-4, 3), max_size=3),
           st.integers(0, 1), st.integers(0, 1), st.sampled_from(["input", "absent", "attr"]))
    def test_matches_reference(shape, axes_, keepdims, noop, how):
        # axes drawn freely: some are out of range or repeated, which the reference rejects
        x = random_array(shape)
        # (onnx's reference fails on some 0-d inputs: np.exp(..., out=) of a numpy scalar)
        ok = {"reference_fails_ok": scalar_reference_fails and not shape}
        attrs = {"keepdims": keepdims}
        if how == "attr":
            if axes_:
                attrs["axes"] = axes_
            check_against_reference(op, [x], attrs, opset=before, **ok)
        elif how == "absent":
            check_against_reference(op, [x], dict(attrs, noop_with_empty_axes=noop), **ok)
        elif _repeated(shape, axes_):
            _check_repeated(op, x, axes(*axes_), dict(attrs, noop_with_empty_axes=noop), since)
        else:
            check_against_reference(op, [x, axes(*axes_)], dict(attrs, noop_with_empty_axes=noop),
                                    const=[1], **ok)

    return test_case, test_matches_reference


def _repeated(shape, axes_) -> bool:
    """The axes are all in range and name an axis twice."""
    r = len(shape)
    norm = [a % r for a in axes_ if r and -r <= a < r]
    return len(norm) == len(axes_) and len(set(norm)) < len(norm)


def _check_repeated(op, x, axes_, attrs, opset):
    """An axis named twice is reduced once: the rules give our kernel's output shape (which
    onnx's reference refuses; onnxruntime computes it: test_ReduceSum_repeated_axes.py)."""
    from shape_logic.kernels import load_kernel
    from shape_logic.testing import infer

    (want,) = load_kernel(op)(dict(attrs), opset=opset, n_outputs=1)(x, axes_)
    sol = infer(op, [list(x.shape), axes_], attrs, opset=opset)
    assert sol.status == "ok" and sol.shape("y0") == str(list(np.shape(want))), \
        (sol.shape("y0"), np.shape(want), [d.to_text() for d in sol.diagnostics])


# ArgMax and ArgMin: one axis (an attribute), the index as i64
ARG_CASES = {
    "default axis 0, kept": ({"inputs": ["[b, s, h]"]},
                             {"y0": "[1, s, h]", "dtypes": {"y0": "i64"}}),
    "axis 1, kept": ({"inputs": ["[b, s, h]"], "attrs": {"axis": 1}}, {"y0": "[b, 1, h]"}),
    "axis 1, dropped": ({"inputs": ["[b, s, h]"], "attrs": {"axis": 1, "keepdims": 0}},
                        {"y0": "[b, h]"}),
    "negative axis, kept": ({"inputs": ["[b, s, h]"], "attrs": {"axis": -1}},
                            {"y0": "[b, s, 1]"}),
    "negative axis, dropped": ({"inputs": ["[b, s, h]"], "attrs": {"axis": -3, "keepdims": 0}},
                               {"y0": "[s, h]"}),
    "vector to scalar": ({"inputs": ["[n]"], "attrs": {"keepdims": 0}}, {"y0": "[]"}),
    "select_last_index": ({"inputs": ["[b, s]"], "attrs": {"axis": 1, "select_last_index": 1}},
                          {"y0": "[b, 1]"}),
    "integer input": ({"inputs": [("i32", "[b, s]")], "attrs": {"keepdims": 0}},
                      {"y0": "[s]", "dtypes": {"y0": "i64"}}),
    "opset 11 (no select_last_index)": ({"inputs": ["[b, s]"], "attrs": {"axis": -1},
                                          "opset": 11}, {"y0": "[b, 1]"}),
    "empty other axis": ({"inputs": ["[0, 3]"], "attrs": {"axis": 1}}, {"y0": "[0, 1]"}),
    "backward, dropped": ({"inputs": ["x"], "attrs": {"axis": 1, "keepdims": 0},
                           "outputs": {"y0": {"shape": "[2, 3]"}}}, {"x0": "[2, _1, 3]"}),
    "backward, negative axis": ({"inputs": ["x"], "attrs": {"axis": -1, "keepdims": 0},
                                 "outputs": {"y0": {"shape": "[2, 3]"}}},
                                {"x0": "[2, 3, _1]"}),
    "backward, kept": ({"inputs": ["x"], "attrs": {"axis": 0},
                        "outputs": {"y0": {"shape": "[1, n]"}}}, {"x0": "[_1, n]"}),
    "axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axis": 2}}, "error"),
    "negative axis out of range": ({"inputs": ["[b, s]"], "attrs": {"axis": -3}}, "error"),
    "scalar input (runtimes allow it)": ({"inputs": ["[]"], "attrs": {"axis": -1}},
                                          {"y0": "[]"}),
    "scalar input, other axis": ({"inputs": ["[]"], "attrs": {"axis": 1}}, "error"),
    "backward, scalar output": ({"inputs": ["x"], "attrs": {"keepdims": 0},
                                 "outputs": {"y0": {"shape": "[]"}}},
                                {"x0": "x"}),  # rank still unknown: the user's variable
    "empty axis": ({"inputs": ["[2, 0]"], "attrs": {"axis": 1}}, "error"),
    "kept axis is not 1": ({"inputs": ["[b, s]"], "outputs": {"y0": {"shape": "[2, s]"}}},
                           "error"),
    "output dtype": ({"inputs": ["[b, s]"], "outputs": {"y0": {"dtype": "i32"}}}, "error"),
    "two inputs": ({"inputs": ["[b, s]", "[b, s]"]}, "error"),
}

def arg_reduction_tests(op: str):
    """test_case and test_matches_reference of ArgMax or ArgMin."""
    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(0, 3), max_size=3), st.integers(-4, 3), st.integers(0, 1),
           st.integers(0, 1))
    def test_matches_reference(shape, axis, keepdims, last):
        # out-of-range axes and empty axes: the reference rejects them (and with
        # select_last_index, scalars too: np.flip of a 0-d array, a reference quirk)
        attrs = {"axis": axis, "keepdims": keepdims, "select_last_index": last}
        check_against_reference(op, [random_array(shape)], attrs,
                                reference_fails_ok=not shape and last == 1)

    @pytest.mark.parametrize("name", ARG_CASES)
    def test_case(name):
        check_case(op, *ARG_CASES[name])
    return test_case, test_matches_reference
