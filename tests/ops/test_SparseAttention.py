"""SparseAttention (com.microsoft): rules on data cases (the present is the past's buffer;
the layouts' and lengths' shapes; total_sequence_length's value within the buffer, the
layouts and the rotary caches), and the rules and the kernel against onnxruntime 1.32's CPU
kernel on random block-sparse layouts, GQA heads, packed QKV and rotary embeddings. That
kernel runs only with the past and present in one buffer (it checks the pointers): the
comparison binds them to one OrtValue."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from onnx import helper

from shape_logic.graph import dtype_of_array
from shape_logic.kernels import load_kernel
from shape_logic.testing import check_case, infer
from tests.contrib_ops import MS, _check_symbolic, check_against_onnxruntime, ms_case

OP = "SparseAttention"
HEADS = {"num_heads": 8, "kv_num_heads": 2, "sparse_block_size": 64}
ROWS, COLS, LENGTHS = ("i32", "[l, r]"), ("i32", "[k, c]"), ("i32", "[b]")


def i32(v):
    return np.array(v, np.int32)


def case(inputs, attrs=None, outputs=None):
    return {**ms_case(inputs, attrs, outputs), "n_outputs": 3}


def node(q="[b, s, 512]", k="[b, s, 128]", v="V", past="[b, 2, m, 64]", rows=ROWS,
         cols=COLS, total=("i32", "[1]"), rotary=()):
    return [q, k, v, past, "PV", rows, cols, total, LENGTHS, *rotary]


CASES = {
    "separate q, k, v: the query's shape, the past's buffer": (
        case(node()), {"y0": "[b, s, 512]", "x2": "[b, s, 128]", "y1": "[b, 2, m, 64]",
                       "y2": "[b, 2, m, 64]", "x4": "[b, 2, m, 64]", "x6": "[k, c]",
                       "x8": "[b]", "dtypes": {"y1": "f32", "x5": "i32", "x7": "i32"}}),
    "packed QKV: (8 + 2 * 2) heads of 64": (
        case(node("[b, s, 768]", None, None, "PK")),
        {"y0": "[b, s, 512]", "x3": "[b, 2, _, 64]", "y1": "x3"}),
    "symbolic heads' size": (
        case(node("[b, s, d]", "K", past="PK")),
        {"y0": "[b, s, d]", "x1": "[b, s, 2*(d//8)]", "y1": "[b, 2, _, d//8]"}),
    "backward from the outputs": (
        case(["Q", "K", "V", "PK", "PV", ROWS, COLS, i32(9), LENGTHS],
             outputs={"y0": {"shape": "[b, s, 512]"}, "y1": {"shape": "[b, 2, m, 64]"}}),
        {"x0": "[b, s, 512]", "x1": "[b, s, 128]", "x3": "[b, 2, m, 64]"}),
    "rotary caches: one shape": (
        case(node(rotary=("[p, 32]", "SC")), {**HEADS, "do_rotary": 1}),
        {"x10": "[p, 32]"}),
    "rotary caches without do_rotary: not read": (case(node(rotary=("[p]", "[q, r, t]"))),
                                                  {"x9": "[p]"}),
    "f16": (case([("f16", "[b, s, 512]"), ("f16", "K"), ("f16", "V"), ("f16", "PK"),
                  ("f16", "PV"), ROWS, COLS, ("i32", "[]"), LENGTHS]),
            {"dtypes": {"y0": "f16", "y1": "f16", "x1": "f16"}}),
    "bf16 (the CPU kernel has none)": (
        case([("bf16", "[b, s, 512]"), ("bf16", "K"), ("bf16", "V"), ("bf16", "PK"),
              ("bf16", "PV"), ROWS, COLS, ("i32", "[]"), LENGTHS]), {"dtypes": {"y0": "bf16"}}),
    # errors (test_onnxruntime_rejects_what_the_rules_reject: onnxruntime too, but for the
    # heads not grouped, where its CPU kernel crashes)
    "heads not grouped": (case(node(), {**HEADS, "kv_num_heads": 3}), "error"),
    "head size not a multiple of 8": (case(node("[b, s, 96]", "[b, s, 24]")), "error"),
    "hidden size not whole heads": (case(node("[b, s, 500]", "K")), "error"),
    "packed, not whole heads": (case(node("[b, s, 700]", None, None)), "error"),
    "key and value differ": (case(node(v="[b, s, 64]")), "error"),
    "key of another length": (case(node("[b, 3, 512]", "[b, 2, 128]")), "error"),
    "key without value": (case(node(v=None)), "error"),
    "layouts not dividing the heads": (case(node(rows=("i32", "[3, r]"))), "error"),
    "one column of row indices": (case(node(rows=("i32", "[l, 1]"))), "error"),
    "more nonzeros than blocks * blocks": (case(node(rows=("i32", "[l, 3]"),
                                                     cols=("i32", "[l, 5]"))), "error"),
    "total beyond the buffer": (case(node(past="[b, 2, 64, 64]", total=i32(65))), "error"),
    "total beyond the layouts' blocks": (case(node(rows=("i32", "[1, 2]"), total=i32(65))),
                                         "error"),
    "total of two elements": (case(node(total=("i32", "[2]"))), "error"),
    "rotary without caches": (case(node(), {**HEADS, "do_rotary": 1}), "error"),
    "rotary caches' half above H / 2": (case(node(rotary=("[p, 40]", "SC")),
                                              {**HEADS, "do_rotary": 1}), "error"),
    "rotary over a head size of 8 * odd": (
        case(node("[b, s, 192]", "[b, s, 48]", rotary=("[p, 8]", "SC")),
             {**HEADS, "do_rotary": 1}), "error"),
    "f64": (case([("f64", "[b, s, 512]"), ("f64", "K"), ("f64", "V"), ("f64", "PK"),
                  ("f64", "PV"), ROWS, COLS, ("i32", "[]"), LENGTHS]), "error"),
    "sparse_block_size missing": (case(node(), {"num_heads": 8, "kv_num_heads": 2}), "error"),
}


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    spec, expected = CASES[name]
    spec = {**spec, "attrs": spec["attrs"] or HEADS}
    if expected == "error":
        check_case(OP, spec, expected)
        return
    # a tensor's name for a shape: that tensor's shape; `_` in one: any fresh name
    plain = {t: s for t, s in expected.items()
             if not isinstance(s, str) or s not in expected and "_" not in s}
    sol = check_case(OP, spec, plain)
    for t, s in expected.items():
        if t in plain:
            continue
        if s in expected:
            assert sol.shape(t) == sol.shape(s), (t, s)
        else:
            assert re.fullmatch(re.escape(s).replace("_", "_[0-9]+"), sol.shape(t)), \
                (t, sol.shape(t), s)


def ort_shared(arrays, attrs):
    """onnxruntime's outputs, the past and present key (and value) bound to one buffer."""
    import onnxruntime as ort

    names = ["" if a is None else f"x{k}" for k, a in enumerate(arrays)]
    inputs = [helper.make_tensor_value_info(f"x{k}", helper.np_dtype_to_tensor_dtype(a.dtype),
                                            list(a.shape))
              for k, a in enumerate(arrays) if a is not None]
    outs = [helper.make_empty_tensor_value_info(f"y{k}") for k in range(3)]
    model = helper.make_model(
        helper.make_graph([helper.make_node(OP, names, ["y0", "y1", "y2"], domain=MS, **attrs)],
                          "g", inputs, outs),
        opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(MS, 1)])
    so = ort.SessionOptions()
    so.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    bind = sess.io_binding()
    bind.bind_output("y0")
    buffers = [arrays[3].copy(), arrays[4].copy()]  # (alive while onnxruntime writes them)
    for k, a in enumerate(arrays):
        if k in (3, 4):
            value = ort.OrtValue.ortvalue_from_numpy(buffers[k - 3])
            bind.bind_ortvalue_input(f"x{k}", value)
            bind.bind_ortvalue_output(f"y{k - 2}", value)
        elif a is not None:
            bind.bind_cpu_input(f"x{k}", a)
    sess.run_with_iobinding(bind)
    out = bind.get_outputs()
    return [out[0].numpy()] + buffers


def check_shared(arrays, attrs, tol=1e-4):
    """As check_against_onnxruntime, with the buffer bound: our kernel's outputs (values,
    shapes, dtypes), the rules' shapes and dtypes (total_sequence_length a constant), and
    with every input dim a symbol each output dim without a fresh name."""
    want = ort_shared(arrays, attrs)
    got = load_kernel(OP)(attrs, n_outputs=3, domain=MS)(*arrays)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, (k, g.shape, w.shape, g.dtype)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol,
                                   atol=tol, err_msg=f"output {k}")
    shapes = [None if a is None else a if k == 7 else (dtype_of_array(a), list(a.shape))
              for k, a in enumerate(arrays)]
    sol = infer(OP, shapes, attrs, 3, domain=MS)
    assert sol.status == "ok", [d.to_text() for d in sol.diagnostics]
    for k, w in enumerate(want):
        assert sol.shape(f"y{k}") == str(list(w.shape)), (k, sol.shape(f"y{k}"), w.shape)
        assert sol.dtype(f"y{k}") == dtype_of_array(w)
    _check_symbolic(OP, arrays, attrs, 3, MS, (7,), want)
    return want


def layouts(rng, count, blocks):
    """CSR of `count` random lower-triangular block masks (the diagonal kept), padded by -1."""
    masks = [np.tril(rng.random((blocks, blocks)) < 0.5) | np.eye(blocks, dtype=bool)
             for _ in range(count)]
    nnz = max(int(m.sum()) for m in masks)
    rows = np.stack([np.concatenate([[0], np.cumsum(m.sum(1))]) for m in masks])
    cols = np.full((count, nnz), -1)
    for i, m in enumerate(masks):
        listed = np.nonzero(m)[1]
        cols[i, :len(listed)] = listed
    return rows.astype(np.int32), cols.astype(np.int32)


def inputs(rng, b, s, total, kv, group, h, block, blocks, room, count=1, packed=False,
           rotary=0, dtype=np.float32):
    """SparseAttention's inputs: every batch entry of `total` tokens (onnxruntime's CPU
    kernel misreads batches of other lengths: test_ragged_batches), a buffer of `room`."""
    def f(*shape):
        return (rng.standard_normal(shape) * 0.5).astype(dtype)
    n = kv * group
    q = [f(b, s, (n + 2 * kv) * h), None, None] if packed else \
        [f(b, s, n * h), f(b, s, kv * h), f(b, s, kv * h)]
    arrays = q + [f(b, kv, room, h), f(b, kv, room, h), *layouts(rng, count, blocks),
                  i32(total), np.full(b, total, np.int32)]
    if rotary:
        arrays += [f(total + 2, rotary // 2), f(total + 2, rotary // 2)]
    return arrays


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kv=st.integers(1, 2), group=st.sampled_from([1, 2]),
       block=st.sampled_from([2, 4, 8]), blocks=st.integers(1, 4), data=st.data(),
       packed=st.booleans(), f16=st.booleans())
def test_matches_onnxruntime(seed, kv, group, block, blocks, data, packed, f16):
    rng = np.random.default_rng(seed)
    b = data.draw(st.sampled_from([1, 2]))
    total = data.draw(st.integers(1, blocks * block))
    s = data.draw(st.sampled_from(sorted({total, 1, max(1, total - 2)})))  # prompt or not
    room = data.draw(st.integers(total, blocks * block + 2))
    count = data.draw(st.sampled_from([c for c in (1, 2) if kv * group % c == 0]))
    h, rotary = data.draw(st.sampled_from([(8, 0), (16, 0), (16, 16), (32, 16)]))
    if rotary and total == 1 and b > 1:  # (onnxruntime reads a position id past its one)
        b = 1
    attrs = {"num_heads": kv * group, "kv_num_heads": kv, "sparse_block_size": block,
             **data.draw(st.sampled_from([{}, {"scale": 0.3}]))}
    if rotary:
        attrs.update(do_rotary=1, rotary_interleaved=data.draw(st.sampled_from([0, 1])))
    arrays = inputs(rng, b, s, total, kv, group, h, block, blocks, room, count, packed, rotary,
                    np.float16 if f16 else np.float32)
    check_shared(arrays, attrs, 1e-2 if f16 else 1e-4)


def test_a_step_writes_its_tokens_into_the_buffer():
    # decoding 2 tokens after 5: positions 5 and 6 of the buffer take the new keys (GQA's
    # heads each from its kv head), the rest is the past
    rng = np.random.default_rng(1)
    attrs = {"num_heads": 4, "kv_num_heads": 2, "sparse_block_size": 4}
    arrays = inputs(rng, 2, 2, 7, 2, 2, 8, 4, 3, 10, count=2)
    _, pk, pv = check_shared(arrays, attrs)
    np.testing.assert_array_equal(pk[:, :, 5:7], arrays[1].reshape(2, 2, 2, 8).transpose(
        0, 2, 1, 3))
    keep = np.r_[0:5, 7:10]
    np.testing.assert_array_equal(pv[:, :, keep], arrays[4][:, :, keep])


def test_ragged_batches():
    # batch entries of different key_total_sequence_lengths: onnxruntime's CPU kernel reads
    # the probabilities of the shorter one at the wrong offsets; each entry alone, it agrees
    # with the kernel
    rng = np.random.default_rng(2)
    attrs = {"num_heads": 4, "kv_num_heads": 2, "sparse_block_size": 4}
    arrays = inputs(rng, 2, 1, 7, 2, 2, 8, 4, 2, 8)
    arrays[8] = i32([7, 4])
    y = load_kernel(OP)(attrs, n_outputs=3, domain=MS)(*arrays)[0]
    alone = [a[1:] if k < 5 else a for k, a in enumerate(arrays)]
    alone[7], alone[8] = i32(4), i32([4])
    np.testing.assert_allclose(y[1:], ort_shared(alone, attrs)[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y[:1], ort_shared(arrays, attrs)[0][:1], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("change", [
    {"q": (2, 3, 48)}, {"q": (2, 3, 40)}, {"k": (2, 3, 24), "v": (2, 3, 24)},
    {"v": (2, 3, 8)}, {"k": (2, 2, 16), "v": (2, 2, 16)}, {"k": (1, 3, 16), "v": (1, 3, 16)},
    {"v": None}, {"past": (2, 1, 12, 8)}, {"past": (2, 2, 12, 16)}, {"past": (1, 1, 12, 16)},
    {"past": (2, 1, 2, 16)}, {"past_value": (2, 1, 11, 16)}, {"rows": (3, 4)},
    {"rows": (1, 1)}, {"cols": (1, 10)}, {"cols": (2, 3)}, {"total": i32(13)},
    {"total": i32([3, 3])}, {"lengths": (3,)}, {"attrs": {"do_rotary": 1}},
    {"rotary": (2, 8)}, {"rotary": (9, 16)}, {"dtype": np.float64},
])
def test_onnxruntime_rejects_what_the_rules_reject(change):
    # query [2, 3, 32]: 2 heads of 16 over 1 kv head; a buffer of 12; 3 blocks of 4;
    # onnxruntime refuses each change with the buffer bound too (not for its pointer check)
    rng = np.random.default_rng(3)
    dt = change.get("dtype", np.float32)
    shapes = {"q": (2, 3, 32), "k": (2, 3, 16), "v": (2, 3, 16), "past": (2, 1, 12, 16),
              **change}
    shapes.setdefault("past_value", shapes["past"])
    arrays = [None if shapes[k] is None else rng.standard_normal(shapes[k]).astype(dt)
              for k in ("q", "k", "v", "past", "past_value")]
    rows, cols = layouts(rng, 1, 3)
    arrays += [np.zeros(change["rows"], np.int32) if "rows" in change else rows,
               np.zeros(change["cols"], np.int32) if "cols" in change else cols,
               change.get("total", i32(3)), np.full(change.get("lengths", (2,)), 3, np.int32)]
    attrs = {"num_heads": 2, "kv_num_heads": 1, "sparse_block_size": 4,
             **change.get("attrs", {})}
    if "rotary" in change:
        arrays += [rng.standard_normal(change["rotary"]).astype(dt)] * 2
        attrs["do_rotary"] = 1
    with pytest.raises(Exception):  # noqa: B017 - onnxruntime's errors have no common type
        ort_shared(arrays, attrs)
    assert check_against_onnxruntime(OP, arrays, attrs, 3, const=(7,)) is None, change
