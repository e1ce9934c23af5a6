"""Completeness fuzzing of shape errors: a consistent graph, one computed tensor annotated
with the solver's own shape but one axis off, must be an error - and explained.

    python bench/fuzz_wrong.py --graphs 1000 --seed 1 [--kind base|ops] [--out DIR]

A graph of bench/fuzz.py's base or ops kind is built by execution and solved; where the
solve is sound (fuzz.compare: every dim it states holds at the executed sizes), one
tensor a node makes is annotated (in "annotations", or in "outputs" for a graph output)
with the shape the solver gave it, one axis E replaced by `E + c` (c in 1, 2, 5: no size
equals itself plus c, whatever its symbols). The solver must call that graph
inconsistent ("missed" otherwise: incomplete, not unsound); every 4th graph is explained,
and the annotation must be among the sources some diagnostic's core names ("unexplained"
otherwise). fuzz --narrowing found the first such miss by chance: t1 annotated
`s0*s1*s1 + 2` solved 'ok' beside a Reshape of t1 to one element (seed 5624, graph 633).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz import KINDS, compare  # noqa: E402
from shape_logic.limits import TimeLimit, budget  # noqa: E402
from shape_logic.shapes import has_fresh_name  # noqa: E402

OFFSETS = (1, 2, 5)
FINDINGS = ("missed", "unexplained", "crash", "timeout")


def wrong_one(b, rng: random.Random, explain: bool) -> tuple[str, str, dict | None]:
    """(verdict, reason, the annotated graph) for b's graph: ok | skip | one of FINDINGS."""
    from shape_logic.solver import solve

    sol = solve(b.graph, explain=False)
    if sol.status != "ok" or b.failed_op or compare(sol, b.values, b.symbols) is not None:
        return "skip", "", None  # (an inconsistent graph, or the forward fuzzer's finding)
    made = [t for n in b.graph["nodes"] for t in n["outputs"] if t]
    places = [(t, i) for t in made if (dims := sol.dims(t)) is not None
              and not any(has_fresh_name(d) for d in dims) for i in range(len(dims))]
    if not places:
        return "skip", "", None
    t, axis = rng.choice(places)
    c = rng.choice(OFFSETS)
    dims = [d.value if d.is_int else str(d) for d in sol.dims(t)]
    dims[axis] = dims[axis] + c if isinstance(dims[axis], int) else f"({dims[axis]}) + {c}"
    g = json.loads(json.dumps(b.graph))
    key = "outputs" if t in g.get("outputs", {}) else "annotations"
    g.setdefault(key, {})[t] = {"shape": dims}
    got = solve(g, explain=explain)
    if got.status != "error":
        return "missed", f"{t} annotated {dims} (axis {axis} + {c}): {got.status}", g
    if explain:
        source = f"{key}.{t}"
        cores = [{c["source"] for c in d.core} for d in got.diagnostics if d.core]
        if cores and not any(source in core for core in cores):
            return "unexplained", f"{t} annotated {dims}: no core names {source}: {cores}", g
    return "ok", "", g


def fuzz(n: int, seed: int, kind: str, out: Path | None, timeout: float,
         explain_every: int = 4, progress: int = 0) -> dict:
    rng = random.Random(seed)
    stats, failures = Counter(), []
    t0 = time.perf_counter()
    for k in range(n):
        b = KINDS[kind](random.Random(rng.randrange(2**63)))
        pick = random.Random(rng.randrange(2**63))
        g = None
        try:
            with budget(timeout, clock=time.process_time):
                verdict, reason, g = wrong_one(b, pick, explain_every > 0 and
                                               k % explain_every == 0)
        except TimeLimit as e:
            verdict, reason = "timeout", str(e)
        except Exception as e:  # noqa: BLE001 - a crash is a finding too
            verdict, reason = "crash", f"{type(e).__name__}: {e}"
        stats[verdict] += 1
        if verdict in FINDINGS:
            failures.append({"verdict": verdict, "reason": reason, "graph": g or b.graph,
                             "symbols": b.symbols})
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{verdict}_{k}.json").write_text(json.dumps(failures[-1], indent=1))
        if progress and (k + 1) % progress == 0:
            print(f"{k + 1} graphs, {dict(stats)}, {time.perf_counter() - t0:.0f} s", flush=True)
    return {"verdicts": dict(stats), "failures": failures, "seconds": time.perf_counter() - t0}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kind", choices=("base", "ops"), default="base")
    p.add_argument("--out", type=Path, help="write the findings' graphs here")
    p.add_argument("--timeout", type=float, default=10.0, help="CPU seconds per graph")
    p.add_argument("--explain-every", type=int, default=4,
                   help="explain every k-th graph's error (0: never)")
    p.add_argument("--progress", type=int, default=500)
    args = p.parse_args(argv)
    r = fuzz(args.graphs, args.seed, args.kind, args.out, args.timeout, args.explain_every,
             args.progress)
    v = r["verdicts"]
    print(f"graphs tried: {args.graphs} (seed {args.seed}, {r['seconds']:.0f} s)")
    print(f"  annotated one off, called inconsistent: {v.get('ok', 0)}")
    print(f"  skipped (inconsistent already, no sized tensor, or fuzz.py's finding): "
          f"{v.get('skip', 0)}")
    print("  " + "   ".join(f"{k.upper()}: {v.get(k, 0)}" for k in FINDINGS))
    for f in r["failures"][:10]:
        print(f"- {f['verdict']}: {f['reason']}")
    return 1 if any(v.get(k) for k in FINDINGS) else 0


if __name__ == "__main__":
    sys.exit(main())
