"""The analyses' subcommands: `shape-logic fold` and `shape-logic why`.
Exit 0 done, 1 a shape error (the graph is inconsistent), 2 unreadable input."""
from __future__ import annotations

import sys


def add_fold_parser(sub) -> None:
    from .folding import SMALL_ELEMENTS

    f = sub.add_parser("fold", help="constant folding, component by component, size-aware")
    f.add_argument("graph")
    f.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the folded graph (.json for a JSON graph, .onnx for an ONNX model)")
    f.add_argument("--small", type=int, default=SMALL_ELEMENTS, metavar="ELEMENTS",
                   help="fold a component whose results have at most this many elements "
                        f"even when its inputs are smaller (default {SMALL_ELEMENTS})")
    f.add_argument("--rules", action="append", default=[], metavar="DIR")


def cmd_fold(args) -> int:
    from ..executor import ExecutionError
    from .folding import fold
    from .write_folded import write_folded

    try:
        folding = fold(args.graph, small=args.small, rules=args.rules)
    except ExecutionError as e:
        print(f"shape-logic: {e}", file=sys.stderr)
        return 1
    write_folded(folding, args.output)
    for d in folding.decisions:
        names = ", ".join(f'"{n.name}"' for n in d.component.nodes[:3])
        more = f" +{len(d.component.nodes) - 3}" if len(d.component.nodes) > 3 else ""
        print(f"  {'fold' if d.fold else 'keep'}  {names}{more}: {d.reason}")
    print(folding.summary())
    return 0


def add_why_parser(sub) -> None:
    w = sub.add_parser("why", help="what a tensor's shape (or one axis) depends on")
    w.add_argument("graph")
    w.add_argument("tensor")
    w.add_argument("axis", nargs="?", help="an axis of the tensor (negative from the end)")
    w.add_argument("--format", choices=("text", "json"), default="text")
    w.add_argument("--all", action="store_true",
                   help="list every declaration, node and axis (text cuts each list at "
                        "20 and counts the rest)")
    w.add_argument("--rules", action="append", default=[], metavar="DIR")


def cmd_why(args) -> int:
    import json

    from ..errors import InputError
    from ..limits import EXIT_TIMEOUT, Abandoned
    from ..solver import solve
    from .lineage import SHOWN, lineage, render

    sol = solve(args.graph, rules=args.rules, explain=False)
    if args.tensor not in sol.graph.tensors():
        raise InputError(f"no tensor {args.tensor!r} in the graph", args.graph)
    axis = None
    if args.axis is not None:
        dims = sol.dims(args.tensor)
        try:
            axis = int(args.axis)
        except ValueError:
            raise InputError(f"axis {args.axis!r} is not an integer") from None
        if dims is None and axis < 0:
            raise InputError(f"{args.tensor} has no known rank: give a non-negative axis")
        rank = len(dims) if dims is not None else None
        if rank is not None and not -rank <= axis < rank:
            raise InputError(f"axis {axis} is out of range for {args.tensor} : "
                             f"{sol.shape(args.tensor)} (rank {rank})")
        if axis < 0:
            axis += rank
    try:
        lin = lineage(sol.graph, args.tensor, axis, rules=args.rules, spent=sol.computations)
    except Abandoned:
        print(f"shape-logic: {args.graph}: why: tracing what {args.tensor} depends on took "
              "more computation than solving the whole graph allows; its shape stands: "
              f"{sol.shape(args.tensor)}", file=sys.stderr)
        return EXIT_TIMEOUT
    if args.format == "json":
        out = lin.to_json()
        out["shape"] = sol.shape(args.tensor)
        print(json.dumps(out, indent=2))
    else:
        print(render(lin, sol.shape(args.tensor), limit=None if args.all else SHOWN))
    if sol.status == "error":
        print("shape-logic: the graph has a shape error (see `shape-logic solve`)",
              file=sys.stderr)
        return 1
    return 0
