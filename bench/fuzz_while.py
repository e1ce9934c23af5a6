"""While loops counted from their condition (rules/Loop.lp's loop_stop), fuzzed against
onnxruntime: python bench/fuzz_while.py [--graphs N] [--seed S] [-v].

Each graph walks x [T, b, 4] with a Loop whose body carries an int32 counter t (from 0, 1,
-2, 3 or x's size b; by 1, 2 or -1) and T, stops on a comparison of t or t + step (cast to
float or int64) with T + offset (Less, Greater, LessOrEqual, GreaterOrEqual), maybe and-ed
with `i < T`, `i <= T` or `i < 2`, under a trip count T, 3, 7, 2^63 - 1 or none, from a condition
at the start computed as the body would before iteration 0; its scan output stacks t. Where
the scan output's length is stated in T and b it must be onnxruntime's at every T in 1, 2, 3,
5, 8 and b in 1, 2, 4 (a fresh name is never wrong). Prints the counts: known, open, wrong.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import warnings

import numpy as np
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shape_logic import solve  # noqa: E402
from shape_logic.symbolic.expr import Expr  # noqa: E402

BIG = np.iinfo(np.int64).max
SIZES = [(t, b) for t in (1, 2, 3, 5, 8) for b in (1, 2, 4)]


def _const(name, value, dtype):
    return numpy_helper.from_array(np.asarray(value, dtype), name)


def _compare(cmp: str, a: str, b: str, out: str):
    """a cmp b, written the other way round for Greater and GreaterOrEqual."""
    if cmp in ("Less", "LessOrEqual"):
        return helper.make_node(cmp, [a, b], [out])
    return helper.make_node(cmp, [b, a], [out])


def random_model(r: random.Random):
    """(model, its description)."""
    d = dict(start=r.choice([-2, 0, 1, 3, "b"]), step=r.choice([1, 1, 1, 2, -1]),
             cmp=r.choice(["Less", "Greater", "LessOrEqual", "GreaterOrEqual"]),
             off=r.choice([0, 0, 1, -1, 4]), trip=r.choice(["T", "big", "c3", "c7", ""]),
             extra=r.choice([None, "i<T", "i<2", "i<=T"]), float=r.choice([True, False]),
             next=r.choice([True, False]))
    dt = TP.FLOAT if d["float"] else TP.INT64
    body = [helper.make_node("Add", ["t", "step"], ["t2"]),
            helper.make_node("Cast", ["t2" if d["next"] else "t"], ["tl"], to=dt),
            helper.make_node("Add", ["Tb", "off"], ["Tb2"]),
            helper.make_node("Cast", ["Tb2"], ["Tbl"], to=dt),
            _compare(d["cmp"], "tl", "Tbl", "cb")]
    if d["extra"]:
        body += [helper.make_node("Cast", ["i"], ["il"], to=dt),
                 helper.make_node("Cast", ["Tbl" if "T" in d["extra"] else "two"], ["lim"],
                                  to=dt),
                 _compare("LessOrEqual" if "<=" in d["extra"] else "Less", "il", "lim", "ca"),
                 helper.make_node("And", ["ca", "cb"], ["c2"])]
    else:
        body.append(helper.make_node("Identity", ["cb"], ["c2"]))
    body.append(helper.make_node("Unsqueeze", ["t", "zero"], ["trow"]))
    body_graph = helper.make_graph(
        body, "body",
        [helper.make_tensor_value_info("i", TP.INT64, []),
         helper.make_tensor_value_info("c", TP.BOOL, []),
         helper.make_tensor_value_info("t", TP.INT32, []),
         helper.make_tensor_value_info("Tb", TP.INT32, [])],
        [helper.make_empty_tensor_value_info(o) for o in ["c2", "t2", "Tb", "trow"]],
        [_const("step", d["step"], np.int32), _const("zero", [0], np.int64),
         _const("off", d["off"], np.int32), _const("two", 2, np.int32)])
    nodes = [helper.make_node("Shape", ["x"], ["xs"]),
             helper.make_node("Gather", ["xs", "zi"], ["T"]),
             helper.make_node("Cast", ["T"], ["T32"], to=TP.INT32),
             helper.make_node("Gather", ["xs", "oi"], ["b"]),
             helper.make_node("Cast", ["b"], ["b32"], to=TP.INT32),
             helper.make_node("Add", ["T32", "off"], ["T2"]),
             helper.make_node("Cast", ["T2"], ["T2l"], to=dt),
             helper.make_node("Cast", ["t0"], ["t0l"], to=dt),
             _compare(d["cmp"], "t0l", "T2l", "go")]
    inits = [_const("zi", 0, np.int64), _const("oi", 1, np.int64),
             _const("off", d["off"], np.int32), _const("big", BIG, np.int64),
             _const("c3", 3, np.int64), _const("c7", 7, np.int64)]
    if d["start"] == "b":
        nodes.append(helper.make_node("Identity", ["b32"], ["t0"]))
    else:
        inits.append(_const("t0", d["start"], np.int32))
    nodes.append(helper.make_node("Loop", [d["trip"], "go", "t0", "T32"],
                                  ["t_end", "T_end", "ts"], body=body_graph))
    graph = helper.make_graph(
        nodes, "while", [helper.make_tensor_value_info("x", TP.FLOAT, ["T", "b", 4])],
        [helper.make_empty_tensor_value_info("ts")], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), d


def check(model, verbose: bool = False) -> str:
    """"known", "open" or "wrong" (printed)."""
    import onnxruntime as ort

    sol = solve(model)
    dims = sol.dims("ts")
    if verbose:
        print(sol.shape("ts"))
    if dims is None or not dims[0].symbols() <= {"T", "b"}:
        return "open"
    so = ort.SessionOptions()
    so.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), so,
                                   providers=["CPUExecutionProvider"])
    for t, b in SIZES:
        got = session.run(["ts"], {"x": np.zeros((t, b, 4), np.float32)})[0].shape[0]
        want = dims[0].subs({"T": Expr.const(t), "b": Expr.const(b)}).value
        if got != want:
            print(f"WRONG: {sol.shape('ts')} at T = {t}, b = {b}: onnxruntime's {got}")
            return "wrong"
    return "known"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", action="store_true", help="print each graph and its count")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    r = random.Random(args.seed)
    counts = {"known": 0, "open": 0, "wrong": 0}
    for _ in range(args.graphs):
        model, desc = random_model(r)
        if args.v:
            print(desc, end=" ")
        outcome = check(model, args.v)
        if outcome == "wrong":
            print("  ", desc)
        counts[outcome] += 1
    print(counts)
    sys.exit(1 if counts["wrong"] else 0)


if __name__ == "__main__":
    main()
