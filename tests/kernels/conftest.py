"""A kernel test whose every case the reference rejected compared nothing: once the kernel
tests have run, every op they checked must have been compared at least once."""
import pytest

from . import reference


@pytest.fixture(scope="session", autouse=True)
def every_op_checked_was_compared():
    yield
    never = sorted(op for op, n in reference.ATTEMPTED.items() if not reference.COMPARED[op])
    assert not never, f"kernel checks that never compared outputs (the reference rejected " \
        f"every case): {never}"
