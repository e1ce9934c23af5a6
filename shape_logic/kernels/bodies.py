"""Subgraph bodies (Scan, Loop, If) run on this package's executor.

A body must be self-contained: the executor gives a kernel only its node's inputs,
not the tensors of the enclosing graph."""
from __future__ import annotations


class Body:
    """A body graph object as a program: call it with its inputs, in order."""

    def __init__(self, kernel, body):
        from ..calls import decls_of
        from ..errors import InputError
        from ..executor import Program

        if not isinstance(body, dict) or not isinstance(body.get("nodes"), list):
            raise kernel.fail("a body must be a graph object (or a function's name)")
        g = {"inputs": {n: dict(d or {}) for n, d in decls_of(body.get("inputs", [])).items()},
             "outputs": {n: {} for n in decls_of(body.get("outputs", []))},
             "nodes": body["nodes"], "initializers": body.get("initializers") or {}}
        self.params, self.results = list(g["inputs"]), list(g["outputs"])
        try:
            self.program = Program(g, check=False)
        except InputError as e:
            raise kernel.fail(f"cannot run the body ({e.reason}); a body must define every "
                              "tensor it uses") from None

    def __call__(self, *args) -> list:
        r = self.program.run(dict(zip(self.params, args)))
        return [r[name] for name in self.results]
