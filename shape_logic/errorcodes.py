"""Stable error codes of shape diagnostics (as mypy's errorcodes.py): never renumber."""
from __future__ import annotations

CODES = {
    "E0001": "one axis, two sizes",
    "E0002": "rank mismatch (or an axis beyond the rank)",
    "E0003": "negative size",
    "E0004": "dtype mismatch",
    "E0005": "one element of a shape computation, two values",
    "E0006": "element counts differ",
    "E0007": "contradictory values of a symbol",
    "E0008": "invalid node (attribute, number of inputs, operand kind)",
    "E0009": "one axis, two labels",
}


def code_for(place, values) -> str:
    kind = place.name
    if kind == "dim":
        return "E0003" if len(values) > 1 and values[1] == "negative" else "E0001"
    return {"rank": "E0002", "dtype": "E0004", "value": "E0005", "equal": "E0006",
            "symbol": "E0007", "range": "E0007", "node": "E0008",
            "label": "E0009"}.get(kind, "E0000")
