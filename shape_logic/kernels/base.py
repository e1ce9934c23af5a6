"""The plumbing every kernel shares (after onnx's reference `OpRun`).

A kernel class declares its attributes with their defaults and how many inputs
it takes; `run` receives the inputs (None for an absent optional one) and the
attributes as keyword arguments, and returns one array or a tuple of them.
The base class checks the arity, fills in defaults, rejects unknown attributes,
and coerces the results to arrays.  Messages start with the operator's name.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..graph import NUMPY_DTYPES, SMALL_FLOAT_DTYPES

REQUIRED = object()  # an attribute default meaning "the node must give it"
# floats NumPy lacks (bfloat16, float8, float4): NumPy's routines (einsum, matmul...) do
# not take them, so kernels get them as float32 and their float32 results are rounded
# back, once per node, as runtimes that widen these types do.
SMALL_FLOATS = frozenset(np.dtype(NUMPY_DTYPES[d]) for d in SMALL_FLOAT_DTYPES)


class Seq(list):
    """An ONNX sequence value: a list of arrays (the executor checks each element); an empty
    one may know its element type (`elem`: SequenceEmpty's dtype, what was erased)."""

    shape = None  # (no tensor's shape: the in-line check falls through to Binder.check)

    def __init__(self, items=(), elem=None):
        super().__init__(items)
        self.elem = None if elem is None else np.dtype(elem)

    @property
    def dtype(self):
        return self[0].dtype if self else self.elem


class KernelError(ValueError):
    """A kernel rejects its inputs or attributes (the message names the op and the values)."""


class Kernel:
    attrs: dict[str, Any] = {}  # attribute name -> default (REQUIRED: must be given)
    legacy: tuple[str, ...] = ()  # attributes of old opsets that are accepted and ignored
    n_inputs: tuple[int, int | None] = (1, 1)  # min and max number of inputs (None: any)
    # inputs below the minimum that a node may leave absent (""): a contrib op's optional
    # input before required ones (EmbedLayerNormalization's segment ids, before its
    # embeddings), or that may be an empty optional; `run` gets None for them
    optional_inputs: frozenset = frozenset()
    widens_small_floats = True  # False: the kernel takes SMALL_FLOATS as they are
    # which input's small float type the float32 results take back (None: any input's;
    # Pow says 0: its result has the base's type, whatever the exponent's)
    small_float_from: int | None = None
    # which outputs take that small float type back (None: every float32 one; a kernel
    # whose other outputs are float32 by definition names the ones that are not)
    small_float_outputs: tuple[int, ...] | None = None
    # the operator domains a node may name to run this kernel ("" is ONNX's; contrib
    # kernels say "com.microsoft", and both where the two domains share the name)
    domains: tuple[str, ...] = ("",)
    # domain -> the kernel class that runs a node of this operator in that domain, where it
    # is another (ONNX's Conv hands com.microsoft.nchwc's to kernels/nchwc_ops.py)
    variants: dict[str, type] = {}

    def __new__(cls, attrs: dict | None = None, opset: int = 18, n_outputs: int = 1,
                domain: str = ""):
        variant = cls.variants.get(domain)
        if variant is not None and variant is not cls:
            return variant(attrs, opset=opset, n_outputs=n_outputs, domain=domain)
        return super().__new__(cls)

    def __init__(self, attrs: dict | None = None, opset: int = 18, n_outputs: int = 1,
                 domain: str = ""):
        attrs = dict(attrs or {})
        self.op = type(self).__name__
        self.opset = opset
        self.n_outputs = n_outputs
        self.domain = "" if domain == "ai.onnx" else domain
        unknown = sorted(set(attrs) - set(self.attrs) - set(self.legacy))
        if unknown:
            raise KernelError(f"{self.op}: unknown attribute(s) {', '.join(unknown)} "
                              f"(known: {', '.join(sorted(self.attrs)) or 'none'})")
        kw = {}
        for name, default in self.attrs.items():
            if name in attrs:
                kw[name] = attrs[name]
            elif default is REQUIRED:
                raise KernelError(f"{self.op}: attribute {name!r} is required")
            else:
                kw[name] = default
        self.kw = kw
        self.setup(**kw)

    def setup(self, **attrs) -> None:
        """Check or precompute from the attributes once (optional)."""

    def run(self, *inputs, **attrs):
        raise NotImplementedError(f"{self.op}: no run method")

    def __call__(self, *inputs) -> tuple[np.ndarray, ...]:
        args = list(inputs)
        # trailing absent optional inputs (an empty optional value, None, stays where the
        # kernel takes one: Identity's, OptionalHasElement's)
        while args and args[-1] is None and len(args) - 1 not in self.optional_inputs:
            args.pop()
        lo, hi = self.n_inputs
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = f"{lo}" if lo == hi else f"{lo} to {hi if hi is not None else 'any'}"
            raise KernelError(f"{self.op}: takes {want} inputs, got {len(args)}")
        for k in range(lo):
            if args[k] is None and k not in self.optional_inputs:
                raise KernelError(f"{self.op}: input {k} is required")
        small = None
        if self.widens_small_floats:
            for k, a in enumerate(args):
                # (NumPy's own dtypes are built in: one attribute read, not a set lookup)
                dt = getattr(a, "dtype", None)
                if dt is not None and dt.isbuiltin != 1 and dt in SMALL_FLOATS:
                    if self.small_float_from in (None, k):
                        small = dt
                    args[k] = a.astype(np.float32)
        result = self.run(*args, **self.kw)
        if type(result) is np.ndarray and self.n_outputs == 1:  # the common case, fast
            outs = (result,)
        else:
            outs = result if isinstance(result, tuple) else (result,)
            if len(outs) < self.n_outputs:
                raise KernelError(f"{self.op}: gives {len(outs)} outputs, the node asks for "
                                  f"{self.n_outputs}")
            outs = tuple(o if type(o) is Seq or o is None else np.asarray(o)
                         for o in outs[: self.n_outputs])
        if small is not None:
            back = self.small_float_outputs
            outs = tuple(o.astype(small) if getattr(o, "dtype", None) == np.float32
                         and (back is None or k in back) else o for k, o in enumerate(outs))
        return outs

    def fail(self, message: str) -> KernelError:
        return KernelError(f"{self.op}: {message}")

    # ----- helpers for inputs that carry attributes (axes, shapes, scalars)
    @staticmethod
    def ints(a) -> list[int] | None:
        """A 0-D or 1-D integer tensor (or list) as a list of Python ints; None stays None."""
        if a is None:
            return None
        return [int(v) for v in np.asarray(a).reshape(-1)]

    @staticmethod
    def scalar(a):
        """A tensor of one element as a Python number."""
        return np.asarray(a).reshape(-1)[0].item()

    def axis(self, axis: int, rank: int) -> int:
        """`axis` in [-rank, rank) made non-negative."""
        if not -rank <= axis < rank:
            raise self.fail(f"axis {axis} is out of range for rank {rank}")
        return axis + rank if axis < 0 else axis

    def indices(self, indices, n: int, axis: int) -> np.ndarray:
        """Indices into an axis of size n, each in [-n, n), made non-negative (int64)."""
        idx = np.asarray(indices).astype(np.int64)
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise self.fail(f"indices in [{idx.min()}, {idx.max()}] are out of range for "
                            f"axis {axis} of size {n}")
        return np.where(idx < 0, idx + n, idx)
