"""The message of a graph's one diagnostic, and one-node graphs to get it from (the why_text
tests: one node, one reason)."""
import shape_logic


def the_message(graph) -> str:
    sol = shape_logic.solve(graph)
    assert sol.status == "error"
    (d,) = sol.diagnostics
    return d.message


def f32(shape):
    return {"dtype": "f32", "shape": shape}


def i64(*values, scalar=False):
    """An i64 initializer holding `values` (a vector; one value as a scalar)."""
    if scalar:
        return {"dtype": "i64", "shape": [], "data": values[0]}
    return {"dtype": "i64", "shape": [len(values)], "data": list(values)}


def one(op, inputs, n_outputs=1, domain=None, opset=None, inits=None, **attrs):
    """A graph of one node "n" of `op` over the named `inputs` (a dict name -> type), then
    the initializers `inits`; its outputs y0, y1..."""
    node = {"name": "n", "op": op, "inputs": list(inputs) + list(inits or {}),
            "outputs": [f"y{k}" for k in range(n_outputs)], "attrs": attrs}
    if domain:
        node["domain"] = domain
    g = {"inputs": inputs, "initializers": inits or {}, "nodes": [node]}
    if opset:
        g["opset"] = opset
    return g
