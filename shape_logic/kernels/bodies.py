"""Subgraph bodies (Scan, Loop, If) run on this package's executor.

A body may use tensors of the graph around it (ONNX's outer scope): those free
names become extra inputs of the body's program, and the executor hands their
values to the kernel (`outer_names`, `outer_values`) before calling it."""
from __future__ import annotations

from ..subgraphs import free_names


class Body:
    """A body graph object as a program: call it with its inputs in order, and the values
    of the outer tensors it uses."""

    def __init__(self, kernel, body):
        from ..calls import decls_of, names_of
        from ..errors import InputError
        from ..executor import Program

        if not isinstance(body, dict) or not isinstance(body.get("nodes"), list):
            raise kernel.fail("a body must be a graph object (or a function's name)")
        self.outer = free_names(body)
        inputs = {n: dict(d or {}) for n, d in decls_of(body.get("inputs", [])).items()}
        # (any of them may be an empty optional, None: a Loop's carried one, one around it)
        g = {"opset": kernel.opset,
             "inputs": {n: {**d, "optional": True}
                        for n, d in {**inputs, **{n: {} for n in self.outer}}.items()},
             "outputs": {n: {} for n in decls_of(body.get("outputs", []))},
             "nodes": body["nodes"], "initializers": body.get("initializers") or {}}
        # a value the body lists twice is two outputs (ONNX; onnx.reference returns both)
        self.params, self.results = list(inputs), names_of(body.get("outputs", []))
        self.declared = inputs
        try:
            self.program = Program(g, check=False)
        except InputError as e:
            raise kernel.fail(f"cannot run the body ({e.reason})") from None

    def declared_rank(self, k: int) -> int:
        """The rank the body declares its k-th input of (0 where it declares none: the
        iteration number's default)."""
        from ..shapes import shape_from_json
        from ..symbolic.expr import Expr

        shape = self.declared[self.params[k]].get("shape") if k < len(self.params) else None
        if shape is None:
            return 0
        return shape_from_json(shape, fresh=lambda: Expr.const(1)).rank or 0

    def __call__(self, *args, outer: dict | None = None) -> list:
        feeds = dict(zip(self.params, args))
        outer = outer or {}
        missing = [n for n in self.outer if n not in outer]
        if missing:
            raise ValueError(f"the body uses {', '.join(missing)} of the graph around it, "
                             "which is not available here")
        feeds.update((n, outer[n]) for n in self.outer)
        r = self.program.run(feeds)
        out: list = []
        for name in self.results:  # a second listing is a copy: outputs never alias
            v = r[name]
            out.append(v.copy() if any(o is v for o in out) else v)
        return out
