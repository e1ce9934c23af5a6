"""Many clingo symbols as text, fast.

Reading a large answer set is dominated by the calls into clingo per atom: a
symbol's text costs two calls (its size, then the text) plus a fresh buffer each
time. Here one buffer serves every symbol. This uses clingo's cffi layer, which
is private: if it is not there (another clingo), we fall back on `str`.
"""
from __future__ import annotations

from typing import Iterable

import clingo

try:  # clingo 5.x's cffi bindings
    from clingo._internal import _ffi, _lib
except ImportError:  # pragma: no cover - another clingo build
    _ffi = _lib = None


def symbol_texts(symbols: Iterable[clingo.Symbol]) -> list[str]:
    """The text of each symbol, as `str(symbol)` gives it. A model's symbols
    (`Model.symbols`) are read from their array, without making a Symbol of each."""
    if _lib is None:
        return [str(s) for s in symbols]
    reps = getattr(symbols, "_p_symbols", None)  # clingo's lazy sequence of a model's symbols
    if reps is None:
        symbols = list(symbols)
        reps = [s._rep for s in symbols]
    size_of, write, text_of = _lib.clingo_symbol_to_string_size, _lib.clingo_symbol_to_string, \
        _ffi.string
    size = _ffi.new("size_t*")
    capacity = 4096
    buffer = _ffi.new("char[]", capacity)
    out = []
    append = out.append
    for rep in reps:
        if not size_of(rep, size):
            return [str(s) for s in symbols]  # clingo reports an error: let str raise it
        n = size[0]
        if n > capacity:
            capacity = 2 * n
            buffer = _ffi.new("char[]", capacity)
        write(rep, buffer, n)
        append(text_of(buffer).decode())
    return out
