"""What each rule file costs a graph that does not use it (RULES.md, "Read the vocabulary
through views").

    python bench/rule_cost.py [OP ...] [--nodes N] [--file PATH ...]

The graph: chains of Relu nodes (N in all). It is grounded with its own program, then with
each rule file added; a file's cost is what it adds, in instructions counted by valgrind's
callgrind inside clingo's grounding (the same count on every run, whatever else the machine
does), or in process time when valgrind is missing (min of 5; noisy on a shared machine).
A file whose rules read the vocabulary through views costs about its rules' preparation;
one whose rules each read dim/3, rank/2... costs per atom of the graph.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def relu_chains(nodes: int, length: int = 100) -> dict:
    g: dict = {"inputs": {}, "nodes": []}
    for c in range(max(1, nodes // length)):
        g["inputs"][f"x{c}"] = {"dtype": "f32", "shape": "[2, 3, 4, 5]"}
        prev = f"x{c}"
        for i in range(length):
            g["nodes"].append({"name": f"n{c}_{i}", "op": "Relu", "inputs": [prev],
                               "outputs": [f"t{c}_{i}"]})
            prev = f"t{c}_{i}"
    return g


def ground_each(nodes: int, files: list[Path], timed: bool) -> list[float]:
    """Ground the chains' facts with their program, then with each file added; the seconds
    each took (min of 5) when timed, else nothing (callgrind counts)."""
    import clingo

    from shape_logic.asp.functions import Functions
    from shape_logic.asp.program import add_program_files, core_encodings
    from shape_logic.solver import Problem, elimination_order

    problem = Problem.load(relu_chains(nodes))
    problem.control("", sourced=False)  # writes the facts; program files parsed once
    base = core_encodings() + [rf.path for rf in problem.rule_files]
    out = []
    for extra in [None] + files:
        best = float("inf")
        for _ in range(5 if timed else 1):
            ctl = clingo.Control(["--models=1"], logger=lambda code, msg: None)
            add_program_files(ctl, base + ([extra] if extra else []))
            ctl.add("base", [], problem.facts)
            t0 = time.process_time()
            ctl.ground([("base", [])],
                       context=Functions(elimination_order(problem.graph), normalize=True))
            best = min(best, time.process_time() - t0)
        out.append(best)
    return out


def counted(nodes: int, files: list[Path]) -> list[int]:
    """Instructions of each grounding, counted by callgrind in one process."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg"
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=clingo_control_ground",
                        "--dump-after=clingo_control_ground", f"--callgrind-out-file={out}",
                        sys.executable, __file__, "--child", "--nodes", str(nodes),
                        "--file", *map(str, files)],
                       check=True, capture_output=True)
        dumps = sorted((p for p in Path(d).glob("cg.*") if p.suffix[1:].isdigit()),
                       key=lambda p: int(p.suffix[1:]))
        counts = []
        for p in dumps:
            for line in p.read_text().splitlines():
                if line.startswith(("summary:", "totals:")):
                    counts.append(int(line.split()[1]))
                    break
        return counts[1:1 + len(files) + 1]  # the first is the facts' own solve


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ops", nargs="*", help="operators (default: every rule file)")
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--file", nargs="*", default=[], help="rule files by path")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    rules = ROOT / "rules"
    files = [Path(f) for f in args.file] + [rules / f"{op}.lp" for op in args.ops]
    if args.child:
        ground_each(args.nodes, files, timed=False)
        return
    files = files or sorted(rules.glob("*.lp"))
    if shutil.which("valgrind"):
        base, *each = counted(args.nodes, files)
        unit, scale = "M instructions", 1e-6
    else:
        base, *each = ground_each(args.nodes, files, timed=True)
        unit, scale = "ms", 1e3
    print(f"{args.nodes} Relu nodes: their own program {base * scale:.1f} {unit}; "
          f"each file adds ({unit}):")
    for cost, f in sorted(zip(each, files), key=lambda x: -x[0]):
        print(f"  {(cost - base) * scale:8.1f}  {f.name}")


if __name__ == "__main__":
    main()
