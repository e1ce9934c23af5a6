"""`shape-logic test-rule RULES/Op.lp --case SHAPES... [--kernel FILE.py] [--attr K=V]`:
try a rule file on one node before using it.

For each case (the node's input shapes, `;`-separated: `"[2, 7]; [7, 3]"`) the
rule file solves a one-node graph, once with the shapes as given and once with
every dim replaced by a symbol (`x0_0`, `x0_1`, ...). With a kernel — a Python
file defining a function or a shape_logic Kernel class named like the operator,
taking and returning NumPy arrays — the kernel runs on random arrays of those
shapes, and the inferred output shapes must equal the kernel's, directly and
after substituting the dims into the symbolic answer. Without a kernel the
inferred shapes are printed for the author to read.

Exit 0 every case agrees; 1 a case disagrees or the rule rejects it; 2 the rule
or kernel file cannot be read (a syntax error names the file and line).
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

from .asp.wide_bounds import wide_bound_notes
from .errors import InputError
from .shapes import has_fresh_name, parse_shape
from .symbolic.parse import ShapeSyntaxError
from .symbolic.expr import Expr


def add_test_rule_parser(sub) -> None:
    t = sub.add_parser("test-rule", help="try a rule file on one node, against a kernel")
    t.add_argument("rule_file", metavar="RULES/Op.lp")
    t.add_argument("--case", action="append", default=[], metavar="SHAPES",
                   help='input shapes of one node, ";"-separated: "[2, 7]; [7]" (repeat)')
    t.add_argument("--kernel", metavar="FILE.py",
                   help="a function or Kernel class named like the op, run on random arrays")
    t.add_argument("--attr", action="append", default=[], metavar="KEY=JSON",
                   help="a node attribute, its value as JSON: --attr axis=1")
    t.add_argument("--outputs", type=int, default=1, help="how many outputs the node has")


def cmd_test_rule(args) -> int:
    path = Path(args.rule_file)
    if path.suffix != ".lp" or not path.is_file():
        raise InputError("not a rule file (expected an existing RULES/Op.lp)", args.rule_file)
    op = path.stem
    attrs = _attrs(args.attr)
    kernel = _load_kernel(args.kernel, op, attrs, args.outputs) if args.kernel else None
    if not args.case:
        raise InputError("give at least one --case with the node's input shapes")
    # a rule that costs every solve time, whatever it infers, is worth a word first
    for note in wide_bound_notes(path.read_text(), str(path)):
        print("note: " + note)
    failures = 0
    for spec in args.case:
        ok, line = check_rule_case(op, path.parent, spec, attrs, args.outputs, kernel)
        failures += not ok
        print(("ok    " if ok else "FAIL  ") + line)
    print(f"{op}: {len(args.case) - failures}/{len(args.case)} cases agree"
          + ("" if kernel else " (no --kernel: shapes inferred, not compared)"))
    return 1 if failures else 0


def check_rule_case(op, rules_dir, spec, attrs, n_outputs, kernel) -> tuple[bool, str]:
    """Solve one case concretely and symbolically; compare with the kernel if there is one."""
    from .testing import infer

    shapes = [s.strip() for s in spec.split(";")]
    concrete = []
    for s in shapes:
        try:
            dims = parse_shape(s).dims
        except ShapeSyntaxError:
            dims = None
        if dims is None or not all(d.is_int for d in dims):
            raise InputError(f"--case {spec!r}: {s!r} is not a shape of integers like [2, 7]")
        concrete.append([d.value for d in dims])
    head = f"{spec} -> "
    sol = infer(op, [_text(d) for d in concrete], attrs, n_outputs, rules=[rules_dir])
    outs = [f"y{k}" for k in range(n_outputs)]
    if sol.status != "ok":
        return False, head + "rejected: " + "; ".join(d.message for d in sol.diagnostics)
    inferred = [sol.shape(y) for y in outs]
    env, symbolic_in = {}, []
    for k, dims in enumerate(concrete):
        names = [f"x{k}_{i}" for i in range(len(dims))]
        env.update({n: Expr.const(d) for n, d in zip(names, dims) if d >= 1})
        # a 0 dim stays 0: symbols stand for sizes >= 1
        symbolic_in.append("[" + ", ".join(n if d >= 1 else "0" for n, d in zip(names, dims))
                           + "]")
    ssol = infer(op, symbolic_in, attrs, n_outputs, rules=[rules_dir])
    if ssol.status != "ok":
        return False, head + "symbolic inputs rejected: " + "; ".join(
            d.message for d in ssol.diagnostics)
    symbolic = [ssol.shape(y) for y in outs]
    line = head + ", ".join(inferred) + "   symbolic: " + ", ".join(symbolic)
    if kernel is None:
        return True, line
    try:
        got = kernel([np.random.default_rng(0).standard_normal(d).astype(np.float32)
                      for d in concrete])
    except Exception as e:  # the kernel rejects inputs the rule accepts: a disagreement
        return False, line + f"   kernel raised {type(e).__name__}: {e}"
    want = [_text(np.shape(a)) for a in got]
    if inferred != want:
        return False, line + f"   kernel: {', '.join(want)}"
    for k, y in enumerate(outs):
        dims = ssol.dims(y)
        if dims is None:
            continue  # rank unknown symbolically: nothing printed there can be wrong
        if len(dims) != len(np.shape(got[k])):
            return False, line + f"   kernel: {want[k]} (symbolic rank {len(dims)})"
        for i, d in enumerate(dims):
            if has_fresh_name(d):
                continue  # a fresh name: undetermined, not wrong
            if d.subs(env) != Expr.const(np.shape(got[k])[i]):
                return False, line + f"   kernel: {want[k]} (axis {i}: {d} != " \
                    f"{np.shape(got[k])[i]})"
    return True, line + "   kernel agrees"


def _text(dims) -> str:
    return "[" + ", ".join(str(int(d)) for d in dims) + "]"


def _attrs(items) -> dict:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise InputError(f"--attr {item!r}: expected KEY=JSON (axis=1, perm=[1,0])")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value  # a bare string: mode=constant
    return out


def _load_kernel(file, op, attrs, n_outputs):
    """The kernel as a function: list of arrays -> list of arrays."""
    from .kernels import Kernel, load_kernel

    path = Path(file)
    if not path.is_file():
        raise InputError("no such file", file)
    if path.resolve().parent == Path(__file__).resolve().parent / "kernels":
        fn = load_kernel(path.stem)  # one of ours: a module of the package
    else:
        fn = getattr(_import_file(path, op), op, None)
    if fn is None:
        raise InputError(f"defines nothing named {op!r} (a function or Kernel class)", file)
    if isinstance(fn, type) and issubclass(fn, Kernel):
        kernel = fn(attrs, n_outputs=n_outputs)
        return lambda arrays: list(kernel(*arrays))
    return lambda arrays: _as_list(fn(*arrays, **attrs))


def _import_file(path: Path, op: str):
    spec = importlib.util.spec_from_file_location(f"_user_kernel_{op}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise InputError(f"syntax error: {e.msg}", str(path), f"line {e.lineno}")
    except Exception as e:  # the user's module failed to import: bad input, not our bug
        raise InputError(f"cannot load the kernel: {type(e).__name__}: {e}", str(path))
    return module


def _as_list(result) -> list:
    return list(result) if isinstance(result, (tuple, list)) else [result]
