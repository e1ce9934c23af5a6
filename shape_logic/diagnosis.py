"""A solve's shape errors: diagnosed (explained, or as found), with a repair hint, and the
table they are shown with."""
from __future__ import annotations

import time

from .floor_rounds import explained_under_bounds
from .limits import Abandoned, allowance
from .progress import phase
from .repair import add_repair_hint

# explaining computes without the bindings known so far (sources are assumptions); on some
# inconsistent graphs that runs away, and the shape error is then given without its core
UNEXPLAINED = ("not explained: finding the nodes and declarations behind this error took "
               "more computation than solving the whole graph allows (it stands all the same)")


def diagnosed(problem, atoms, decoded, funcs, explain: bool) -> tuple[list, object]:
    """(the diagnostics of the solve `atoms` with conflicts, the answer its table shows):
    explained (`explain`: minimal cores, one node behind them, a repair hint, the table of
    the graph without what the errors switched off) or as the solve found them. Each
    grounding explaining makes may spend a multiple of the solve's computations (`funcs`:
    limits.allowance)."""
    from .diagnose import diagnose, unexplained
    from .node_behind import node_behind_unexplained

    t1 = time.perf_counter()
    if explain:
        with phase("explain"):
            try:
                diagnostics = diagnose(problem, atoms, decoded, hidden=funcs.halted,
                                       allowance=allowance(funcs.calls))
            except Abandoned:  # the error stands; only its explanation is given up
                diagnostics = node_behind_unexplained(
                    problem, atoms, unexplained(problem.graph, atoms, UNEXPLAINED),
                    allowance(funcs.calls))
    else:
        diagnostics = unexplained(problem.graph, atoms, None)
    explained_under_bounds(problem, atoms, diagnostics)
    if explain:
        # (another axis, flag or permutation for the node named as the mistake: repair.py)
        add_repair_hint(problem, atoms, diagnostics, allowance(funcs.calls))
        if problem.switched_off:
            from .error_table import fixed_table

            decoded = fixed_table(problem, decoded) or decoded
    # explaining, apart from solving the whole graph again to look for more errors
    problem.timings["explain"] = time.perf_counter() - t1 - problem.timings.get("rescan", 0)
    return diagnostics, decoded
