"""How far relating lets values go where they could grow without end (asp/relating.py):
the computations allowed once a graph is known inconsistent, after collisions in bodies
and after equations left unsolved, and how deep a value explaining still relates."""
from __future__ import annotations

# new computations allowed once the graph is known inconsistent: enough for the rest of the
# graph (a consistent one makes at most ~3 a node: the default set, 206 models), and few
# enough that the values a conflict lets loose stay few - every pair of values at one axis
# is a clash for clingo to ground: a 6-node graph whose ranks collided (an output declared
# rank 3 for 4) carried s//2, s//4 ... from a Resize to every axis, 197 values each and
# 290,000 clashes in 35 s with 20,000 (fuzz --kind ops --narrowing --seed 5621, graph 795)
AFTER_CONFLICT = 20_000
AFTER_CONFLICT_PER_NODE, AFTER_CONFLICT_LEAST = 20, 2_000


def after_conflict(nodes: int) -> int:
    """The computations allowed after a conflict in a graph of `nodes` nodes."""
    return min(AFTER_CONFLICT, max(AFTER_CONFLICT_LEAST, AFTER_CONFLICT_PER_NODE * nodes))
# distinct pairs of integers colliding in bodies after which arithmetic gets an allowance
# too: a branch not taken has a few (each place where its sizes cannot meet), a branch
# that feeds a collision back into its sizes a new one each round, without end
# (x2 / Concat(x0, x2) of x2 [2, ...]: 2 against 6, 10, 14...)
SCOPE_CLASHES = 200
# and that allowance, smaller than an inconsistent graph's: each new value is one more
# round of the feedback, paired with all before (fuzz --kind control --seed 133, graph
# 523: 20,000 took 7 s and left 31,000 conflicts to sort; 2,000 takes 1 s)
AFTER_SCOPE_CLASHES = 2_000
# distinct pairs left unsolved after which arithmetic gets that allowance too: an
# equation the rules cannot solve (8 = ((h + 3)//4)*((w + 3)//4), a LayerNorm's weight of 8
# over a Transpose left out) leaves both values at the place, each feeding the arithmetic
# after it with its own spelling, and a Reshape's element count multiplies the spellings
# of every axis: HF SegFormer so mutated made 190,000 such pairs in 19 s of grounding and
# went on. The 155 models of the peers' benchmarks leave at most 47 (Swin).
UNSOLVED_PAIRS = 2_000


# explaining (no binding substituted) relates no value nested deeper than this: there a
# graph's values can feed back into themselves round after round, as the fast mode's
# bindings stop them from doing, and each round nests them one floor deeper, every bound
# of them costlier to refine - s4*(s4*(s4*s4//2)//2)//2... to depth 12 in a 6-node graph
# with a Reshape and two GridSamples, 923 equations in 24 s (bench/fuzz_wrong.py --kind
# ops --seed 5714, graph 366). The models of the peers' benchmarks print values of depth
# 3 at most (Swin's padded windows).
EXPLAIN_DEPTH = 6


def depth(e) -> int:
    """How deep the atoms of an expression nest (a floor of a floor: 2)."""
    return max((a.depth for mono, _ in e.terms for a, _ in mono), default=0)
