"""NumPy kernels, one module per ONNX operator, named exactly like the operator.

    from shape_logic.kernels import load_kernel
    kernel = load_kernel("Conv")(attrs, opset=18, n_outputs=1)
    (y,) = kernel(x, w, b)

`load_kernel(op)` imports `shape_logic.kernels.<op>` and returns its class `<op>`:
adding an operator means adding its file, nothing else (no registry list).
"""
from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

from .base import Kernel, KernelError

__all__ = ["Kernel", "KernelError", "available_kernels", "graph_kernel", "load_kernel",
           "node_kernel"]

_OP_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")


@cache
def load_kernel(op: str) -> type[Kernel]:
    """The kernel class of `op`; KernelError when there is none."""
    if not _OP_NAME.match(op):
        raise KernelError(f"{op}: not an operator name (no kernel)")
    try:
        module = importlib.import_module(f"{__name__}.{op}")
    except ModuleNotFoundError as e:
        if e.name == f"{__name__}.{op}":
            raise KernelError(f"{op}: no kernel (no file shape_logic/kernels/{op}.py)") from None
        raise
    cls = getattr(module, op, None)
    if not (isinstance(cls, type) and issubclass(cls, Kernel)):
        raise KernelError(f"{op}: shape_logic/kernels/{op}.py defines no Kernel class {op!r}")
    return cls


def node_kernel(op: str, domain: str, attrs: dict, opset: int, n_outputs: int) -> Kernel:
    """The kernel of a node of `op` in `domain` ("" or "ai.onnx" for ONNX's); KernelError
    when there is none for that domain (a contrib op of onnxruntime's runs when its kernel
    lists "com.microsoft" in `domains`)."""
    domain = "" if domain == "ai.onnx" else domain
    try:
        cls = load_kernel(op)
    except KernelError:
        if not domain:
            raise
        cls = None
    if cls is None or domain not in cls.domains:
        raise KernelError(f"{op} of domain {domain or 'ai.onnx'!r}: no kernel (kernels run "
                          f"{_domains_note(cls)})")
    return cls(attrs, opset=opset, n_outputs=n_outputs, domain=domain)


def graph_kernel(graph, node) -> Kernel:
    """The kernel of a node of `graph`; without one, an InputError (exit 2) naming the
    graph's file and the node's place."""
    from ..errors import InputError

    try:
        return node_kernel(node.op, node.domain, node.attrs, graph.opset, len(node.outputs))
    except KernelError as e:
        raise InputError(str(e), graph.path, node.place) from None


def _domains_note(cls) -> str:
    if cls is None:
        return "ONNX's operators and onnxruntime's com.microsoft ones we have files for"
    names = ", ".join(repr(d or "ai.onnx") for d in cls.domains)
    return f"{cls.__name__} for domain {names}"


def available_kernels() -> list[str]:
    """Every operator with a kernel file, sorted."""
    here = Path(__file__).parent
    return sorted(p.stem for p in here.glob("*.py") if _OP_NAME.match(p.stem))
