"""Reshape with allowzero = 0 to a symbolic size that may be 0 (`h//4` with h < 4): where the
entry is 0 the axis copies X's, so the rule states the size only when the copy case cannot
succeed (rules/Reshape.lp). Checked against onnxruntime at every small size, the entries 0
included: each run either fails or has every dim we state."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import TensorProto, helper

from shape_logic import solve
from shape_logic.symbolic.expr import Expr
from shape_logic.symbolic.parse import parse_dim

from ..onnx_graphs import _Builder

ort = pytest.importorskip("onnxruntime")

SIZES = [(b, h) for b in (1, 2, 3, 4) for h in range(1, 10)]


def reshape_model(x_dims, entries, allowzero=0, image=False):
    """x : x_dims (ints, b, h and expressions of them) reshaped to a target built from x's
    shape the way exporters do (Shape -> Gather -> Div -> Unsqueeze -> Concat). An entry is an
    int, an axis of x `("dim", i)`, or `("div", i, k)`: x's axis i // k; with `image`, axis 3
    is the axis h of a second input `img` : [b, 3, h]."""
    g = _Builder()
    scalars = []
    for e in entries:
        if isinstance(e, int):
            scalars.append(g.const(e))
        elif e[0] == "dim":
            scalars.append(g.dim("x", e[1]))
        else:
            src = ("img", 2) if e[1] == 3 else ("x", e[1])
            scalars.append(g.op("Div", g.dim(*src), g.const(e[2])))
    y = g.op("Reshape", "x", g.vec(*scalars), allowzero=allowzero)
    g.nodes.append(helper.make_node("Identity", [y], ["y"], name="out"))
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_dims)]
    if image:
        inputs.append(helper.make_tensor_value_info("img", TensorProto.FLOAT, ["b", 3, "h"]))
    graph = helper.make_graph(g.nodes, "reshape", inputs, [helper.make_tensor_value_info(
        "y", TensorProto.FLOAT, None)], initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def check_runs(model, sizes=SIZES) -> tuple[list, int]:
    """Solve once, run at every size: every dim we state in b, h is the runtime's where the
    run succeeds, and a shape error has no run that succeeds. Returns the output's dims and
    how many runs succeeded."""
    sol = solve(model)
    dims = sol.dims("y") if sol.status == "ok" else None
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 4
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    ran = 0
    for b, h in sizes:
        env = {"b": Expr.const(b), "h": Expr.const(h)}
        feeds = {vi.name: np.zeros([parse_dim(d.dim_param).subs(env).value if d.dim_param
                                    else d.dim_value for d in vi.type.tensor_type.shape.dim],
                                   np.float32) for vi in model.graph.input}
        try:
            (y,) = sess.run(["y"], feeds)
        except Exception:  # the reshape fails at this size: nothing to check
            continue
        ran += 1
        assert sol.status == "ok", (b, h, [d.to_text() for d in sol.diagnostics])
        assert dims is not None and len(dims) == y.ndim, (sol.shape("y"), y.shape)
        for d, n in zip(dims, y.shape):
            if d.symbols() <= {"b", "h"}:
                got = d.subs(env).value
                assert got == n, f"{sol.shape('y')} at b={b}, h={h}: runtime {y.shape}"
    return dims, ran


def test_swin_windows():
    # [b, h, 8, 3] -> [b, h//4, 4, 2, 4, 3]: axis 1 is 24*b*h // (96*b) = h//4 where the run
    # succeeds (h % 4 = 0); a copy run (h < 4) would hold 4x the elements
    dims, ran = check_runs(reshape_model(["b", "h", 8, 3],
                                         [("dim", 0), ("div", 1, 4), 4, 2, 4, 3]))
    assert [str(d) for d in dims] == ["b", "h//4", "4", "2", "4", "3"] and ran == 8


def test_a_count_that_is_zero_when_the_entry_is():
    # ViT's patches: x : [b, 32, h//4] (an image [b, 3, h] gives h) to [b, 32, h//4] with
    # allowzero = 0: where h//4 is 0, the 0 copies x's axis, which is 0 too
    dims, ran = check_runs(reshape_model(["b", 32, "h//4"], [("dim", 0), 32, ("div", 3, 4)],
                                         image=True))
    assert [str(d) for d in dims] == ["b", "32", "h//4"] and ran == len(SIZES)


def test_the_count_decides_what_a_copy_would_be():
    # [b, 3, h] -> [b, h//2, 0]: at h = 1 the 0 copies 3, at h = 6 or 7 h//2 is 3; no other
    # run succeeds, and axis 1 is 3*b*h // (b*h) = 3 in all of them
    dims, ran = check_runs(reshape_model(["b", 3, "h"], [("dim", 0), ("div", 2, 2), 0]))
    assert [str(d) for d in dims] == ["b", "3", "h"] and ran == 12


def test_with_a_minus_one_an_entry_that_may_copy_stays_open():
    # [b, h, 8] -> [-1, h//2, 2, 8]: at h = 1 a copy run succeeds ([b/2, 1, 2, 8] with b
    # even), so axis 1 is h//2 or 1, and axis 0 follows it
    dims, ran = check_runs(reshape_model(["b", "h", 8], [-1, ("div", 1, 2), 2, 8]))
    assert str(dims[0]).startswith("_") and str(dims[1]).startswith("_") and ran == 21


ENTRY = st.one_of(st.integers(1, 4), st.just(0), st.just(-1),
                  st.tuples(st.just("dim"), st.integers(0, 2)),
                  st.tuples(st.just("div"), st.integers(0, 2), st.integers(2, 4)))


@st.composite
def cases(draw):
    """x of rank 3 over b, h and small integers; a target of 2-5 entries, each a literal, 0,
    -1, an axis of x or an axis // k (at most one -1), often a split of h by k."""
    x = [draw(st.sampled_from(["b", 1, 2, 3])), "h", draw(st.sampled_from([1, 2, 4, 6]))]
    if draw(st.booleans()):
        k = draw(st.integers(2, 4))
        entries = [("dim", 0), ("div", 1, k), k, ("dim", 2)]
        if draw(st.booleans()):
            entries[draw(st.integers(0, 3))] = draw(ENTRY)
    else:
        entries = draw(st.lists(ENTRY, min_size=2, max_size=5))
    if sum(e == -1 for e in entries) > 1:
        entries = [e for e in entries if e != -1] + [-1]
    return x, draw(st.permutations(entries)) if draw(st.booleans()) else entries


@settings(max_examples=25, deadline=None)
@given(cases())
def test_every_stated_dim_holds_where_onnxruntime_runs(case):
    x, entries = case
    check_runs(reshape_model(x, entries))
