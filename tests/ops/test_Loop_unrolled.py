"""Loop: carried integer scalars followed one iteration at a time (rules/Loop.lp's
unrolling, shape_logic/loop_unrolling.py): the final value of `for _ in range(M): n = f(n)`
sizes the ConstantOfShape after the loop. Each model is run by onnxruntime at two sizes of
x [s, t], and every dim stated must be the one it gives."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.onnx_graphs import N, solved_checked, x_feeds


def _model(body_nodes, trips, cond=None, body_cond=None, carried=("n",), inits=None,
           sized_by="n_end"):
    """x [s, t]; a Loop of `trips` iterations (an initializer; None: no trip count) and
    condition `cond` (an initializer; None: none) carrying n (initially x's size at axis 1)
    and maybe m (initially 1): its body reads n_in (m_in), gives n_out (m_out) and its
    condition (body_cond: a node's output; else the condition passed on); y =
    ConstantOfShape([`sized_by`])."""
    v = TensorProto.INT64
    ins = [helper.make_tensor_value_info("it", v, []),
           helper.make_tensor_value_info("c_in", TensorProto.BOOL, [])]
    ins += [helper.make_tensor_value_info(f"{c}_in", v, []) for c in carried]
    outs = [helper.make_tensor_value_info(body_cond or "c_out", TensorProto.BOOL, [])]
    outs += [helper.make_tensor_value_info(f"{c}_out", v, []) for c in carried]
    nodes = list(body_nodes) + ([] if body_cond else [N("Identity", "c_in", "c_out")])
    body = helper.make_graph(nodes, "body", ins, outs,
                             [numpy_helper.from_array(np.array(k, np.int64), f"k{k}")
                              for k in (1, 2, 3)])
    inits = {"one": 1, "ax": [0], "m_start": 1, **(inits or {})}
    if trips is not None:
        inits["trips"] = trips
    loop_in = ["trips" if trips is not None else "", "cond" if cond is not None else ""]
    loop_in += ["n_start" if c == "n" else "m_start" for c in carried]
    g = helper.make_graph(
        [N("Shape", "x", "sh"), N("Gather", "sh one", "n_start"),
         helper.make_node("Loop", loop_in, [f"{c}_end" for c in carried], body=body),
         N("Unsqueeze", f"{sized_by} ax", "size"), N("ConstantOfShape", "size", "y")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["s", "t"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in inits.items()]
        + ([numpy_helper.from_array(np.array(cond), "cond")] if cond is not None else []))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def _y(model, sizes=((5, 3), (2, 7))):
    return solved_checked(model, x_feeds(sizes)).shape("y")


HALVE = [N("Add", "n_in k1", "p"), N("Div", "p k2", "n_out")]  # (n + 1) // 2


@pytest.mark.parametrize("trips, want", [
    (1, "[(t + 1)//2]"),
    (2, "[(t + 3)//4]"),
    (3, "[(t + 7)//8]"),
    (0, "[t]"),  # no iteration: the initial value
])
def test_halved_a_constant_number_of_times(trips, want):
    assert _y(_model(HALVE, trips), ((5, 3), (2, 7), (3, 9))) == want


def test_the_iteration_number_counts_in():
    # n + 0 + 1 + 2 + 3
    assert _y(_model([N("Add", "n_in it", "n_out")], 4)) == "[t + 6]"


def test_carried_values_followed_together():
    # n, m = n + m, n: after 3 iterations n = 2t + 1 (from n = t, m = 1: t + 1, 2t + 1, ...)
    model = _model([N("Add", "n_in m_in", "n_out"), N("Identity", "n_in", "m_out")], 3,
                   carried=("n", "m"))
    assert _y(model) == "[3*t + 2]"


def test_a_condition_passed_on_or_constant_true_counts():
    assert _y(_model(HALVE, 2, cond=True)) == "[(t + 3)//4]"
    assert _y(_model(HALVE + [N("Identity", "c_in", "go")], 2, cond=True,
                     body_cond="go")) == "[(t + 3)//4]"


@pytest.mark.parametrize("trips, cond, body_cond, nodes", [
    (9, None, None, []),  # more iterations than are followed
    (None, True, "go", [N("Greater", "n_out k1", "go")]),  # a while loop: stops on its own
    (3, False, None, []),  # a condition false at the start: no iteration (n stays t)
])
def test_loops_not_followed_stay_open_or_keep_their_start(trips, cond, body_cond, nodes):
    y = _y(_model(HALVE + nodes, trips, cond=cond, body_cond=body_cond),
           ((5, 3), (2, 7), (3, 40)))
    assert y == "[t]" if cond is False else y.startswith("[_")


def test_a_value_in_names_of_the_body_s_own_is_not_followed():
    # n_out counts the non-zeros of a random mask: data, no value around the loop
    nodes = [N("RandomUniform", "", "r", shape=[4]), N("Greater", "r half", "mask"),
             N("NonZero", "mask", "nz"), N("Shape", "nz", "nzs"),
             N("Gather", "nzs one_b", "n_out")]
    body_inits = [numpy_helper.from_array(np.array(0.5, np.float32), "half"),
                  numpy_helper.from_array(np.array(1, np.int64), "one_b")]
    model = _model(nodes, 2)
    model.graph.node[2].attribute[0].g.initializer.extend(body_inits)
    sol = solved_checked(model, x_feeds())
    assert sol.shape("y").startswith("[_")


def test_a_loop_after_a_loop_starts_from_its_final_value():
    # halved twice, then once more by a second loop: its trials know the first's end
    model = _model(HALVE, 2)
    body = model.graph.node[2].attribute[0].g
    second = helper.make_node("Loop", ["once", "", "n_end"], ["n_end2"], body=body)
    model.graph.node.insert(3, second)
    model.graph.node[4].input[0] = "n_end2"  # (the Unsqueeze)
    model.graph.initializer.append(numpy_helper.from_array(np.array(1, np.int64), "once"))
    assert _y(model, ((5, 3), (2, 7), (3, 9), (1, 17))) == "[(t + 7)//8]"
