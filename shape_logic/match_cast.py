"""Checking runtime shapes against inferred symbolic shapes (TVM Relax's match_cast).

Every tensor's inferred shape is a tuple of dims, each an integer or an expression over
symbols.  A symbol is bound the first time a runtime shape shows its value (a dim that
is the symbol itself, or linear in one unbound symbol: `2*n + 1`); every later
occurrence must agree.  A mismatch raises `ShapeMismatch`, naming the tensor, the
expected symbolic shape, the actual shape, the axis and the bindings so far.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .graph import NUMPY_DTYPES
from .sequences import VARIES
from .symbolic.expr import Expr


class ExecutionError(Exception):
    """The graph cannot run on these inputs: a runtime shape mismatch, a kernel failure,
    or a shape error the solver finds for the inputs' shapes (CLI exit 1)."""


class ShapeMismatch(ExecutionError):
    """A tensor's runtime shape (or dtype) contradicts its inferred one."""


def format_dims(dims) -> str:
    return "[" + ", ".join(str(d) for d in dims) + "]"


def format_bindings(bindings: dict) -> str:
    if not bindings:
        return "none"
    return ", ".join(f"{k}={v}" for k, v in sorted(bindings.items()))


@dataclass
class Expected:
    """What one tensor must look like: dims (ints or Exprs; None: rank unknown), dtype."""

    dims: tuple | None
    dtype: np.dtype | None
    concrete: bool = False  # every dim an int: checking is a tuple comparison
    symbolic: tuple | None = None  # the solver's dims before the inputs bound them: messages
    length: Expr | None = None  # a sequence's: how many elements it has (None: not given)

    @staticmethod
    def of(dims, dtype_name: str | None, symbolic=None, length: Expr | None = None
           ) -> Expected:
        np_dtype = NUMPY_DTYPES.get(dtype_name) if dtype_name else None
        if dims is None:
            return Expected(None, np.dtype(np_dtype) if np_dtype else None, length=length)
        out = tuple(d.value if isinstance(d, Expr) and d.is_int else d for d in dims)
        concrete = all(isinstance(d, int) for d in out)
        if symbolic is not None and len(symbolic) != len(out):
            symbolic = None
        return Expected(out, np.dtype(np_dtype) if np_dtype else None, concrete, symbolic,
                        length)


@dataclass
class Binder:
    """The symbol bindings of one run, and the checks that make and use them."""

    bindings: dict = field(default_factory=dict)  # symbol -> int
    unchecked: list = field(default_factory=list)  # (tensor, axis, expr) left undecided

    def check(self, tensor: str, origin: str, exp: Expected, arr: np.ndarray):
        if arr is None:  # an empty optional: no element to check
            return
        if isinstance(arr, list):  # a sequence: each element has what all of them have
            # ... and it has as many as the solve says (binding a name the data decides)
            if exp.length is not None and self.unify(exp.length, len(arr)) is False:
                raise ShapeMismatch(f"sequence {tensor!r} ({origin}): runtime length "
                                    f"{len(arr)}, inferred {exp.length}")
            for k, element in enumerate(arr):
                self.check(f"{tensor}[{k}]", origin, exp, element)
            return
        if exp.dtype is not None and arr.dtype != exp.dtype and arr.dtype.kind not in "OUS":
            raise ShapeMismatch(f"tensor {tensor!r} ({origin}): runtime dtype {arr.dtype}, "
                                f"inferred {exp.dtype}")
        if exp.dims is None:
            return
        actual = arr.shape
        if exp.concrete:
            if actual != exp.dims:
                axis = next((i for i, (a, b) in enumerate(zip(actual, exp.dims)) if a != b),
                            None) if len(actual) == len(exp.dims) else None
                self.fail(tensor, origin, exp, actual, axis)
            return
        if len(actual) != len(exp.dims):
            self.fail(tensor, origin, exp, actual, None)
        pending = []
        for axis, (want, got) in enumerate(zip(exp.dims, actual)):
            if isinstance(want, int):
                if want != got:
                    self.fail(tensor, origin, exp, actual, axis)
            elif want == VARIES:  # (a sequence's axis its elements need not share)
                continue
            else:
                ok = self.unify(want, got)
                if ok is False:
                    self.fail(tensor, origin, exp, actual, axis)
                if ok is None:
                    pending.append(axis)
        for axis in pending:  # a second pass: earlier axes may have bound a symbol
            if self.unify(exp.dims[axis], actual[axis]) is False:
                self.fail(tensor, origin, exp, actual, axis)
        for axis in pending:
            value = self.value(exp.dims[axis])
            if value is None:
                self.unchecked.append((tensor, axis, str(exp.dims[axis])))
            elif value != actual[axis]:
                self.fail(tensor, origin, exp, actual, axis)

    def value(self, e: Expr) -> int | None:
        """e's value under the bindings, or None if some symbol is unbound."""
        if not e.symbols() <= self.bindings.keys():
            return None
        v = e.subs({s: Expr.const(self.bindings[s]) for s in e.symbols()})
        return v.value if v.is_int else None

    def unify(self, e: Expr, got: int) -> bool | None:
        """True if e equals got (binding a symbol if needed), False if it cannot,
        None if it cannot be decided yet (two or more unbound symbols, or non-linear)."""
        v = self.value(e)
        if v is not None:
            return v == got
        known = {s: Expr.const(self.bindings[s]) for s in e.symbols() if s in self.bindings}
        rest = e.subs(known) if known else e
        free = rest.symbols()
        if len(free) != 1:
            return None
        (s,) = free
        # linear in s: rest = c*s + k with s a plain atom
        k = rest.constant_term()
        lin = rest - k
        coeff = None
        if len(lin.terms) == 1:
            mono, c = lin.terms[0]
            if len(mono) == 1 and mono[0][1] == 1 and mono[0][0].kind == "sym":
                coeff = c
        if coeff is None:
            return None
        if (got - k) % coeff or (got - k) // coeff < 0:
            return False
        self.bindings[s] = (got - k) // coeff
        return True

    def fail(self, tensor, origin, exp: Expected, actual, axis):
        """Raise the mismatch: the solver's symbolic shape, its value under the bindings
        (when they differ), the runtime shape, the axis, and the bindings so far."""
        want = exp.dims
        shown = exp.symbolic or want
        text = format_dims(shown)
        if [str(d) for d in shown] != [str(d) for d in want]:
            text += f" = {format_dims(want)}"
        where = ""
        if axis is not None:
            sym, val = shown[axis], want[axis]
            if isinstance(val, Expr):
                v = self.value(val)
                val = val if v is None else v
            where = f"; axis {axis} is {actual[axis]}, expected " + (
                f"{sym}" if str(sym) == str(val) else f"{sym} = {val}")
        elif len(want) != len(actual):
            where = f"; rank {len(actual)}, expected {len(want)}"
        # symbols stand for sizes >= 1 (the solver's max(m, n) is a broadcast only then)
        zero = sorted(s for s, v in self.bindings.items() if v == 0)
        note = (f"; {', '.join(zero)} {'is' if len(zero) == 1 else 'are'} 0 here, and the "
                "inferred shapes take every symbol as a size >= 1") if zero else ""
        raise ShapeMismatch(
            f"tensor {tensor!r} ({origin}): runtime shape {format_dims(actual)} does not "
            f"match the inferred shape {text}{where} "
            f"(bindings: {format_bindings(self.bindings)}){note}")
