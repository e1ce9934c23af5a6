"""A count of the data's own as a name (encodings/counts.lp): NonZero's, Compress's, Unique's.

Every name of the symbolic arithmetic stands for an integer >= 1 (symbolic/expr.py), and a
count may be 0: so the count is `C - 1` for a name C of its own (as a Loop's iteration
number is, asp/iterations.py), and decode prints C - 1 as a name of its own, `_c1` (which the
symbolic arithmetic takes to be >= 0: symbolic/bounds.py's COUNT_PREFIX): what the graph
computes from the count keeps it, `2*_c1` for two such axes joined. The name is the
tensor's and the axis's, the same in every solve of the graph and of its parts (a hash of
the tensor's name: `_n<12 hex digits>_<axis>`; two tensors of one graph sharing 48 bits of
hash is beyond any graph's size)."""
from __future__ import annotations

import hashlib
import re

import clingo

from ..shapes import bare_name
from ..symbolic.bounds import COUNT_PREFIX
from ..symbolic.expr import Expr
from .terms import expr_to_symbol

_COUNT = re.compile(r"_n[0-9a-f]{12}_\d+")


def count_name(tensor: str, axis: int) -> str:
    digest = hashlib.blake2b(tensor.encode(), digest_size=6).hexdigest()
    return f"_n{digest}_{axis}"


def printed_count(name: str) -> Expr:
    """The count that the name C of `count_name` stands for, C - 1, as decode prints it: a
    name of its own (`_c<hash>_<axis>`, `_c1` once renumbered) that may be 0."""
    return Expr.sym(COUNT_PREFIX + name[2:])


def is_printed_count(e: Expr) -> bool:
    """e is a bare printed_count."""
    atom = e.single_atom()
    return atom is not None and atom.kind == "sym" and e.terms[0][1] == 1 and \
        atom.args[0].startswith(COUNT_PREFIX) and \
        _COUNT.fullmatch("_n" + atom.args[0][len(COUNT_PREFIX):]) is not None


def count_names(bounds, dims: dict, size_values=()) -> dict:
    """C -> C - 1 as printed (printed_count + 1 is C) for each (tensor, axis) of `bounds`
    (data_dependent's) whose values (`dims`: (T, I) -> Exprs) hold its name, and for each
    (input, element) of `size_values` (a graph input's element read as a size: counts.lp)."""
    out = {}
    for t, i in bounds:
        name = count_name(t, i)
        if any(name in e.symbols() for e in dims.get((t, i), ())):
            out[name] = printed_count(name) + 1
    for x, j in size_values:
        name = count_name(x, j)
        out[name] = printed_count(name) + 1
    return out


def fixed_counts(graph, atoms, rule_files=()) -> list[str]:
    """Warnings for the counts of the data's that the graph fixes (their names bound to an
    integer or to the inputs' names): it runs only where the data gives that count - a size
    an exporter traced, mostly (an MoE block Splits its hit experts by the 4 its trace hit).
    Not a count the rules compute from known values (counted), nor one a declared output
    names (kept, it names the count), nor in a graph with a shape error. `rule_files`: the
    solve's, which say what node reads an input as sizes."""
    if not (atoms.data_bounds or atoms.size_values) or atoms.conflicts:
        return []
    from ..decode import simplicity  # (decode reads this module's names)

    producers, inputs = None, graph.input_symbols()

    def fixed(name):  # the value the graph binds name C to, in the inputs' names, or None
        values = atoms.binds.get(name)
        value = min(values, key=simplicity) if values else None  # (as decode's Resolver)
        # (a declared output's name for it says nothing)
        return value if value is not None and value.symbols() <= inputs else None

    out = []
    for t, i in sorted(atoms.data_bounds):
        value = fixed(count_name(t, i))
        if value is None or (t, i) in atoms.counted:
            continue
        if producers is None:
            producers = graph.producer()
        node = producers.get(t)
        by = f" ({node.op} \"{node.name}\")" if node is not None else ""
        out.append(f"axis {i} of {t}, a count of the data's{by}, is {value - 1} wherever the "
                   "graph runs: the graph fixes a size the data decides (one traced at "
                   "export, mostly)")
    for x, j in sorted(atoms.size_values):
        value = fixed(count_name(x, j))
        if value is None:
            continue
        node = _size_reader(graph, x, {rf.op for rf in rule_files if rf.reads_sizes})
        by = f" by {node.op} \"{node.name}\"" if node is not None else ""
        out.append(f"element {j} of input {x}, read as a size{by}, is {value - 1} wherever "
                   "the graph runs: the graph fixes a value the data gives")
    return out


def _size_reader(graph, x: str, size_readers: set):
    """The node that reads input x as sizes: of the nodes reading x, the first whose
    operator's rule file states size_read (`size_readers`; x may also feed a Shape or a
    Cast before it), else the first."""
    readers = [n for n in graph.nodes if x in n.inputs]
    return next((n for n in readers if n.op in size_readers), readers[0] if readers else None)


def input_values(graph, size_values, resolve) -> dict:
    """The names of graph inputs' elements read as sizes (counts.lp), as decoded: the
    name -> the element, `k` for a scalar, `sizes[1]` for an element of a vector. A name
    is the element's own (`_c1`) or one the graph binds it to (a declared output's `kk`);
    one bound to an integer or an expression is none (a warning says a fixed one)."""
    out = {}
    inputs = graph.input_symbols() if size_values else set()
    for x, j in sorted(size_values):
        name = bare_name(resolve(Expr.sym(count_name(x, j))) - 1)
        if name is None or name in inputs:  # (an input's dim: the graph fixes it, a warning)
            continue
        info = graph.inputs.get(x)
        scalar = info is not None and info.shape is not None and info.shape.rank == 0
        out[name] = x if scalar else f"{x}[{j}]"
    return out


class DataCounts:
    """The @-function of counts.lp (mixed into asp.functions)."""

    def count_name(self, t: clingo.Symbol, i: clingo.Symbol):
        """@count_name(T, I): the count at axis I of T, C - 1 for a name C >= 1."""
        return expr_to_symbol(Expr.sym(count_name(t.string, i.number)) - 1)
