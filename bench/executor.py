"""The NumPy executor on onnx's "light" models vs onnxruntime and onnx's reference evaluator.

    python bench/executor.py [--repeat N] [--no-reference] [MODEL ...]

For each model (default: all of onnx/backend/test/data/light/light_*.onnx) the inputs
are made as onnx's test runner makes them (Runner.generate_dummy_data, random=False).
Prepare time (loading, solving when every op has a rule file, building kernels, folding
constants) is printed apart; run times are the minimum over N runs after one warm-up
(the reference evaluator runs once: it is slow), as wall and as CPU (process) time.
Ratios: reference / ours (target >= 5) and ours / onnxruntime (target <= 2). Every
output is also compared with the expected one.
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


def timed(fn, repeat: int) -> tuple[float, float]:
    """(wall, cpu) seconds of one call: the minimum over `repeat` calls after a warm-up.
    CPU is the process time of all threads: on a loaded machine it is the steadier one."""
    fn()  # warm-up
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus)


def prepare(model, blas_threads: int | None = 1):
    """Our Program: checked when every op has a rule file, else unchecked (said so)."""
    from shape_logic.asp.program import available_ops
    from shape_logic.executor import Program

    checked = {n.op_type for n in model.graph.node} <= set(available_ops())
    t0 = time.perf_counter()
    program = Program(model, check=checked, threads=blas_threads)
    return program, checked, time.perf_counter() - t0


def bench_model(path: str, repeat: int, reference: bool, threads: int,
                blas_threads: int | None = 1) -> dict:
    import onnxruntime as ort

    model, feeds, want = load_case(path)
    program, checked, prep = prepare(model, blas_threads)
    ours = timed(lambda: program.run(feeds), repeat)
    got = next(iter(program.run(feeds).values()))
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-3, atol=1e-5)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    # no busy-waiting threads: their spinning would count as onnxruntime's CPU time
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    sess = ort.InferenceSession(model.SerializeToString(), opts,
                                providers=["CPUExecutionProvider"])
    ort_t = timed(lambda: sess.run(None, feeds), repeat)
    ref_t = None
    if reference:
        from onnx.reference import ReferenceEvaluator

        ev = ReferenceEvaluator(model)
        t0, c0 = time.perf_counter(), time.process_time()
        ev.run(None, feeds)
        ref_t = (time.perf_counter() - t0, time.process_time() - c0)
    return {"model": os.path.basename(path)[6:-5], "checked": checked, "prepare": prep,
            "ours": ours, "ort": ort_t, "ref": ref_t, "ok": ok}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", help="model names (alexnet, resnet50, ...)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="onnxruntime's intra-op threads")
    ap.add_argument("--blas-threads", type=int, default=1,
                    help="our BLAS threads (the executor's default 1; 0: as configured)")
    ap.add_argument("--no-reference", action="store_true")
    args = ap.parse_args(argv)
    paths = [p for p in light_models()
             if not args.models or any(m in os.path.basename(p) for m in args.models)]
    print(f"onnxruntime threads {args.threads}, ours: BLAS threads "
          f"{args.blas_threads or 'as configured'}, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("times in ms, wall / cpu (process time, all threads); min of the runs")
    print(f"{'model':14} {'chk':>3} {'prep s':>6} {'ours':>15} {'onnxruntime':>15} "
          f"{'reference':>17} {'ref/ours':>9} {'ours/ort':>11}  match")
    rows = []
    for p in paths:
        r = bench_model(p, args.repeat, not args.no_reference, args.threads,
                        args.blas_threads or None)
        rows.append(r)
        ours, ort_t, ref = r["ours"], r["ort"], r["ref"]
        ref_s = f"{ref[0] * 1e3:8.0f}/{ref[1] * 1e3:<8.0f}" if ref else f"{'-':>17}"
        speed = f"{ref[0] / ours[0]:4.1f}/{ref[1] / ours[1]:<4.1f}" if ref else f"{'-':>9}"
        print(f"{r['model'][:14]:14} {'yes' if r['checked'] else 'no':>3} {r['prepare']:6.1f} "
              f"{ours[0] * 1e3:7.0f}/{ours[1] * 1e3:<7.0f} {ort_t[0] * 1e3:7.0f}/"
              f"{ort_t[1] * 1e3:<7.0f} {ref_s} {speed} "
              f"{ours[0] / ort_t[0]:5.2f}/{ours[1] / ort_t[1]:<5.2f}  "
              f"{'ok' if r['ok'] else 'MISMATCH'}", flush=True)

    def gm(xs):
        return float(np.exp(np.mean(np.log(xs))))

    for k, label in ((0, "wall"), (1, "cpu")):
        line = f"geometric mean ({label}): ours/ort {gm([r['ours'][k] / r['ort'][k] for r in rows]):.2f}"
        if all(r["ref"] for r in rows):
            line += f", ref/ours {gm([r['ref'][k] / r['ours'][k] for r in rows]):.1f}"
        print(line)


if __name__ == "__main__":
    main()
