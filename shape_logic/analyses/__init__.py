"""Graph-level analyses written as Datalog relations (pyDatalog), one concept per module:

- `datalog`   a private pyDatalog knowledge base: rules as text, facts asserted directly;
- `constant`  which tensors depend on a runtime input, the constant subgraph, its components;
- `folding`   the size-aware folding decision per component and the folded graph;
- `lineage`   what a tensor's shape (or one axis) depends on (`shape-logic why`);
- `streaming` which axes a streamed input axis reaches, and what cannot stream.

Every recursive relation is written left-recursive from a bound seed (ASP-NOTES: the
other direction is 40-100x slower in pyDatalog); measured in bench/analyses.py.
"""
