"""bench/executor.py's --native-blas: the environment it runs again with."""
from bench.executor import FORCED_BLAS, native_env


def test_native_env_drops_both_variables_together():
    env = {"PATH": "/bin", "OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "512"}
    assert native_env(env) == {"PATH": "/bin"}
    assert native_env({"PATH": "/bin", "OPENBLAS_L2_SIZE": "512"}) == {"PATH": "/bin"}
    assert env["OPENBLAS_CORETYPE"] == "Haswell"  # (the caller's is left as it was)


def test_native_env_none_when_neither_is_set():
    # (the process started again finds neither: it runs the bench instead of starting again)
    assert native_env({"PATH": "/bin"}) is None
    assert set(FORCED_BLAS) == {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}
