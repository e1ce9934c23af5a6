"""MPT slices its ALiBi table [4, 1, 64] from 64 - seq to the end and adds it to the scores
[b, 4, seq, seq]. The slice is seq long up to seq = 64, and at seq = 65 its start, -1, counts
from the end: 1 long, which the broadcast takes too (onnxruntime runs it; from 66 on the Add
fails). onnxruntime's symbolic inference says [4, 1, seq] (wrong at 65, HF's MPT export
included); we say a name in 0..64, and the scores' shape, which holds at every seq that runs."""
import numpy as np

from shape_logic import solve


def _model():
    from onnx import TensorProto, helper, numpy_helper

    from tests.onnx_graphs import N

    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((4, 1, 64)).astype(np.float32), "alibi")]
    inits += [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in (
        ("c64", 64), ("two", 2), ("ax0", [0]), ("end", [2**63 - 1]), ("ax", [2]))]
    g = helper.make_graph([
        N("Shape", "scores", "sh"), N("Gather", "sh two", "seq", axis=0),
        N("Sub", "c64 seq", "start"), N("Unsqueeze", "start ax0", "starts"),
        N("Slice", "alibi starts end ax", "a"), N("Add", "scores a", "y")],
        "g", [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["b", 4, "seq", "seq"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_a_slice_from_a_start_of_either_sign_is_no_traced_length():
    from tests.onnx_graphs import assert_runtime_shapes_binding_fresh, runtime_shapes

    model = _model()
    sol = solve(model)
    assert sol.status == "ok"
    assert sol.shape("a") == "[4, 1, _1]" and sol.ranges == {"_1": [0, 64]}
    assert sol.shape("y") == "[b, 4, seq, seq]"
    feeds = [{"scores": np.ones((2, 4, s, s), np.float32)} for s in (1, 2, 63, 64, 65)]
    assert runtime_shapes(model, feeds[-1])["a"] == (4, 1, 1)  # (seq = 65: not seq)
    assert_runtime_shapes_binding_fresh(model, sol, feeds)
