"""Cast: x converted to the element type `to`. Floats to integers truncate; strings
are parsed as numbers and numbers printed as strings.

The small types NumPy lacks are ml_dtypes' (graph.NUMPY_DTYPES).  As in ONNX (and
onnx's reference, op_cast.py): a cast to one of the four float8 types with
`saturate` (the default) clamps to the type's finite range (±inf too; NaN stays NaN),
without it a value out of range becomes inf or NaN; float8e8m0 (a power of two) rounds
the exponent as `round_mode` says; the 4- and 2-bit integers take the plain conversion.
"""
import ml_dtypes
import numpy as np

from .base import REQUIRED, Kernel
from .dtypes import numpy_dtype

SATURATING = {np.dtype(t) for t in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e4m3fnuz,
                                     ml_dtypes.float8_e5m2, ml_dtypes.float8_e5m2fnuz)}
E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)


def cast(kernel: Kernel, x: np.ndarray, dtype: np.dtype, saturate: int = 1,
         round_mode: str = "up") -> np.ndarray:
    try:
        if dtype == np.object_:
            return np.array([str(v) for v in x.reshape(-1).tolist()],
                            dtype=object).reshape(x.shape) if x.size else x.astype(object)
        if x.dtype == np.object_:
            x = x.astype(np.float64) if dtype.kind != "b" else x.astype(dtype)
        with np.errstate(invalid="ignore", over="ignore"):
            if dtype in SATURATING and saturate:
                info = ml_dtypes.finfo(dtype)
                return np.clip(x, float(info.min), float(info.max)).astype(dtype)
            if dtype == E8M0:
                return to_e8m0(kernel, x, saturate, round_mode)
            return x.astype(dtype)
    except (ValueError, TypeError) as e:
        raise kernel.fail(f"cannot cast {x.dtype} to {dtype}: {e}") from None


def to_e8m0(kernel: Kernel, x: np.ndarray, saturate: int, round_mode: str) -> np.ndarray:
    """float8e8m0 holds 2**(e - 127), e in 0..254, and NaN (255): the float32 exponent
    byte, incremented when the mantissa is not zero ("up") or past half ("nearest":
    its guard bit and any bit below, or an odd exponent - ONNX's to_float8e8m0);
    the sign is dropped.  With `saturate` the largest exponent never rounds up to NaN."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    exponent = ((bits >> 23) & 0xFF).astype(np.uint16)
    special = exponent == 0xFF  # inf and NaN: NaN
    if round_mode == "up":
        up = (bits & 0x7FFFFF) > 0
    elif round_mode == "nearest":
        up = ((bits & 0x400000) > 0) & (((bits & 0x3FFFFF) > 0) | (exponent > 0))
    elif round_mode == "down":
        up = np.zeros(bits.shape, dtype=bool)
    else:
        raise kernel.fail(f"round_mode {round_mode!r} is not up, down or nearest")
    up &= ~special
    if saturate:
        up &= exponent != 0xFE
    out = np.where(special, 0xFF, exponent + up).astype(np.uint8)
    return out.view(E8M0)


class Cast(Kernel):
    attrs = {"to": REQUIRED, "saturate": 1, "round_mode": "up"}
    widens_small_floats = False  # it converts them itself

    def setup(self, to, **_):
        if isinstance(to, (str, bytes)):  # a type name ("FLOAT") before opset 6
            from onnx import TensorProto

            name = to.decode() if isinstance(to, bytes) else to
            try:
                to = TensorProto.DataType.Value(name)
            except ValueError:
                raise self.fail(f"to: {name!r} is not an element type") from None
        try:
            self.dtype = numpy_dtype(int(to), self.op)
        except ValueError as e:
            raise self.fail(str(e).split(": ", 1)[1]) from None

    def run(self, x, saturate, round_mode, **_):
        return cast(self, x, self.dtype, saturate, round_mode)
