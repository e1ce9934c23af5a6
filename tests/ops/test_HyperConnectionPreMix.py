"""HyperConnectionPreMix (com.microsoft): rules/HyperConnectionPreMix.lp on data cases
(grouped and flattened streams, each gate layout), and the rules and the kernel against
onnxruntime."""
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

FLAT = {"num_branches": 4}

CASES = {
    "grouped, a gate per branch": ({"inputs": ["[b, s, c, h]", "[b, s, c]"]},
                                   {"y0": "[b, s, h]"}),
    "grouped, (C, 1)": ({"inputs": ["[b, s, 4, 8]", "[b, s, 4, 1]"]}, {"y0": "[b, s, 8]"}),
    "grouped, (C, H)": ({"inputs": ["[n, c, h]", "[n, c, h]"]}, {"y0": "[n, h]"}),
    "grouped without leading axes": ({"inputs": ["[c, h]", "[c]"]}, {"y0": "[h]"}),
    "the gate's leading axes from the streams'": ({"inputs": ["[b, s, c, h]", "G"]},
                                                  {"y0": "[b, s, h]", "x1": "G"}),
    "flattened": ({"inputs": ["[b, s, 32]", "[b, s, 4]"], "attrs": FLAT},
                  {"y0": "[b, s, 8]"}),
    "flattened, a symbolic width": ({"inputs": ["[b, w]", "[b, 4]"], "attrs": FLAT},
                                    {"y0": "[b, w//4]"}),
    "flattened, (C * H)": ({"inputs": ["[b, 32]", "[b, 32]"], "attrs": FLAT},
                           {"y0": "[b, 8]"}),
    "flattened, (C, H)": ({"inputs": ["[b, 32]", "[b, 4, 8]"], "attrs": FLAT},
                          {"y0": "[b, 8]"}),
    "flattened, the width from the output": (
        {"inputs": ["[b, _]", "[b, 4]"], "attrs": FLAT, "outputs": {"y0": {"shape": "[b, 8]"}}},
        {"x0": "[b, 32]"}),
    "f16 streams, a bf16 gate": ({"inputs": [("f16", "[n, 3, 4]"), ("bf16", "[n, 3]")]},
                                 {"y0": "[n, 4]", "dtypes": {"y0": "f16"}}),
    "grouped streams of rank 1": ({"inputs": ["[8]", "[2]"]}, "error"),
    "no branch": ({"inputs": ["[n, 0, 4]", "[n, 0]"]}, "error"),
    "no feature": ({"inputs": ["[n, 3, 0]", "[n, 3]"]}, "error"),
    "a width no multiple of num_branches": ({"inputs": ["[n, 30]", "[n, 4]"], "attrs": FLAT},
                                            "error"),
    "an empty flattened width": ({"inputs": ["[n, 0]", "[n, 4]"], "attrs": FLAT}, "error"),
    "a negative num_branches": ({"inputs": ["[n, 8]", "[n, 2]"],
                                 "attrs": {"num_branches": -2}}, "error"),
    "a grouped gate (C * H)": ({"inputs": ["[n, 3, 4]", "[n, 12]"]}, "error"),
    "a gate (C, E), E neither 1 nor H": ({"inputs": ["[n, 3, 4]", "[n, 3, 2]"]}, "error"),
    "a flattened gate (E), E neither C nor C * H": (
        {"inputs": ["[n, 32]", "[n, 8]"], "attrs": FLAT}, "error"),
    "a gate without the leading axes": ({"inputs": ["[n, 3, 4]", "[3]"]}, "error"),
    "a gate broadcast along a leading axis": ({"inputs": ["[2, 3, 4]", "[1, 3]"]}, "error"),
    "a scalar gate": ({"inputs": ["[n, 3, 4]", "[]"]}, "error"),
    "a gate of rank P + 3": ({"inputs": ["[n, 3, 4]", "[n, 3, 4, 1]"]}, "error"),
    "double": ({"inputs": [("f64", "[n, 3, 4]"), "[n, 3]"]}, "error"),
}

test_case = case_test("HyperConnectionPreMix", CASES, domain=MS)

# the gate's suffix: (C), (C, 1), (C, H), (C * H), and two that are none of them
LAYOUTS = ["c", "c1", "ch", "flat", "c+1", "c,h+1"]


def gate_suffix(layout, c, h):
    return {"c": (c,), "c1": (c, 1), "ch": (c, h), "flat": (c * h,), "c+1": (c + 1,),
            "c,h+1": (c, h + 1)}[layout]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(0, 3), max_size=2),
       c=st.integers(0, 3), h=st.integers(0, 4), flat=st.booleans(),
       layout=st.sampled_from(LAYOUTS), scale=st.sampled_from([1.0, 0.25]),
       dtype=st.sampled_from([np.float32, np.float16]),
       gtype=st.sampled_from([np.float32, np.float16]))
def test_matches_onnxruntime(seed, lead, c, h, flat, layout, scale, dtype, gtype):
    rng = np.random.default_rng(seed)
    shape = (*lead, c * h) if flat else (*lead, c, h)
    streams = rng.standard_normal(shape).astype(dtype)
    gate = rng.standard_normal((*lead, *gate_suffix(layout, c, h))).astype(gtype)
    attrs = {"reduction_scale": scale, **({"num_branches": c} if flat else {})}
    tol = 1e-2 if np.float16 in (dtype, gtype) else 1e-5
    got = check_against_onnxruntime("HyperConnectionPreMix", [streams, gate], attrs,
                                    rtol=tol, atol=tol)
    suffix = gate_suffix(layout, c, h)
    fits = suffix in {(c,), (c, 1), (c, h)} or (flat and suffix == (c * h,))
    # (flattened with C = 0 is num_branches 0: grouped streams, of C * H = 0 branches)
    assert (got is None) == (c == 0 or h == 0 or not fits)
