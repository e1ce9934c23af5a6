"""AttnLSTM (com.microsoft): rules/AttnLSTM.lp (on rules/LSTM.lp) on data cases, and the
rules and the kernel against onnxruntime: forward, reverse and bidirectional, with and
without sequence lengths, memory lengths and the attention layer AW. onnxruntime crashes
(it does not reject) without QW, MW, V or M and on empty sizes: those are data cases only."""
import numpy as np
from hypothesis import given, settings, strategies as st

from shape_logic.kernels import load_kernel
from tests.contrib_ops import MS, check_against_onnxruntime
from tests.ops.cases import case_test

# hidden 5 (W, R [d, 20, .], B [d, 40], P [d, 15]), the memory's depth 7, am 3
ATTN = ["[1, 5, 3]", "[1, 7, 3]", "[1, 3]", "[b, t, 7]"]
NO_LSTM_OPTIONALS = [None] * 5
H5 = {"hidden_size": 5}


def lengths(*v):
    """The LSTM's optional inputs with constant sequence_lens only."""
    return [None, np.array(v, np.int32), None, None, None]


def spec(x, w, r="r", optionals=NO_LSTM_OPTIONALS, attn=ATTN, more=(), attrs=H5, n=3,
         **rest):
    return {"inputs": [x, w, r, *optionals, *attn, *more], "attrs": attrs, "n_outputs": n,
            **rest}


CASES = {
    "defaults": (spec("[s, b, i]", "[1, 20, w]"),
                 {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]", "y2": "[1, b, 5]",
                  "x1": "[1, 20, i + 7]", "x2": "[1, 20, 5]"}),
    "W's input from X and the memory": (spec("[s, b, 4]", "w"), {"x1": "[1, 20, 11]"}),
    "X's input from W and the memory": (spec("[s, b, i]", "[1, 20, 11]"),
                                        {"x0": "[s, b, 4]", "bindings": {"i": 4}}),
    "the attention layer sets the state's size": (
        spec("[s, b, 4]", "w", more=[None, "[1, k, z]"]),
        {"x1": "[1, 20, z + 4]", "x13": "[1, 12, z]", "bindings": {"k": 12}}),
    "AW's last axis widens W": (spec("[s, b, 4]", "w", more=[None, "[1, 12, 6]"]),
                                {"x1": "[1, 20, 10]"}),
    "the memory's depth from AW's rows": (
        spec("[s, b, 4]", "[1, 20, 10]", attn=["qw", "mw", "v", "m"],
             more=[None, "[1, 12, 6]"]),
        {"x11": "[b, _2, 7]", "x9": "[1, 7, _1]", "x8": "[1, 5, _1]", "x10": "[1, _1]"}),
    "the attention's sizes from MW": (spec("[s, b, i]", "w", attn=["qw", "[1, m, a]", "v", "mm"]),
                                      {"x8": "[1, 5, a]", "x10": "[1, a]", "x11": "[b, _1, m]",
                                       "x1": "[1, 20, i + m]"}),
    "batch from the memory": (spec("[s, _, i]", "w", attn=ATTN[:3] + ["[9, t, 7]"]),
                              {"y0": "[s, 1, 9, 5]", "x0": "[s, 9, i]"}),
    "every input": (spec("[s, b, i]", "w", "r",
                         ["[1, 40]", ("i32", "[b]"), "[1, b, 5]", "[1, b, 5]", "[1, 15]"],
                         more=[("i32", "[b]"), "[1, 12, 6]"]),
                    {"x1": "[1, 20, i + 6]", "y0": "[s, 1, b, 5]", "y2": "[1, b, 5]"}),
    "reverse": (spec("[s, b, i]", "w", attrs={"hidden_size": 5, "direction": "reverse"}),
                {"y0": "[s, 1, b, 5]", "y1": "[1, b, 5]"}),
    "bidirectional": (spec("[s, b, 4]", "w", attn=["qw", "mw", "v", "[b, t, 7]"],
                           attrs={"hidden_size": 5, "direction": "bidirectional"}),
                      {"x1": "[2, 20, 11]", "x8": "[2, 5, _1]", "x10": "[2, _1]",
                       "y0": "[s, 2, b, 5]", "y2": "[2, b, 5]"}),
    "Y_h alone": (spec("[s, b, i]", "w", n=2), {"y1": "[1, b, 5]"}),
    "double": (spec(("f64", "[s, b, i]"), ("f64", "w"), ("f64", "r"),
                    attn=[("f64", "qw"), ("f64", "mw"), ("f64", "v"), ("f64", "m")]),
               {"dtypes": {"y0": "f64", "x11": "f64", "x1": "f64"}}),
    "valid constant lengths": (spec("[3, 2, i]", "w", "r", lengths(3, 1),
                                    more=[np.array([2, 6], np.int32)],
                                    attn=ATTN[:3] + ["[2, 6, 7]"]),
                               {"y0": "[3, 1, 2, 5]"}),
    # errors
    "no memory (onnxruntime crashes)": ({"inputs": ["x", "w", "r", *[None] * 5, *ATTN[:3]],
                                         "attrs": H5}, "error"),
    "no V, M given": (spec("x", "w", attn=ATTN[:2] + [None, ATTN[3]]), "error"),
    "no hidden_size": (spec("[s, b, i]", "w", attrs={}), "error"),
    "a layout": (spec("[s, b, i]", "w", attrs={"hidden_size": 5, "layout": 0}), "input error"),
    "W too narrow": (spec("[s, b, 4]", "[1, 20, 10]"), "error"),
    "W narrower than the memory": (spec("[s, b, i]", "[1, 20, 6]"), "error"),
    "the memory's batch": (spec("[s, 2, i]", "w", attn=ATTN[:3] + ["[3, t, 7]"]), "error"),
    "MW's depth": (spec("[s, b, i]", "w", attn=["[1, 5, 3]", "[1, 6, 3]", "[1, 3]", ATTN[3]]),
                   "error"),
    "QW's hidden": (spec("[s, b, i]", "w", attn=["[1, 4, 3]", *ATTN[1:]]), "error"),
    "V's size": (spec("[s, b, i]", "w", attn=["[1, 5, 3]", "[1, 7, 3]", "[1, 4]", ATTN[3]]),
                 "error"),
    "AW's rows": (spec("[s, b, i]", "w", more=[None, "[1, 13, 6]"]), "error"),
    "two directions, forward": (spec("[s, b, i]", "[2, 20, w]"), "error"),
    "memory lengths' batch": (spec("[s, 2, i]", "w", more=[("i32", "[3]")]), "error"),
    "memory lengths int64": (spec("[s, b, i]", "w", more=[("i64", "[b]")]), "error"),
    "float16": (spec(("f16", "[s, b, i]"), ("f16", "w"), ("f16", "r"),
                     attn=[("f16", "qw"), ("f16", "mw"), ("f16", "v"), ("f16", "m")]),
                "error"),
    "an empty memory": (spec("[s, b, i]", "w", attn=ATTN[:3] + ["[b, 0, 7]"]), "error"),
    "an empty batch": (spec("[s, 0, i]", "w"), "error"),
    "an empty attention layer": (spec("[s, b, i]", "w", more=[None, "[1, 12, 0]"]), "error"),
    "clip 0": (spec("[s, b, i]", "w", attrs={"hidden_size": 5, "clip": 0.0}), "error"),
    "two activations": (spec("[s, b, i]", "w", attrs={"hidden_size": 5,
                                                      "activations": ["Sigmoid", "Tanh"]}),
                        "error"),
    "a sequence length of 0": (spec("[3, 2, i]", "w", "r", lengths(3, 0),
                                    attn=ATTN[:3] + ["[2, 6, 7]"]), "error"),
    "a memory length beyond the memory": (
        spec("[3, 2, i]", "w", attn=ATTN[:3] + ["[2, 6, 7]"],
             more=[np.array([2, 7], np.int32)]), "error"),
}


test_case = case_test("AttnLSTM", CASES, domain=MS)


SPOILS = ["none", "none", "none", "W's input", "memory batch", "MW's depth", "V", "QW",
          "AW's rows", "P", "directions"]


@settings(max_examples=14, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.integers(1, 3), min_size=7,
                                                       max_size=7),
       direction=st.sampled_from(["forward", "reverse", "bidirectional"]),
       lens=st.booleans(), mem_lens=st.booleans(), layer=st.booleans(), extras=st.booleans(),
       outputs=st.sampled_from([3, 3, 2, 1]), spoil=st.sampled_from(SPOILS))
def test_matches_onnxruntime(seed, sizes, direction, lens, mem_lens, layer, extras, outputs,
                             spoil):
    """sizes: seq, batch, input, hidden, memory steps, memory depth, am; extras: B,
    initial_h, initial_c and P. A spoil makes one shape wrong (onnxruntime rejects it)."""
    rng = np.random.default_rng(seed)
    s, b, i, h, t, m, am = sizes
    d = 2 if direction == "bidirectional" else 1
    aw = am + 1 if layer else None  # (the attention state's size: AW's, or m)
    a = aw or m

    def f(*shape):
        return (0.6 * rng.standard_normal(shape)).astype(np.float32)

    wd = 3 - d if spoil == "directions" else d
    arrays = [f(s, b, i), f(wd, 4 * h, i + a + (spoil == "W's input")), f(wd, 4 * h, h),
              f(wd, 8 * h) if extras else None,
              rng.integers(1, s + 1, b).astype(np.int32) if lens else None,
              f(wd, b, h) if extras else None, f(wd, b, h) if extras else None,
              f(wd, 3 * h + (spoil == "P")) if extras or spoil == "P" else None,
              f(d, h + (spoil == "QW"), am), f(d, m + (spoil == "MW's depth"), am),
              f(d, am + (spoil == "V")), f(b + (spoil == "memory batch"), t, m),
              rng.integers(1, t + 1, b).astype(np.int32) if mem_lens else None,
              f(d, m + h + (spoil == "AW's rows"), a) if layer or spoil == "AW's rows"
              else None]
    while arrays[-1] is None:
        arrays.pop()
    attrs = {"hidden_size": h, "direction": direction}
    got = check_against_onnxruntime("AttnLSTM", arrays, attrs, outputs, rtol=1e-4, atol=1e-5)
    assert (got is None) == (spoil != "none")


def test_onnxruntime_cpu_has_no_double_kernel():
    # the schema's double: the rules and our kernel take it, onnxruntime's CPU kernel not
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s) for s in ([2, 1, 3], [1, 8, 7], [1, 8, 2])]
    arrays += [None] * 5 + [rng.standard_normal(s) for s in ([1, 2, 3], [1, 4, 3], [1, 3],
                                                              [1, 5, 4])]
    attrs = {"hidden_size": 2}
    assert check_against_onnxruntime("AttnLSTM", arrays, attrs, 3, ort_fails_ok=True) is None
    y, y_h, y_c = load_kernel("AttnLSTM")(attrs, n_outputs=3, domain=MS)(*arrays)
    assert y.dtype == np.float64 and y.shape == (2, 1, 1, 2) and np.isfinite(y).all()
    assert y_h.shape == y_c.shape == (1, 1, 2)


def test_activations_take_onnxruntimes_alpha_and_beta():
    # onnxruntime reads alpha and beta in order, for the functions that take them only,
    # with its own defaults (Affine's and ScaledTanh's are 0), names in any case
    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal(s).astype(np.float32) * 0.6
              for s in ([3, 2, 2], [2, 12, 6], [2, 12, 3])]
    arrays += [None, np.array([3, 2], np.int32), None, None, None]
    arrays += [rng.standard_normal(s).astype(np.float32) * 0.6
               for s in ([2, 3, 2], [2, 4, 2], [2, 2], [2, 5, 4])]
    attrs = {"hidden_size": 3, "direction": "bidirectional", "clip": 0.7, "input_forget": 1,
             "activations": ["HardSigmoid", "affine", "ScaledTanh", "sigmoid", "Elu",
                             "Softsign"],
             "activation_alpha": [0.3, 0.7, 0.5, 0.9], "activation_beta": [0.4, 0.1, 1.2]}
    check_against_onnxruntime("AttnLSTM", arrays, attrs, 3, rtol=1e-4, atol=1e-5)
