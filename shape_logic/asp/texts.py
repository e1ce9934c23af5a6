"""Many clingo symbols as text, fast.

Reading a large answer set is dominated by the calls into clingo per atom. Here a
symbol costs one call: clingo writes its text into one large reused buffer (a text
that does not fit is refused; the buffer then grows to its size), and the texts are
joined and decoded once. This uses clingo's cffi layer, which is private: if it is not
there (another clingo), we fall back on `str`.
"""
from __future__ import annotations

from typing import Iterable

import clingo

try:  # clingo 5.x's cffi bindings
    from clingo._internal import _ffi, _lib
except ImportError:  # pragma: no cover - another clingo build
    _ffi = _lib = None

START = 4096  # bytes: the buffer's first size (the atoms read back are far shorter)


def symbols_text(symbols: Iterable[clingo.Symbol]) -> str:
    """The text of each symbol, as `str(symbol)` gives it, one per line. A model's
    symbols (`Model.symbols`) are read from their array, without making a Symbol of each."""
    if _lib is None:
        return "\n".join(str(s) for s in symbols)
    reps = getattr(symbols, "_p_symbols", None)  # clingo's lazy sequence of a model's symbols
    if reps is None:
        reps = [s._rep for s in symbols]
    write, text_of = _lib.clingo_symbol_to_string, _ffi.string
    capacity = START
    buffer = _ffi.new("char[]", capacity)
    out: list[bytes] = []
    append = out.append
    for rep in reps:
        if not write(rep, buffer, capacity):  # too long for the buffer (or an error)
            size = _ffi.new("size_t*")
            if not _lib.clingo_symbol_to_string_size(rep, size):
                raise RuntimeError(_ffi.string(_lib.clingo_error_message()).decode())
            capacity = max(2 * capacity, size[0])
            buffer = _ffi.new("char[]", capacity)
            if not write(rep, buffer, capacity):
                raise RuntimeError(_ffi.string(_lib.clingo_error_message()).decode())
        append(text_of(buffer))
    return b"\n".join(out).decode()
