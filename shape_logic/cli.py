"""The `shape-logic` command (INTERFACE §3). Exit 0 solved, 1 shape error, 2 unreadable input."""
from __future__ import annotations

import argparse
import json
import sys

from .errors import InputError
from .limits import EXIT_TIMEOUT, TimeLimit
from .timeout_option import add_timeout_argument, time_budget
from .import_cmd import add_import_parser, cmd_import


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="shape-logic",
                                description="Shape reasoning for deep-learning graphs.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="infer dtype, rank and dims of every tensor")
    s.add_argument("graph")
    s.add_argument("-o", "--output",
                   help="write the annotated graph (.json; .onnx for an ONNX model: shapes in "
                        "value_info)")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.add_argument("--rules", action="append", default=[], metavar="DIR",
                   help="a directory of extra rule files (replacing ours for the same op)")
    s.add_argument("--signature", action="store_true",
                   help="print each function's general shape signature instead")
    add_timeout_argument(s)
    s.add_argument("--strict", action="store_true",
                   help="an operator without a rule file is an error (exit 2), not a warning")
    add_run_parser(sub)
    from .show import add_show_parser
    add_show_parser(sub)
    from .rule_check import add_test_rule_parser
    add_test_rule_parser(sub)
    from .analyses.commands import add_fold_parser, add_why_parser
    add_fold_parser(sub)
    add_why_parser(sub)
    add_import_parser(sub)
    c = sub.add_parser("check", help="compare declared outputs and annotations with the inference")
    c.add_argument("graph")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("--rules", action="append", default=[], metavar="DIR")
    from .ops_table import add_ops_parser
    add_ops_parser(sub)
    add_timeout_argument(c)
    c.add_argument("--strict", action="store_true",
                   help="an operator without a rule file is an error (exit 2), not a warning")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from .progress import on_terminal, reporting  # a bar on a terminal, silent otherwise

    with reporting(on_terminal(quiet=getattr(args, "format", None) == "json")):
        return _dispatch(args)


def _dispatch(args) -> int:
    try:
        if args.command == "solve":
            return cmd_solve(args)
        if args.command == "ops":
            from .ops_table import cmd_ops
            return cmd_ops(args)
        if args.command == "run":
            return cmd_run(args)
        if args.command == "check":
            return cmd_check(args)
        if args.command == "show":
            from .show import cmd_show
            return cmd_show(args)
        if args.command == "test-rule":
            from .rule_check import cmd_test_rule
            return cmd_test_rule(args)
        if args.command in ("fold", "why"):
            from .analyses import commands
            return getattr(commands, f"cmd_{args.command}")(args)
        if args.command == "import":
            return cmd_import(args)
    except TimeLimit as e:
        print(f"shape-logic: {args.graph}: {e}", file=sys.stderr)
        return EXIT_TIMEOUT
    except InputError as e:
        print(f"shape-logic: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("shape-logic: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `shape-logic solve ... | head`: the reader left
        sys.stderr.close()
        return 0
    return 0


def cmd_solve(args) -> int:
    from .solver import solve
    from .write_graph import write_annotated

    if args.signature:
        from .signature import cmd_signature

        return cmd_signature(args)
    with time_budget(args):
        sol = solve(args.graph, rules=args.rules, strict=args.strict)
    if args.format == "json":
        print(json.dumps(sol.to_json(), indent=2))
    else:
        print(sol.to_text(color=sys.stdout.isatty()))
        _print_warnings(sol)
    if args.output:
        write_annotated(sol, args.output)
    return 0 if sol.status == "ok" else 1


def cmd_check(args) -> int:
    from .check import check, render

    with time_budget(args):
        sol, verdicts = check(args.graph, rules=args.rules, strict=args.strict)
    if args.format == "json":
        out = sol.to_json()
        out["declarations"] = [v.to_json() for v in verdicts]
        print(json.dumps(out, indent=2))
    else:
        print(render(sol, verdicts) if sol.status == "ok" else sol.to_text(sys.stdout.isatty()))
        _print_warnings(sol)
    contradicted = any(v.status == "contradiction" for v in verdicts)
    return 0 if sol.status == "ok" and not contradicted else 1


def _print_warnings(sol) -> None:
    """Text mode: warnings go to stderr (JSON mode lists them under "warnings")."""
    for w in sol.warnings:
        print(f"shape-logic: warning: {w}", file=sys.stderr)


# ----- run: execute the graph on .npy inputs (shape_logic/executor.py)

def add_run_parser(sub) -> None:
    r = sub.add_parser("run", help="execute the graph on NumPy inputs, checking every shape")
    r.add_argument("graph")
    r.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy",
                   help="a graph input read from a .npy file (repeat for each input)")
    r.add_argument("-o", "--output", metavar="OUTDIR",
                   help="write OUTDIR/<output name>.npy for every graph output (a "
                        "sequence: .npz; a sequence of maps, ZipMap's: .json)")
    r.add_argument("--profile", action="store_true",
                   help="time every node (after warm-up runs): slowest first, then per op")
    r.add_argument("--stream", metavar="NAME:AXIS",
                   help="feed input NAME in chunks along AXIS, printing outputs as they come")
    r.add_argument("--chunk", type=int, default=1, metavar="K", help="steps per chunk")
    r.add_argument("--threads", type=_positive, metavar="N",
                   help="threads a run may use (default: the CPUs this process may use; "
                        "NumPy's BLAS gets them on a quiet machine, the executor's own parts "
                        "on a busy one; 1 runs everything on the calling thread)")
    r.add_argument("--warmup", type=int, default=2, help=argparse.SUPPRESS)
    r.add_argument("--repeat", type=int, default=3, help=argparse.SUPPRESS)


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return n


def cmd_run(args) -> int:
    """Exit 0 ran; 1 a shape mismatch or kernel failure (the graph cannot run on these
    inputs); 2 the graph or an input cannot be read (bad .npy, missing/extra input,
    wrong dtype or rank)."""
    from .executor import ExecutionError, Program

    feeds = {}
    for item in args.input:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            raise InputError(f"--input {item!r}: expected NAME=FILE.npy (a sequence: FILE.npz)")
        if name in feeds:
            raise InputError(f"--input {item!r}: input {name!r} is given twice")
        feeds[name] = _read_npy(file)
    if args.stream:
        from .stream_cli import cmd_run_stream
        return cmd_run_stream(args, feeds)
    try:
        program = Program(args.graph, threads=args.threads)
        result = program.run(feeds, profile=args.profile, warmup=args.warmup,
                             repeat=args.repeat)
    except ExecutionError as e:
        print(f"shape-logic: {e}", file=sys.stderr)
        return 1
    for name, arr in result.items():
        if arr is None:  # an empty optional
            print(f"{name}: empty optional")
        elif _is_map_sequence(arr):  # ZipMap's: "sequence of 3 maps {int64: float32}"
            print(f"{name}: sequence of {len(arr)} maps {_map_types(arr)}")
        elif isinstance(arr, list):  # a sequence
            print(f"{name}: sequence of {len(arr)}: "
                  + ", ".join(f"{e.dtype} {list(e.shape)}" for e in arr))
        else:
            print(f"{name}: {arr.dtype} {list(arr.shape)}")
    if result.data_dependent:
        vals = ", ".join(f"{k}={v}" for k, v in result.data_dependent.items())
        print(f"data-dependent symbols: {vals}")
    if args.output:
        write_outputs(result, args.output)
    if args.profile and result.profile is not None:
        print(result.profile.report())
    return 0


def write_outputs(result, outdir: str) -> None:
    """OUTDIR/<output name>.npy for every output (run -o, run --stream -o); a sequence as
    OUTDIR/<output name>.npz, its elements under "0", "1", ...; a sequence of maps
    (ZipMap's) as OUTDIR/<output name>.json, a list of objects (JSON writes an int key as
    a string); an empty optional as no file (an optional input left out of a run is
    empty)."""
    from pathlib import Path

    import numpy as np

    out = Path(outdir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, arr in result.items():
            if arr is None:
                continue
            if _is_map_sequence(arr):  # (no array: JSON, a list of {key: value} objects)
                with open(out / (_file_name(name) + ".json"), "w") as f:
                    json.dump(arr, f)
            elif isinstance(arr, list):
                np.savez(out / (_file_name(name) + ".npz"),
                         **{str(k): e for k, e in enumerate(arr)})
            else:  # (strings, object arrays in a run, as fixed-width text: no pickle)
                arr = arr.astype(str) if arr.dtype == object else arr
                np.save(out / (_file_name(name) + ".npy"), arr, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot write the outputs: {e}", str(out))


def _is_map_sequence(arr) -> bool:
    """A sequence of maps (ZipMap's seq(map(K, float))): a list of dicts, not of arrays."""
    return isinstance(arr, list) and bool(arr) and isinstance(arr[0], dict)


def _map_types(maps: list) -> str:
    """'{int64: float32}': a sequence of maps' key and value types, as ONNX names them."""
    key, value = next(iter(maps[0].items()), (None, None))
    key = "string" if isinstance(key, str) else "int64" if isinstance(key, int) else "?"
    return "{" + key + ": " + ("float32" if isinstance(value, float) else "?") + "}"


def _read_npy(file: str):
    import numpy as np

    try:
        data = np.load(file, allow_pickle=False)
        if isinstance(data, np.lib.npyio.NpzFile):  # a sequence: its elements "0", "1", ..
            with data:
                if not all(k.isdigit() for k in data.files):
                    raise ValueError("a sequence's .npz names its elements 0, 1, ...")
                return [data[k] for k in sorted(data.files, key=int)]
        return data
    except FileNotFoundError:
        raise InputError("no such file", file)
    except (OSError, ValueError) as e:
        raise InputError(f"not a readable .npy file ({e})", file)


def _file_name(tensor: str) -> str:
    """A tensor name as a file name: '/' (and NUL, '\\') become '_', no hidden or empty names."""
    safe = "".join("_" if ch in "/\\\0" else ch for ch in tensor)
    return safe if safe and safe not in (".", "..") and not safe.startswith(".") else "_" + safe


if __name__ == "__main__":
    sys.exit(main())
