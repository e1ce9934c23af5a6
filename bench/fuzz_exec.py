"""Running a fuzzed graph by the kernels, and cutting it down, for bench/fuzz.py: every
tensor's value at other sizes of the input symbols, the graph with its symbols replaced
by values, and the ancestors of one tensor (a failing graph as a regression test keeps
it)."""
from __future__ import annotations

import json
import random

import numpy as np

from fuzz_graphs import Builder, TooLong, cpu_limit
from fuzz_values import value


# CPU seconds the kernels may take to run a graph at other sizes: a Loop whose body
# doubles its carried value ran 49 s at a trip count of 52 (--kind control --seed 83,
# graph 940) and the graph's budget ran out in the solve after it, reported as a timeout
# of the solver; past this the sizes are skipped, like sizes where a kernel fails
EXECUTE_SECONDS = 2.0


def execute(b: Builder, symbols: dict, seconds: float | None = None) -> dict | None:
    """Every tensor's value with the graph's inputs at the symbols' values (new random
    data; integers 0, valid indices, and booleans false), by the kernels as the Builder
    ran them; None if a kernel fails, or takes more than `seconds` of CPU time (checked
    by a timer signal between Python steps: a Loop's rounds)."""
    if seconds is None:
        return _execute(b, symbols)
    try:
        with cpu_limit(seconds):
            return _execute(b, symbols)
    except TooLong:
        return None


def _execute(b: Builder, symbols: dict) -> dict | None:
    from shape_logic.graph import NUMPY_DTYPES
    from shape_logic.kernels import load_kernel

    rng = np.random.default_rng(0)
    values = {t: b.values[t] for t in b.graph["initializers"]}
    for t, decl in b.graph["inputs"].items():
        shape, dtype = [symbols.get(d, d) for d in decl["shape"]], NUMPY_DTYPES[decl["dtype"]]
        values[t] = rng.standard_normal(shape).astype(dtype) if decl["dtype"] == "f32" \
            else np.zeros(shape, dtype)
    for node in b.graph["nodes"]:
        try:
            kernel = load_kernel(node["op"])(dict(node.get("attrs") or {}), opset=18,
                                             n_outputs=len(node["outputs"]))
            if getattr(kernel, "outer_names", None):
                kernel.outer_values = {t: values[t] for t in kernel.outer_names}
            outs = kernel(*[values[t] if t else None for t in node["inputs"]])
        except Exception:  # noqa: BLE001 - the graph does not run at these sizes
            return None
        for t, o in zip(node["outputs"], outs):
            if t:
                values[t] = value(o)
    return values


def other_symbols(b: Builder, attempt: int, salt: str = "") -> dict:
    """The input symbols at other values for a run at other sizes (random, 1 often),
    seeded by the graph, the attempt and `salt` (each check's own draw)."""
    rng = random.Random(f"{sorted(b.symbols.items())} {len(b.values)} {attempt}{salt}")
    return {s: rng.choice([1, 1, 2, 3, v, v + 1]) for s, v in b.symbols.items()}


def runs_at(b: Builder, symbols: dict) -> dict | None:
    """Every tensor's value at the symbols' values; None when the graph does not run there:
    a kernel fails or takes too long, or the rules reject those sizes (our kernels are
    lenient where ONNX is not: a Conv whose window exceeds its input gives an empty
    output, where onnxruntime fails)."""
    from shape_logic.solver import solve

    values = execute(b, symbols, seconds=EXECUTE_SECONDS)
    if values is None or solve(concrete(b, symbols), explain=False).status == "error":
        return None
    return values


def concrete(b: Builder, symbols: dict | None = None) -> dict:
    """The graph with every input symbol replaced by its true value (or by `symbols`')."""
    symbols = b.symbols if symbols is None else symbols
    g = json.loads(json.dumps(b.graph))
    for decl in g["inputs"].values():
        decl["shape"] = [symbols.get(d, d) for d in decl["shape"]]
    return g


def with_values(b: Builder) -> dict:
    """concrete(b) with its integer and bool inputs of at most 16 elements given their
    executed values (as initializers)."""
    g = concrete(b)
    for name, decl in list(g["inputs"].items()):
        a = np.asarray(b.values[name])
        if a.dtype.kind in "iub" and a.size <= 16:
            del g["inputs"][name]
            g["initializers"][name] = {"dtype": decl["dtype"], "shape": list(a.shape),
                                       "data": a.tolist()}
    return g


def shrink(b: Builder, tensor: str | list | None) -> dict:
    """The graph cut down to the ancestors of `tensor` (or of each of a list of tensors;
    the whole graph without one)."""
    g = json.loads(json.dumps(b.graph))
    if tensor is None:
        return g
    tensors = [tensor] if isinstance(tensor, str) else list(tensor)
    producer = {o: n for n in g["nodes"] for o in n["outputs"]}
    keep, todo = set(), list(tensors)
    while todo:
        t = todo.pop()
        n = producer.get(t)
        if n is not None and n["name"] not in keep:
            keep.add(n["name"])
            todo.extend(x for x in n["inputs"] if x)
            todo.extend(outer_reads(n))  # (a body sees the graph's tensors)
    g["nodes"] = [n for n in g["nodes"] if n["name"] in keep]
    used = {x for n in g["nodes"] for x in [*n["inputs"], *outer_reads(n)]} | set(tensors)
    g["inputs"] = {k: v for k, v in g["inputs"].items() if k in used}
    g["initializers"] = {k: v for k, v in g["initializers"].items() if k in used}
    return g


def outer_reads(node: dict) -> set[str]:
    """The tensors of the enclosing graphs that `node`'s bodies (If, Loop, Scan; nested
    ones too) read: not made in the body, nor its inputs."""
    found = set()
    for body in node.get("attrs", {}).values():
        if not isinstance(body, dict) or "nodes" not in body:
            continue
        own = {x if isinstance(x, str) else x.get("name") for x in body.get("inputs", [])}
        own |= {o for n in body["nodes"] for o in n["outputs"]}
        reads = {x for n in body["nodes"] for x in [*n["inputs"], *outer_reads(n)] if x}
        found |= {x for x in reads | set(body.get("outputs", [])) if x not in own}
    return found
