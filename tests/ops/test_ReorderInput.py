"""ReorderInput (com.microsoft.nchwc): rules/ReorderInput.lp on data cases, and the rules and
the kernel against onnxruntime on random tensors (MLAS's block learned from onnxruntime)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import nchwc
from shape_logic.kernels import load_kernel
from shape_logic.testing import infer
from tests.contrib_ops import check_against_onnxruntime, ort_contrib

from .cases import case_test
from .nchwc_models import NCHWC, learned_block


def case(inputs, attrs=None):
    return {"inputs": inputs, "attrs": attrs or {}}


CASES = {
    "a multiple of 16 channels: no padding with any block": (
        case(["[n, 32, h, w]"]), {"y0": "[n, 32, h, w]"}),
    "channels_last": (case(["[n, h, w, 48]"], {"channels_last": 1}), {"y0": "[n, 48, h, w]"}),
    "24 channels: 24 or 32 by the block, a fresh name": (
        case(["[n, 24, h, w]"]), {"y0": "[n, _1, h, w]"}),
    "f32 throughout": (case(["[1, 16, 2, 2]"]), {"dtypes": {"y0": "f32"}}),
    "channels not a multiple of 4": (case(["[1, 6, 5, 5]"]), "error"),
    "rank 3": (case(["[1, 8, 5]"]), "error"),
    "channels_last, 6 channels": (case(["[1, 5, 5, 6]"], {"channels_last": 1}), "error"),
}

test_case = case_test("ReorderInput", CASES, domain=NCHWC)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), c=st.integers(1, 12), last=st.booleans(),
       h=st.integers(1, 5), w=st.integers(1, 5))
def test_matches_onnxruntime(seed, c, last, h, w):
    nchwc.BLOCK = learned_block()
    # 4c channels (onnxruntime reorders fours), or c: refused unless a multiple of 4
    channels = 4 * c if seed % 3 else c
    shape = [2, h, w, channels] if last else [2, channels, h, w]
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    attrs = {"channels_last": int(last)}
    if channels % 16 == 0 or channels % 4:  # padded alike by every block, or refused
        check_against_onnxruntime("ReorderInput", [x], attrs, domain=NCHWC)
        return
    # padded by the block: the kernel as onnxruntime, the rules leave the channels open
    (want,) = ort_contrib("ReorderInput", [x], attrs, domain=NCHWC)
    (got,) = load_kernel("ReorderInput")(attrs, domain=NCHWC)(x)
    np.testing.assert_array_equal(got, want)
    sol = infer("ReorderInput", [("f32", shape)], attrs, domain=NCHWC)
    assert sol.status == "ok" and sol.dims("y0")[1].symbols() != set()
