"""Shape errors as data: a code, a message, the place, the colliding values, the core."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import clingo

from .answer_set import Atoms
from .asp.program import why_texts
from .graph import Graph
from .scopes import unscoped_name


@dataclass
class Diagnostic:
    code: str
    message: str
    tensor: str | None = None
    axis: int | None = None
    values: list = field(default_factory=list)
    core: list = field(default_factory=list)  # [{"kind": ..., "name": ...}]
    labels: list = field(default_factory=list)  # lines "name : shape   from ..."
    notes: list = field(default_factory=list)
    place: str | None = None
    context: int = 0  # core members not shown nor minimized (a conflict carried far)

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message, "tensor": self.tensor,
               "axis": self.axis, "values": [str(v) for v in self.values], "core": self.core,
               "notes": list(self.notes)}
        if self.context:
            out["core_minimal"] = False
            out["context"] = self.context
        return out

    def to_text(self, color: bool = False, core_shown_at: int | None = None) -> str:
        """rustc-style text; ANSI colors only when asked (the CLI asks on a terminal).
        `core_shown_at`: the number (from 1) of an error above whose core is this one's,
        named instead of listing the core again."""
        red, blue, bold, off = ("\033[1;31m", "\033[1;34m", "\033[1m", "\033[0m") if color \
            else ("", "", "", "")
        lines = [f"{red}error[{self.code}]{off}{bold}: {self.message}{off}"]
        if self.place:
            lines.append(f"  {blue}-->{off} {self.place}")
        for lab in self.labels:
            lines.append(f"   {blue}|{off}  {lab}")
        for note in self.notes:
            kind = "help" if note.startswith("help: ") else "note"
            text = note[len("help: "):] if kind == "help" else note
            lines.append(f"   {blue}={off} {bold}{kind}{off}: {text}")
        if self.core and core_shown_at is not None:
            lines.append(f"   {blue}={off} {bold}core{off}: the same {len(self.core)} members as "
                         f"error {core_shown_at}'s above")
        elif self.core:
            # (members of a core too long to shrink, between or beyond the shown ones,
            # and the sources of a neighbourhood's context tensors, upstream)
            more = f", and {self.context} further sources that carry these sizes (not " \
                "minimized)" if self.context else ""
            shown = [_core_text(c) for c in self.core]
            if len(shown) > TEXT_CORE_MOST:  # (a long minimal one: the JSON lists them all)
                shown[TEXT_CORE_HEAD:-TEXT_CORE_TAIL] = [
                    f"[{len(shown) - TEXT_CORE_HEAD - TEXT_CORE_TAIL} more]"]
            lines.append(f"   {blue}={off} {bold}core{off}: " + ", ".join(shown) + more)
        return "\n".join(lines)


# the text shows a core of more members by its first and last ones (220 Relus carrying a
# dim to the Squeeze that requires another, all of them in the minimal core)
TEXT_CORE_MOST, TEXT_CORE_HEAD, TEXT_CORE_TAIL = 40, 24, 8


def _core_text(c: dict) -> str:
    if "source" in c:
        return c["source"]
    return f'node "{c["name"]}"' if c["kind"] == "node" else f'{c["kind"]}s.{c["name"]}'


def diagnostics_from_conflicts(graph: Graph, atoms: Atoms, order=None) -> list[Diagnostic]:
    """One diagnostic per conflicting place (without cores; see explain.py for those), in
    the order `order(place)` gives (a sort key), else the solve's."""
    out: dict = {}
    conflicts = atoms.conflicts if order is None else \
        sorted(atoms.conflicts, key=lambda a: order(a.arguments[0]))
    # conflicts on real tensors first: a clash at a virtual tensor (batch(N, T)) shows on a
    # real one too, and that is the place to name
    real = [a for a in conflicts if not _virtual(a.arguments[0])]
    virtual = [a for a in conflicts if _virtual(a.arguments[0])]
    for atom in real + (virtual if not real else []):
        where, a, b = atom.arguments
        key = str(where)
        if key not in out or reason_order(where, a) < reason_order(where, out[key][1]):
            out[key] = (where, a, b)
    return [_describe(*found) for found in out.values()]


def reason_order(where: clingo.Symbol, why: clingo.Symbol) -> int:
    """Which of a node's reasons (at `where`, node(N)) is said: the least - one about a
    rank first, then the others, an axis out of range last. A node's rules work a rank
    back to its input (a Pad's 6 pads: rank 3; DepthToSpace: 4), and with the input's own
    rank beside it the reasons that read axes by position read them at either rank:
    "axes = 3 is out of range for rank 3" only repeats the reason for that rank, and a
    rank-3 input's axis 1 read as channels ("blocksize 2 squared does not divide its 2
    channels") misreads it."""
    if where.name != "node" or why.type != clingo.SymbolType.Function:
        return 1
    if why.name == "axis_out_of_range":
        return 2
    return 0 if "rank" in why.name else 1


def _virtual(where: clingo.Symbol) -> bool:
    return bool(where.arguments) and where.name in ("dim", "rank", "dtype", "value") \
        and where.arguments[0].type != clingo.SymbolType.String


def tensor_label(sym: clingo.Symbol) -> str:
    """A tensor's name, or a description of a virtual tensor of some rule."""
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Function and sym.name == "batch":
        return f"batch axes of {tensor_label(sym.arguments[1])}"
    if sym.type == clingo.SymbolType.Function and sym.name == "guard":  # scopes.py
        return f"{tensor_label(sym.arguments[1])} (as a subgraph reads it)"
    if sym.type == clingo.SymbolType.Function and sym.name == "acc":
        return f"broadcast of the inputs of node {plain_text(sym.arguments[0])}"
    return plain_text(sym)


def check_name(check: clingo.Symbol) -> str:
    """What an equal/2 check compares, plural: `block_count(N)` -> "block counts"."""
    if check.name == "numel":
        return "element counts"
    return check.name.replace("_", " ") + "s"


def _describe(where: clingo.Symbol, a: clingo.Symbol, b: clingo.Symbol) -> Diagnostic:
    kind = where.name
    args = where.arguments
    va, vb = plain_text(a), plain_text(b)
    if kind == "dim":
        t, i = tensor_label(args[0]), args[1].number
        if vb == "negative":
            return Diagnostic("E0003", f"axis {i} of `{t}` would be negative ({va})", t, i, [va])
        return Diagnostic("E0001", f"axis {i} of `{t}` has two sizes: {va} and {vb}", t, i,
                          [va, vb], notes=[f"{va} != {vb}"])
    if kind == "rank":
        t = tensor_label(args[0])
        if b.type == clingo.SymbolType.Function and b.name == "axis":
            return Diagnostic("E0002", f"`{t}` has rank {va} but axis {b.arguments[0]} is used",
                              t, None, [va])
        return Diagnostic("E0002", f"`{t}` has two ranks: {va} and {vb}", t, None, [va, vb],
                          notes=[f"rank {va} != rank {vb}"])
    if kind == "dtype":
        t = tensor_label(args[0])
        return Diagnostic("E0004", f"`{t}` has two dtypes: {va} and {vb}", t, None, [va, vb])
    if kind == "value":
        t, i = tensor_label(args[0]), args[1].number
        return Diagnostic("E0005", f"element {i} of `{t}` has two values: {va} and {vb}", t,
                          None, [va, vb])
    if kind == "equal":  # (every check names its node first: block_count(N), numel(N)...)
        check = args[0]
        node = check.arguments[0] if check.arguments else None
        who = f'node "{node.string}" ' if node is not None and \
            node.type == clingo.SymbolType.String else ""
        return Diagnostic("E0006", f"{who}needs equal {check_name(check)}: {va} and {vb}",
                          None, None, [va, vb], notes=[f"{va} != {vb}"])
    if kind == "label":
        t, i = tensor_label(args[0]), args[1].number
        return Diagnostic("E0009", f"axis {i} of `{t}` has two labels: {va} and {vb}", t, i,
                          [va, vb])
    if kind in ("symbol", "range"):
        s = args[0].string
        return Diagnostic("E0007", f"symbol `{s}` cannot be both {va} and {vb}", None, None,
                          [va, vb])
    if kind == "node":
        n = args[0].string
        return Diagnostic("E0008", f'node "{n}" is invalid: {why_text(plain_text(a))}', None,
                          None, [])
    return Diagnostic("E0000", f"inconsistent: {where} {va} {vb}")


def why_text(why: str) -> str:
    """A rule file's invalid(N, Why) term in words."""
    name, _, args = why.partition("(")
    parts = _arguments(args[:-1] if args.endswith(")") else args) if args else []
    if name == "axis_out_of_range" and len(parts) == 3:
        return f"{parts[0]} = {parts[1]} is out of range for rank {parts[2]}"
    if name in ("inputs", "outputs") and len(parts) >= 3:  # (arity and its likes)
        expected = parts[1] if parts[1] == parts[2] else f"{parts[1]} to {parts[2]}"
        noun = name[:-1] if expected == "1" else name
        return f"{'takes' if name == 'inputs' else 'gives'} {expected} {noun}, not {parts[0]}"
    if name == "inputs" and len(parts) == 2:
        return f"takes {parts[1]} input{'' if parts[1] == '1' else 's'}, not {parts[0]}"
    texts = why_texts()
    text = texts.get(f"{name}/{len(parts)}", texts.get(name))
    if text is not None:  # (a rule file's why_text: {1}, {2}... its arguments)
        try:
            return re.sub(r"\{(\d+)\}", lambda m: parts[int(m.group(1)) - 1], text)
        except IndexError:
            pass  # (a term with fewer arguments than the text names: said as it is)
    words = name.replace("_", " ")
    return f"{words} ({', '.join(parts)})" if parts else words


def _arguments(text: str) -> list[str]:
    """A term's arguments as printed, split at the commas outside brackets and quotes
    (`1, real(0.5)`: two)."""
    out, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        elif not quoted and ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    return out + [text[start:].strip()]


def plain_text(s: clingo.Symbol) -> str:
    if s.type == clingo.SymbolType.String:
        return s.string
    if s.type == clingo.SymbolType.Function and s.arguments:
        return f"{s.name}({', '.join(plain_text(x) for x in s.arguments)})"
    return str(s)


# a fresh name in a text: `_3`, or a scope's copy of one (`_i2__3`), not part of a longer name
_FRESH = re.compile(r"(?<![\w])_\w+")
# a name as the user wrote it: a tensor or node quoted in a message is left as it is
_QUOTED = re.compile(r"(`[^`]*`|\"[^\"]*\")")


def with_printed_names(diagnostics: list, rename: dict, count: int) -> list:
    """The diagnostics with the solver's fresh names as the solution prints them: the
    values of a conflict are the solver's terms, whose `_k` are numbered as the solver made
    them (an input's `?` is `_2` when an earlier `?` was bound away), while the shapes
    print them renumbered by first appearance (decode._renumber: `rename`, `count` fresh
    names printed). A name no shape prints gets the next number after those."""
    extra: dict = {}

    def printed(m: re.Match) -> str:
        name = m.group(0)
        if name in rename:
            return rename[name]
        base = unscoped_name(name)  # (a body's copy prints as the name it copies)
        if base in rename:
            return rename[base]
        if not re.fullmatch(r"_\d+", base):
            return base  # (not a fresh name: a copy of a user's name, a user's `_x`)
        return extra.setdefault(base, f"_{count + len(extra) + 1}")

    def text(t):
        if not isinstance(t, str) or "_" not in t:
            return t
        # quoted names stay as given; the fresh names are renamed around them
        return "".join(part if i % 2 else _FRESH.sub(printed, part)
                       for i, part in enumerate(_QUOTED.split(t)))

    return [replace(d, message=text(d.message), values=[text(v) for v in d.values],
                    notes=[text(n) for n in d.notes]) for d in diagnostics]
