"""MatMulBnb4 (com.microsoft): rules/MatMulBnb4.lp on data cases, and the rules and the
kernel against onnxruntime on random FP4 and NF4 weights."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic.testing import check_case
from tests.contrib_ops import MS, check_against_ort, check_against_onnxruntime

ATTRS = {"K": 40, "N": 5, "block_size": 16, "quant_type": 1}  # 200 codes: 100 bytes, 13 blocks
B, ABSMAX = ("u8", "[100]"), "[13]"


def case(inputs, attrs=ATTRS, outputs=None):
    spec = {"inputs": inputs, "attrs": attrs, "domain": MS}
    return {**spec, "outputs": outputs} if outputs else spec


CASES = {
    "symbolic leading axes": (case(["[b, s, 40]", B, ABSMAX]),
                              {"y0": "[b, s, 5]", "dtypes": {"y0": "f32"}}),
    "A's last axis is K": (case(["[b, k]", ("u8", "W"), "S"]),
                           {"x0": "[b, 40]", "y0": "[b, 5]", "bindings": {"k": 40}}),
    "a vector": (case(["[40]", B, ABSMAX]), {"y0": "[5]"}),
    "transB 0: A [.., N] -> Y [.., K]": (case(["[b, s, 5]", B, ABSMAX], {**ATTRS, "transB": 0}),
                                         {"y0": "[b, s, 40]"}),
    "transB 2 transposes as 1 does": (case(["[m, 40]", B, ABSMAX], {**ATTRS, "transB": 2}),
                                      {"y0": "[m, 5]"}),
    "backward from the output": (case(["A", ("u8", "W"), "S"],
                                      outputs={"y0": {"shape": "[b, s, 5]"}}),
                                 {"x0": "[b, s, 40]"}),
    "f16": (case([("f16", "[m, 40]"), B, ("f16", ABSMAX)]), {"dtypes": {"y0": "f16"}}),
    "B and absmax may hold more, and be of any shape": (
        case(["[m, 40]", ("u8", "[2, 64]"), "[1, 16]"]), {"y0": "[m, 5]"}),
    "B's and absmax's shapes are not derived": (case(["[m, 40]", ("u8", "W"), "S"]),
                                                {"x1": "W", "x2": "S"}),
    "an odd count of codes rounds B up": (case(["[m, 7]", ("u8", "[11]"), "[2]"],
                                               {**ATTRS, "K": 7, "N": 3}), {"y0": "[m, 3]"}),
    "a symbolic B needs at least 100 bytes": (case(["[m, 40]", ("u8", "[n]"), ABSMAX]),
                                              {"y0": "[m, 5]"}),
    "B too small": (case(["[m, 40]", ("u8", "[99]"), ABSMAX]), "error"),
    "absmax too small": (case(["[m, 40]", B, "[12]"]), "error"),
    "absmax too small, 2-D": (case(["[m, 40]", B, "[3, 4]"]), "error"),
    "A's last axis is not K": (case(["[b, 41]", B, ABSMAX]), "error"),
    "transB 0: A's last axis is not N": (case(["[b, 40]", B, ABSMAX], {**ATTRS, "transB": 0}),
                                         "error"),
    "a scalar A": (case(["[]", B, ABSMAX]), "error"),
    "B not uint8": (case(["[b, 40]", ("i8", "[100]"), ABSMAX]), "error"),
    "absmax not A's type": (case(["[b, 40]", B, ("f16", ABSMAX)]), "error"),
    "integer A": (case([("i32", "[b, 40]"), B, ("i32", ABSMAX)]), "error"),
    "quant_type 2": (case(["[b, 40]", B, ABSMAX], {**ATTRS, "quant_type": 2}), "error"),
    "block_size not a power of two": (case(["[b, 40]", B, ABSMAX], {**ATTRS, "block_size": 24}),
                                      "error"),
    "block_size below 16": (case(["[b, 40]", B, "[25]"], {**ATTRS, "block_size": 8}), "error"),
    "K not positive": (case(["[b, 0]", ("u8", "[0]"), "[0]"], {**ATTRS, "K": 0}), "error"),
    "quant_type missing": (case(["[b, 40]", B, ABSMAX], {"K": 40, "N": 5, "block_size": 16}),
                           "error"),
    "two inputs": (case(["[b, 40]", B]), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    check_case("MatMulBnb4", spec, expected)


def quantized(rng, k, n, block, dtype=np.float32, extra=0):
    """B (the codes of a random weight, `extra` bytes more) and its absmax."""
    b = rng.integers(0, 256, (n * k + 1) // 2 + extra).astype(np.uint8)
    absmax = (rng.random(-(-n * k // block)) + 0.1).astype(dtype)
    return b, absmax


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lead=st.lists(st.integers(1, 3), max_size=2),
       k=st.integers(1, 70), n=st.integers(1, 6), block=st.sampled_from([16, 32, 64, 256]),
       quant_type=st.sampled_from([0, 1]), f16=st.booleans(), extra=st.sampled_from([0, 3]))
def test_matches_onnxruntime(seed, lead, k, n, block, quant_type, f16, extra):
    rng = np.random.default_rng(seed)
    dtype = np.float16 if f16 else np.float32
    b, absmax = quantized(rng, k, n, block, dtype, extra)
    a = rng.standard_normal(tuple(lead) + (k,)).astype(dtype)
    attrs = {"K": k, "N": n, "block_size": block, "quant_type": quant_type}
    tol = 2e-2 if f16 else 1e-4
    assert check_against_onnxruntime("MatMulBnb4", [a, b, absmax], attrs, const=(1,),
                                     rtol=tol, atol=tol) is not None


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 1, 3)])
def test_untransposed_shapes_match_onnxruntime(shape):
    # transB 0: A [.., N] -> Y [.., K] (onnxruntime's CPU kernel computes these shapes, but
    # multiplies by W^T whatever transB says, so its values are not compared)
    rng = np.random.default_rng(2)
    b, absmax = quantized(rng, 7, 3, 16)
    a = rng.standard_normal(shape).astype(np.float32)
    attrs = {"K": 7, "N": 3, "block_size": 16, "quant_type": 0, "transB": 0}
    y, = check_against_ort("MatMulBnb4", [a, b, absmax], attrs)
    assert y.shape == shape[:-1] + (7,)


def test_block_size_past_256():
    # the operator takes any power of two >= 16; onnxruntime's CPU kernel 16 to 256 only
    rng = np.random.default_rng(3)
    b, absmax = quantized(rng, 40, 5, 512)
    arrays = [rng.standard_normal((2, 40)).astype(np.float32), b, absmax]
    attrs = {**ATTRS, "block_size": 512}
    assert check_against_onnxruntime("MatMulBnb4", arrays, attrs, ort_fails_ok=True) is None


@pytest.mark.parametrize("change, where", [
    ({"A": (3, 41)}, "A's K"), ({"A": ()}, "a scalar A"), ({"B": (99,)}, "B's count"),
    ({"absmax": (12,)}, "absmax's count"), ({"attrs": {"quant_type": 2}}, "quant_type"),
    ({"attrs": {"N": 0}}, "N"), ({"attrs": {"transB": 0}}, "transB 0 with A [.., K]"),
])
def test_onnxruntime_rejects_what_the_rules_reject(change, where):
    rng = np.random.default_rng(1)
    shapes = {"A": (3, 40), "B": (100,), "absmax": (13,), **change}
    arrays = [rng.standard_normal(shapes["A"]).astype(np.float32),
              rng.integers(0, 256, shapes["B"]).astype(np.uint8),
              rng.random(shapes["absmax"]).astype(np.float32)]
    attrs = {**ATTRS, **change.get("attrs", {})}
    assert check_against_onnxruntime("MatMulBnb4", arrays, attrs) is None, where
