"""`shape-logic run GRAPH --stream NAME:AXIS --chunk K`: feed one input in chunks and
print each output's new steps as they become available. Exit 1 when the graph cannot
stream along that axis (named before anything runs) or a kernel fails; 2 for a bad
--stream / --chunk or unreadable inputs."""
from __future__ import annotations

import sys

import numpy as np

from .errors import InputError


def parse_stream(text: str) -> tuple[str, int | None]:
    """NAME:AXIS, or a symbol (axis None) naming one input axis."""
    name, sep, axis = text.rpartition(":")
    if not sep and text.isidentifier():
        return text, None
    try:
        return name, int(axis)
    except ValueError:
        pass
    raise InputError(f"--stream {text!r}: expected NAME:AXIS (an input and an integer "
                     "axis) or a symbol of an input's shape")


def cmd_run_stream(args, feeds: dict) -> int:
    from .executor import ExecutionError
    from .stream_exec import Stream, StreamError, feed

    from .load import load_graph
    from .stream_exec import _symbol_axis

    name, axis = parse_stream(args.stream)
    graph = load_graph(args.graph)
    if axis is None:
        name, axis = _symbol_axis(graph, name)
    done: dict[str, int] = {}
    if name not in feeds:
        raise InputError(f"--stream {args.stream}: give the whole of {name!r} with --input")

    def show(index, new):
        for t, v in new.items():
            ax = stream.plan.axis[t]
            lo = done.get(t, 0)
            done[t] = lo + v.shape[ax]
            values = np.array2string(v, threshold=12, precision=4, separator=", ")
            print(f"[{index}] {t} steps {lo}:{done[t]} {list(v.shape)} {' '.join(values.split())}")
        sys.stdout.flush()

    try:
        stream = Stream(graph, name, axis, {k: v for k, v in feeds.items() if k != name})
        result = feed(stream, feeds[name], args.chunk, on_output=show)
    except (StreamError, ExecutionError) as e:
        print(f"shape-logic: {e}", file=sys.stderr)
        return 1
    for t, arr in result.items():
        print(f"{t}: {arr.dtype} {list(arr.shape)}")
    print(f"multiply-adds per chunk: {', '.join(map(str, result.macs[:8]))}"
          f"{' ...' if len(result.macs) > 8 else ''} (total {sum(result.macs)})")
    if args.output:
        from .cli import write_outputs

        write_outputs(result, args.output)
    return 0
