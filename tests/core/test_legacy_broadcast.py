"""Broadcasting before opset 7 (Add-6 and its kind: encodings/families.lp's legacy_bcast,
kernels/families.Binary.operands): without broadcast = 1 one shape; with it, B of one
element or aligned with a run of A's axes from `axis`, each of its axes 1 or A's."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import KernelError, load_kernel
from shape_logic.testing import infer

OLD = 6
CASES = {
    # B's axis that cannot be 1 is A's axis it aligns with: 3 = c
    "axis 1": ("Add", ["[2, c, h]", "[3]"], {"broadcast": 1, "axis": 1},
               {"y0": "[2, 3, h]", "bindings": {"c": 3}}),
    # a symbol may be 1 (one element): nothing is said of k, and Y is A's shape (numpy
    # broadcasting would have made it max(h, k))
    "a symbol at axis 1": ("Add", ["[2, c, h]", "[k]"], {"broadcast": 1, "axis": 1},
                           {"y0": "[2, c, h]", "x1": "[k]", "bindings": {}}),
    "suffix by default": ("Mul", ["[2, 3, 4, 5]", "[4, e]"], {"broadcast": 1},
                          {"y0": "[2, 3, 4, 5]", "x1": "[4, e]"}),
    "a run in the middle": ("Sub", ["[2, 3, 4, 5]", "[3, 4]"], {"broadcast": 1, "axis": 1},
                            {"y0": "[2, 3, 4, 5]"}),
    "a negative axis": ("Div", ["[2, 3, 4, 5]", "[3, 4]"], {"broadcast": 1, "axis": -3},
                        {"y0": "[2, 3, 4, 5]"}),
    "axes of 1 (PyTorch's exports)": ("Add", ["[2, 3]", "[2, 1]"], {"broadcast": 1, "axis": 0},
                                      {"y0": "[2, 3]"}),
    "one element anywhere": ("Add", ["[2, 3]", "[1, 1]"], {"broadcast": 1, "axis": 1},
                             {"y0": "[2, 3]"}),
    "without broadcast: one shape": ("Add", ["[a, b]", "X"], {}, {"x1": "[a, b]"}),
    "a comparison is bool": ("Equal", ["[2, c]", "[c]"], {"broadcast": 1},
                             {"dtypes": {"y0": "bool"}}),
    "Pow": ("Pow", ["[2, c, h]", "[3]"], {"broadcast": 1, "axis": 1}, {"bindings": {"c": 3}}),
    # errors
    "numpy's broadcasting is not there": ("Add", ["[2, 3]", "[1, 3]"], {}, "error"),
    "B longer than A": ("Add", ["[2, 3]", "[2, 2, 3]"], {"broadcast": 1}, "error"),
    "a run past A's axes": ("Add", ["[2, 3, 4, 5]", "[3, 4]"], {"broadcast": 1, "axis": 3},
                            "error"),
    "an axis that differs": ("Add", ["[2, 3, 4]", "[4]"], {"broadcast": 1, "axis": 1}, "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    op, inputs, attrs, want = CASES[name]
    sol = infer(op, inputs, attrs, opset=OLD)
    if want == "error":
        assert sol.status == "error"
        return
    assert sol.status == "ok", [d.message for d in sol.diagnostics]
    for key, value in want.items():
        if key == "bindings":
            assert sol.bindings == value
        elif key == "dtypes":
            assert all(sol.dtype(t) == d for t, d in value.items())
        else:
            assert sol.shape(key) == value, (key, sol.shape(key))


@st.composite
def legacy_pairs(draw):
    """A, then B as a run of A's axes (some of them 1, maybe one broken), its axis given
    or not; or, without broadcast, B of A's shape or not."""
    a = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    if not draw(st.booleans()):
        b = list(a) if draw(st.booleans()) else draw(st.lists(st.integers(1, 4), max_size=4))
        return a, b, {}
    n = draw(st.integers(0, len(a)))
    start = draw(st.integers(0, len(a) - n))
    b = [d if draw(st.booleans()) else 1 for d in a[start:start + n]]
    if b and draw(st.integers(0, 3)) == 0:
        b[draw(st.integers(0, len(b) - 1))] = draw(st.integers(1, 5))
    attrs = {"broadcast": 1}
    if start != len(a) - n or draw(st.booleans()):
        attrs["axis"] = draw(st.sampled_from([start, start - len(a)]))
    return a, b, attrs


@settings(max_examples=40, deadline=None)
@given(legacy_pairs(), st.sampled_from(["Add", "Mul", "Less"]))
def test_the_rule_and_the_kernel_agree(pair, op):
    """The rule accepts exactly what the kernel runs, and gives the kernel's shape."""
    a, b, attrs = pair
    kernel = load_kernel(op)(attrs, opset=OLD)
    try:
        (y,) = kernel(np.ones(a, np.float32), np.ones(b, np.float32))
    except KernelError:
        y = None
    sol = infer(op, [str(a), str(b)], attrs, opset=OLD)
    if y is None:
        assert sol.status == "error", (a, b, attrs, sol.shape("y0"))
    else:
        assert sol.status == "ok" and sol.shape("y0") == str(list(y.shape)), (a, b, attrs)


def test_the_kernel_aligns_b_at_axis():
    kernel = load_kernel("Add")({"broadcast": 1, "axis": 1}, opset=OLD)
    a = np.zeros((2, 3, 4), np.float32)
    (y,) = kernel(a, np.arange(3, dtype=np.float32))
    assert np.array_equal(y[1, :, 2], [0, 1, 2])  # along axis 1, not the last one
    with pytest.raises(KernelError):  # opset 7's attributes are gone
        load_kernel("Add")({"broadcast": 1}, opset=7)
