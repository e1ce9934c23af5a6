"""BitCast: the input's bytes read as another type of the same bit width (a NumPy view;
the 4- and 2-bit types, one element per byte in ml_dtypes, through their integer codes)."""
import numpy as np

from ..graph import dtype_of_array
from .base import Kernel
from .dtypes import numpy_dtype

# bit widths of the element types narrower than NumPy's smallest (ml_dtypes keeps one per
# byte, so a byte view would carry the unused bits)
NARROW_BITS = {"i4": 4, "u4": 4, "f4e2m1": 4, "i2": 2, "u2": 2}


class BitCast(Kernel):
    attrs = {"to": None}
    widens_small_floats = False

    def run(self, x, to):
        if to is None:
            raise self.fail("attribute 'to' is required")
        try:
            target = np.dtype(numpy_dtype(to, self.op))
        except ValueError as e:
            raise self.fail(str(e)) from None
        if x.dtype.kind in "US" or target.kind in "US":
            raise self.fail("strings have no bits to cast")
        source = dtype_of_array(x)
        target_name = dtype_of_array(np.empty(0, target))
        bits = (NARROW_BITS.get(source, x.dtype.itemsize * 8),
                NARROW_BITS.get(target_name, target.itemsize * 8))
        if bits[0] != bits[1]:
            raise self.fail(f"{source} ({bits[0]} bits) and {target_name} ({bits[1]} bits) "
                            "differ in width")
        if source in NARROW_BITS:  # the low bits of each byte, reread as the target's code
            mask = (1 << bits[0]) - 1
            codes = x.view(np.uint8) & mask
            return _from_codes(codes, target, bits[0])
        return x.view(target)


def _from_codes(codes, target, bits):
    """The narrow type `target` whose bit patterns are `codes` (uint8, low bits)."""
    if target.kind in "iu":  # two's complement for the signed ones
        values = codes.astype(np.int16)
        if target.kind == "i":
            values = np.where(values >= 1 << (bits - 1), values - (1 << bits), values)
        return values.astype(target)
    table = np.arange(1 << bits, dtype=np.uint8).view(target)  # every pattern, decoded
    return table[codes]
