"""The kernel tests' one check: our kernel and onnx's ReferenceEvaluator agree on one node.

Inputs are drawn with hypothesis (a seed and shapes; the values come from NumPy's
generator, which is much faster than drawing every element).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import strategies as st

from shape_logic.conformance_exec import compare
from shape_logic.graph import NUMPY_DTYPES
from shape_logic.kernels import load_kernel
from shape_logic.testing import reference_outputs

TESTED: set[str] = set()  # ops checked here; test_coverage compares it with the kernels
# per op, the checks made and those that compared outputs (the others: inputs the reference
# rejected); conftest.py requires every op checked to have been compared at least once
ATTEMPTED: Counter = Counter()
COMPARED: Counter = Counter()


def check(op, arrays, attrs=None, n_outputs=1, opset=18, const=(), rtol=1e-3, atol=1e-5,
          ort=False, domain=""):
    """Assert our kernel matches the reference; inputs the reference rejects are skipped.
    ort=True compares with onnxruntime instead, where onnx's reference evaluator is wrong
    (LRN over channels, Softmax before opset 13, RNN sequence_lens are not implemented),
    and for onnxruntime's contrib ops (domain="com.microsoft"); the reference runs ONNX's
    other domains ("ai.onnx.ml", "ai.onnx.preview", "ai.onnx.preview.training")."""
    TESTED.add(op)
    ATTEMPTED[op] += 1
    kernel = load_kernel(op)(attrs or {}, opset=opset, n_outputs=n_outputs, domain=domain)
    try:
        if ort:
            want = ort_outputs(op, arrays, attrs, n_outputs, opset, const, domain)
        else:
            want = reference_outputs(op, arrays, attrs, n_outputs, opset, const, domain)
    except Exception:  # noqa: BLE001
        return None  # not a valid case for the reference: nothing to compare
    got = kernel(*[None if a is None else np.asarray(a) for a in arrays])
    COMPARED[op] += 1
    for k, (g, w) in enumerate(zip(got, want)):
        problem = compare(f"{op} output {k}", g, np.asarray(w), rtol, atol)
        assert not problem, f"{problem} (attrs {attrs}, opset {opset}, inputs " \
            f"{[None if a is None else list(np.shape(a)) for a in arrays]})"
    return got


def rand(rng, shape, dtype="f32", low=-3.0, high=3.0):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    np_dtype = NUMPY_DTYPES[dtype]
    if dtype.startswith(("i", "u")):
        lo = 0 if dtype.startswith("u") else int(low)
        return rng.integers(lo, int(high) + 1, size=shape).astype(np_dtype)
    return rng.uniform(low, high, size=shape).astype(np_dtype)


seeds = st.integers(0, 2**32 - 1)
dim = st.integers(1, 5)
shapes = st.lists(dim, min_size=0, max_size=4).map(tuple)


@st.composite
def broadcast_pair(draw):
    """Two shapes that broadcast: b is a suffix of a with some axes set to 1 (or swapped)."""
    a = draw(st.lists(dim, min_size=0, max_size=4))
    cut = draw(st.integers(0, len(a)))
    b = [1 if draw(st.booleans()) else d for d in a[cut:]]
    if draw(st.booleans()):
        a, b = b, a
    return tuple(a), tuple(b)


def ort_outputs(op, arrays, attrs, n_outputs, opset, const, domain=""):
    """onnxruntime on one node (output dtypes: the model is typed like the inputs' first
    float dtype, or as the kernel's outputs are by the caller's check)."""
    import onnxruntime as ort
    from onnx import helper

    from shape_logic.graph import dtype_of_array
    from shape_logic.testing import ONNX_ELEM, onnx_node_model

    model = onnx_node_model(op, arrays, attrs, n_outputs, opset, const, domain)
    kernel = load_kernel(op)(attrs or {}, opset=opset, n_outputs=n_outputs, domain=domain)
    ours = kernel(*[None if a is None else np.asarray(a) for a in arrays])
    for vi, arr in zip(model.graph.output, ours):
        vi.CopyFrom(helper.make_tensor_value_info(vi.name, ONNX_ELEM[dtype_of_array(arr)], None))
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {f"x{k}": np.asarray(a) for k, a in enumerate(arrays)
             if a is not None and k not in const}
    return sess.run(None, feeds)
