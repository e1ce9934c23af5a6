"""`shape-logic ops [OP]`: every operator known, its rule file, whether it has a kernel, and
the ONNX opsets it exists in; `ops OP` prints the rule file.

Nothing here is a hand-kept list: operators are the rule files found (ours and
`--rules DIR`), kernels are the files of shape_logic/kernels, and opsets come
from onnx's operator schemas (the version an operator appeared in, the versions
that changed it, up to the newest opset onnx knows). A rule file distinguishes
versions itself where they differ, by reading `opset("", V)`.
"""
from __future__ import annotations

import json
from functools import lru_cache

from .errors import InputError


def add_ops_parser(sub) -> None:
    o = sub.add_parser("ops", help="list the operators known, with their rule files")
    o.add_argument("op", nargs="?", help="print this operator's rule file")
    o.add_argument("--format", choices=("text", "json"), default="text")
    o.add_argument("--rules", action="append", default=[], metavar="DIR")


def cmd_ops(args) -> int:
    from .asp.program import available_ops

    ops = available_ops(args.rules)
    if args.op:
        if args.op not in ops:
            raise InputError(f"unknown operator {args.op!r} (no rule file {args.op}.lp; "
                             "`shape-logic ops` lists them)")
        print(ops[args.op].read_text(), end="")
        return 0
    rows = operator_rows(ops)
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return 0
    print(render(rows))
    return 0


def operator_rows(ops: dict) -> list[dict]:
    """A row per operator: its rule file, kernel, ONNX opsets (of the default domain), and
    the domains its rule file describes (its `% domains:` line: ai.onnx.ml's, onnxruntime's
    com.microsoft...)."""
    from .asp.program import RuleFile, shown_path
    from .kernels import available_kernels

    kernels = set(available_kernels())
    latest, versions = onnx_versions()
    rows = []
    for name, path in sorted(ops.items()):
        changed = versions.get(name, [])
        domains = [d or "ai.onnx" for d in RuleFile(name, path, path.read_text()).domains]
        other = [d for d in domains if d != "ai.onnx"]
        # (without an opset of ONNX's default domain: the domains it is of, if any)
        opsets = f"{changed[0]}-{latest}" if changed else ", ".join(other) or "custom"
        rows.append({"op": name, "rule_file": shown_path(path), "kernel": name in kernels,
                     "opsets": opsets, "changed_in": changed, "domains": domains})
    return rows


def render(rows: list[dict]) -> str:
    header = ("operator", "rule file", "kernel", "onnx opsets", "changed in opsets")
    table = [(r["op"], r["rule_file"], "yes" if r["kernel"] else "no", r["opsets"],
              ", ".join(map(str, r["changed_in"])) or "-") for r in rows]
    widths = [max(len(row[i]) for row in table + [header]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(header, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]
    kernels = sum(r["kernel"] for r in rows)
    lines.append(f"\n{len(rows)} operators, {kernels} with a kernel; opsets from onnx's "
                 "schemas, or the domain of an operator not in ONNX's default one (custom: "
                 "a rule file that names none)")
    return "\n".join(lines)


@lru_cache(maxsize=1)
def onnx_versions() -> tuple[int, dict[str, list[int]]]:
    """The newest ONNX opset, and per operator of the default domain the opsets that
    introduced or changed it."""
    import onnx.defs

    versions: dict[str, set] = {}
    for schema in onnx.defs.get_all_schemas_with_history():
        if schema.domain in ("", "ai.onnx"):
            versions.setdefault(schema.name, set()).add(schema.since_version)
    return onnx.defs.onnx_opset_version(), {k: sorted(v) for k, v in versions.items()}
