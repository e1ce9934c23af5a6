"""What we say a model requires of its input sizes, against onnxruntime at sizes beyond the
two that bench/compare_peers.py --hf runs.

    python bench/hf_requires.py [--only NAME ...] [--set hf|models|zoo|zoo2|zoo3]

For each Hugging Face model of compare_peers --hf (not the fused ones: the same graph's
sizes), or of another of its sets (the default set's exports, the zoos'), the model is
solved once, then run by onnxruntime at three more sizes: a batch of 1
and every other input symbol 65, 130 and 33 (lengths of audio, past 1000 samples, and image
sides are scaled by 2, 3 and 2 instead). Token ids are drawn below the feeds' largest,
masks are ones. At each size:

  ok      onnxruntime runs and we allow the size (Solution.unmet is empty), or it fails and
          we say what it breaks;
  WRONG   onnxruntime runs a size we say the graph cannot take (unsound: never expected);
  MISSED  onnxruntime fails at a size we allow: a limit of the graph we do not state, or
          one the data decides (OPT's, BioGPT's and MPNet's positions count the mask's or
          the tokens' non-padding entries, so a longer input with padding runs: no size is
          required).

Stop 50's run: 128 models, 384 sizes; WRONG 0; MISSED 14: 10 where the data decides (OPT's,
BioGPT's, MPNet's, M2M100's and Speech2Text's decoder positions count the non-padding
entries of the mask or the ids), 1 MPT's ALiBi slice `64 - seq` (it runs at 65, where the
slice keeps one column that broadcasts, and fails from 66: a piecewise size we name with a
fresh symbol `_1 in 0..64`), 3 StableLM's over a KV cache (its mask sliced to min(past +
seq, total) and added over past + seq positions: it runs where past + seq <= total or
total = 1, a disjunction we do not state). The stop's first run also missed GPT-J's, EnCodec's,
Longformer's, LED's and Mistral's limits (GatherElements' indices, a reflect pad, strided
views, GatherND's coordinates: now stated). The other sets: the default set's exports 33
sizes, --zoo 66, --zoo2 63, --zoo3 33, all ok.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

SIZES = ((65, 2), (130, 3), (33, 2))  # (a length, the scale of audio lengths and images)


def larger(sizes: dict, length: int, scale: int) -> dict:
    """A batch of 1 (`batch`, the zoos' `b`), audio lengths and image sides scaled, every
    other symbol `length`."""
    return {s: 1 if s in ("batch", "b") else v * scale
            if v >= 1000 or s in ("height", "width") else length for s, v in sizes.items()}


def feed_at(model, feed: dict, values: dict) -> dict:
    """`feed`'s inputs resized to the symbols' `values` (ids below the feed's largest,
    masks of ones, floats drawn at random)."""
    rng = np.random.default_rng(0)
    out = {}
    for vi in model.graph.input:
        if vi.name not in feed:
            continue
        x = feed[vi.name]
        tp = vi.type.optional_type.elem_type if vi.type.HasField("optional_type") else vi.type
        dims = tp.tensor_type.shape.dim
        if not isinstance(x, np.ndarray) or x.ndim != len(dims):
            out[vi.name] = x  # (an optional left empty, a sequence: as fed)
            continue
        shape = [values.get(d.dim_param, n) if d.dim_param else n for d, n in zip(dims, x.shape)]
        if x.dtype == np.bool_ or "mask" in vi.name:
            out[vi.name] = np.ones(shape, x.dtype)
        elif np.issubdtype(x.dtype, np.integer):
            out[vi.name] = rng.integers(0, max(int(x.max()) + 1, 2), shape).astype(x.dtype)
        else:
            out[vi.name] = rng.standard_normal(shape).astype(x.dtype)
    return out


def verdicts(model, feeds) -> list[tuple[dict, str, str]]:
    """(sizes, ok / WRONG / MISSED, onnxruntime's error) at each of SIZES."""
    import compare_peers
    import onnxruntime as ort

    from shape_logic import solve

    sol = solve(model)
    # (the spec's semantics: onnxruntime's extended graph rewrites turn a Gather at
    # Range(0, s, 1) into a Slice, which clamps where the Gather fails)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    sizes = compare_peers.input_bindings(model, feeds[0])
    out = []
    for length, scale in SIZES:
        values = larger(sizes, length, scale)
        try:
            session.run(None, feed_at(model, feeds[0], values))
            runs, error = True, ""
        except Exception as e:  # noqa: BLE001 - onnxruntime's failure is the fact
            runs, error = False, str(e).split("Status Message:")[-1].strip()[:100]
        unmet = sol.unmet(values) if sol.status == "ok" else [f"status {sol.status}"]
        verdict = "ok" if runs == (not unmet) else "MISSED" if not runs else "WRONG"
        out.append((values, verdict, error))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--set", default="hf", choices=("hf", "models", "zoo", "zoo2", "zoo3"),
                    help="compare_peers' set of models (default: --hf's)")
    args = ap.parse_args(argv)
    import compare_peers

    totals = {"ok": 0, "WRONG": 0, "MISSED": 0}
    # (no light model: their input sizes are fixed)
    for name, model, feeds in compare_peers.model_set(args.set, set(args.only), light=False):
        if name.endswith("_fused"):
            continue
        found = verdicts(model, feeds)
        for _, verdict, _ in found:
            totals[verdict] += 1
        flagged = [f for f in found if f[1] != "ok"]
        print(f"{'!!' if flagged else '  '} {name}", flush=True)
        for values, verdict, error in flagged:
            print(f"     {verdict:6} at {values}: onnxruntime {error or 'runs'}", flush=True)
    print("sizes: " + ", ".join(f"{k} {v}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
