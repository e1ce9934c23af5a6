"""Solve time and memory on synthetic transformer-like graphs (issue 2's target).

    python bench/solve_scaling.py [SIZES...]      (default: 1000 10000 50000)

Each size runs in its own process so that peak memory (max RSS) is its own.
Prints load+validate, facts, parse (clingo reading the program), ground, solve, read
(the answer set into Python), decode, json (the solution as INTERFACE §4's JSON), explain
(finding and minimizing the core, describing it), rescan (solving the whole graph again with
the error switched off, to find further independent errors) and total seconds, for a
consistent graph and one with an injected conflict. parse/ground/solve/read add up every
solve of the run, the rescan's included.
Target: 50k nodes end to end under 10 s, under 1 GB, growth no worse than n log n.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def one(n: int, conflict: bool) -> dict:
    sys.path.insert(0, str(HERE))
    from synthetic import transformer

    import shape_logic

    g = transformer(n, conflict_at=(n // 32 if conflict else None))
    t0 = time.perf_counter()
    sol = shape_logic.solve(g)
    t1 = time.perf_counter()
    sol.to_json()  # end to end: the target is load to JSON out
    total = time.perf_counter() - t0
    out = {k: round(v, 3) for k, v in sol.timings.items()}
    out["json"] = round(time.perf_counter() - t1, 3)
    out.update(nodes=len(g["nodes"]), total=round(total, 3), status=sol.status,
               peak_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
    return out


def main(sizes):
    print(f"{'nodes':>7} {'kind':>9} {'load':>6} {'facts':>6} {'parse':>6} {'ground':>7} "
          f"{'solve':>6} {'read':>6} {'decode':>7} {'json':>6} {'explain':>8} {'rescan':>7} "
          f"{'total':>7} {'MB':>6} status")
    for n in sizes:
        for conflict in (False, True):
            r = subprocess.run([sys.executable, __file__, "--one", str(n), str(int(conflict))],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stderr)
                continue
            d = json.loads(r.stdout)
            print(f"{d['nodes']:>7} {'conflict' if conflict else 'ok':>9} {d['load']:>6} "
                  f"{d['facts']:>6} {d['parse']:>6} {d['ground']:>7} {d['solve']:>6} "
                  f"{d['read']:>6} {d['decode']:>7} {d['json']:>6} {d.get('explain', '-'):>8} "
                  f"{d.get('rescan', '-'):>7} {d['total']:>7} {d['peak_mb']:>6} {d['status']}")


DEFAULT_SIZES = [1000, 10000, 50000]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("sizes", nargs="*", type=int, metavar="SIZE",
                   help="graph sizes in nodes, each run in its own process "
                        f"(default: {' '.join(map(str, DEFAULT_SIZES))})")
    # internal: how main() runs one size in a child process
    p.add_argument("--one", nargs=2, type=int, metavar=("N", "CONFLICT"),
                   help=argparse.SUPPRESS)
    return p.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one[0], args.one[1] == 1)))
    else:
        main(args.sizes or DEFAULT_SIZES)
