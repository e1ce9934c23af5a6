"""Which rule files a graph's solve loads: one per operator of its nodes (and the files
those build on), and what becomes of a node whose operator has none."""
from __future__ import annotations

from .asp.program import available_ops, load_rule_file, normal_domain
from .errors import InputError
from .graph import Graph


def select_rules(graph: Graph, rule_dirs=(),
                 strict: bool = False) -> tuple[list, list, frozenset]:
    """(the rule files of the graph's operators, the nodes whose operator has none, the
    names of those among them whose operator has a rule file for another domain: their
    facts name the operator with its domain, so that no rule file describes them).

    A node without a rule file says nothing about its outputs, so they get the safety
    net (unknown dtype and rank, fresh names) and the rest of the graph is still solved
    (Relax's "safety net"); with `strict` it is an input error instead. So does a node of
    a domain its operator's rule file does not describe (a com.microsoft Softmax is not
    ONNX's). The files a chosen one uses (`% uses: Conv`) are chosen too."""
    known = available_ops(rule_dirs)
    files = {}
    used = set()  # the operators of the nodes their rule file describes
    unknown = []
    for node in graph.nodes + graph.body_nodes:
        if node.op in known and node.op not in files:
            files[node.op] = load_rule_file(node.op, known[node.op])
        rf = files.get(node.op)
        if rf is not None and normal_domain(node.domain) in rf.domains:
            used.add(node.op)
            continue
        if strict:
            raise InputError(_unknown_reason(node, rf) + "; see `shape-logic ops`", graph.path,
                             f"{node.place}.op")
        unknown.append(node)
    foreign = frozenset(n.name for n in unknown if n.op in files)
    chosen = {op: rf for op, rf in files.items() if op in used}
    todo = list(chosen.values())
    while todo:  # the files the chosen ones build on (`% uses: Conv`), and theirs
        rf = todo.pop()
        for op in rf.uses:
            if op in chosen:
                continue
            if op not in known:
                raise InputError(f"uses operator {op!r}, which has no rule file", str(rf.path))
            chosen[op] = files.get(op) or load_rule_file(op, known[op])
            todo.append(chosen[op])
    return list(chosen.values()), unknown, foreign


def _unknown_reason(node, rule_file) -> str:
    if rule_file is None:
        return f"unknown operator {node.op!r} (no rule file rules/{node.op}.lp)"
    return (f"unknown operator {node.op!r} of domain {node.domain!r} (its rule file "
            f"describes domain {', '.join(repr(d or 'ai.onnx') for d in rule_file.domains)})")


def unknown_op_warnings(unknown: list) -> list[str]:
    """One warning per unknown operator, naming its first node and how many there are."""
    by_op: dict[str, list] = {}
    for node in unknown:
        by_op.setdefault(node.op, []).append(node)
    out = []
    for op, nodes in by_op.items():
        more = f" and {len(nodes) - 1} more" if len(nodes) > 1 else ""
        outs = ", ".join(t for t in nodes[0].outputs if t)
        domain = nodes[0].domain
        why = "no rule file" if normal_domain(domain) == "" else \
            f"no rule file for domain {domain!r}"
        out.append(f"unknown operator {op!r} at {nodes[0].place}{more}: {why}, so its "
                   f"outputs ({outs}{', ...' if more else ''}) get no shape (use --strict to "
                   "make this an error)")
    return out
