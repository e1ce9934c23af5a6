"""BranchwiseRMSNorm (com.microsoft): rules/BranchwiseRMSNorm.lp on data cases, and the rules
and the kernel against onnxruntime (grouped and flat X, the three scale shapes)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

FLAT = {"num_branches": 3}
CASES = {
    "grouped, symbolic": ({"inputs": ["[b, t, c, h]"]}, {"y0": "[b, t, c, h]"}),
    "grouped: a 2-D scale is (C, H)": ({"inputs": ["[b, c, h]", "[p, q]"]},
                                       {"x1": "[c, h]", "y0": "[b, c, h]"}),
    "grouped, an (H) scale of another float type": (
        {"inputs": [("bf16", "[b, 3, 4]"), ("f32", "[4]")]},
        {"y0": "[b, 3, 4]", "dtypes": {"y0": "bf16"}}),
    "grouped, a (C * H) scale": ({"inputs": ["[b, 3, 4]", "[12]"]}, {"y0": "[b, 3, 4]"}),
    "flat: a 2-D scale is (num_branches, H)": (
        {"inputs": ["[b, 12]", "[p, q]"], "attrs": FLAT}, {"x1": "[3, 4]", "y0": "[b, 12]"}),
    "flat, symbolic width": ({"inputs": ["[b, w]", "[p, q]"], "attrs": FLAT},
                             {"x1": "[3, q]", "y0": "[b, w]"}),
    "flat, a vector X": ({"inputs": ["[12]", "[4]"], "attrs": FLAT}, {"y0": "[12]"}),
    "backward from the output": ({"inputs": ["X"], "outputs": {"y0": {"shape": "[2, c, h]"}}},
                                 {"x0": "[2, c, h]"}),
    "grouped, a vector X": ({"inputs": ["[12]"]}, "error"),
    "flat, a scalar X": ({"inputs": ["[]"], "attrs": {"num_branches": 1}}, "error"),
    "grouped, no element per branch": ({"inputs": ["[b, 3, 0]"]}, "error"),
    "grouped, no branch": ({"inputs": ["[b, 0, 4]"]}, "error"),
    "flat, a width num_branches does not divide": (
        {"inputs": ["[b, 10]"], "attrs": FLAT}, "error"),
    "flat, no element": ({"inputs": ["[b, 0]"], "attrs": FLAT}, "error"),
    "negative num_branches": ({"inputs": ["[b, 12]"], "attrs": {"num_branches": -1}}, "error"),
    "a scale of neither length": ({"inputs": ["[b, 3, 4]", "[3]"]}, "error"),
    "flat, a scale of neither length": ({"inputs": ["[b, 12]", "[3]"], "attrs": FLAT},
                                        "error"),
    "a (1, H) scale for 3 branches": ({"inputs": ["[b, 3, 4]", "[1, 4]"]}, "error"),
    "a 3-D scale": ({"inputs": ["[b, 3, 4]", "[1, 3, 4]"]}, "error"),
    "a scalar scale": ({"inputs": ["[b, 3, 4]", "[]"]}, "error"),
    "double": ({"inputs": [("f64", "[b, 3, 4]")]}, "error"),
    "an integer scale": ({"inputs": ["[b, 3, 4]", ("i32", "[4]")]}, "error"),
}


test_case = case_test("BranchwiseRMSNorm", CASES, domain=MS)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), max_size=2),
       c=st.integers(1, 4), h=st.integers(1, 5), flat=st.booleans(),
       scale=st.sampled_from([None, "h", "ch", "c,h", "bad"]),
       eps=st.sampled_from([None, 1e-6, 0.5]), dtype=st.sampled_from([np.float32, np.float16]),
       sdtype=st.sampled_from([np.float32, np.float16]))
def test_matches_onnxruntime(seed, lead, c, h, flat, scale, eps, dtype, sdtype):
    """scale "bad": h + 1 elements, rejected unless that is C * H."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((*lead, c * h) if flat else (*lead, c, h)).astype(dtype)
    shapes = {"h": (h,), "ch": (c * h,), "c,h": (c, h), "bad": (h + 1,)}
    arrays = [x]
    if scale is not None:
        arrays.append(rng.standard_normal(shapes[scale]).astype(sdtype))
    attrs = {"num_branches": c} if flat else {}
    if eps is not None:
        attrs["epsilon"] = eps
    tol = 1e-2 if np.float16 in (dtype, sdtype) else 1e-5
    got = check_against_onnxruntime("BranchwiseRMSNorm", arrays, attrs, rtol=tol, atol=tol)
    assert (got is None) == (scale == "bad" and c * h != h + 1)
