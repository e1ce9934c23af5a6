"""Symbolic integer arithmetic of the shape language."""
from .equation import Relation, relate
from .expr import Expr, ExprOverflow
from .parse import ShapeSyntaxError, parse_dim
from . import ops

__all__ = ["Expr", "ExprOverflow", "Relation", "ShapeSyntaxError", "ops", "parse_dim", "relate"]
