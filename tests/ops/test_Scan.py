"""Scan: rules/Scan.lp on data cases (bodies as graph objects), and the kernel against onnx's
reference (tests/kernels/test_control_flow.py::test_scan)."""
import numpy as np
import pytest

from tests.ops.cases import case_test

# a running sum: state s [n], slice x [n]; outputs the next state and a copy of it
ACC = {"inputs": ["s", "x"], "outputs": ["s2", "y"],
       "nodes": [{"op": "Add", "inputs": ["s", "x"], "outputs": ["s2"]},
                 {"op": "Identity", "inputs": ["s2"], "outputs": ["y"]}]}
# no state: each slice [a, b] becomes its transpose [b, a]
TRANSPOSE = {"inputs": ["x"], "outputs": ["y"],
             "nodes": [{"op": "Transpose", "inputs": ["x"], "outputs": ["y"]}]}


def scan(inputs, body, n_outputs=2, **attrs):
    return {"inputs": inputs, "attrs": {"body": body, "num_scan_inputs": 1, **attrs},
            "n_outputs": n_outputs}


def scan8(inputs, body, n_outputs=2, **attrs):
    return {**scan(inputs, body, n_outputs, **attrs), "opset": 8}


CASES = {
    "running sum": (scan(["[n]", "[s, n]"], ACC), {"y0": "[n]", "y1": "[s, n]"}),
    # a state of unknown rank plus a slice [4] stays itself: any row ending in 4
    "state from the sequence": (scan(["x", "[s, 4]"], ACC), {"x0": "_1@[4]", "y0": "_1@[4]"}),
    "backwards from the outputs": (
        {**scan(["[n]", "[s, m]"], ACC), "outputs": {"y1": {"shape": "[7, 3]"}}},
        {"x1": "[7, m]", "bindings": {"n": 3, "s": 7}}),  # m may be 1 (broadcast)
    "scan axis 1": (scan(["[n]", "[n, s]"], ACC, scan_input_axes=[1]),
                    {"y1": "[s, n]"}),
    "negative scan axis": (scan(["[n]", "[n, s]"], ACC, scan_input_axes=[-1]),
                           {"y1": "[s, n]"}),
    "output axis 1": (scan(["[2, 3]", "[s, 2, 3]"], ACC, scan_output_axes=[1]),
                      {"y1": "[2, s, 3]"}),
    "no state": (scan(["[s, a, b]"], TRANSPOSE, n_outputs=1), {"y0": "[s, b, a]"}),
    "directions keep shapes": (scan(["[n]", "[s, n]"], ACC, scan_input_directions=[1],
                                    scan_output_directions=[1]), {"y1": "[s, n]"}),
    # errors
    "state and slice differ": (scan(["[3]", "[s, 4]"], ACC), "error"),
    "scan axis out of range": (scan(["[n]", "[s, n]"], ACC, scan_input_axes=[2]), "error"),
    "body takes another number of inputs": (scan(["[n]", "[n]", "[s, n]"], ACC), "error"),
    # opset 8: sequence_lens (optional) first, a batch axis 0 on every state, scan input
    # and output, the scan axis 1
    "opset 8": (scan8([None, "[b, n]", "[b, s, n]"], ACC),
                {"y0": "[b, n]", "y1": "[b, s, n]", "n/s": "[n]", "n/x": "[n]"}),
    "opset 8 sequence_lens": (scan8([("i64", "[k]"), "[b, n]", "[b, s, n]"], ACC),
                              {"x0": "[b]", "y1": "[b, s, n]", "bindings": {"k": "b"}}),
    "opset 8 no state": (scan8([None, "[b, s, a, c]"], TRANSPOSE, n_outputs=1),
                         {"y0": "[b, s, c, a]"}),
    "opset 8 directions keep shapes": (scan8([None, "[b, n]", "[b, s, n]"], ACC,
                                             directions=[1]), {"y1": "[b, s, n]"}),
    "opset 8 backwards": ({**scan8([None, "x", "[b, s, 4]"], ACC),
                           "outputs": {"y1": {"shape": "[2, 5, 4]"}}},
                          {"x1": "[2, 4]", "bindings": {"b": 2, "s": 5}}),
    # sequence_lens may be all 0: then the body runs no step, and a state that does not fit
    # the slices is no error (without sequence_lens it is)
    "opset 8 sequence_lens may be 0": (
        scan8([("i64", "[b]"), "[b, 3]", "[b, s, 4]"], ACC, n_outputs=1), {"y0": "[b, 3]"}),
    "opset 8 without sequence_lens": (scan8([None, "[b, 3]", "[b, s, 4]"], ACC, n_outputs=1),
                                      "error"),
    "opset 8 batches differ": (scan8([None, "[3, n]", "[4, s, n]"], ACC), "error"),
    "opset 8 state and slice differ": (scan8([None, "[b, 3]", "[b, s, 4]"], ACC), "error"),
    "opset 8 sequence_lens not [batch]": (scan8([("i64", "[3]"), "[2, n]", "[2, s, n]"], ACC),
                                          "error"),
    "opset 8 body takes another number of inputs": (
        scan8([None, "[b, n]", "[b, n]", "[b, s, n]"], ACC), "error"),
}


test_case = case_test("Scan", CASES)


# ----- what the body requires of the tensors around it holds only when it runs

def squeezing_scan(xs="[t, n]", nonzero=False):
    """A running sum over xs whose body also squeezes axis 1 of z, a tensor of the graph
    around it (it must be 1 when the body runs); with `nonzero`, xs is the [count, 2]
    coordinates of a NonZero, a count that may be 0."""
    g = {"opset": 13,
         "inputs": {"z": {"dtype": "f32", "shape": "[b, s]"},
                    "h0": {"dtype": "f32", "shape": "[n]"}},
         "initializers": {"one": {"dtype": "i64", "shape": [1], "data": [1]}},
         "nodes": [{"name": "scan", "op": "Scan", "inputs": ["h0", "xs"], "outputs": ["hT"],
                    "attrs": {"num_scan_inputs": 1, "body": {
                        "inputs": ["h", "x"], "outputs": ["h2"], "nodes": [
                            {"op": "Add", "inputs": ["h", "x"], "outputs": ["h2"]},
                            {"op": "Squeeze", "inputs": ["z", "one"], "outputs": ["q"]}]}}}]}
    if nonzero:
        g["inputs"]["c"] = {"dtype": "f32", "shape": "[k, 4]"}
        g["nodes"] += [{"name": "nz", "op": "NonZero", "inputs": ["c"], "outputs": ["idx"]},
                       {"name": "tr", "op": "Transpose", "inputs": ["idx"], "outputs": ["it"]},
                       {"name": "f", "op": "Cast", "inputs": ["it"], "outputs": ["xs"],
                        "attrs": {"to": 1}}]
    else:
        g["inputs"]["xs"] = {"dtype": "f32", "shape": xs}
    return g


def test_an_empty_sequence_binds_nothing_the_body_reads():
    # length 0: no step runs, z (2, 5) is fine, and so is a state of another size than
    # the slices (the final state is the initial one)
    from shape_logic import run, solve

    sol = solve(squeezing_scan("[0, 5]"))
    assert sol.status == "ok" and sol.bindings == {}
    assert (sol.shape("z"), sol.shape("h0"), sol.shape("hT")) == ("[b, s]", "[n]", "[n]")
    assert sol.shape("scan/h") == "[5]"  # inside, where it runs, the state is a slice's size
    out = run(squeezing_scan("[0, 5]"), {"z": np.ones((2, 5), np.float32),
                                          "h0": np.ones(3, np.float32),
                                          "xs": np.ones((0, 5), np.float32)})
    np.testing.assert_array_equal(out["hT"], np.ones(3, np.float32))
    # a NonZero count may be 0 too
    sol = solve(squeezing_scan(nonzero=True))
    assert (sol.shape("z"), sol.shape("h0")) == ("[b, s]", "[n]") and sol.bindings == {}


def test_a_symbolic_length_is_not_empty():
    # symbols are >= 1: the body runs, and what it requires holds (as for an integer >= 1)
    from shape_logic import solve

    for xs in ("[t, n]", "[3, n]"):
        sol = solve(squeezing_scan(xs))
        assert sol.shape("z") == "[b, 1]" and sol.bindings == {"s": 1}
    sol = solve(squeezing_scan("[t, 4]"))
    assert sol.shape("h0") == "[4]" and sol.bindings == {"n": 4, "s": 1}


# ----- opset 8's kernel: against onnxruntime (sequence_lens, directions) and, one batch
# element at a time, against onnx's reference (which has no opset-8 Scan)

def running_sum_model(opset, n, with_lens=False, **attrs):
    """s' = s + x (a state [n] and slices [n]), and 2x as a scan output."""
    from onnx import TensorProto, helper

    f = TensorProto.FLOAT
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s2"]), helper.make_node("Add", ["x", "x"], ["y"])],
        "body", [helper.make_tensor_value_info(v, f, [n]) for v in ("s", "x")],
        [helper.make_tensor_value_info(v, f, [n]) for v in ("s2", "y")])
    ins = ["lens" if with_lens else "", "s0", "xs"] if opset < 9 else ["s0", "xs"]
    graph_ins = [helper.make_tensor_value_info(v, f, None) for v in ("s0", "xs")]
    if with_lens:
        graph_ins.insert(0, helper.make_tensor_value_info("lens", TensorProto.INT64, None))
    model = helper.make_model(helper.make_graph(
        [helper.make_node("Scan", ins, ["sT", "ys"], body=body, num_scan_inputs=1, **attrs)],
        "g", graph_ins, [helper.make_tensor_value_info(v, f, None) for v in ("sT", "ys")]),
        opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize("seed", range(4))
def test_opset8_kernel(seed):
    import onnxruntime
    from onnx.reference import ReferenceEvaluator

    from shape_logic import run

    rng = np.random.default_rng(seed)
    b, steps, n = (int(v) for v in rng.integers(1, [4, 5, 4]))
    s0 = rng.standard_normal((b, n)).astype(np.float32)
    xs = rng.standard_normal((b, steps, n)).astype(np.float32)
    lens = rng.integers(1, steps + 1, b).astype(np.int64)  # onnxruntime refuses 0
    direction = int(rng.integers(0, 2))
    # without sequence_lens, forward: each batch element is an opset-9 scan
    got = run(running_sum_model(8, n), {"s0": s0, "xs": xs})
    ref = ReferenceEvaluator(running_sum_model(9, n))
    for k in range(b):
        want = ref.run(None, {"s0": s0[k], "xs": xs[k]})
        np.testing.assert_allclose(got["sT"][k], want[0], rtol=1e-6)
        np.testing.assert_allclose(got["ys"][k], want[1], rtol=1e-6)
    # with sequence_lens and a direction: as onnxruntime (the padding is zeros in both)
    model = running_sum_model(8, n, with_lens=True, directions=[direction])
    feeds = {"lens": lens, "s0": s0, "xs": xs}
    want = onnxruntime.InferenceSession(model.SerializeToString(),
                                        providers=["CPUExecutionProvider"]).run(None, feeds)
    got = run(model, feeds)
    np.testing.assert_allclose(got["sT"], want[0], rtol=1e-6)
    np.testing.assert_allclose(got["ys"], want[1], rtol=1e-6)
