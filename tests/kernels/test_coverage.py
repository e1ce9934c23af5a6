"""Rules, kernels and kernel tests name the same operators."""
import importlib
import re

from shape_logic.asp.program import available_ops
from shape_logic.kernels import available_kernels, load_kernel

from . import reference

# operators with rule files whose kernels are not written yet (each one named, for now)
NO_KERNEL_YET: set[str] = set()


def test_every_rule_file_has_a_kernel():
    missing = set(available_ops()) - set(available_kernels()) - NO_KERNEL_YET
    assert not missing, \
        f"rule files without a kernel (shape_logic/kernels/<Op>.py): {sorted(missing)}"


def test_every_kernel_loads_by_name():
    for op in available_kernels():
        assert load_kernel(op).__name__ == op


def test_every_kernel_is_tested_against_the_reference():
    # the kernel test modules (every tests/kernels/test_*.py but this one) record the ops
    # they check as the tests run; statically, each op name must appear in one of them -
    # or the op's own test (tests/ops/test_<Op>.py) runs its kernel against onnxruntime
    # (tests/contrib_ops.check_against_onnxruntime: values, shapes and dtypes, as here; or
    # the kernel's outputs beside ort_contrib's or an InferenceSession's, where a graph
    # attribute - GreedySearch's decoder - goes to onnxruntime as a GraphProto and to our
    # kernel as a body, or a sparse input - SparseToDenseMatMul's - as an OrtValue)
    import pathlib

    here = pathlib.Path(__file__).parent
    modules = sorted(p for p in here.glob("test_*.py") if p.stem != "test_coverage")
    for path in modules:
        importlib.import_module(f"tests.kernels.{path.stem}")
    text = "".join(path.read_text() for path in modules)

    def against_onnxruntime(op):
        own = here.parent / "ops" / f"test_{op}.py"
        text = own.read_text() if own.exists() else ""
        # (with the tests/ops module it takes its tests from: legacy_unary.py's unary_tests)
        for shared in re.findall(r"^from tests\.ops\.(\w+) import", text, re.M):
            text += (here.parent / "ops" / f"{shared}.py").read_text()
        # (check_search: a search node's kernel beside onnxruntime, tests/contrib_ops.py)
        return "check_against_onnxruntime(" in text or "check_search(" in text or (
            ("ort_contrib(" in text or "InferenceSession(" in text)
            and "load_kernel(" in text)

    untested = [op for op in available_kernels()
                if f'"{op}"' not in text and not against_onnxruntime(op)]
    assert not untested, f"kernels with no reference test: {untested}"
    assert reference.TESTED is not None
