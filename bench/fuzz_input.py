"""Bad-input fuzzing: mutated graphs must exit 0, 1, 2 or 3, never with a traceback.

    python bench/fuzz_input.py --kind json --graphs 400 --seed 1 [--out DIR]
    python bench/fuzz_input.py --kind onnx --graphs 100 --seed 1 [--out DIR]

JSON: the examples with one to three random edits (a value replaced by a wrong type or
a malformed shape, a key removed or added). ONNX: the tiny example, two light models and
two exports (bench/torch_models.py, when torch is there) with one to three edits (an
attribute of another type or out of range, an input renamed or removed, an initializer
dropped or retyped, an input dim made negative or unreadable, an op or domain changed,
an output renamed, the opset changed). Each runs `shape-logic solve --format json` in
this process with `--timeout 15`; a Python exception escaping the command, a traceback
on stderr, or another exit status is a failure, and so is a time limit (exit 3): the
mutant is written to --out. (This found two loader crashes and an explanation that
never ended.)
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import glob
import io
import json
import os
import random
import sys
import tempfile
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

WRONG = [None, 0, -1, 1.5, "", "x", "[", "[a,", "[2**70]", [], {}, [1, "a"], {"dtype": 3},
         True, 10**30, "f33", "[-3]", "[a//0]", "[a % 0]", "a@[b]@c"]


def mutate_json(obj, rng):
    """One edit somewhere inside obj: a value replaced by a wrong one, a key or element
    removed, an unknown key added, or an edit one level down."""
    if not isinstance(obj, (dict, list)) or not obj:
        return
    k = rng.choice(list(obj) if isinstance(obj, dict) else range(len(obj)))
    r = rng.random()
    if r < 0.3:
        obj[k] = copy.deepcopy(rng.choice(WRONG))
    elif r < 0.4:
        del obj[k]
    elif r < 0.5 and isinstance(obj, dict):
        obj[f"zz{rng.randint(0, 9)}"] = copy.deepcopy(rng.choice(WRONG))
    else:
        mutate_json(obj[k], rng)


def mutate_onnx(m, rng):
    from onnx import helper

    g = m.graph
    r = rng.random()
    node = rng.choice(g.node) if g.node else None
    if r < 0.15 and node is not None and node.attribute:
        a = rng.choice(node.attribute)
        new = rng.choice([7, 2.5, [1, -1, 0], "zz", -5])
        node.attribute.remove(a)
        node.attribute.append(helper.make_attribute(a.name, new))
    elif r < 0.3 and node is not None and node.input:
        node.input[rng.randrange(len(node.input))] = rng.choice(["", "ghost", node.output[0]])
    elif r < 0.4 and g.initializer:
        del g.initializer[rng.randrange(len(g.initializer))]
    elif r < 0.5 and g.input and g.input[0].type.tensor_type.shape.dim:
        d = rng.choice(g.input[0].type.tensor_type.shape.dim)
        c = rng.choice(["neg", "param", "big", "clear"])
        if c == "neg":
            d.dim_value = -3
        elif c == "param":
            d.dim_param = rng.choice(["a b", "2*", "n//0", "", "-n"])
        elif c == "big":
            d.dim_value = 2**62 + 5
        else:
            d.Clear()
    elif r < 0.6 and node is not None:
        node.op_type = rng.choice(["Foo", "", "Conv", "Reshape", "MatMul"])
    elif r < 0.7 and node is not None:
        node.domain = rng.choice(["com.microsoft", "ai.onnx.ml", "xx"])
    elif r < 0.8 and g.initializer:
        rng.choice(g.initializer).data_type = rng.choice([1, 7, 9, 16, 0, 8, 99])
    elif r < 0.9 and node is not None and node.output:
        node.output[0] = rng.choice(["", g.input[0].name if g.input else "x", "dup"])
    else:
        del m.opset_import[:]
        m.opset_import.append(helper.make_opsetid("", rng.choice([1, 7, 25, 99])))


def onnx_sources() -> list:
    import onnx

    base = os.path.join(os.path.dirname(onnx.__file__), "backend/test/data/light")
    out = [onnx.load(os.path.join(ROOT, "examples/tiny_mlp.onnx"))]
    out += [onnx.load(f"{base}/light_{n}.onnx") for n in ("squeezenet", "inception_v1")]
    try:
        import torch_models

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out += [torch_models.gpt()[0], torch_models.t5_layer()[0]]
    except ImportError:  # no torch: the exports are left out
        pass
    return out


def solve_status(path: str) -> tuple[int | None, str, str]:
    """(exit status, stderr, failure) of `solve --format json` on path, in this process."""
    from shape_logic import cli

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["solve", path, "--format", "json", "--timeout", "15"])
    except SystemExit as e:
        code = e.code
    except Exception:  # noqa: BLE001 - what this looks for
        return None, err.getvalue(), traceback.format_exc().splitlines()[-1]
    text = err.getvalue()
    if "Traceback" in text:
        return code, text, "traceback on stderr"
    if code not in (0, 1, 2):
        return code, text, f"exit {code}"
    return code, text, ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=("json", "onnx"), default="json")
    ap.add_argument("--graphs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "shape_logic_fuzz_input"),
                    help="where failing mutants are written (default: in the temp directory)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    if args.kind == "json":
        sources = [json.load(open(f))
                   for f in sorted(glob.glob(os.path.join(ROOT, "examples/*.json")))]
    else:
        sources = onnx_sources()
    statuses: dict = {}
    failures = 0
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.graphs):
        g = copy.deepcopy(rng.choice(sources))
        for _ in range(rng.randint(1, 3)):
            (mutate_json if args.kind == "json" else mutate_onnx)(g, rng)
        path = os.path.join(args.out, f"current.{args.kind}")
        if args.kind == "json":
            with open(path, "w") as f:
                json.dump(g, f)
        else:
            import onnx

            onnx.save(g, path)
        code, err, failure = solve_status(path)
        statuses[code] = statuses.get(code, 0) + 1
        if failure:
            failures += 1
            kept = os.path.join(args.out, f"failure_{args.seed}_{k}.{args.kind}")
            os.replace(path, kept)
            print(f"FAILURE {kept}: {failure} {err.strip()[-200:]}")
    print(f"{args.graphs} mutants ({args.kind}, seed {args.seed}): exit statuses "
          + ", ".join(f"{c}: {n}" for c, n in sorted(statuses.items(), key=str))
          + f"; failures: {failures}")


if __name__ == "__main__":
    main()
