"""Soundness fuzzing: random graphs, solved symbolically, checked against execution.

    python bench/fuzz.py --graphs 10000 --seed 1 [--out DIR] [--kind base|control|all|seq|ops]
                         [--backward]

`--kind control` fuzzes If, Loop and Scan (bench/fuzz_control.py): bodies built by the
same generators, conditions and trip counts constant, graph inputs or computed from shapes.
`--kind seq` fuzzes sequences and optionals (bench/fuzz_seq.py, fuzz_seq_control.py: If
and Loop carrying them); a sequence is checked by its length and each element against
what every element has (`?`: no claim), an optional by has_element and its element.
`--kind ops` fuzzes the operators whose sizes take arithmetic (bench/fuzz_ops.py,
fuzz_ops2.py: ConvTranspose, pools with ceil_mode and auto_pad, Pad, Resize, Col2Im,
Range, TopK, OneHot, DFT, STFT, indexing, Einsum, Gemm, normalizations, reductions,
data-dependent sizes...), with size inputs constant, computed from shapes or graph inputs
(bench/fuzz_input_sizes.py: read as sizes, names of their own); a kind of
its own so that the base kind's mix stays as it was. `--backward` (bench/fuzz_backward.py)
checks the inference backward: some of the inputs' declarations hidden, computed tensors
annotated with their true shapes, every stated dim checked as below. `--narrowing`
(bench/fuzz_narrowing.py) checks an ONNX model's declared outputs taken as advice
(shape_logic/narrowing.py): the graph as a model, some tensors its outputs, declared the
ways exporters do (traced sizes, shared names, wrong ones...), checked as below and for
which declarations are kept.

Each graph is built by execution: random nodes from the supported set below are
applied to tensors with concrete shapes, and the executor's NumPy kernels
(`shape_logic/kernels/`) run them, which gives every tensor's true shape and dtype.
The graph's inputs are then declared with some dims replaced by symbols (the same
symbol for some equal dims, symbols standing for 1 next to broadcasting), and
the solver infers every tensor. Under the symbols' true values:

- every inferred dim must evaluate to the executed one (fresh names `_k` must be
  consistent: one value per name), every inferred dtype must be the executed one,
  every binding, range, constraint and requirement (one_of) must hold;
- a graph the solver calls inconsistent must fail in the executor - a few graphs
  end with a node whose kernel raised, and those must be called inconsistent or
  at least not be given an output shape that contradicts nothing ("missed"; "data"
  when the solver calls it inconsistent once the integer inputs' executed values are
  given: a Loop's trip count, an index - the graph fails only for some values);
- an error the solver finds is found by the explaining solve too (the default);
- every 4th graph also runs through `executor.Program` (solve, close, run with
  every tensor checked against the inference): it must run.

A failing graph is shrunk to the ancestors of the first wrong tensor and written
to `--out` as JSON (a regression test takes it from there). Prints a summary:
graphs tried, unsound, missed errors, and per-op counts.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_backward import completeness, disguise, failing_graph, fuzz_one  # noqa: E402
from fuzz_control import build_control  # noqa: E402
from fuzz_exec import (EXECUTE_SECONDS, concrete, execute, other_symbols,  # noqa: E402,F401
                       outer_reads, runs_at, shrink, with_values)
from fuzz_graphs import GENERATORS, Builder, TooLong, build, cpu_limit  # noqa: E402,F401
import fuzz_narrowing  # noqa: E402
from fuzz_open import unstated_open_axes  # noqa: E402
from fuzz_ops import build_ops  # noqa: E402
from fuzz_seq_control import build_seq  # noqa: E402
from shape_logic.decode import one_of_values_at  # noqa: E402
from shape_logic.limits import TimeLimit, budget  # noqa: E402
from shape_logic.symbolic.expr import Expr  # noqa: E402

def check(b: Builder, run_program: bool = False, open_axes: bool = False
          ) -> tuple[str, str, str | None]:
    """(verdict, reason, tensor): verdict ok | caught | data | missed | unsound | unstated
    (with `open_axes`: an axis a rule file leaves open without saying so, fuzz_open.py)."""
    from shape_logic.solver import solve

    sol = solve(b.graph, explain=False)
    if b.failed_op:
        # with symbols the graph may be consistent for other values: decide on the true ones
        g = b.graph if sol.status == "error" else concrete(b)
        if g is b.graph or solve(g, explain=False).status == "error":
            # explaining reports the error too (its cores come from another program)
            if solve(g).status != "error":
                return "unsound", "the solve explaining it says ok, the solve without " \
                                  "explaining finds the error", None
            return "caught", "", None
        # ... and on the inputs' values, which a graph input's name alone does not give
        # (a Loop's trip count, an index): inconsistent only for some values
        if solve(with_values(b), explain=False).status == "error":
            return "data", "", None
        return "missed", f"{b.failed_op} fails in the executor, the solver says ok", None
    if sol.status == "error":
        d = sol.diagnostics[0]
        text = d.to_text() if hasattr(d, "to_text") else str(d)
        return "unsound", "the solver calls it inconsistent, it runs: " + text.splitlines()[0], \
            None
    found = compare(sol, b.values, b.symbols)
    if found is not None:
        return ("unsound", *found)
    if run_program:
        from shape_logic.executor import Program

        feeds = {t: b.values[t] for t in b.graph["inputs"]}
        try:
            Program(b.graph).run(feeds, warmup=0, repeat=1)
        except TimeLimit:  # its solve ran out of time: a timeout, not a wrong shape
            raise
        except Exception as e:  # the executor checks every tensor against the inference
            return "unsound", f"executor.Program rejects it: {type(e).__name__}: {e}", None
    for attempt in range(OTHER_SIZES):
        found = at_other_sizes(b, sol, attempt)
        if found is not None:
            return ("unsound", *found)
    found = unstated_open_axes(b, sol) if open_axes else None
    return ("unstated", found, None) if found else ("ok", "", None)


def claims(sol, t: str, arr) -> list | str:
    """What the solver states of t's sizes as (place, inferred Expr, executed int): each
    axis of a tensor; a sequence's length, and each element's axes against what every
    element has (`?`: no claim); an optional's element's, where it holds one. A reason
    (text) where the dtype, rank or kind (tensor, sequence, optional, has_element) is
    wrong."""
    from shape_logic.graph import dtype_of_array
    from shape_logic.sequences import VARIES

    opt = sol.optional(t) if hasattr(sol, "optional") else None
    seq = sol.sequence(t) if hasattr(sol, "sequence") else None
    has = None if opt is None else opt["has_element"]
    if has is not None and has != (arr is not None):
        return f"{t}: has_element {has}, executed {'empty' if arr is None else 'an element'}"
    dims = sol.dims(t)
    if arr is None:
        if opt is None and (seq is not None or dims is not None):
            return f"{t}: an empty optional, inferred as a " + \
                ("sequence" if seq is not None else "tensor")
        return []
    if isinstance(arr, list) != (seq is not None) and (seq is not None or dims is not None):
        return f"{t}: a {'sequence' if isinstance(arr, list) else 'tensor'}, inferred as a " \
               f"{'sequence' if seq is not None else 'tensor'}"
    elems = arr if isinstance(arr, list) else [arr]
    dt = sol.dtype(t)
    out = []
    if isinstance(arr, list):
        length = sol.decoded.sequences.get(t)
        if length is not None:
            out.append(("length", length.subs(sol._rename), len(arr)))
    for k, a in enumerate(elems):
        where = f"element {k} " if isinstance(arr, list) else ""
        if dt is not None and dt != dtype_of_array(a):
            return f"{t}: {where}dtype {dt}, executed {dtype_of_array(a)}"
        if dims is None:
            continue
        if len(dims) != a.ndim:
            return f"{t}: {where}rank {len(dims)}, executed {list(a.shape)}"
        out += [(f"{where}axis {i}", d, v) for i, (d, v) in enumerate(zip(dims, a.shape))
                if d != VARIES]
    return out


def compare(sol, values: dict, symbols: dict) -> tuple[str, str | None] | None:
    """(reason, tensor) of the first inferred dim, dtype, binding, range or constraint that
    the executed `values` (with the input symbols' values `symbols`) contradict; None."""
    env = {s: Expr.const(v) for s, v in symbols.items()}
    fresh: dict[str, int] = {}
    deferred = []
    for t, arr in values.items():
        found = claims(sol, t, arr)
        if isinstance(found, str):
            return found, t
        for i, d, v in found:
            e = d.subs(env)
            names = e.symbols()
            if not names:
                if e.value != v:
                    return f"{t}: {i} inferred {d} = {e}, executed {v}", t
            elif e == Expr.sym(next(iter(names))) and len(names) == 1:
                if fresh.setdefault(str(e), v) != v:
                    return f"{t}: {i} is {e}, which is {fresh[str(e)]} elsewhere, " \
                           f"executed {v}", t
            else:
                deferred.append((t, i, d, e, v))
    # (fresh names as printed: the decoded bindings, ranges and constraints hold the
    # internal ones, which sol.dims renames)
    fresh_env = {k: Expr.const(v) for k, v in fresh.items()}
    rename = {k: Expr.sym(v) for k, v in sol.decoded.rename.items()}
    for t, i, d, e, v in deferred:
        e = e.subs(fresh_env)
        if not e.symbols() and e.value != v:
            return f"{t}: {i} inferred {d} = {e}, executed {v}", t
    for s, e in sol.decoded.bindings.items():
        if s in env:
            got = e.subs(rename).subs(env).subs(fresh_env)
            if not got.symbols() and got.value != symbols[s]:
                return f"binding {s} = {e}, but {s} is {symbols[s]}", None
    for s, (lo, hi) in sol.decoded.ranges.items():
        if s in symbols and not lo <= symbols[s] <= hi:
            return f"range {s} in {lo}..{hi}, but {s} is {symbols[s]}", None
    for s, (lo, hi) in sol.decoded.data_ranges.items():  # a fresh name's: 0..an expression
        top = hi.subs(rename).subs(env).subs(fresh_env)
        s = str(rename.get(s, s))
        if s in fresh and not top.symbols() and not lo <= fresh[s] <= top.value:
            return f"range {s} in {lo}..{hi}, but {s} is {fresh[s]}", None
    for a, c in sol.decoded.met_constraints:  # (the printed ones and those they imply)
        a, c = (x.subs(rename).subs(env).subs(fresh_env) for x in (a, c))
        if not (a - c).symbols() and a != c:
            return f"constraint {a} = {c} fails", None
    for e, allowed in sol.decoded.one_of.items():  # (what broadcasts leave: 1 or N, an
        got = e.subs(rename).subs(env).subs(fresh_env)  # N an integer or an expression)
        values = one_of_values_at(allowed, lambda v: v.subs(rename).subs(env).subs(fresh_env))
        if not got.symbols() and values is not None and got.value not in values:
            return f"requirement {e} in {set(allowed)}, but it is {got}", None
    return None


# the graph is run again at this many other sizes of its symbols (1 among them, so that
# broadcasts open and slices may be empty): the inferred shapes must hold wherever the
# graph runs, not only at the sizes it was built with
OTHER_SIZES = 2


def at_other_sizes(b: Builder, sol, attempt: int) -> tuple[str, str | None] | None:
    """compare() after running the graph again with its symbols at other values (random,
    1 often; a symbol the solver binds follows its binding). None also when the graph
    does not run there (a kernel fails): those sizes are not the graph's."""
    if not b.symbols:
        return None
    symbols = other_symbols(b, attempt)
    env = {s: Expr.const(v) for s, v in symbols.items()}
    for s, e in sol.decoded.bindings.items():  # (bindings in the elimination order)
        if s in symbols:
            got = e.subs(env)
            if got.symbols() or got.value < 1:
                return None
            symbols[s], env[s] = got.value, got
    values = runs_at(b, symbols)
    return None if values is None else compare(sol, values, symbols)


# --kind: which graphs (fuzz_graphs.py: no control flow; fuzz_control.py: If, Loop, Scan)
KINDS = {"base": lambda rng: build(rng),
         "control": lambda rng: build_control(rng),
         "all": lambda rng: (build if rng.random() < 0.5 else build_control)(rng),
         "seq": lambda rng: build_seq(rng),
         "ops": lambda rng: build_ops(rng)}


def fuzz(n: int, seed: int, program_every: int = 4, out: Path | None = None,
         progress: int = 0, timeout: float = 30.0, kind: str = "base",
         backward: bool = False, narrowing: bool = False, open_axes: bool = False) -> dict:
    rng = random.Random(seed)
    stats, counts = Counter(), {}  # counts: --backward's completeness, --narrowing's ways
    per_op, unsound_ops = Counter(), Counter()  # unsound_ops: in any failing graph
    failures = []
    t0 = time.perf_counter()
    for k in range(n):
        b = KINDS[kind](random.Random(rng.randrange(2**63)))
        per_op.update(b.ops)
        d = disguise(b, random.Random(rng.randrange(2**63))) if backward else None
        ways = random.Random(rng.randrange(2**63)) if narrowing else None
        try:
            with budget(timeout, clock=time.process_time):  # CPU seconds: fair under nice
                run = program_every > 0 and k % program_every == 0
                if narrowing:  # (d: the model as declared; a crash or timeout keeps it)
                    verdict, reason, d = fuzz_narrowing.fuzz_one(b, ways, counts)
                else:
                    verdict, reason, tensor = fuzz_one(b, d, run, counts) if backward else \
                        check(b, run_program=run, open_axes=open_axes)
        except TimeLimit as e:  # a graph of a few nodes never needs long: a finding
            verdict, reason, tensor = "timeout", str(e), None
        except Exception as e:  # a crash is a finding too
            verdict, reason, tensor = "crash", f"{type(e).__name__}: {e}", None
        stats[verdict] += 1
        if verdict in ("missed", "unstated", *fuzz_narrowing.FINDINGS):
            if verdict != "missed":
                unsound_ops.update(set(b.ops))
            failures.append({"verdict": verdict, "reason": reason, **(
                fuzz_narrowing.failing_case(b, d, verdict) if narrowing else
                {"symbols": d.symbols if backward else b.symbols,
                 "graph": failing_graph(b, d, verdict, reason) if backward
                 else shrink(b, tensor)})})
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{verdict}_{k}.json").write_text(json.dumps(failures[-1], indent=1))
        if progress and (k + 1) % progress == 0:
            print(f"{k + 1} graphs, {dict(stats)}, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    return {"graphs": n, "seed": seed, "verdicts": dict(stats), "per_op": dict(per_op),
            "unsound_ops": dict(unsound_ops), "failures": failures, "completeness": counts,
            "seconds": time.perf_counter() - t0}


# the address space a fuzz run may take: a Loop whose body Tiles its carried value grows
# it exponentially with the trip count while the graph is built (fuzz --kind control
# --seed 83, graph 323: killed by the kernel's OOM killer at 24 GB); past this, NumPy
# raises MemoryError, and the Builder drops the node as it drops any that fails
ADDRESS_SPACE = 12 << 30


def main(argv=None) -> int:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > ADDRESS_SPACE:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, hard))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--program-every", type=int, default=4,
                   help="run every k-th graph through executor.Program too (0: never)")
    p.add_argument("--out", type=Path, help="write failing graphs (shrunk) here")
    p.add_argument("--progress", type=int, default=500)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per graph")
    p.add_argument("--kind", choices=sorted(KINDS), default="base",
                   help="base: no control flow; control: If, Loop, Scan; all: both; "
                        "seq: sequences and optionals; ops: operators with size arithmetic")
    p.add_argument("--backward", action="store_true",
                   help="hide some of the inputs' declarations, annotate computed tensors "
                        "with their true shapes, check what is inferred back "
                        "(bench/fuzz_backward.py; base or ops graphs)")
    p.add_argument("--narrowing", action="store_true",
                   help="solve the graph as an ONNX model whose outputs are declared the "
                        "ways exporters do, check which declarations are kept "
                        "(bench/fuzz_narrowing.py; base or ops graphs)")
    p.add_argument("--open-axes", action="store_true",
                   help="also report an axis a rule file leaves open without saying so "
                        "(bench/fuzz_open.py: one solve more a graph)")
    args = p.parse_args(argv)
    if args.narrowing and args.kind not in ("base", "ops"):
        p.error("--narrowing takes graphs of the base or ops kind (no bodies to write)")
    r = fuzz(args.graphs, args.seed, args.program_every, args.out, args.progress, args.timeout,
             args.kind, args.backward, args.narrowing, args.open_axes)
    v = r["verdicts"]
    print(f"graphs tried: {r['graphs']} (seed {r['seed']}, {r['seconds']:.0f} s)")
    print(f"  consistent, every shape sound: {v.get('ok', 0)}")
    print(f"  inconsistent, caught by the solver: {v.get('caught', 0)}")
    print(f"  inconsistent for the inputs' values only, caught when they are given: "
          f"{v.get('data', 0)}")
    print(f"  inconsistent, missed (the solver says ok; incomplete, not unsound): "
          f"{v.get('missed', 0)}")
    if args.backward:
        print(f"  failing in the executor, skipped: {v.get('skip', 0)}\n  "
              + completeness(r["completeness"]))
    if args.narrowing:
        print(f"  skipped (no output, or the forward solve's finding): {v.get('skip', 0)}\n"
              f"  {fuzz_narrowing.summary(r['completeness'])}\n  declarations set aside "
              f"that must be kept, or warned about wrongly: {v.get('dropped', 0)}; "
              f"inconsistent: {v.get('inconsistent', 0)}; dims lost: {v.get('lost', 0)}; "
              f"Obvious differing: {v.get('obvious', 0)}; wrong where a kept declaration "
              f"fills a dim the rules leave open: {v.get('open', 0)}")
    if args.open_axes:
        print(f"  open axes no rule states (fuzz_open.py): {v.get('unstated', 0)}")
    print(f"  UNSOUND: {v.get('unsound', 0)}   crashes: {v.get('crash', 0)}   "
          f"timeouts: {v.get('timeout', 0)}")
    print("nodes per op: " + ", ".join(f"{k} {c}" for k, c in sorted(r["per_op"].items())))
    if r["unsound_ops"]:
        print("ops in failing graphs (unsound, crash or timeout): " + ", ".join(
            f"{k} {c}" for k, c in sorted(r["unsound_ops"].items())))
    for f in r["failures"][:10]:
        print(f"- {f['verdict']}: {f['reason']}")
    return 1 if any(v.get(k) for k in (*fuzz_narrowing.FAILURES, "unstated")) else 0


if __name__ == "__main__":
    sys.exit(main())
