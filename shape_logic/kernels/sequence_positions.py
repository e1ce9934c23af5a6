"""Positions in a sequence (SequenceAt, SequenceInsert, SequenceErase): negative ones count
from the end."""


def position(kernel, pos, length: int, past_end: bool = False) -> int:
    """`pos` (a scalar tensor) as an index from 0; `past_end`: `length` itself is valid
    (an insertion at the end)."""
    p = int(kernel.scalar(pos))
    hi = length if past_end else length - 1
    if not -length <= p <= hi:
        raise kernel.fail(f"position {p} is out of range for a sequence of {length}")
    return p + length if p < 0 else p
