"""Equations that others imply through the orders `max(x, y) = y` states are not printed
(shape_logic/symbolic/orders.py)."""
from shape_logic import solve
from shape_logic.decode import simplicity
from shape_logic.symbolic import parse_dim
from shape_logic.symbolic.orders import minimal


def equations(*pairs):
    return [(parse_dim(a), parse_dim(b)) for a, b in pairs]


def texts(eqs):
    return sorted(f"{a} = {b}" for a, b in eqs)


def test_a_chain_of_orders_implies_the_other_spellings():
    eqs = equations(("max(s0, max(s1, max(s2, s3)))", "max(s1, max(s2, s3))"),
                    ("max(s0, max(s1, s2))", "s2"), ("max(s0, s1)", "s1"),
                    ("max(s1, s2)", "s2"), ("max(s2, s3)", "s3"),
                    ("max(s0, max(s1, max(s2, s3)))*max(s1, s2)", "s2*s3"),
                    ("s3*max(s1, s2)", "s2*max(s2, s3)"))
    assert texts(minimal(eqs, simplicity)) == [
        "max(s0, s1) = s1", "max(s1, s2) = s2", "max(s2, s3) = s3"]


def test_what_the_orders_do_not_decide_is_kept():
    # min(a, b) = a says a <= b: min(a, b, c) is then min(a, c), not a
    eqs = equations(("min(a, b)", "a"), ("2*min(a, min(b, c))", "2*a"), ("2*(h//2)", "h"),
                    ("max(x, y)", "y"), ("max(x, z)", "z"))
    assert texts(minimal(eqs, simplicity)) == texts(eqs)


def test_two_orders_both_ways_are_both_kept():
    # together they say x = y; neither implies the other
    eqs = equations(("max(x, y)", "y"), ("max(x, y)", "x"))
    assert len(minimal(eqs, simplicity)) == 2


def test_a_scan_state_broadcast_with_its_lower_axes_prints_three_constraints():
    # the state [s0, s1, s2, s3] plus a slice [s0, s1, s2] keeps its shape only if
    # s0 <= s1 <= s2 <= s3 (each max of the broadcast is the state's axis); the solver
    # meets 300 other spellings of those equations (the state's sums and sizes)
    graph = {"inputs": {"x": {"dtype": "f32", "shape": "[s0, s1, s2, s3]"}},
             "nodes": [{"name": "scan", "op": "Scan", "inputs": ["x", "x"], "outputs": ["y"],
                        "attrs": {"num_scan_inputs": 1, "scan_input_axes": [-1], "body": {
                            "inputs": ["state", "row"], "outputs": ["next"],
                            "nodes": [{"name": "add", "op": "Add", "inputs": ["state", "row"],
                                       "outputs": ["next"]}]}}},
                       {"name": "sum", "op": "ReduceSum", "inputs": ["y"], "outputs": ["r"],
                        "attrs": {"keepdims": 0}},
                       {"name": "size", "op": "Size", "inputs": ["y"], "outputs": ["n"]}]}
    sol = solve(graph)
    assert sol.status == "ok" and sol.shape("y") == "[s0, s1, s2, s3]"
    assert sol.constraints == ["max(s0, s1) = s1", "max(s1, s2) = s2", "max(s2, s3) = s3"]
