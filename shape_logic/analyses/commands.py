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
    for d in folding.decisions:
        names = ", ".join(f'"{n.name}"' for n in d.component.nodes[:3])
        more = f" +{len(d.component.nodes) - 3}" if len(d.component.nodes) > 3 else ""
        print(f"  {'fold' if d.fold else 'keep'}  {names}{more}: {d.reason}")
    write_folded(folding, args.output)
    print(folding.summary())
    return 0
