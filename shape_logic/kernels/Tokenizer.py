"""Tokenizer (com.microsoft): each string of X [C] or [N, C] split on the separators (one
after another, each splitting every token the ones before left; [""]: one token per
character) or into the matches of tokenexp ("." one per character), tokens shorter than
mincharnum characters dropped; Y [..., D], D the most tokens of a string (plus 2 for the
marks \\x02 and \\x03 around each row's tokens, the pads after them), 0 where there are
none; an empty X gives [0] or [N, 0]. onnxruntime matches with RE2's leftmost-longest
rule, this kernel with Python's `re` (leftmost-first): patterns whose matches differ
between the two (alternatives that are prefixes of each other) may split otherwise."""
import re

import numpy as np

from .base import REQUIRED, Kernel
from .strings import strings

START, END = "\x02", "\x03"


def split_on(text, sep, least):
    """text split on the matches of sep (an empty match skips a character), the pieces of
    `least` characters or more."""
    out, start = [], 0
    while start <= len(text):
        m = sep.search(text, start)
        if m is None:
            break
        if m.start() - start >= least:
            out.append(text[start:m.start()])
        start = m.end() if m.end() > m.start() else m.start() + 1
    if len(text) - start >= least:
        out.append(text[start:])
    return out


def matches_of(text, exp, least):
    """The matches of exp in text of `least` characters or more (a shorter one skips a
    character)."""
    out, start = [], 0
    while start <= len(text):
        m = exp.search(text, start)
        if m is None:
            break
        if len(m.group()) >= least:
            out.append(m.group())
            start = m.end()
        else:
            start = m.start() + 1
    return out


class Tokenizer(Kernel):
    domains = ("com.microsoft",)
    attrs = {"mark": REQUIRED, "pad_value": REQUIRED, "mincharnum": REQUIRED,
             "separators": None, "tokenexp": None}

    def setup(self, mincharnum, separators, tokenexp, **_):
        if mincharnum < 1:
            raise self.fail(f"mincharnum must be positive, not {mincharnum}")
        if separators is None and not tokenexp:
            raise self.fail("needs separators or a non-empty tokenexp")
        if separators is not None and len(separators) == 0:
            raise self.fail("separators must not be empty")
        seps = None if separators is None else [_text(s) for s in separators]
        self.chars = seps == [""] or (seps is None and _text(tokenexp) == ".")
        if self.chars and mincharnum > 1:
            raise self.fail(f"mincharnum {mincharnum} is too big for char tokenization")
        try:
            self.seps = None if seps is None else [re.compile(s) for s in seps]
            self.exp = None if seps is not None else re.compile(_text(tokenexp))
        except re.error as e:
            raise self.fail(f"cannot compile its expression: {e}") from e

    def run(self, x, mark, pad_value, mincharnum, **_):
        x = strings(self, x)
        if x.ndim not in (1, 2):
            raise self.fail(f"X {list(x.shape)} must be [C] or [N, C]")
        if x.size == 0:
            return np.empty(x.shape[:-1] + (0,), object)
        rows = [self._tokens(s, mincharnum) for s in x.reshape(-1)]
        most = max(len(r) for r in rows)
        if most == 0:
            return np.empty(x.shape + (0,), object)
        marks = ([START], [END]) if mark else ([], [])
        width = most + 2 * bool(mark)
        y = np.empty((len(rows), width), object)
        for i, r in enumerate(rows):
            y[i] = marks[0] + r + marks[1] + [_text(pad_value)] * (most - len(r))
        return y.reshape(x.shape + (width,))

    def _tokens(self, s, least):
        if self.chars:
            return list(s)
        if self.seps is None:
            return matches_of(s, self.exp, least)
        row = [s]
        for sep in self.seps:
            row = [piece for text in row for piece in split_on(text, sep, least)]
        return row


def _text(v):
    return v.decode() if isinstance(v, bytes) else v
