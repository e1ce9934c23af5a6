"""The shown atoms of an answer set, read into sets by predicate (Atoms): dim, rank and
dtype in bulk from the model's text by regular expressions, every other atom one by one.
decode.py picks the printed shapes from them."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import clingo

from .asp.release import release
from .asp.terms import symbol_to_expr
from .asp.texts import symbols_text
from .scopes import is_scoped
from .symbolic.expr import Expr
from .void_classes import void_edge, void_join


@dataclass
class Atoms:
    """The shown atoms of the answer set, grouped by predicate."""

    rank: dict = field(default_factory=dict)  # T -> set of ranks
    dims: dict = field(default_factory=dict)  # (T, I) -> set of Expr
    dtype: dict = field(default_factory=dict)  # T -> set of dtype names
    binds: dict = field(default_factory=dict)  # symbol -> set of Expr
    ranges: dict = field(default_factory=dict)  # symbol -> set of (lo, hi)
    # symbol -> set of (hi, place): the node making the tensor bounds it by hi, or an
    # equation (range_from: a place as floor_from's)
    range_from: dict = field(default_factory=dict)
    # symbol -> set of (floor, place): what requires it (floor_from), a tensor whose node
    # does, or ("equation", E1, E2), an equation that could not be solved
    floor_from: dict = field(default_factory=dict)
    # [(A, B, tensor)]: the node making the tensor runs only where A <= B (requires_le)
    le_required: list = field(default_factory=list)
    unsolved: set = field(default_factory=set)  # (Expr, Expr)
    conflicts: list = field(default_factory=list)  # clingo symbols (Where, A, B)
    # those inside bodies that may not run, as (the body's operator, conflict): scopes.py
    scope_conflicts: list = field(default_factory=list)
    runs: set = field(default_factory=set)  # the scopes that surely run (scope_runs/1)
    # an If's optional output whose element one branch alone gives: Y -> [its output's term]
    elements: dict = field(default_factory=dict)
    # If nodes no branch of which can run: If -> branch -> conflicts (scopes.py)
    stuck_ifs: dict = field(default_factory=dict)
    void_edges: list = field(default_factory=list)  # ((T, I), (T, I))
    # broadcasts of axes without a value: ((Y, I), (A, IA), (B, IB)), Y's axis equal to
    # the inputs' where those are equal (voids.lp)
    void_joins: list = field(default_factory=list)
    # when set, gives the void edges on demand (the solve grounds voids.lp only then)
    void_loader: Any = None
    # when set, gives the elements' values the grounding holds (grounded_values), which
    # the answer does not show: the context of a neighbourhood (diagnose.py)
    value_loader: Any = None
    min_rank: dict = field(default_factory=dict)  # T (a tensor or a virtual one) -> max K
    same_rows: list = field(default_factory=list)  # (A, JA, B, JB): rows.lp
    labels: dict = field(default_factory=dict)  # (T, I) -> set of axis labels (labels.lp)
    data_bounds: dict = field(default_factory=dict)  # (T, I) -> set of upper bounds (Expr)
    unsized: set = field(default_factory=set)  # (T, I): axes the rules may leave open
    # node -> the numbers of its inputs whose values its outputs' sizes are read from
    sizes_from: dict = field(default_factory=dict)
    nonempty: set = field(default_factory=set)  # (T, I): axes >= 1 wherever the graph runs
    open_ranks: set = field(default_factory=set)  # T: ranks the inputs' sizes decide
    value_open: set = field(default_factory=set)  # T: elements value rules could not compute
    counted: set = field(default_factory=set)  # (T, I): data_dependent counts the rules count
    # (X, J): elements of graph inputs read as sizes, names of their own (counts.lp)
    size_values: set = field(default_factory=set)
    void_names: dict = field(default_factory=dict)  # (T, I) -> its names without a value
    seqs: dict = field(default_factory=dict)  # sequence -> set of lengths (sequences.lp)
    opts: dict = field(default_factory=dict)  # optional -> {"opt", "opt_some", "opt_none"}
    floors: dict = field(default_factory=dict)  # symbol -> its greatest floor (floors.lp)
    ceilings: dict = field(default_factory=dict)  # symbol -> its least ceiling (conditions.lp)
    # a dim value -> the integers N > 1 (and symbolic values that cannot be 1) it is 1
    # or N against (broadcast.lp's one_or/2)
    one_or: dict = field(default_factory=dict)
    # the floors (and ceilings) the graph requires under which alone it conflicts
    # (floor_rounds.py): explaining takes them too
    under_bounds: dict = field(default_factory=dict)
    passes_on: set = field(default_factory=set)  # nodes passing a shape on (node_behind.py)
    # loops' carried values followed one iteration at a time (loop_unrolling.py): the
    # unroll_from and unrolled_next atoms, (name, arguments)
    unrolling: list = field(default_factory=list)

    def release_control(self) -> None:
        """Let the grounded control that `void_loader` holds go, freed in the background
        (asp/release.py): the void edges are then those read so far."""
        release((self.void_loader, self.value_loader))
        self.void_loader = self.value_loader = None

    @staticmethod
    def read(symbols: list[clingo.Symbol]) -> "Atoms":
        """Read the shown atoms from their text, all at once: one call into clingo per atom
        instead of one per argument, and one regular-expression scan per predicate over
        the whole text instead of one match per atom (this dominates large graphs)."""
        a = Atoms()
        text = symbols_text(symbols)
        escapes = "\\" in text  # else names need no unquoting and scan faster
        lines = "\n" + text + "\n"
        found, found_ranks, found_dtypes, found_sizes, found_nonempty = (
            [(_unquote(m[0]),) + m[1:] for m in p.findall(lines)] if escapes else p.findall(lines)
            for p in _PATTERNS[escapes])
        # a dim's text -> its Expr (None: unreadable), once per distinct text (few of them)
        values = {v: _dim_text(v) for v in {value for _, _, value in found}}
        dims, ranks, dtypes = defaultdict(set), defaultdict(set), defaultdict(set)
        for name, axis, value in found:
            e = values[value]
            if e is not None:
                dims[(name, int(axis))].add(e)
        for name, rank in found_ranks:
            ranks[name].add(int(rank))
        for name, dtype in found_dtypes:
            dtypes[name].add(dtype)
        a.dims, a.rank, a.dtype = dict(dims), dict(ranks), dict(dtypes)
        for name, k in found_sizes:
            a.sizes_from.setdefault(name, set()).add(int(k))
        a.nonempty = {(name, int(axis)) for name, axis in found_nonempty}
        # (the patterns take tensors, named by strings; virtual tensors' atoms are skipped)
        ours = sum(text.count("\n" + p) for p in _OURS) + text.startswith(_OURS) + \
            len(found_sizes) + len(found_nonempty)
        if ours == len(symbols):  # every atom was read by a pattern
            return a
        line, at = 0, 0
        for m in _RARE.finditer(text):  # the others (a few) through their own symbols
            line += text.count("\n", at, m.start())
            at = m.start()
            sym = symbols[line]
            a._read_rare(sym.name, sym)
        a._one_forced()
        return a

    def _one_forced(self):
        """A name that broadcasts against two integers N is 1: each one_or(s, N) says s is 1
        or N in every run (broadcast.lp), and two N leave 1 alone. It is a binding then, as
        the rules' own are (before, the answer said `s in {1}` and kept printing s)."""
        for e, ns in self.one_or.items():
            names = e.symbol_set()
            if sum(isinstance(n, int) for n in ns) >= 2 and len(names) == 1:
                (name,) = names
                if e == Expr.sym(name) and not is_scoped(name):  # (a body's: where it runs)
                    self.binds.setdefault(name, set()).add(Expr.const(1))

    def _read_rare(self, name: str, s: clingo.Symbol):
        args = s.arguments
        if name == "bind":
            e = _expr(args[1])
            if e is not None:
                self.binds.setdefault(args[0].string, set()).add(e)
        elif name == "range":
            lo, hi = _expr(args[1]), _expr(args[2])
            if lo is not None and hi is not None and lo.is_int and hi.is_int:
                self.ranges.setdefault(args[0].string, set()).add((lo.value, hi.value))
        elif name == "requires_le":
            a, b = _expr(args[0]), _expr(args[1])
            if a is not None and b is not None:
                self.le_required.append((a, b, _tensor_key(args[2])))
        elif name == "range_from":
            hi = _expr(args[1])
            place = _place(args[2]) if args[2].match("eq", 2) else _tensor_key(args[2])
            if hi is not None and hi.is_int and place is not None:
                self.range_from.setdefault(args[0].string, set()).add((hi.value, place))
        elif name == "floor_from":
            place = _place(args[2])
            if args[1].type == clingo.SymbolType.Number and place is not None:
                self.floor_from.setdefault(args[0].string, set()).add((args[1].number, place))
        elif name == "unsolved":
            e1, e2 = _expr(args[0]), _expr(args[1])
            if e1 is not None and e2 is not None:
                self.unsolved.add((e1, e2))
        elif name == "conflict":
            self.conflicts.append(s)
        elif name == "scope_runs":
            self.runs.add(args[0].number)
        elif name == "if_element":
            self.elements.setdefault(args[0].string, []).append(args[1])
        elif name == "min_rank":
            t = _tensor_key(args[0])
            self.min_rank[t] = max(self.min_rank.get(t, 0), args[1].number)
        elif name == "same_row":
            self.same_rows.append((_tensor_key(args[0]), args[1].number,
                                   _tensor_key(args[2]), args[3].number))
        elif name == "label":
            self.labels.setdefault((args[0].string, args[1].number), set()).add(args[2].string)
        elif name == "data_dependent":
            hi = _expr(args[2])
            if hi is not None:
                self.data_bounds.setdefault((args[0].string, args[1].number), set()).add(hi)
        elif name in ("unsized", "nonempty", "counted"):  # (a nonempty/2 of a named tensor:
            # read; a virtual tensor's, QLinearAveragePool's channels-first view, its own's)
            if args[0].type == clingo.SymbolType.String:
                getattr(self, name).add((args[0].string, args[1].number))
        elif name == "size_value":
            self.size_values.add((args[0].string, args[1].number))
        elif name == "sizes_from":  # (of a named node: read in bulk)
            self.sizes_from.setdefault(args[0].string, set()).add(args[1].number)
        elif name == "open_rank":
            self.open_ranks.add(args[0].string)
        elif name == "value_open":
            if args[0].type == clingo.SymbolType.String:
                self.value_open.add(args[0].string)
        elif name in ("unroll_from", "unrolled_next"):
            self.unrolling.append((name, args))
        elif name == "passes_on":
            self.passes_on.add(args[0].string)
        elif name == "void_name":
            e = _expr(args[2])
            if e is not None:
                self.void_names.setdefault((_tensor_key(args[0]), args[1].number), set()).add(e)
        elif name in ("seq", "seq_len"):
            lengths = self.seqs.setdefault(_tensor_key(args[0]), set())
            if name == "seq_len" and (e := _expr(args[1])) is not None:
                lengths.add(e)
        elif name in ("opt", "opt_some", "opt_none"):
            self.opts.setdefault(_tensor_key(args[0]), set()).add(name)
        elif name in ("floor", "ceiling"):  # (the greatest floor, the least ceiling)
            kept, pick = (self.floors, max) if name == "floor" else (self.ceilings, min)
            s_, v = args[0].string, args[1].number
            kept[s_] = pick(v, kept.get(s_, v))
        elif name == "one_or":  # (N: an integer, or an Expr that cannot be 1)
            e = _expr(args[0])
            n = args[1].number if args[1].type == clingo.SymbolType.Number else _expr(args[1])
            if e is not None and n is not None:
                self.one_or.setdefault(e, set()).add(n)
        elif name == "eqvoid":
            self.void_edges.append(void_edge(args))
        elif name == "bcvoid":
            self.void_joins.append(void_join(args))


def _patterns(string: str) -> tuple:
    """The regular expressions of dim/3, rank/2 and dtype/2 atoms, and of sizes_from/2 and
    nonempty/2 ones of a named node or tensor, each a whole line of a text with a newline
    before and after every line, given how a quoted string is written (with or without
    backslash escapes). (A pattern starting with its newline and name, not `^` in
    multi-line mode, lets the regex engine skip ahead to it: 2-2.5x faster.)"""
    return (re.compile(rf'\ndim\("({string})",(-?\d+),(-?\d+|"{string}")\)(?=\n)'),
            re.compile(rf'\nrank\("({string})",(\d+)\)(?=\n)'),
            re.compile(rf'\ndtype\("({string})",(\w+)\)(?=\n)'),
            re.compile(rf'\nsizes_from\("({string})",(-?\d+)\)(?=\n)'),
            re.compile(rf'\nnonempty\("({string})",(-?\d+)\)(?=\n)'))


_NAME = r'(?:[^"\\]|\\.)*'
_PATTERNS = {True: _patterns(_NAME), False: _patterns(r'[^"\\]*')}
# every other atom (a line that is not a dim, rank or dtype, of a tensor or a virtual one,
# nor a sizes_from or nonempty the patterns take whole: a graph has one of those for each
# of many nodes, ~1,100 on DenseNet-121, each ~4 calls into clingo when read as a symbol)
_OURS = ("dim(", "rank(", "dtype(")
_RARE = re.compile(rf'^(?!dim\(|rank\(|dtype\(|(?:sizes_from|nonempty)\("{_NAME}",-?\d+\)$)'
                   r'.+$', re.M)


def _tensor_key(sym: clingo.Symbol):
    """A tensor's name, or a virtual tensor (brow(N, T)) as its text."""
    return sym.string if sym.type == clingo.SymbolType.String else str(sym)


def _place(sym: clingo.Symbol):
    """What requires a floor or bounds a range (floor_from/3, range_from/3): a tensor's
    name (its node), or ("equation", E1, E2), an equation that could not be solved (one
    that confines a symbol to a range)."""
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.name == "eq" and len(sym.arguments) == 2:
        e1, e2 = _expr(sym.arguments[0]), _expr(sym.arguments[1])
        if e1 is not None and e2 is not None:
            return ("equation", e1, e2)
    return None


def _unquote(s: str) -> str:
    if "\\" not in s:
        return s
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), s)


@lru_cache(maxsize=100_000)
def _dim_text(text: str) -> Expr | None:
    """A dim as clingo prints it: an integer, or a quoted canonical expression."""
    if text[0] != '"':
        return Expr.const(int(text))
    try:
        return _parsed(_unquote(text[1:-1]))
    except ValueError:
        return None


@lru_cache(maxsize=100_000)
def _parsed(text: str) -> Expr:
    from .symbolic.parse import parse_dim

    return parse_dim(text)


def _expr(sym: clingo.Symbol) -> Expr | None:
    try:
        return symbol_to_expr(sym)
    except ValueError:
        return None


def grounded_values(ctl: clingo.Control) -> dict:
    """(tensor, index) -> the one value/3 atom's value, as a term's text, for every element
    with one value in the grounded program (a Horn program: its atoms are the answer)."""
    found: dict = {}
    for a in ctl.symbolic_atoms.by_signature("value", 3):
        t, i, v = a.symbol.arguments
        if t.type == clingo.SymbolType.String and i.type == clingo.SymbolType.Number:
            found.setdefault((t.string, i.number), set()).add(str(v))
    return {k: next(iter(vs)) for k, vs in found.items() if len(vs) == 1}

