"""Shape inference from the command line: one process per model, as a user runs it, for us
and the peers on bench/compare_peers.py's sets, all in one run.

compare_peers.py times each tool inside one Python process that has imported everything
(its `cold` column pays each tool's imports once, for the first model). A user who
annotates a model from a shell pays a process each time: the interpreter, the tool's
imports (onnxruntime's symbolic inference imports sympy), reading the model, inferring
and writing the annotated model. Per model and tool, the wall time of

  ours   shape-logic solve MODEL -o OUT.onnx      (the inferred shapes into value_info)
  ort    python -m onnxruntime.tools.symbolic_shape_infer --input MODEL --output OUT.onnx
         --auto_merge                              (compare_peers' options)
  onnx   python -c '... onnx.shape_inference.infer_shapes(m, data_prop=True) ...'

the best of --runs runs (each in a new process), and the totals. A tool that fails on a
model (onnxruntime's symbolic inference raises on four of onnx's light models) is timed
all the same, to its failure, and marked.

    python bench/cli_time.py [--only NAME ...] [--runs N] [--no-light] [--hf | --zoo ...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_peers as C  # noqa: E402

ONNX_INFER = ("import onnx, sys; onnx.save(onnx.shape_inference.infer_shapes("
              "onnx.load(sys.argv[1]), data_prop=True), sys.argv[2])")


def commands(model: str, out: str) -> dict:
    """Each tool's command line for `model`, writing the annotated model to `out`.TOOL.onnx."""
    return {
        "ours": ["shape-logic", "solve", model, "-o", out + ".ours.onnx"],
        "ort": [sys.executable, "-m", "onnxruntime.tools.symbolic_shape_infer",
                "--input", model, "--output", out + ".ort.onnx", "--auto_merge"],
        "onnx": [sys.executable, "-c", ONNX_INFER, model, out + ".onnx.onnx"],
    }


def timed(cmd: list, runs: int) -> tuple[float, bool]:
    """(best wall time of `runs` runs of cmd, whether it succeeded). Our exit status 1 is a
    shape error found (a result); any other nonzero status is a failure."""
    best, ok = float("inf"), True
    for _ in range(runs):
        t = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
        ok = done.returncode == 0 or (cmd[0] == "shape-logic" and done.returncode == 1)
    return best, ok


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--runs", type=int, default=3, help="runs per model and tool (best kept)")
    ap.add_argument("--no-light", action="store_true")
    for which in ("hf", *C.ZOOS):
        ap.add_argument(f"--{which}", action="store_true")
    args = ap.parse_args(argv)
    which = next((w for w in ("hf", *C.ZOOS) if getattr(args, w)), "models")
    tools = ("ours", "ort", "onnx")
    totals = dict.fromkeys(tools, 0.0)
    print(f"{'model':24s}" + "".join(f"{t:>12s}" for t in tools))
    with tempfile.TemporaryDirectory() as tmp:
        for name, model, _ in C.model_set(which, set(args.only), light=not args.no_light):
            path = os.path.join(tmp, name + ".onnx")
            onnx.save(model, path)
            row = f"{name:24s}"
            for tool, cmd in commands(path, os.path.join(tmp, name)).items():
                seconds, ok = timed(cmd, args.runs)
                totals[tool] += seconds
                row += f"{seconds:11.2f}{' ' if ok else '!'}"
            print(row, flush=True)
    print(f"{'total':24s}" + "".join(f"{totals[t]:11.2f} " for t in tools))
    print("(! the tool failed on the model; wall seconds, best of "
          f"{args.runs} runs, each a new process)")


if __name__ == "__main__":
    main()
