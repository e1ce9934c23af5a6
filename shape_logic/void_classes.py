"""Axes without a value: the classes of equal ones (encodings/voids.lp's edges, and the
broadcasts and reshapes that join them), each named by one fresh symbol."""
from __future__ import annotations

from .symbolic.expr import Expr


def void_edge(args) -> tuple:
    """eqvoid(A, I, B, J)'s arguments: ((A, I), (B, J)), two equal axes without a value."""
    return (args[0].string, args[1].number), (args[2].string, args[3].number)


def void_join(args) -> tuple:
    """bcvoid(Y, I, A, IA, B, IB)'s arguments: ((Y, I), (A, IA), (B, IB)), a broadcast of
    axes without a value, Y's in the inputs' class where they are in one."""
    return tuple((args[k].string, args[k + 1].number) for k in (0, 2, 4))


class FreshNames:
    """Names for axes nothing determines, one per class of equal axes; a class with an axis
    that a rule names when it has no value (void_name/3: `names`, (T, I) -> set of Expr,
    `find` its class) is named so, by its simplest name (`pick`)."""

    def __init__(self, start: int, names: dict | None = None, find=None, pick=min):
        self.count = start
        self.by_class: dict = {}
        self.names, self.find, self.pick = names, find, pick
        self.named: dict | None = None

    def for_class(self, root) -> Expr:
        if root not in self.by_class:
            if self.named is None:  # (the classes of the named axes, once a void is met)
                self.named = {}
                for axis, names in (self.names or {}).items():
                    self.named.setdefault(self.find(axis), set()).update(names)
            if root in self.named:
                self.by_class[root] = self.pick(self.named[root])
            else:
                self.count += 1
                self.by_class[root] = Expr.sym(f"_{self.count}")
        return self.by_class[root]


class UnionFind:
    def __init__(self):
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


class VoidClasses:
    """The classes of equal axes without a value, read when the first such axis is met."""

    def __init__(self, atoms):
        self.atoms = atoms
        self.classes: UnionFind | None = None

    def find(self, axis):
        if self.classes is None:
            atoms = self.atoms
            if atoms.void_loader is not None:
                edges, joins = atoms.void_loader()
                atoms.void_edges = atoms.void_edges + edges
                atoms.void_joins = atoms.void_joins + joins
                atoms.release_control()  # (the grounded control: not needed any more)
            self.classes = classes = UnionFind()
            for a, b in atoms.void_edges:
                classes.union(a, b)
            # a broadcast of two axes of one class is in it; joining one output may put
            # another broadcast's inputs in one class: to the fixed point
            joins, joined = atoms.void_joins, True
            while joins and joined:
                joined = False
                for y, a, b in joins:
                    if classes.find(a) == classes.find(b) != classes.find(y):
                        classes.union(y, a)
                        joined = True
        return self.classes.find(axis)
