"""DynamicTimeWarping (com.microsoft): rules/DynamicTimeWarping.lp on data cases (a path
length the data decides, a fresh name with its bound), and the rules and the kernel against
onnxruntime on random cost matrices."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from shape_logic.kernels import load_kernel
from shape_logic.symbolic.expr import Expr
from shape_logic.symbolic.parse import parse_dim
from tests.contrib_ops import MS, infer_contrib, ms_case, ort_contrib

OP = "DynamicTimeWarping"

CASES = {
    "symbolic": (ms_case(["[m, n]"]), {"y0": "[2, _c1]", "dtypes": {"y0": "i32"}}),
    "a batch of one": (ms_case(["[1, m, n]"]), {"y0": "[2, _c1]"}),
    "rank 3 makes axis 0 one": (ms_case(["[b, m, n]"]), {"x0": "[1, m, n]"}),
    "no rows: no path": (ms_case(["[0, n]"]), {"y0": "[2, 0]"}),
    "no columns: no path": (ms_case(["[1, m, 0]"]), {"y0": "[2, 0]"}),
    "one cost: one step": (ms_case(["[1, 1]"]), {"y0": "[2, 1]"}),
    "a column: its length is not decided (infinite costs stop the path)": (
        ms_case(["[m, 1]"]), {"y0": "[2, _c1]"}),
    "a batch of two": (ms_case(["[2, m, n]"]), "error"),
    "a vector": (ms_case(["[n]"]), "error"),
    "rank 4": (ms_case(["[1, 1, m, n]"]), "error"),
    "f64": (ms_case([("f64", "[m, n]")]), "error"),
    "a declared float path": (ms_case(["[m, n]"], outputs={"y0": {"dtype": "f32"}}), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


@pytest.mark.parametrize("shape, bound", [("[3, 4]", 6), ("[m, n]", "m + n - 1"),
                                          ("[1, m, 5]", "m + 4")])
def test_the_length_is_bounded(shape, bound):
    sol = infer_contrib(OP, [shape])
    assert sol.to_json()["ranges"] == {"_c1": [0, bound]}


def check(x):
    """onnxruntime's path is our kernel's; the rules give [2, L] with L its length, or a
    fresh name whose range holds it (the input's shape concrete, then symbolic). Returns
    the path, or None where onnxruntime rejects x (and so do the rules)."""
    try:
        want, = ort_contrib(OP, [x])
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        sol = infer_contrib(OP, [list(x.shape)])
        assert sol.status == "error", f"onnxruntime rejects ({str(e)[:200]}), the rules accept"
        return None
    got, = load_kernel(OP)({}, domain=MS)(x)
    assert got.dtype == want.dtype == np.int32
    np.testing.assert_array_equal(got, want)
    names = [f"s{i}" for i in range(x.ndim)]
    env = {s: Expr.const(d) for s, d in zip(names, x.shape)}
    shapes = [list(x.shape)] + ([] if 0 in x.shape else ["[" + ", ".join(names) + "]"])
    for shape in shapes:
        sol = infer_contrib(OP, [shape])
        assert sol.status == "ok" and sol.dtype("y0") == "i32"
        first, length = sol.dims("y0")
        assert first.subs(env) == 2
        if any(s.startswith("_") for s in length.symbols()):
            lo, hi = sol.to_json()["ranges"][str(length)]
            assert lo <= want.shape[1] <= parse_dim(str(hi)).subs(env).value
        else:
            assert length.subs(env) == want.shape[1]
    return want


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(0, 6), n=st.integers(0, 6),
       batch=st.booleans(), ties=st.booleans(), odd=st.sampled_from([None, np.inf, np.nan]))
def test_matches_onnxruntime(seed, m, n, batch, ties, odd):
    """Random costs (with ties: small integers), sometimes one infinite or NaN cost, which
    may stop the trace-back early; the length within the rules' range."""
    rng = np.random.default_rng(seed)
    x = (rng.integers(0, 3, (m, n)) if ties else rng.random((m, n))).astype(np.float32)
    if odd is not None and x.size:
        x.reshape(-1)[rng.integers(0, x.size)] = odd
    y = check(x[None] if batch else x)
    assert y.shape[1] <= max(m + n - 1, 0)
    if odd is None and m and n:
        assert y.shape[1] >= max(m, n)
        assert tuple(y[:, 0]) == (0, 0) and tuple(y[:, -1]) == (m - 1, n - 1)


def test_an_infinite_cost_stops_the_path_short():
    x = np.zeros((4, 1), np.float32)
    x[0, 0] = np.inf
    y = check(x)
    assert y.shape == (2, 1)  # below max(M, N) = 4: the rules give no lower bound


@pytest.mark.parametrize("shape", [(2, 3, 4), (4,), (1, 1, 3, 4)])
def test_onnxruntime_rejects_what_the_rules_reject(shape):
    assert check(np.ones(shape, np.float32)) is None
