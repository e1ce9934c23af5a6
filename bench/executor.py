"""The NumPy executor on onnx's "light" models vs onnxruntime and onnx's reference evaluator.

    python bench/executor.py [--repeat N] [--no-reference] [--one-thread] [--native-blas]
                             [MODEL ...]

For each model (default: all of onnx/backend/test/data/light/light_*.onnx) the inputs
are made as onnx's test runner makes them (Runner.generate_dummy_data, random=False).
Prepare time (loading, solving when every op has a rule file, building kernels, folding
constants) is printed apart; run times are the minimum over N runs after one warm-up
(the reference evaluator runs once: it is slow), as wall and as CPU (process) time.
Ours and onnxruntime run in turns, so that a change in the machine's load while a
model is measured falls on both (with a pause after onnxruntime's turn while its threads
spin, which would take a core from ours); in each turn a tool is called twice and the
second call timed, as a loop of inferences runs it (`timed`).
Ratios: reference / ours (target >= 5) and ours / onnxruntime (target <= 2). Every
output is also compared with the expected one.

Defaults against defaults: our Program as a user makes it (threads: the CPUs the process
may use, given to BLAS's threads when no other process runs, else to our parts:
kernels/run_threads.py; the "blas" column says how many of our timed runs went which
way) and an onnxruntime session with default options (its intra-op threads, spinning
allowed). --threads, --ort-no-spin, --ours-threads and --blas-threads set either side;
--one-thread also times our Program(threads=1).

--native-blas runs the bench with OpenBLAS's own choice of kernels: the command starts
itself again with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from its environment
(both together, that process alone). Some machines set them (an older target than the
CPU's, e.g. Haswell on an AVX-512 CPU), since older OpenBLAS builds compute wrong
results or crash on those processors; they slow a current NumPy's products (~1.6x), so
to compare with onnxruntime (whose kernels do not read them) unset both in the bench
command alone. The "NumPy's BLAS" line says which kernels then run (threadpoolctl).
The package, its tests and CI never change either variable.
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import time

import numpy as np

# this checkout's package, not an installed one (python puts bench/ first on the path)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def light_models() -> list[str]:
    import onnx

    here = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    return sorted(glob.glob(os.path.join(here, "light_*.onnx")))


def load_case(path: str):
    """(model, feeds, expected output) as onnx's backend test runner makes them."""
    import onnx
    from onnx import numpy_helper
    from onnx.backend.test.runner import Runner

    model = onnx.load(path)
    name = os.path.basename(path)[:-5]
    inits = {i.name for i in model.graph.initializer}
    feeds = {x.name: Runner.generate_dummy_data(x, seed=0, name=name, random=False)
             for x in model.graph.input if x.name not in inits}
    proto = onnx.TensorProto()
    with open(path[:-5] + "_output_0.pb", "rb") as f:
        proto.ParseFromString(f.read())
    return model, feeds, numpy_helper.to_array(proto)


# onnxruntime's idle threads spin for ~50-60 ms after a run (allow_spinning, its
# default), taking a core from whatever runs next in the process: after each of its
# calls the next call waits this long (its own spinning during a run is its business)
SETTLE = 0.1
# OpenBLAS's idle threads spin longer after a product: 2^28 cycles by default (~0.1 s
# at 2.7 GHz), from the last product of the run; after our calls with --blas-threads
# other than 1 the next waits this long (0.1 s left onnxruntime's SqueezeNet at 9-10 ms
# against 3.5 about every other call; 0.3 s at 3.4-3.9)
BLAS_SETTLE = 0.3


def timed(fns: dict, repeat: int, settle: dict | None = None) -> dict:
    """{name: (wall, cpu)} seconds of one call of each function: the minimum over
    `repeat` calls after a warm-up, the functions called in turns (a function named in
    `settle` is followed by the pause it gives, in seconds). CPU is the process time of
    all threads: on a loaded machine it is the steadier one.

    Each timed call directly follows an untimed call of the same function, so every
    function is timed as a loop of inferences runs it (its data and code in the caches,
    its threads awake). Timing the first call after the other's turn was not even: ours
    came after onnxruntime's settling pause and paid the cold start, onnxruntime came
    straight after ours (both 20-35% slower after a 0.1 s pause on small models:
    SqueezeNet 7.8 -> 10.0 ms and 2.1 -> 2.7; the ratio the same either way when both
    pay it alike)."""
    walls = {k: [] for k in fns}
    cpus = {k: [] for k in fns}
    for r in range(repeat + 1):  # the first round warms up
        for k, fn in fns.items():
            fn()  # primes the timed call: see the docstring
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            if r:
                walls[k].append(time.perf_counter() - t0)
                cpus[k].append(time.process_time() - c0)
            if k in (settle or {}):
                time.sleep(settle[k])
    return {k: (min(walls[k]), min(cpus[k])) for k in fns}


def prepare(model, threads: int | None = None, blas_threads: int | str | None = "auto"):
    """Our Program: checked when every op has a rule file, else unchecked (said so)."""
    from shape_logic.asp.program import available_ops
    from shape_logic.executor import Program

    checked = {n.op_type for n in model.graph.node} <= set(available_ops())
    t0 = time.perf_counter()
    program = Program(model, check=checked, threads=threads, blas_threads=blas_threads)
    return program, checked, time.perf_counter() - t0


def ort_session(model, threads: int, spin: bool):
    """An onnxruntime session: its defaults unless `threads` (intra-op) or not `spin`
    (no busy-waiting threads: their spinning counts as onnxruntime's CPU time)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 3  # (no warnings about unused initializers)
    if threads:
        opts.intra_op_num_threads = threads
    if not spin:
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model.SerializeToString(), opts,
                                providers=["CPUExecutionProvider"])


def bench_model(path: str, repeat: int, reference: bool, args) -> dict:
    from shape_logic.kernels.run_threads import choices

    model, feeds, want = load_case(path)
    program, checked, prep = prepare(model, args.ours_threads or None,
                                     args.blas_threads or None)
    got = next(iter(program.run(feeds).values()))
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-3, atol=1e-5)
    sess = ort_session(model, args.threads, not args.ort_no_spin)
    fns = {"ours": lambda: program.run(feeds), "ort": lambda: sess.run(None, feeds)}
    if args.one_thread:
        one, _, _ = prepare(model, 1, args.blas_threads or None)
        got = next(iter(one.run(feeds).values()))
        ok = ok and got.shape == want.shape and np.allclose(got, want, rtol=1e-3, atol=1e-5)
        fns["one"] = lambda: one.run(feeds)
    # (OpenBLAS's idle threads spin after a call too: with --blas-threads other than 1
    # our calls are followed by BLAS_SETTLE, or they would take a core from onnxruntime's
    # next call - ShuffleNet's 4.6 ms became 9)
    settle = {} if args.ort_no_spin else {"ort": SETTLE}
    if args.blas_threads != 1:
        settle.update(ours=BLAS_SETTLE, one=BLAS_SETTLE)
    before = dict(choices)
    times = timed(fns, repeat, settle=settle)
    went = {k: choices[k] - before[k] for k in choices}
    ref_t = None
    if reference:
        from onnx.reference import ReferenceEvaluator

        ev = ReferenceEvaluator(model)
        t0, c0 = time.perf_counter(), time.process_time()
        ev.run(None, feeds)
        ref_t = (time.perf_counter() - t0, time.process_time() - c0)
    return {"model": os.path.basename(path)[6:-5], "checked": checked, "prepare": prep,
            "ours": times["ours"], "ort": times["ort"], "one": times.get("one"),
            "ref": ref_t, "ok": ok, "went": went}


def blas_kernels() -> str:
    """NumPy's BLAS and the CPU target of its kernels (OpenBLAS picks them when it loads,
    or takes OPENBLAS_CORETYPE: a machine that sets it to an older target than the CPU's,
    Haswell's AVX2 on an AVX-512 CPU, makes our products ~1.6x slower; onnxruntime's own
    kernels do not read it)."""
    from threadpoolctl import threadpool_info

    libs = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if not libs:
        return "not found"
    lib = libs[0]
    forced = ", ".join(f"{k}={os.environ[k]}" for k in FORCED_BLAS if k in os.environ)
    return (f"{lib.get('internal_api')} {lib.get('version')}, {lib.get('architecture')} "
            f"kernels ({forced or 'chosen by OpenBLAS for this CPU'})")


# the variables --native-blas removes (together: see the docstring)
FORCED_BLAS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def native_env(env) -> dict | None:
    """`env` without FORCED_BLAS, or None when it sets neither."""
    if not any(k in env for k in FORCED_BLAS):
        return None
    return {k: v for k, v in env.items() if k not in FORCED_BLAS}


def _blas_threads(text: str):
    return text if text == "auto" else int(text)


def main(argv=None):
    from shape_logic.kernels.workers import available

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", help="model names (alexnet, resnet50, ...)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0,
                    help="onnxruntime's intra-op threads (0: its default)")
    ap.add_argument("--ort-no-spin", action="store_true",
                    help="onnxruntime's threads sleep instead of spinning while idle")
    ap.add_argument("--ours-threads", type=int, default=0,
                    help="our threads per node (0: the executor's default, the CPUs)")
    ap.add_argument("--blas-threads", type=_blas_threads, default="auto",
                    help="our BLAS threads inside each of our threads (the executor's "
                         "default auto: kernels/run_threads.py; 0: as configured)")
    ap.add_argument("--one-thread", action="store_true",
                    help="also time our Program(threads=1), in the same turns")
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--native-blas", action="store_true",
                    help="run again without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE "
                         "(OpenBLAS's own kernels for this CPU; this process alone)")
    args = ap.parse_args(argv)
    env = native_env(os.environ) if args.native_blas else None
    if env is not None:  # (the new process finds neither set: it runs the bench)
        removed = ", ".join(f"{k}={os.environ[k]}" for k in FORCED_BLAS if k in os.environ)
        print(f"--native-blas: running again without {removed}", flush=True)
        argv = sys.argv[1:] if argv is None else list(argv)
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *argv], env)
    paths = [p for p in light_models()
             if not args.models or any(m in os.path.basename(p) for m in args.models)]
    print(f"onnxruntime: threads {args.threads or 'default'}, spinning "
          f"{'off' if args.ort_no_spin else 'default (on)'}; ours: threads "
          f"{args.ours_threads or f'default ({available()})'}, BLAS threads "
          f"{args.blas_threads or 'as configured'}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"NumPy's BLAS: {blas_kernels()}")
    print("times in ms, wall / cpu (process time, all threads); min of the runs")
    one_head = f" {'ours 1 thread':>15} {'1t/ort':>11}" if args.one_thread else ""
    print(f"{'model':14} {'chk':>3} {'prep s':>6} {'ours':>15} {'onnxruntime':>15} "
          f"{'reference':>17} {'ref/ours':>9} {'ours/ort':>11}{one_head}  match  blas")
    rows = []
    for p in paths:
        r = bench_model(p, args.repeat, not args.no_reference, args)
        rows.append(r)
        ours, ort_t, ref, one = r["ours"], r["ort"], r["ref"], r["one"]
        runs = sum(r["went"].values())  # (automatic choices: BLAS's threads or our parts)
        went = f"{r['went']['blas']}/{runs}" if runs else "-"
        ref_s = f"{ref[0] * 1e3:8.0f}/{ref[1] * 1e3:<8.0f}" if ref else f"{'-':>17}"
        speed = f"{ref[0] / ours[0]:4.1f}/{ref[1] / ours[1]:<4.1f}" if ref else f"{'-':>9}"
        one_s = (f" {one[0] * 1e3:7.0f}/{one[1] * 1e3:<7.0f} {one[0] / ort_t[0]:5.2f}/"
                 f"{one[1] / ort_t[1]:<5.2f}") if one else ""
        print(f"{r['model'][:14]:14} {'yes' if r['checked'] else 'no':>3} {r['prepare']:6.1f} "
              f"{ours[0] * 1e3:7.0f}/{ours[1] * 1e3:<7.0f} {ort_t[0] * 1e3:7.0f}/"
              f"{ort_t[1] * 1e3:<7.0f} {ref_s} {speed} "
              f"{ours[0] / ort_t[0]:5.2f}/{ours[1] / ort_t[1]:<5.2f}{one_s}  "
              f"{'ok' if r['ok'] else 'MISMATCH'}  {went}", flush=True)

    def gm(xs):
        return float(np.exp(np.mean(np.log(xs))))

    for k, label in ((0, "wall"), (1, "cpu")):
        ratio = gm([r['ours'][k] / r['ort'][k] for r in rows])
        line = f"geometric mean ({label}): ours/ort {ratio:.2f}"
        if all(r["one"] for r in rows):
            line += f", ours 1 thread/ort {gm([r['one'][k] / r['ort'][k] for r in rows]):.2f}"
        if all(r["ref"] for r in rows):
            line += f", ref/ours {gm([r['ref'][k] / r['ours'][k] for r in rows]):.1f}"
        print(line)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
