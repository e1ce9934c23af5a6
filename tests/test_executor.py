"""The executor: results, input errors (exit 2), runtime shape checks (exit 1), closing of
unsolved symbols, folding, freeing, profiling, and the `shape-logic run` command."""
import numpy as np
import pytest

import shape_logic
from shape_logic.cli import main
from shape_logic.executor import BadInput, ExecutionError, Program, ShapeMismatch

F32 = np.float32


def mlp() -> dict:
    return {
        "name": "mlp",
        "inputs": {"a": {"dtype": "f32", "shape": "[n, k]"},
                   "b": {"dtype": "f32", "shape": "[k, m]"}},
        "nodes": [{"name": "mm", "op": "MatMul", "inputs": ["a", "b"], "outputs": ["c"]},
                  {"name": "r", "op": "Relu", "inputs": ["c"], "outputs": ["d"]},
                  {"name": "t", "op": "Transpose", "inputs": ["d"], "outputs": ["y/out"]}],
        "outputs": {"y/out": {}},
    }


def feeds(n=2, k=3, m=4):
    rng = np.random.default_rng(0)
    return {"a": rng.standard_normal((n, k)).astype(F32),
            "b": rng.standard_normal((k, m)).astype(F32)}


def test_runs_and_binds_the_symbols():
    x = feeds()
    out = shape_logic.run(mlp(), x)
    np.testing.assert_allclose(out["y/out"], np.maximum(x["a"] @ x["b"], 0).T, rtol=1e-6)
    assert out.bindings == {"n": 2, "k": 3, "m": 4}
    assert out.data_dependent == {}


@pytest.mark.parametrize("given,message", [
    ({"a": np.ones((2, 3), F32)}, "missing input(s) 'b'"),
    ({**feeds(), "z": np.ones(1, F32)}, "unknown input(s) 'z'"),
    ({"a": np.ones((2, 3)), "b": np.ones((3, 4), F32)},
     "input 'a': dtype f64, the graph wants f32"),
    ({"a": np.ones((2, 3, 1), F32), "b": np.ones((3, 4), F32)},
     "input 'a': shape [2, 3, 1] has rank 3, the graph wants rank 2 ([n, k])"),
])
def test_bad_inputs(given, message):
    with pytest.raises(BadInput) as e:
        shape_logic.run(mlp(), given)
    assert message in str(e.value)


def test_input_shape_mismatch_names_tensor_expected_actual_and_bindings():
    x = feeds()
    x["b"] = np.ones((4, 4), F32)
    with pytest.raises(ShapeMismatch) as e:
        shape_logic.run(mlp(), x)
    assert str(e.value) == ("tensor 'b' (input): runtime shape [4, 4] does not match the "
                            "inferred shape [k, m]; axis 0 is 4, expected k = 3 "
                            "(bindings: k=3, n=2)")


def test_a_symbol_bound_to_0_is_named_in_the_mismatch_it_causes():
    # [n] + [m] is [max(m, n)] for sizes >= 1, as symbols are; n = 0 with m = 1 gives [0]
    g = {"inputs": {"a": {"dtype": "f32", "shape": "[n]"},
                    "b": {"dtype": "f32", "shape": "[m]"}},
         "nodes": [{"op": "Add", "inputs": ["a", "b"], "outputs": ["y"]}]}
    with pytest.raises(ShapeMismatch) as e:
        shape_logic.run(g, {"a": np.zeros(0, F32), "b": np.zeros(1, F32)})
    assert str(e.value).endswith("(bindings: m=1, n=0); n is 0 here, and the inferred "
                                 "shapes take every symbol as a size >= 1")


def test_intermediate_mismatch_is_caught_at_the_node():
    program = Program(mlp())

    class Wrong:  # a kernel that drops a row: the check must name its output
        def __call__(self, c):
            return (np.maximum(c, 0)[:-1],)

    program.steps[1].kernel = Wrong()
    with pytest.raises(ShapeMismatch) as e:
        program.run(feeds())
    assert str(e.value).startswith(
        "tensor 'd' (output 0 of Relu node \"r\"): runtime shape [1, 4] does not match the "
        "inferred shape [n, m] = [2, 4]; axis 0 is 1, expected n = 2 (bindings: ")


def test_kernel_failure_is_one_line_naming_node_and_op():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[5]"},
                    "i": {"dtype": "i64", "shape": "[100]"}},
         "nodes": [{"name": "pick", "op": "Gather", "inputs": ["x", "i"], "outputs": ["y"]}]}
    idx = np.zeros(100, np.int64)
    idx[7] = 9  # out of range: only the values show it (too many for the solver to see)
    with pytest.raises(ExecutionError) as e:
        shape_logic.run(g, {"x": np.ones(5, F32), "i": idx})
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith('Gather node "pick": indices in [0, 9] are out of range for axis 0 '
                          "of size 5 (inputs: x [5] float32, i [100] int64)")


def test_closing_resolves_symbols_from_small_integer_inputs():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"},
                    "s": {"dtype": "i64", "shape": "[2]"}},
         "nodes": [{"name": "rs", "op": "Reshape", "inputs": ["x", "s"], "outputs": ["y"]}]}
    program = Program(g)
    assert any(s.startswith("_") for d in program.solution.dims("y") for s in d.symbols())
    out = program.run({"x": np.arange(6, dtype=F32), "s": np.array([2, -1], np.int64)})
    assert out["y"].shape == (2, 3)
    assert out.data_dependent == {}
    (plan,) = program._plans.values()
    assert plan.expected["y"].dims == (2, 3)  # closed before running: checked exactly


def test_data_dependent_symbol_is_reported_not_defaulted():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[n]"}},
         "nodes": [{"name": "nz", "op": "NonZero", "inputs": ["x"], "outputs": ["y"]}]}
    x = np.array([0, 1, 0, 2, 3], F32)
    out = shape_logic.run(g, {"x": x})
    assert out["y"].tolist() == [[1, 3, 4]]
    assert list(out.data_dependent.values()) == [3]
    assert out.bindings["n"] == 5


def test_closing_finds_inconsistent_inputs_before_running():
    g = {"inputs": {"a": {"dtype": "f32", "shape": "[p]"}, "b": {"dtype": "f32", "shape": "[q]"}},
         "nodes": [{"name": "add", "op": "Add", "inputs": ["a", "b"], "outputs": ["y"]}]}
    with pytest.raises(ExecutionError) as e:
        shape_logic.run(g, {"a": np.ones(3, F32), "b": np.ones(4, F32)})
    assert "bindings: p=3, q=4" in str(e.value)


def test_constants_are_folded_and_intermediates_freed():
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 3]"}},
         "initializers": {"shape": {"dtype": "i64", "data": [2, 3]}},
         "nodes": [{"name": "w", "op": "ConstantOfShape", "inputs": ["shape"], "outputs": ["w"],
                    "attrs": {"value": {"dtype": "f32", "shape": [1], "data": [0.5]}}},
                   {"name": "m", "op": "Mul", "inputs": ["x", "w"], "outputs": ["h"]},
                   {"name": "e", "op": "Exp", "inputs": ["h"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    program = Program(g)
    assert list(program.folded) == ["w"]
    assert [s.node.name for s in program.steps] == ["m", "e"]
    assert program.steps[1].free == ["h"]
    out = program.run({"x": np.ones((2, 3), F32)})
    np.testing.assert_allclose(out["y"], np.exp(0.5) * np.ones((2, 3)), rtol=1e-6)


def test_unchecked_run_needs_no_rules():
    out = shape_logic.run(mlp(), feeds(), check=False)
    assert out["y/out"].shape == (4, 2)


def test_profile_lists_every_node_slowest_first():
    out = Program(mlp()).run(feeds(), profile=True, warmup=1, repeat=2)
    prof = out.profile
    assert {r.name for r in prof.per_node()} == {"mm", "r", "t"}
    reals = [r.real for r in prof.per_node()]
    assert reals == sorted(reals, reverse=True)
    text = prof.report()
    assert "MatMul" in text and "real ms" in text and "cpu ms" in text


# ----- the command line

@pytest.fixture
def files(tmp_path):
    import json

    (tmp_path / "g.json").write_text(json.dumps(mlp()))
    x = feeds()
    np.save(tmp_path / "a.npy", x["a"])
    np.save(tmp_path / "b.npy", x["b"])
    np.save(tmp_path / "b44.npy", np.ones((4, 4), F32))
    (tmp_path / "junk.npy").write_text("not numpy")
    return tmp_path


def test_cli_run_writes_outputs(files, capsys):
    out = files / "out"
    code = main(["run", str(files / "g.json"), "--input", f"a={files / 'a.npy'}",
                 "--input", f"b={files / 'b.npy'}", "-o", str(out), "--profile"])
    assert code == 0
    y = np.load(out / "y_out.npy")  # '/' in the name is sanitized
    assert y.shape == (4, 2)
    text = capsys.readouterr().out
    assert "y/out: float32 [4, 2]" in text and "profile:" in text


def test_cli_run_threads_gives_the_same_outputs(files, capsys):
    """--threads 1 runs every node on the calling thread; the outputs are the default's."""
    base = ["run", str(files / "g.json"), "--input", f"a={files / 'a.npy'}",
            "--input", f"b={files / 'b.npy'}"]
    assert main(base + ["-o", str(files / "default")]) == 0
    assert main(base + ["--threads", "1", "-o", str(files / "one")]) == 0
    np.testing.assert_array_equal(np.load(files / "one" / "y_out.npy"),
                                  np.load(files / "default" / "y_out.npy"))
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(base + ["--threads", "0"])
    assert stop.value.code == 2
    assert "expected a whole number of at least 1, got '0'" in capsys.readouterr().err


@pytest.mark.parametrize("inputs,code,needle", [
    (["a=a.npy", "b=b44.npy"], 1, "tensor 'b' (input): runtime shape [4, 4]"),
    (["a=a.npy", "b=junk.npy"], 2, "not a readable .npy file"),
    (["a=a.npy"], 2, "missing input(s) 'b'"),
    (["a=a.npy", "b=nowhere.npy"], 2, "no such file"),
    (["a"], 2, "expected NAME=FILE.npy"),
])
def test_cli_run_exit_codes(files, capsys, inputs, code, needle):
    args = ["run", str(files / "g.json")]
    for item in inputs:
        name, _, f = item.partition("=")
        args += ["--input", f"{name}={files / f}" if f else name]
    assert main(args) == code
    err = capsys.readouterr().err
    assert needle in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_conv_batchnorm_fusion_gives_the_same_values_and_keeps_the_check():
    rng = np.random.default_rng(1)

    def init(shape, low=-1.0):
        return {"dtype": "f32", "shape": list(shape),
                "data": rng.uniform(low, 1, shape).astype(F32).tolist()}

    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 3, 6, 6]"}},
         "initializers": {"w": init((4, 3, 3, 3)), "b": init((4,)), "s": init((4,)),
                          "o": init((4,)), "m": init((4,)), "v": init((4,), low=0.5)},
         "nodes": [{"name": "c", "op": "Conv", "inputs": ["x", "w", "b"], "outputs": ["h"],
                    "attrs": {"pads": [1, 1, 1, 1]}},
                   {"name": "bn", "op": "BatchNormalization",
                    "inputs": ["h", "s", "o", "m", "v"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    x = {"x": rng.standard_normal((1, 3, 6, 6)).astype(F32)}
    program = Program(g)
    assert [s.node.op for s in program.steps] == ["Conv"]
    assert program.steps[0].aliases == [[("h", ('output 0 of Conv node "c" (fused with '
                                                'BatchNormalization node "bn")'))]]
    fused = program.run(x)["y"]
    unfused = shape_logic.run(g, x, check=False)  # fusion also happens, so compute by hand
    from shape_logic.kernels import load_kernel

    consts = {k: np.asarray(v["data"], F32) for k, v in g["initializers"].items()}
    (h,) = load_kernel("Conv")({"pads": [1, 1, 1, 1]})(x["x"], consts["w"], consts["b"])
    (want,) = load_kernel("BatchNormalization")({})(h, consts["s"], consts["o"], consts["m"],
                                                    consts["v"])
    np.testing.assert_allclose(fused, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(unfused["y"], want, rtol=1e-5, atol=1e-5)


def test_conv_relu_fusion_runs_relu_in_place_and_keeps_the_check():
    rng = np.random.default_rng(2)
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 3, 6, 6]"}},
         "initializers": {"w": {"dtype": "f32", "shape": [4, 3, 3, 3],
                                "data": rng.uniform(-1, 1, (4, 3, 3, 3)).astype(F32).tolist()}},
         "nodes": [{"name": "c", "op": "Conv", "inputs": ["x", "w"], "outputs": ["h"],
                    "attrs": {"pads": [1, 1, 1, 1]}},
                   {"name": "r", "op": "Relu", "inputs": ["h"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    x = {"x": rng.standard_normal((1, 3, 6, 6)).astype(F32)}
    program = Program(g)
    assert [s.node.op for s in program.steps] == ["Conv"]
    assert program.steps[0].aliases == [[("h", 'output 0 of Conv node "c"')]]
    from shape_logic.kernels import load_kernel

    (h,) = load_kernel("Conv")({"pads": [1, 1, 1, 1]})(x["x"], np.asarray(
        g["initializers"]["w"]["data"], F32))
    np.testing.assert_array_equal(program.run(x)["y"], np.maximum(h, 0))
    # a Conv output read by more than the Relu is made, and the Relu is not fused
    g["nodes"].append({"name": "n", "op": "Neg", "inputs": ["h"], "outputs": ["z"]})
    g["outputs"]["z"] = {}
    assert [s.node.op for s in Program(g).steps] == ["Conv", "Relu", "Neg"]


def test_batchnorm_relu_fusion_runs_relu_in_place_and_keeps_the_check():
    """DenseNet's BN -> Relu (the BN before a Conv is not folded into it): the Relu runs
    in place on the normalization's new result, the BN output is checked as an alias."""
    from shape_logic.kernels import load_kernel

    rng = np.random.default_rng(3)
    consts = {k: rng.uniform(0.5, 1.5, (4,)).astype(F32) for k in "somv"}
    consts["o"] -= 1.0  # some outputs negative
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[1, 4, 5, 5]"}},
         "initializers": {k: {"dtype": "f32", "shape": [4], "data": v.tolist()}
                          for k, v in consts.items()},
         "nodes": [{"name": "bn", "op": "BatchNormalization",
                    "inputs": ["x", "s", "o", "m", "v"], "outputs": ["h"]},
                   {"name": "r", "op": "Relu", "inputs": ["h"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    x = {"x": rng.standard_normal((1, 4, 5, 5)).astype(F32)}
    program = Program(g)
    assert [s.node.op for s in program.steps] == ["BatchNormalization"]
    assert program.steps[0].kernel.relu
    assert program.steps[0].aliases == [[("h", 'output 0 of BatchNormalization node "bn"')]]
    (h,) = load_kernel("BatchNormalization")({})(x["x"], *(consts[k] for k in "somv"))
    np.testing.assert_array_equal(program.run(x)["y"], np.maximum(h, 0))
    assert (h < 0).any()


@pytest.mark.parametrize("mul_shape,fused", [((4, 1, 1), True), ((1, 4, 1, 1), True),
                                             ((1,), True), ((5,), False), ((4, 1), False)])
def test_batchnorm_mul_add_fusion_only_per_channel(mul_shape, fused):
    from shape_logic.kernels import load_kernel

    rng = np.random.default_rng(2)
    arrays = {"s": (4,), "o": (4,), "m": (4,), "v": (4,), "c": mul_shape, "d": (4, 1, 1)}
    consts = {k: rng.uniform(0.5, 1.5, shape).astype(F32) for k, shape in arrays.items()}
    g = {"inputs": {"x": {"dtype": "f32", "shape": "[2, 4, 4, 5]"}},
         "initializers": {k: {"dtype": "f32", "shape": list(v.shape), "data": v.tolist()}
                          for k, v in consts.items()},
         "nodes": [{"name": "bn", "op": "BatchNormalization",
                    "inputs": ["x", "s", "o", "m", "v"], "outputs": ["h"]},
                   {"name": "mul", "op": "Mul", "inputs": ["h", "c"], "outputs": ["h2"]},
                   {"name": "add", "op": "Add", "inputs": ["d", "h2"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    x = rng.standard_normal((2, 4, 4, 5)).astype(F32)
    program = Program(g)
    ops = [s.node.op for s in program.steps]
    assert ops == (["BatchNormalization"] if fused else ["BatchNormalization", "Mul", "Add"])
    (h,) = load_kernel("BatchNormalization")({})(x, *(consts[k] for k in "somv"))
    want = h * consts["c"] + consts["d"]
    np.testing.assert_allclose(program.run({"x": x})["y"], want, rtol=1e-5, atol=1e-5)


def small_types_graph() -> dict:
    """bfloat16 in (ONNX's long name), computed, then cast to float8 and int4 (short names)."""
    return {
        "name": "small",
        "inputs": {"x": {"dtype": "bfloat16", "shape": "[n]"}},
        "nodes": [{"name": "s", "op": "Softmax", "inputs": ["x"], "outputs": ["p"]},
                  {"name": "m", "op": "Mul", "inputs": ["x", "x"], "outputs": ["sq"]},
                  {"name": "c8", "op": "Cast", "inputs": ["sq"], "outputs": ["f8"],
                   "attrs": {"to": 17}},
                  {"name": "c4", "op": "Cast", "inputs": ["x"], "outputs": ["i4"],
                   "attrs": {"to": 22}}],
        "outputs": {"p": {"dtype": "bf16"}, "f8": {"dtype": "f8e4m3fn"},
                    "i4": {"dtype": "int4"}},
    }


def test_small_types_run_checked_with_ml_dtypes():
    import ml_dtypes

    x = np.array([0.5, -3.0, 30.0], dtype=ml_dtypes.bfloat16)
    out = shape_logic.run(small_types_graph(), {"x": x})
    assert out["p"].dtype == ml_dtypes.bfloat16 and out["p"].shape == (3,)
    e = np.exp(x.astype(np.float64) - 30)
    np.testing.assert_allclose(out["p"].astype(np.float64), e / e.sum(), rtol=2 ** -8)
    # 900 is beyond float8e4m3fn's 448: saturated (the default)
    assert out["f8"].dtype == ml_dtypes.float8_e4m3fn
    assert out["f8"].astype(np.float32).tolist() == [0.25, 9.0, 448.0]
    assert out["i4"].dtype == ml_dtypes.int4 and out["i4"].tolist()[:2] == [0, -3]
    with pytest.raises(BadInput, match="dtype f32, the graph wants bf16"):
        shape_logic.run(small_types_graph(), {"x": x.astype(F32)})


def test_cli_run_reads_small_types_from_raw_npy(tmp_path, capsys):
    import json

    import ml_dtypes

    (tmp_path / "g.json").write_text(json.dumps(small_types_graph()))
    np.save(tmp_path / "x.npy", np.array([1.0, 2.0], dtype=ml_dtypes.bfloat16))  # raw |V2
    assert main(["run", str(tmp_path / "g.json"), "--input", f"x={tmp_path / 'x.npy'}"]) == 0
    assert "f8: float8_e4m3fn [2]" in capsys.readouterr().out


@pytest.mark.parametrize("threads, others", [(1, 0), (None, 0), ("auto", 0), ("auto", 5)])
def test_blas_threads_while_running(monkeypatch, threads, others):
    """BLAS runs on `blas_threads` threads during a run and is restored after; None
    leaves it as configured; "auto" (the default) gives it the run's threads when no
    other process's thread is running, else one (kernels/run_threads.py)."""
    from threadpoolctl import threadpool_info, threadpool_limits

    from shape_logic.kernels import run_threads, workers
    from shape_logic.kernels.MatMul import MatMul

    monkeypatch.setattr(workers, "available", lambda: 2)
    monkeypatch.setattr(run_threads, "others_running", lambda proc="/proc": others)
    monkeypatch.setattr(run_threads, "RECHECK", 0.0)
    seen = []
    real = MatMul.run
    monkeypatch.setattr(MatMul, "run", lambda self, *a, **k: (
        seen.append([i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]),
        real(self, *a, **k))[1])
    with threadpool_limits(limits=3, user_api="blas"):
        before = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
        program = Program(mlp()) if threads == "auto" else Program(mlp(), blas_threads=threads)
        out = program.run(feeds())
        after = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
    assert out["y/out"].shape == (4, 2) and before == after
    want = {1: 1, None: 3, "auto": 2 if others == 0 else 1}[threads]
    assert seen == [[want] * len(before)]


def test_an_opset_6_broadcast_is_not_folded_as_numpy_aligns_it():
    """Before opset 7, Mul's B with broadcast = 1 and axis = 0 scales the rows of a [2, 2]
    BatchNormalization output, where NumPy's alignment would scale its channels: no fold."""
    from shape_logic.kernels import load_kernel

    rng = np.random.default_rng(3)
    consts = {k: rng.uniform(0.5, 1.5, (2,)).astype(F32) for k in "somvc"}
    g = {"opset": 6, "inputs": {"x": {"dtype": "f32", "shape": "[2, 2]"}},
         "initializers": {k: {"dtype": "f32", "shape": [2], "data": v.tolist()}
                          for k, v in consts.items()},
         "nodes": [{"name": "bn", "op": "BatchNormalization",
                    "inputs": ["x", "s", "o", "m", "v"], "outputs": ["h"], "attrs": {"is_test": 1}},
                   {"name": "mul", "op": "Mul", "inputs": ["h", "c"], "outputs": ["y"],
                    "attrs": {"broadcast": 1, "axis": 0}}],
         "outputs": {"y": {}}}
    x = rng.standard_normal((2, 2)).astype(F32)
    program = Program(g)
    assert [s.node.op for s in program.steps] == ["BatchNormalization", "Mul"]
    (h,) = load_kernel("BatchNormalization")({"is_test": 1}, opset=6)(
        x, *(consts[k] for k in "somv"))
    np.testing.assert_allclose(program.run({"x": x})["y"], h * consts["c"][:, None], rtol=1e-6)
