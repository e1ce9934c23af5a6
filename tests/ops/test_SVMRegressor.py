"""SVMRegressor (ai.onnx.ml 1): rules/SVMRegressor.lp on data cases; the rule and our kernel
against onnxruntime (shapes, types, values) and onnx's reference."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.testing import reference_outputs
from tests.ops.cases import case_test
from tests.ops.ml_cases import ML, check_ml, run_kernel

# three support vectors of two features, an RBF kernel
SVR = {"coefficients": [1.0, -2.0, 0.5], "rho": [0.5], "n_supports": 3,
       "support_vectors": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "kernel_type": "RBF",
       "kernel_params": [0.1, 0.0, 3.0]}


def svr(inputs, drop=(), **attrs):
    given = {k: v for k, v in {**SVR, **attrs}.items() if k not in drop}
    return {"inputs": inputs, "attrs": given, "domain": ML}


LINEAR = {"n_supports": 0, "coefficients": [1.0, 2.0, 3.0], "kernel_type": "LINEAR"}
CASES = {
    "rows": (svr(["[n, 2]"]), {"y0": "[n, 1]", "dtypes": {"y0": "f32"}}),
    "the features are the vectors'": (svr(["[n, f]"]), {"x0": "[n, 2]", "y0": "[n, 1]"}),
    "linear: the coefficients' count": (svr([("f64", "[n, f]")], drop=["support_vectors"],
                                            **LINEAR), {"x0": "[n, 3]", "y0": "[n, 1]"}),
    "no n_supports: linear": (svr(["[4, f]"], drop=["n_supports", "support_vectors"]),
                              {"x0": "[4, 3]", "y0": "[4, 1]"}),
    "a 1-D X is one row": (svr([("i64", "[2]")]), {"y0": "[1, 1]"}),
    # errors
    "features other than the vectors'": (svr(["[n, 3]"]), "error"),
    "rank 3 X": (svr(["[n, 2, 1]"]), "error"),
    "no kernel_params": (svr(["[n, 2]"], drop=["kernel_params"]), "error"),
    "two kernel_params": (svr(["[n, 2]"], kernel_params=[0.1, 0.0]), "error"),
    "no rho": (svr(["[n, 2]"], drop=["rho"]), "error"),
    "vectors not a multiple": (svr(["[n, 2]"], support_vectors=[1.0] * 7), "error"),
    "fewer coefficients than vectors": (svr(["[n, 2]"], coefficients=[1.0, 2.0]), "error"),
    "an unknown kernel": (svr(["[n, 2]"], kernel_type="RBG"), "error"),
    "string X": (svr([("str", "[n, 2]")]), "error"),
}

test_case = case_test("SVMRegressor", CASES)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 4), f=st.integers(1, 3),
       vectors=st.integers(0, 4), rank1=st.booleans(), one_class=st.booleans(),
       kind=st.sampled_from(["LINEAR", "POLY", "RBF", "SIGMOID"]),
       dtype=st.sampled_from([np.float32, np.float32, np.float64]),
       broken=st.sampled_from([None, None, None, "features", "params"]))
def test_matches_onnxruntime(seed, n, f, vectors, rank1, one_class, kind, dtype, broken):
    """(onnxruntime runs float X only: the other types are its CPU provider's gap)"""
    rng = np.random.default_rng(seed)
    attrs = {"rho": [round(float(rng.standard_normal()), 2)], "kernel_type": kind,
             "kernel_params": [0.3, 0.5, 2.0], "one_class": int(one_class),
             "n_supports": vectors}
    if vectors:
        attrs["support_vectors"] = rng.standard_normal(vectors * f).round(2).tolist()
        attrs["coefficients"] = rng.standard_normal(vectors).round(2).tolist()
    else:
        attrs["coefficients"] = rng.standard_normal(f).round(2).tolist()
    x = rng.standard_normal((n, f)).astype(dtype)
    if broken == "features":
        x = np.concatenate([x, x[:, :1]], axis=1)
    elif broken == "params":
        attrs["kernel_params"] = [0.3]
    x = x[0] if rank1 else x
    check_ml("SVMRegressor", [x], attrs, 1, rtol=1e-4, atol=1e-5, ort_fails_ok=True)


def test_against_reference():
    x = np.array([[0.0, 1.0], [2.0, -3.0]], np.float32)
    for kind in ("LINEAR", "POLY", "RBF", "SIGMOID"):
        attrs = {**SVR, "kernel_type": kind}
        (got,) = run_kernel("SVMRegressor", [x], attrs)
        (want,) = reference_outputs("SVMRegressor", [x], attrs, domain=ML)
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=kind)
