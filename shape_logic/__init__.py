"""shape-logic: shape reasoning for deep-learning graphs with answer set programming.

    import shape_logic
    sol = shape_logic.solve("graph.json")   # a path, a dict, or an onnx.ModelProto
    sol.status, sol.shape("S"), sol.to_json()
"""
from .errors import InputError
from .solver import solve

__all__ = ["InputError", "solve", "run"]
__version__ = "0.1.0"


def run(graph, inputs, **kwargs):
    """Execute the graph on NumPy arrays: {output name: array} (see executor.py)."""
    from .executor import run as _run

    return _run(graph, inputs, **kwargs)
