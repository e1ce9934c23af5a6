"""SparseToDenseMatMul (com.microsoft): rules/SparseToDenseMatMul.lp on data cases, and the
rules and the kernel against onnxruntime, fed a sparse A (COO or CSR) through an OrtValue."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import helper

from shape_logic.graph import dtype_of_array
from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case, infer
from tests.contrib_ops import MS, _check_symbolic, ms_case

OP = "SparseToDenseMatMul"

CASES = {
    "symbolic": (ms_case(["[m, k]", "[k, n]"]), {"y0": "[m, n]"}),
    "K from A": (ms_case(["[m, 16]", "B"]), {"x1": "[16, _1]", "y0": "[m, _1]"}),
    "transA": (ms_case(["[k, m]", "[k, n]"], {"transA": 1}), {"y0": "[m, n]"}),
    "transA 2 transposes as 1 does": (ms_case(["[k, m]", "[k, n]"], {"transA": 2}),
                                      {"y0": "[m, n]"}),
    "transB": (ms_case(["[m, k]", "[n, k]"], {"transB": 1}), {"y0": "[m, n]"}),
    "both": (ms_case(["[3, 5]", "[4, 3]"], {"transA": 1, "transB": 1}), {"y0": "[5, 4]"}),
    "alpha, int64": (ms_case([("i64", "[m, k]"), ("i64", "[k, n]")], {"alpha": 2.0}),
                     {"y0": "[m, n]", "dtypes": {"y0": "i64"}}),
    "backward from the output": (ms_case(["A", "B"], outputs={"y0": {"shape": "[3, 5]"}}),
                                 {"x0": "[3, _1]", "x1": "[_1, 5]"}),
    "no rows": (ms_case(["[0, 4]", "[4, n]"]), {"y0": "[0, n]"}),
    "inner axes differ": (ms_case(["[m, 4]", "[3, n]"]), "error"),
    "transB: inner axes differ": (ms_case(["[m, 4]", "[4, 3]"], {"transB": 1}), "error"),
    "a 3-D B": (ms_case(["[m, 4]", "[1, 4, n]"]), "error"),
    "a vector B": (ms_case(["[m, 4]", "[4]"]), "error"),
    "a 3-D A": (ms_case(["[1, m, 4]", "[4, n]"]), "error"),
    "two types": (ms_case([("f32", "[m, 4]"), ("f64", "[4, n]")]), "error"),
    "f16": (ms_case([("f16", "[m, 4]"), ("f16", "[4, n]")]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case(OP, spec, expected)


def ort_sparse(a, b, attrs=None, fmt="coo"):
    """onnxruntime's Y for A (dense, fed as a sparse tensor of format `fmt`) and B; the
    graph's dims symbolic (its static inference ignores transA and transB)."""
    import onnxruntime as ort

    elem = helper.np_dtype_to_tensor_dtype(a.dtype)
    a_type = helper.make_sparse_tensor_type_proto(elem, ["a0", "a1"][:a.ndim])
    b_info = helper.make_tensor_value_info(
        "B", helper.np_dtype_to_tensor_dtype(b.dtype), [f"b{i}" for i in range(b.ndim)])
    node = helper.make_node(OP, ["A", "B"], ["Y"], domain=MS, **(attrs or {}))
    graph = helper.make_graph([node], "g", [helper.make_value_info("A", a_type), b_info],
                              [helper.make_empty_tensor_value_info("Y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21),
                                                    helper.make_opsetid(MS, 1)])
    model.ir_version = 10
    so = ort.SessionOptions()
    so.log_severity_level = 4
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    dev = ort.OrtDevice.make("cpu", 0)
    values = np.ascontiguousarray(a[a != 0])
    if fmt == "coo" or not values.size:  # (onnxruntime builds no CSR tensor without values)
        idx = np.ascontiguousarray(np.argwhere(a != 0).astype(np.int64).reshape(-1, a.ndim))
        sparse = ort.SparseTensor.sparse_coo_from_numpy(list(a.shape), values, idx, dev)
    else:
        rows, cols = np.nonzero(a)
        outer = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=a.shape[0]))])
        sparse = ort.SparseTensor.sparse_csr_from_numpy(
            list(a.shape), values, np.ascontiguousarray(cols.astype(np.int64)),
            np.ascontiguousarray(outer.astype(np.int64)), dev)
    io = sess.io_binding()
    io.bind_ortvalue_input("A", ort.OrtValue.ort_value_from_sparse_tensor(sparse))
    io.bind_cpu_input("B", b)
    io.bind_output("Y")
    sess.run_with_iobinding(io)
    return io.copy_outputs_to_cpu()[0]


def check(a, b, attrs, fmt="coo"):
    """onnxruntime's Y is our kernel's, and the rules' concrete and symbolic shapes; where
    onnxruntime rejects the inputs, so do the rules. Returns Y, or None."""
    shapes = [(dtype_of_array(x), list(x.shape)) for x in (a, b)]
    sol = infer(OP, shapes, attrs, 1, domain=MS)
    try:
        want = ort_sparse(a, b, attrs, fmt)
    except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no common type
        assert sol.status == "error", f"onnxruntime rejects ({str(e)[:200]}), the rules accept"
        return None
    got, = load_kernel(OP)(attrs, domain=MS)(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-5,
                               atol=1e-5)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    assert sol.shape("y0") == "[" + ", ".join(map(str, want.shape)) + "]"
    assert sol.dtype("y0") == dtype_of_array(want)
    _check_symbolic(OP, [a, b], attrs, 1, MS, (), [want])
    return want


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(0, 5), k=st.integers(0, 5),
       n=st.integers(1, 5), kb=st.sampled_from([None, None, None, 2]),
       trans_a=st.sampled_from([0, 1, 3]), trans_b=st.sampled_from([0, 1]),
       dtype=st.sampled_from([np.float32, np.float64, np.int32, np.int64, np.uint64]),
       fmt=st.sampled_from(["coo", "csr"]), alpha=st.sampled_from([None, 2.0]))
def test_matches_onnxruntime(seed, m, k, n, kb, trans_a, trans_b, dtype, fmt, alpha):
    """A of about half zeros; B's inner axis sometimes of another length (rejected)."""
    rng = np.random.default_rng(seed)
    a = (rng.integers(-3, 4, (m, k)) * (rng.random((m, k)) < 0.5)).astype(dtype)
    kk = k if kb is None else kb
    b = rng.integers(0, 4, (kk, n)).astype(dtype)
    a = a.T.copy() if trans_a else a
    b = b.T.copy() if trans_b else b
    attrs = {"transA": trans_a, "transB": trans_b}
    if alpha is not None:
        attrs["alpha"] = alpha
    want = check(a, b, attrs, fmt)
    assert (want is None) == (kk != k)


@pytest.mark.parametrize("a_shape, b_shape", [((3, 4), (1, 4, 2)), ((3, 4), (4,)),
                                               ((3, 4), (5, 2))])
def test_onnxruntime_rejects_what_the_rules_reject(a_shape, b_shape):
    a = np.eye(*a_shape[-2:], dtype=np.float32).reshape(a_shape)
    assert check(a, np.ones(b_shape, np.float32), {}) is None


def test_two_types_rejected():
    a = np.eye(3, 4, dtype=np.float32)
    assert check(a, np.ones((4, 2)), {}) is None
