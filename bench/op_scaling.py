"""Grounding that grows faster than the graph: each operator's rules on many copies of a node.

    python bench/op_scaling.py [--small 8] [--large 32] [--ratio 8] [--ints] [OP ...]

For each of onnx's node test cases we support (one node, no subgraph; small integer inputs
made constants, as the conformance check does: conformance.shape_model), the model is
copied `small` and `large` times side by side (every tensor renamed per copy) and each is
solved without explaining errors (once to warm up, then the best of 3). The copies share
nothing, so the time should grow with their number; a case whose time grows more than
`ratio` times while the copies grow large/small times (4x by default) is printed. Such a
rule joins atoms of other copies before it finds its own: gringo matched `transpose_at(N,
I, K, J)` by the element index I alone for each new element of any Transpose (I is the
same few numbers in every copy), and 104 Reshape -> Transpose pairs took 44 s to ground
(MobileNetV2's padding: 50 s a solve). Keying the recursive atom by the tensor whose
elements arrive (`transpose_at(X, N, ...)`) made it linear: 0.1 s. Rules over values run
only where values are known: --ints also makes every float input of at most 64 elements an
int64 constant (its data rounded; an operator that takes no integers then solves to an
error, timed all the same), computed by a Reshape of a constant.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def copied(model, k: int):
    """`model` (one graph, no subgraphs) with its nodes, inputs, initializers and outputs
    repeated k times, every name suffixed by the copy's number."""
    from onnx import helper

    g = model.graph
    nodes, inputs, inits, outputs = [], [], [], []
    for c in range(k):
        def name(t: str) -> str:
            return f"{t}_{c}" if t else t
        for n in g.node:
            m = helper.make_node(n.op_type, [name(t) for t in n.input],
                                 [name(t) for t in n.output], name=name(n.name or "n"),
                                 domain=n.domain)
            m.attribute.extend(n.attribute)
            nodes.append(m)
        for protos, into in ((g.input, inputs), (g.initializer, inits), (g.output, outputs)):
            for proto in protos:
                renamed = type(proto)()
                renamed.CopyFrom(proto)
                renamed.name = name(proto.name)
                into.append(renamed)
    graph = helper.make_graph(nodes, "copies", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=model.opset_import)


def as_ints(model):
    """`model` with its float inputs of at most 64 elements made int64 initializers."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    g = model.graph
    for vi in list(g.input):
        t = vi.type.tensor_type
        dims = [d.dim_value for d in t.shape.dim]
        if t.elem_type != TensorProto.FLOAT or any(d <= 0 for d in dims) or \
                int(np.prod(dims)) > 64:
            continue
        data = np.random.default_rng(len(dims)).integers(-3, 4, dims).astype(np.int64)
        # (flat, through a Reshape: values and dims derived while grounding, not facts,
        # as a shape computation's are - a rule's join order then matters for its new atoms)
        g.initializer.append(numpy_helper.from_array(data.reshape(-1), vi.name + "/data"))
        g.initializer.append(numpy_helper.from_array(np.array(dims, np.int64),
                                                     vi.name + "/shape"))
        g.node.insert(0, helper.make_node("Reshape", [vi.name + "/data", vi.name + "/shape"],
                                          [vi.name]))
        g.input.remove(vi)
    return model


def best_time(model) -> float:
    from shape_logic import solve

    solve(model, explain=False)
    times = []
    for _ in range(3):
        t = time.perf_counter()
        solve(model, explain=False)  # (explaining k errors is k cores: not this measure)
        times.append(time.perf_counter() - t)
    return min(times)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ops", nargs="*", help="only the cases of these operators")
    p.add_argument("--small", type=int, default=8)
    p.add_argument("--large", type=int, default=32)
    p.add_argument("--ratio", type=float, default=8.0, help="report growth above this")
    p.add_argument("--ints", action="store_true", help="small float inputs as int64 values")
    args = p.parse_args(argv)
    from shape_logic.conformance import main_op, shape_model, supported_cases

    found = tried = 0
    for case in supported_cases(set(args.ops) if args.ops else None):
        nodes = case.model.graph.node
        if len(nodes) != 1 or any(a.type in (5, 10) for a in nodes[0].attribute):
            continue  # (a subgraph attribute: its names would need renaming too)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model = shape_model(case)
                if args.ints:
                    model = as_ints(model)
                small = best_time(copied(model, args.small))
                large = best_time(copied(model, args.large))
            except Exception as e:  # a case that does not solve is conformance's to report
                print(f"{case.name}: {type(e).__name__}: {e}", file=sys.stderr)
                continue
        tried += 1
        growth = large / max(small, 1e-9)
        if growth > args.ratio and large > 0.05:
            found += 1
            print(f"{case.name:50s} {main_op(case):20s} {small * 1e3:8.1f} ms -> "
                  f"{large * 1e3:8.1f} ms  (x{growth:.1f} for x{args.large / args.small:g} "
                  "copies)", flush=True)
    print(f"{tried} cases, {found} grow faster than their copies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
