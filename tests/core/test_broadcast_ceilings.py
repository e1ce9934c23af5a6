"""Two dims of one symbol that broadcast only up to a size (encodings/broadcast.lp,
@broadcast_range; symbolic/ceilings.py): a learned position table of K rows sliced to s
positions, min(K, s), added to the s positions runs only where s <= K. The solve reports
it as a range of s (`ranges: s in 1..K`), and so does an equation that holds only up to a
size (symbolic/equation.py: `min(K, s) = s`). Checked against numpy at every s in 1..40."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from shape_logic import solve
from shape_logic.executor import ExecutionError, run
from shape_logic.symbolic.ceilings import broadcast_ceiling, least_ceiling
from shape_logic.symbolic.equation import relate
from shape_logic.symbolic.parse import parse_dim

from .test_broadcast_requires import SIZES, _allowed, _at, _dims, _graph, _numpy_runs

# (a, b, the range of s the solve reports): each exact, numpy's runs
EXACT = [
    ("[s]", "[min(5, s)]", [1, 5]),
    ("[min(5, s)]", "[s]", [1, 5]),
    ("[s]", "[9 - max(0, 9 - s)]", [1, 9]),  # (torch.export's spelling of min(9, s))
    ("[s//2]", "[min(3, s//2)]", [1, 7]),  # (s//2 <= 3 up to s = 7)
    ("[2, s, 4]", "[min(12, s), 4]", [1, 12]),
    ("[s + 1]", "[min(6, s + 1)]", [1, 5]),
    ("[s - 2]", "[min(4, s - 2)]", [2, 6]),  # (s - 2 >= 0: from s = 2)
]


@pytest.mark.parametrize("a, b, expected", EXACT, ids=lambda c: str(c))
def test_a_table_sliced_to_the_positions_bounds_them(a, b, expected):
    sol = solve(_graph("Add", a, b))
    assert sol.status == "ok" and sol.ranges == {"s": expected}, sol.to_json()
    for s in SIZES:
        da, db = _dims(a, s), _dims(b, s)
        if min(da + db) >= 0:
            assert _allowed(sol, s) == _numpy_runs("Add", da, db), (s, sol.to_json())


FORMS = ["s", "s//2", "2*s", "s - 1", "(s + 1)//2", "s%4", "min(7, s)", "min(3, s//2)",
         "max(2, s)", "12 - max(0, 12 - s)", "min(s, 30) - 1", "min(20, 2*s)"]


@pytest.mark.parametrize("a", FORMS)
@pytest.mark.parametrize("b", FORMS)
def test_what_is_required_never_rejects_a_run(a, b):
    # [a] + [b], both symbolic in s: every s where numpy broadcasts them is allowed by
    # what the solve requires (a range, a binding, a constraint), and a range's ends are
    # sizes that run (the least ceiling, and the least size below it)
    sol = solve(_graph("Add", f"[{a}]", f"[{b}]"))

    def runs(s):
        da, db = (_at(a, s),), (_at(b, s),)
        return min(da + db) >= 0 and _numpy_runs("Add", da, db)

    for s in SIZES:
        if runs(s):
            assert _allowed(sol, s), (s, sol.to_json())
    if "s" in sol.bindings:
        assert runs(sol.bindings["s"]), sol.to_json()
    if "s" in sol.ranges:
        assert all(map(runs, sol.ranges["s"])), sol.to_json()


def test_the_bounds_prove_the_ceiling_past_every_value():
    assert broadcast_ceiling(parse_dim("s"), parse_dim("min(64, s)")) == ("s", 1, 64)
    assert broadcast_ceiling(parse_dim("s"), parse_dim("64 - max(0, 64 - s)")) == ("s", 1, 64)
    assert broadcast_ceiling(parse_dim("s//2"), parse_dim("min(64, s//2)")) == ("s", 1, 129)
    assert broadcast_ceiling(parse_dim("s"), parse_dim("min(1024, s)")) == ("s", 1, 1024)
    # a ceiling past the values looked for, a parity, two symbols: none
    assert broadcast_ceiling(parse_dim("s"), parse_dim("min(100000000, s)")) is None
    assert broadcast_ceiling(parse_dim("s"), parse_dim("2*(s//2)")) is None
    assert broadcast_ceiling(parse_dim("s"), parse_dim("min(64, t)")) is None
    # one run only: s - 10 is 1 at s = 11 (the rules' binding, bc_one, agrees)
    assert broadcast_ceiling(parse_dim("s"), parse_dim("s - 10")) == ("s", 11, 11)


def test_the_least_ceiling_is_bisected_from_the_powers_of_two():
    tried = []

    def fails_past(h):
        tried.append(h)
        return h >= 300

    assert least_ceiling(fails_past, lambda v: v <= 300) == 300
    assert tried[:10] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    assert least_ceiling(lambda h: False, lambda v: v <= 300) is None
    assert least_ceiling(lambda h: True, lambda v: True) is None  # (holds at the top)


def test_an_equation_that_holds_up_to_a_size_is_a_range():
    r = relate(parse_dim("min(64, s)"), parse_dim("s"))
    assert (r.kind, r.symbol, r.lo, r.hi) == ("range", "s", 1, 64)
    r = relate(parse_dim("64 - max(0, 64 - s)"), parse_dim("s"))
    assert (r.kind, r.symbol, r.lo, r.hi) == ("range", "s", 1, 64)
    # (past the values enumerated: left unsolved, a constraint)
    assert relate(parse_dim("min(5000, s)"), parse_dim("s")).kind == "unsolved"


def _position_table(op: str, rows: int = 64) -> onnx.ModelProto:
    """A table [rows, 8] sliced to the first s rows of x (Shape -> Slice, as exporters
    write `table[:s]`), then `op`: Add broadcasts it against x [b, s, 8]; Concat joins it
    to x [s, 8] along the features, which needs the same positions (an equation)."""
    axis = 1 if op == "Add" else 0
    nodes = [helper.make_node("Shape", ["x"], ["sx"], start=axis, end=axis + 1),
             helper.make_node("Slice", ["table", "zero", "sx", "zero"], ["sliced"]),
             helper.make_node("Add", ["x", "sliced"], ["y"], name="add") if op == "Add" else
             helper.make_node("Concat", ["x", "sliced"], ["y"], axis=1)]
    inits = [numpy_helper.from_array(np.zeros(1, np.int64), "zero"),
             numpy_helper.from_array(np.ones((rows, 8), np.float32), "table")]
    graph = helper.make_graph(
        nodes, "positions", [helper.make_tensor_value_info(
            "x", TensorProto.FLOAT, ["b", "s", 8] if op == "Add" else ["s", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("op", ["Add", "Concat"])
def test_a_learned_position_table_bounds_the_sequence(op):
    model = _position_table(op)
    sol = solve(model)
    assert sol.status == "ok" and sol.ranges == {"s": [1, 64]}, sol.to_json()
    # (where the bound comes from: the broadcast's node; an equation has no one place, and
    # is named: the Concat's rows, min(64, s), meet the input's s)
    assert ('ranges: s in 1..64 (at Add "add")' if op == "Add" else
            "ranges: s in 1..64 (by min(64, s) = s)") in sol.to_text().splitlines()
    assert sol.shape("y") == ("[b, s, 8]" if op == "Add" else "[s, 16]")
    # (min(64, s) rows, printed under the range: s rows in every run)
    assert sol.shape("sliced") == "[s, 8]"
    shape = (2, 64, 8) if op == "Add" else (64, 8)
    assert run(model, {"x": np.zeros(shape, np.float32)})["y"].shape[-2] == 64
    longer = (2, 65, 8) if op == "Add" else (65, 8)
    with pytest.raises(ExecutionError, match=r"the graph requires s in 1\.\.64\)"):
        run(model, {"x": np.zeros(longer, np.float32)})
