"""The executor on the Hugging Face models of compare_peers --hf: our outputs against
onnxruntime's, and both run times.

    python bench/hf_exec.py [--repeat N] [MODEL ...]

Each model (bench/hf_models*.py, as exported and as fused by onnxruntime's transformer
optimizer: the contrib ops' kernels too) is prepared once (solved, when every op has a
rule file) and run on each of its feeds (two sizes of the dynamic axes); every output is
compared with onnxruntime's: the same shape, and floats within 1e-3 of it relative to the
output's scale (max |ours - ort| / max |ort|, printed: an element near zero may differ
more relative to itself, float32 rounding in another order), other types equal. A model
with a random operator (ViTMAE's masking: RandomUniformLike) has its shapes compared
only. Times: the first feed, ours and onnxruntime in turns as bench/executor.py times
them (`timed`: min of N rounds), wall seconds; the geometric mean of ours / onnxruntime
closes the table.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


def random_ops() -> frozenset:
    """The operators whose outputs are random draws: the executor's never-folded ones
    but Dropout (an identity at inference)."""
    from shape_logic.exec_rewrite import NOT_FOLDED

    return frozenset(NOT_FOLDED - {"Dropout"})


def compare(model, got: dict, want: list, random: bool) -> float:
    """The worst relative error of our outputs against onnxruntime's (0 for exact ones);
    AssertionError on a shape, dtype or non-float value that differs."""
    worst = 0.0
    for out, w in zip(model.graph.output, want):
        g = np.asarray(got[out.name])
        if g.shape != w.shape:
            raise AssertionError(f"{out.name}: shape {list(g.shape)}, onnxruntime's "
                                 f"{list(w.shape)}")
        if random:
            continue
        if w.dtype.kind in "fc" and w.size:
            scale = max(float(np.max(np.abs(w))), np.finfo(np.float32).tiny)
            worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - w))) / scale)
        elif not np.array_equal(g, w):
            raise AssertionError(f"{out.name}: values differ")
    return worst


def bench(model, feeds, repeat: int) -> dict:
    from executor import BLAS_SETTLE, SETTLE, ort_session, timed

    from shape_logic.executor import Program

    random = any(n.op_type in random_ops() for n in model.graph.node)
    session = ort_session(model, 0, True)  # (its defaults, as bench/executor.py's)
    t0 = time.perf_counter()
    program = Program(model)
    prepare = time.perf_counter() - t0
    worst = max(compare(model, program.run(feed), session.run(None, feed), random)
                for feed in feeds)
    feed = feeds[0]
    times = timed({"ours": lambda: program.run(feed), "ort": lambda: session.run(None, feed)},
                  repeat, settle={"ort": SETTLE, "ours": BLAS_SETTLE})
    return {"prepare": prepare, "worst": worst, "random": random,
            "ours": times["ours"][0], "ort": times["ort"][0]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", help="model names (hf_bert, hf_bert_fused, ...)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    from compare_peers import hf_models

    print(f"{'model':30} {'prep s':>6} {'ours ms':>8} {'ort ms':>8} {'ours/ort':>8}  outputs")
    ratios, failed = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, model, feeds in hf_models(args.models):
            try:
                r = bench(model, feeds, args.repeat)
            except Exception as e:  # noqa: BLE001  (a failure is a row of the table)
                failed.append(name)
                print(f"{name:30} FAILED {type(e).__name__}: {str(e)[:200]}", flush=True)
                continue
            ok = r["worst"] < 1e-3
            if not ok:
                failed.append(name)
            ratios.append(r["ours"] / r["ort"])
            what = "shapes (random)" if r["random"] else \
                f"{'ok' if ok else 'DIFFER'} (rel {r['worst']:.1e})"
            print(f"{name:30} {r['prepare']:6.2f} {r['ours'] * 1e3:8.2f} {r['ort'] * 1e3:8.2f} "
                  f"{ratios[-1]:8.2f}  {what}", flush=True)
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"{len(ratios)} models run, {len(failed)} failed or differ"
              f"{': ' + ', '.join(failed) if failed else ''}; geometric mean ours/ort {gm:.2f}")


if __name__ == "__main__":
    main()
