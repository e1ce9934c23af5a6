"""The message of a graph's one diagnostic (the why_text tests: one node, one reason)."""
import shape_logic


def the_message(graph) -> str:
    sol = shape_logic.solve(graph)
    assert sol.status == "error"
    (d,) = sol.diagnostics
    return d.message
