"""ONNX's node test cases run through the executor: `python -m shape_logic.conformance_exec`.

Every case whose operators all have kernels is run with `shape_logic.run` on its
recorded inputs and compared with its recorded outputs (rtol 1e-3, atol 1e-5, or the
case's own tolerances when looser; rtol two units of precision for bfloat16/float8
outputs, see `compare`).  Cases whose operators all have rule files run
checked (shapes solved and every tensor matched against them); the others run
unchecked (check=False) and say so.  The summary gives the pass rate per operator.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from .asp.program import available_ops
from .conformance import _tensor_io, all_cases, case_ops, main_op
from .kernels import available_kernels
from .kernels.base import SMALL_FLOATS

RTOL, ATOL = 1e-3, 1e-5


@dataclass
class Outcome:
    case: str
    op: str
    ok: bool
    checked: bool  # run with shape checking (every op has a rule file)
    message: str = ""


def runnable_cases(ops: set[str] | None = None):
    kernels = set(available_kernels())
    for case in all_cases():
        if not case.data_sets or not _tensor_io(case):
            continue
        if case_ops(case) <= kernels and (ops is None or main_op(case) in ops):
            yield case


def run_case(case, rules_known: set[str] | None = None) -> Outcome:
    from .executor import run

    rules_known = set(available_ops()) if rules_known is None else rules_known
    op = main_op(case)
    checked = case_ops(case) <= rules_known
    inputs, outputs = case.data_sets[0]
    names = [vi.name for vi in case.model.graph.input]
    feeds = {n: [as_array(e) for e in a] if isinstance(a, list) else
             None if a is None else as_array(a) for n, a in zip(names, inputs)}
    try:
        got = run(case.model, feeds, check=checked)
    except Exception as e:  # noqa: BLE001  (any failure, ours or the input's, is an outcome)
        return Outcome(case.name, op, False, checked, f"{type(e).__name__}: {e}")
    problems = []
    rtol, atol = max(RTOL, case.rtol), max(ATOL, case.atol)
    for vi, want in zip(case.model.graph.output, outputs):
        if want is None or got.get(vi.name) is None:  # an empty optional, or expected one
            problem = "" if want is None and got.get(vi.name) is None else \
                f"{vi.name}: {'empty' if want is None else 'an element'} expected"
        elif isinstance(want, list):  # a sequence: element by element
            problem = compare_sequence(vi.name, got.get(vi.name), want, rtol, atol)
        else:
            problem = compare(vi.name, got.get(vi.name), as_array(want), rtol, atol)
        if problem:
            problems.append(problem)
    return Outcome(case.name, op, not problems, checked, "; ".join(problems))


def as_array(value) -> np.ndarray:
    """A case's data: an array, or a TensorProto (for types such as float16 given bitwise)."""
    if type(value).__name__ == "TensorProto":
        from onnx import numpy_helper

        return numpy_helper.to_array(value)
    return np.asarray(value)


def compare_sequence(name: str, got, want: list, rtol: float, atol: float) -> str:
    """'' if the sequence `got` has want's elements, else what differs."""
    if not isinstance(got, list):
        return f"{name}: not a sequence ({type(got).__name__})"
    if len(got) != len(want):
        return f"{name}: {len(got)} elements, expected {len(want)}"
    return "; ".join(p for k, (g, w) in enumerate(zip(got, want))
                     if (p := compare(f"{name}[{k}]", g, as_array(w), rtol, atol)))


def compare(name: str, got, want: np.ndarray, rtol: float, atol: float) -> str:
    """'' if got matches want (dtype, shape, values), else what differs."""
    if got is None:
        return f"{name}: not produced"
    if got.dtype.kind in "OUS" and want.dtype.kind in "OUS":  # strings, however stored
        got, want = got.astype(object).astype(str), want.astype(object).astype(str)
        if got.shape == want.shape and got.tolist() == want.tolist():
            return ""
        return f"{name}: strings differ ({got.reshape(-1)[:3]} vs {want.reshape(-1)[:3]})"
    if got.dtype != want.dtype:
        return f"{name}: dtype {got.dtype}, expected {want.dtype}"
    if got.shape != want.shape:
        return f"{name}: shape {list(got.shape)}, expected {list(want.shape)}"
    real = want.dtype.kind in "fc" or want.dtype in SMALL_FLOATS
    if not real:
        same = np.array_equal(got, want)
    else:
        if want.dtype in SMALL_FLOATS:
            # we round to bfloat16/float8 once per node, onnx's reference after each NumPy
            # step (Softmax's exp, sum, divide...), so the recorded results are off by up to
            # ~1.4 units of the type's precision (bf16 Attention): allowed 2 units
            rtol = max(rtol, 2 * float(ml_dtypes.finfo(want.dtype).eps))
        same = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                           atol=atol, equal_nan=True)
    if same:
        return ""
    if real:
        err = np.nanmax(np.abs(got.astype(np.float64) - want.astype(np.float64)))
        return f"{name}: values differ (max abs error {err:.3g})"
    return f"{name}: values differ"


def run_all(ops: set[str] | None = None) -> list[Outcome]:
    rules_known = set(available_ops())
    return [run_case(c, rules_known) for c in runnable_cases(ops)]


def summary(outcomes: list[Outcome]) -> str:
    by_op: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_op.setdefault(o.op, []).append(o)
    lines = [f"{'op':28} {'pass':>9}  checked"]
    for op in sorted(by_op):
        os_ = by_op[op]
        passed = sum(o.ok for o in os_)
        checked = sum(o.checked for o in os_)
        lines.append(f"{op:28} {passed:4}/{len(os_):<4}  {checked}/{len(os_)}")
        for o in os_:
            if not o.ok:
                lines.append(f"    FAIL {o.case}: {o.message[:300]}")
    total = sum(o.ok for o in outcomes)
    checked = sum(o.checked for o in outcomes)
    lines.append(f"total {total}/{len(outcomes)} passed; {checked} run with shape checking")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(run_all(set(sys.argv[1:]) or None)))
