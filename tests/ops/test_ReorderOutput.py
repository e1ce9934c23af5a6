"""ReorderOutput (com.microsoft.nchwc): rules/ReorderOutput.lp on data cases, and the rules
and the kernel against onnxruntime on random tensors (MLAS's block learned from
onnxruntime)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import nchwc
from tests.contrib_ops import check_against_onnxruntime

from .cases import case_test
from .nchwc_models import NCHWC, learned_block


def case(inputs, attrs=None):
    return {"inputs": inputs, "attrs": attrs or {}}


CASES = {
    "padded channels dropped": (case(["[n, 32, h, w]"], {"channels": 24}),
                                {"y0": "[n, 24, h, w]"}),
    "channels_last": (case(["[n, 32, h, w]"], {"channels": 20, "channels_last": 1}),
                      {"y0": "[n, h, w, 20]"}),
    "backward: 32 channels were not padded": (case(["[n, c, h, w]"], {"channels": 32}),
                                              {"x0": "[n, 32, h, w]"}),
    "backward: 24 channels may have been": (case(["[n, c, h, w]"], {"channels": 24}),
                                            {"x0": "[n, c, h, w]"}),
    "no channels attribute": (case(["[1, 16, 5, 5]"]), "error"),
    "more channels than the input's": (case(["[1, 16, 5, 5]"], {"channels": 17}), "error"),
    "a block or more of padding": (case(["[1, 32, 5, 5]"], {"channels": 16}), "error"),
    "not a multiple of 8": (case(["[1, 12, 5, 5]"], {"channels": 10}), "error"),
    "rank 3": (case(["[1, 16, 5]"], {"channels": 16}), "error"),
}

test_case = case_test("ReorderOutput", CASES, domain=NCHWC)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), blocks=st.integers(1, 3), drop=st.integers(0, 15),
       last=st.booleans(), h=st.integers(1, 5), w=st.integers(1, 5))
def test_matches_onnxruntime(seed, blocks, drop, last, h, w):
    blk = nchwc.BLOCK = learned_block()
    cb = blocks * blk
    channels = cb - drop % blk
    x = np.random.default_rng(seed).standard_normal([2, cb, h, w]).astype(np.float32)
    attrs = {"channels": channels, "channels_last": int(last)}
    assert check_against_onnxruntime("ReorderOutput", [x], attrs, domain=NCHWC) is not None
