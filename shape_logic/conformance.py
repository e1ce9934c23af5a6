"""ONNX's node test cases (onnx.backend.test.case.node) as a conformance suite for the rules.

For each case whose operators all have rule files, the model's inputs are
given the shapes of the case's input arrays (small integer and bool inputs become
constants, as shape computations need their values), the graph is solved, and
every output's inferred shape and dtype must equal the expected output's.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .asp.program import available_ops
from .errors import InputError
from .graph import NUMPY_DTYPES, dtype_of_array
from .onnx_import import unwrapped_type
from .progress import steps

MAX_CONST_ELEMENTS = 1024
MAX_REAL_CONST_ELEMENTS = 4


@dataclass
class Outcome:
    case: str
    op: str
    ok: bool
    message: str = ""


@lru_cache(maxsize=1)
def all_cases():
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tuple(collect_testcases(None))


def case_ops(case) -> set[str]:
    return {n.op_type for n in case.model.graph.node}


def main_op(case) -> str:
    nodes = case.model.graph.node
    if "_expanded" in case.name:
        return "expanded"
    return nodes[0].op_type if len(nodes) == 1 else "+".join(sorted(case_ops(case)))


def supported_cases(ops: set[str] | None = None):
    known = set(available_ops())
    for case in all_cases():
        if not case.data_sets or not _tensor_io(case):
            continue
        used = case_ops(case)
        if used <= known and (ops is None or main_op(case) in ops):
            yield case


def as_array(x) -> np.ndarray:
    """Test data are arrays, or TensorProtos for types numpy lacks (Cast's float8...)."""
    if type(x).__name__ == "TensorProto":
        from onnx import numpy_helper

        return numpy_helper.to_array(x)
    return np.asarray(x)


def _tensor_io(case) -> bool:
    """The case's inputs and outputs are tensors or sequences of tensors, or optionals of
    those."""
    g = case.model.graph
    return all(unwrapped_type(vi.type) is not None for vi in list(g.input) + list(g.output))


def shape_model(case):
    """The case's model with input shapes from its data and small integer (and bool) inputs
    as constants."""
    from onnx import helper, numpy_helper

    model = type(case.model)()
    model.CopyFrom(case.model)
    g = model.graph
    inputs, _ = case.data_sets[0]
    keep, made = [], []
    for vi, arr in zip(list(g.input), inputs):
        optional = vi.type.HasField("optional_type")
        elem = unwrapped_type(vi.type).elem_type
        if arr is None:  # an empty optional: Optional of the declared element type
            made.append(helper.make_node("Optional", [], [vi.name],
                                         type=vi.type.optional_type.elem_type))
            continue
        if optional and not isinstance(arr, list):  # its element's shape, still optional
            keep.append(helper.make_value_info(vi.name, helper.make_optional_type_proto(
                helper.make_tensor_type_proto(elem, list(as_array(arr).shape)))))
            continue
        if isinstance(arr, list):  # a sequence: its elements, each an input of its shape
            parts = [helper.make_tensor_value_info(f"{vi.name}/{k}", elem, list(
                as_array(a).shape)) for k, a in enumerate(arr)]
            keep += parts
            seq = f"{vi.name}/seq" if optional else vi.name
            made.append(helper.make_node("SequenceConstruct", [p.name for p in parts],
                                         [seq]) if parts else helper.make_node(
                "SequenceEmpty", [], [seq], dtype=elem))
            if optional:
                made.append(helper.make_node("Optional", [seq], [vi.name]))
            continue
        arr = as_array(arr)
        # shape computations need values: small integer and bool inputs (Compress's
        # condition), and scalar-like reals (Range's limits, OneHot's depth), become
        # constants
        small_int = arr.dtype.kind in "iub" and arr.size <= MAX_CONST_ELEMENTS
        real = arr.dtype.kind == "f" or arr.dtype == NUMPY_DTYPES["bf16"]
        small_real = real and arr.size <= MAX_REAL_CONST_ELEMENTS
        if small_int or small_real:
            g.initializer.append(numpy_helper.from_array(arr, vi.name))
            continue
        keep.append(helper.make_tensor_value_info(vi.name, elem, list(arr.shape)))
    del g.input[:]
    g.input.extend(keep)
    nodes = made + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    for vi in g.output:  # outputs are what we infer: drop their declared shapes
        unwrapped_type(vi.type).ClearField("shape")
    return model


def check_case(case) -> Outcome:
    from .solver import solve

    op = main_op(case)
    try:
        sol = solve(shape_model(case))
    except InputError as e:
        return Outcome(case.name, op, False, f"input error: {e}")
    if sol.status != "ok":
        return Outcome(case.name, op, False, "; ".join(d.message for d in sol.diagnostics))
    _, outputs = case.data_sets[0]
    problems = []
    for vi, arr in zip(case.model.graph.output, outputs):
        if vi.type.HasField("optional_type") and (p := _optional_problem(sol, vi.name, arr)):
            problems.append(p)
        if arr is None:  # an empty optional: no element to compare
            continue
        if isinstance(arr, list):  # a sequence: its length, and what every element has
            problems += _sequence_problems(sol, vi.name, arr)
            if not arr:
                continue
            arr = as_array(arr[0])
        else:
            arr = as_array(arr)
            want = "[" + ", ".join(str(d) for d in arr.shape) + "]"
            got = sol.shape(vi.name)
            if got != want:
                problems.append(f"{vi.name}: inferred {got}, expected {want}")
        try:
            want_dt = dtype_of_array(arr)
        except ValueError:
            continue
        if sol.dtype(vi.name) != want_dt:
            problems.append(f"{vi.name}: dtype {sol.dtype(vi.name)}, expected {want_dt}")
    return Outcome(case.name, op, not problems, "; ".join(problems))


def _optional_problem(sol, name: str, element) -> str:
    """What the inferred optional says wrongly of holding an element."""
    opt = sol.optional(name)
    if opt is None:
        return f"{name}: not inferred as an optional"
    if opt["has_element"] is not None and opt["has_element"] != (element is not None):
        return f"{name}: inferred has_element {opt['has_element']}, expected {element is not None}"
    return ""


def _sequence_problems(sol, name: str, elements: list) -> list[str]:
    """What the inferred sequence misses of the expected one: its length, and at each axis
    the size every element has (`?` where they differ)."""
    seq = sol.sequence(name)
    if seq is None:
        return [f"{name}: not inferred as a sequence"]
    out = [] if seq["length"] == len(elements) else [
        f"{name}: length {seq['length']}, expected {len(elements)}"]
    shapes = [as_array(e).shape for e in elements]
    if shapes and len(set(map(len, shapes))) == 1:
        want = "[" + ", ".join(str(ds[0]) if len(set(ds)) == 1 else "?"
                               for ds in zip(*shapes)) + "]"
        if sol.shape(name) != want:
            out.append(f"{name}: inferred {sol.shape(name)}, expected {want}")
    return out


def run(ops: set[str] | None = None) -> list[Outcome]:
    return [check_case(c) for c in steps(list(supported_cases(ops)), "conformance cases")]


def summary(outcomes: list[Outcome]) -> str:
    by_op: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_op.setdefault(o.op, []).append(o)
    lines = []
    for op in sorted(by_op):
        os_ = by_op[op]
        passed = sum(o.ok for o in os_)
        lines.append(f"{op:28} {passed}/{len(os_)}")
        for o in os_:
            if not o.ok:
                lines.append(f"    FAIL {o.case}: {o.message}")
    total = sum(o.ok for o in outcomes)
    lines.append(f"total {total}/{len(outcomes)}")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    from .progress import on_terminal, reporting

    ops = set(sys.argv[1:]) or None
    with reporting(on_terminal()):
        outcomes = run(ops)
    print(summary(outcomes))
