"""Inferred shapes held against onnxruntime's runs: each dim the solve states, evaluated at
the sizes of a run, must be the size onnxruntime gives there (a fresh name: no claim)."""
import numpy as np
import onnxruntime as ort

from shape_logic import solve
from shape_logic.symbolic.expr import Expr


def checked_at_runs(model, runs, output="y"):
    """The Solution of `model`, its `output`'s dims checked against onnxruntime at each run
    of `runs`: (symbol -> size, feeds)."""
    sol = solve(model)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    dims = sol.dims(output)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [o.name for o in model.graph.output]
    for sizes, feeds in runs:
        ran = sess.run(None, feeds)[names.index(output)].shape
        assert len(dims) == len(ran), (sol.shape(output), sizes, ran)
        for d, n in zip(dims, ran):
            at = d.subs({s: Expr.const(v) for s, v in sizes.items()})
            if at.is_int:
                assert at.value == n, (sol.shape(output), sizes, feeds.keys(), ran)
    return sol


def x_runs(sizes=((5, 3), (2, 7)), lead=0, **others):
    """Runs of an x of shape [s, t] (after `lead` axes of 1) at each (s, t) of `sizes`, with
    the feeds `others` beside it (name -> a list of values, one run each)."""
    out = []
    for s, t in sizes:
        x = np.zeros((1,) * lead + (s, t), np.float32)
        keys = list(others)
        for combo in (zip(*others.values()) if others else [()]):
            out.append(({"s": s, "t": t}, {"x": x, **dict(zip(keys, combo))}))
    return out
