"""The `shape-logic` command (INTERFACE §3). Exit 0 solved, 1 shape error, 2 unreadable input."""
from __future__ import annotations

import argparse
import json
import sys

from .errors import InputError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="shape-logic",
                                description="Shape reasoning for deep-learning graphs.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="infer dtype, rank and dims of every tensor")
    s.add_argument("graph")
    s.add_argument("-o", "--output", help="write the annotated graph (.json)")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.add_argument("--rules", action="append", default=[], metavar="DIR",
                   help="a directory of extra rule files (replacing ours for the same op)")
    o = sub.add_parser("ops", help="list the operators known, with their rule files")
    o.add_argument("op", nargs="?")
    o.add_argument("--rules", action="append", default=[], metavar="DIR")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "solve":
            return cmd_solve(args)
        if args.command == "ops":
            return cmd_ops(args)
    except InputError as e:
        print(f"shape-logic: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("shape-logic: interrupted", file=sys.stderr)
        return 130
    return 0


def cmd_solve(args) -> int:
    from .solver import solve
    from .write_graph import write_annotated

    sol = solve(args.graph, rules=args.rules)
    if args.format == "json":
        print(json.dumps(sol.to_json(), indent=2))
    else:
        print(sol.to_text(color=sys.stdout.isatty()))
    if args.output:
        write_annotated(sol, args.output)
    return 0 if sol.status == "ok" else 1


def cmd_ops(args) -> int:
    from .asp.program import available_ops

    ops = available_ops(args.rules)
    if args.op:
        if args.op not in ops:
            raise InputError(f"unknown operator {args.op!r}")
        print(ops[args.op].read_text(), end="")
        return 0
    for name, path in sorted(ops.items()):
        print(f"{name:28} {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
