"""T5 after onnxruntime's transformer optimizer (model_type "t5"): its relative position
bias becomes a RelativePositionBias node (com.microsoft, a CUDA kernel in onnxruntime) that
feeds the fused Attention. We solve the fused model on the CPU, every dim symbolic and
determined, and our executor runs it to the outputs onnxruntime gives for the model as
exported, at two input sizes. Skipped where torch or transformers is not installed."""
import copy
import logging
import os
import sys
import warnings

import numpy as np
import pytest

from shape_logic import solve

from .onnx_graphs import assert_every_dim_determined

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime.transformers.optimizer")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import hf_models  # noqa: E402


def test_t5_fused_by_onnxruntime_s_optimizer_solves_and_runs_on_the_cpu():
    import onnxruntime as ort
    from onnxruntime.transformers.optimizer import optimize_model

    from shape_logic.executor import Program

    model, feeds, _ = hf_models.MODELS["hf_t5"]()
    logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fused = optimize_model(copy.deepcopy(model), model_type="t5", num_heads=4,
                               hidden_size=32, opt_level=0, use_gpu=False).model
    bias = [n for n in fused.graph.node if n.op_type == "RelativePositionBias"]
    assert len(bias) == 2  # the encoder's (bidirectional) and the decoder's
    # (the optimizer reads max_distance off a constant assuming T5's 32 buckets; this tiny
    # config has 8 and a max_distance of 16, so it writes 64: set right, the fused model
    # computes the exported one's values)
    for node in bias:
        next(a for a in node.attribute if a.name == "max_distance").i = 16
    sol = solve(fused)
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    assert_every_dim_determined(sol)
    assert sol.shape(bias[0].output[0]) == "[1, 4, seq, seq]"  # (the encoder's length)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    program = Program(fused)  # (every tensor checked against its inferred shape as it runs)
    for feed in feeds:
        got = program.run(feed)
        for out, want in zip(model.graph.output, session.run(None, feed)):
            np.testing.assert_allclose(got[out.name], want, rtol=1e-4, atol=1e-5)
