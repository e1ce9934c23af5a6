"""SequenceMap: rules/SequenceMap.lp (onnx's node tests compare it with the recorded
outputs: tests/test_conformance_*.py), on graphs written here."""
from shape_logic import solve


def mapped(body_nodes, *elements, extra=None, body_inputs=("e",), outputs=("r",)):
    inputs = {f"e{k}": {"dtype": "f32", "shape": s} for k, s in enumerate(elements)}
    if extra is not None:
        inputs["t"] = {"dtype": "f32", "shape": extra}
    return {"inputs": inputs, "nodes": [
        {"op": "SequenceConstruct", "inputs": [n for n in inputs if n != "t"], "outputs": ["s"]},
        {"op": "SequenceMap", "inputs": ["s"] + (["t"] if extra is not None else []),
         "outputs": [f"y{k}" for k in range(len(outputs))],
         "attrs": {"body": {"inputs": list(body_inputs), "outputs": list(outputs),
                            "nodes": body_nodes}}}]}


def test_each_element_through_the_body():
    g = mapped([{"op": "Shape", "inputs": ["e"], "outputs": ["r"]}], "[n, 3]", "[m, 3]")
    sol = solve(g)
    assert sol.shape("y0") == "[2]" and sol.sequence("y0") == {"length": 2}
    assert sol.dtype("y0") == "i64"


def test_what_every_element_has_goes_through():
    body = [{"op": "Add", "inputs": ["e", "x"], "outputs": ["r"]}]
    sol = solve(mapped(body, "[n, 3]", "[m, 3]", extra="[3]", body_inputs=("e", "x")))
    assert sol.shape("y0") == "[?, 3]"  # (n and m: no size common to both)
    sol = solve(mapped(body, "[n, 3]", "[n, 3]", extra="[3]", body_inputs=("e", "x")))
    assert sol.shape("y0") == "[n, 3]"


def test_a_requirement_of_the_body_is_not_a_size_of_the_elements():
    # the body reshapes each element to [2, 3]: n and m must be 6 where it runs, which the
    # elements known one by one say nothing of; the sequence's elements stay [?]
    body = [{"op": "Reshape", "inputs": ["e", "shape"], "outputs": ["r"]}]
    g = mapped(body, "[n]", "[m]")
    g["initializers"] = {"shape": {"dtype": "i64", "data": [2, 3]}}
    sol = solve(g)
    assert sol.status == "ok" and sol.shape("s") == "[?]" and sol.shape("y0") == "[2, 3]"


def test_two_outputs_and_a_sequence_beside():
    body = [{"op": "Identity", "inputs": ["e"], "outputs": ["r"]},
            {"op": "Identity", "inputs": ["e"], "outputs": ["q"]}]
    sol = solve(mapped(body, "[n, 3]", "[n, 3]", outputs=("r", "q")))
    assert sol.shape("y0") == sol.shape("y1") == "[n, 3]"
    assert sol.sequence("y1") == {"length": 2}
