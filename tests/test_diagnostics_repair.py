"""A node named as the mistake gets a repair hint where another value of its axis makes the
whole graph solve (shape_logic/repair.py)."""
import shape_logic


def _cache(past: str, k: str, axis: int) -> dict:
    """A keys' cache: `past` and the new keys `k` joined along `axis`, then a Relu."""
    return {"name": "kv",
            "inputs": {"past": {"dtype": "f32", "shape": past},
                       "k": {"dtype": "f32", "shape": k}},
            "nodes": [{"name": "cache", "op": "Concat", "inputs": ["past", "k"],
                       "outputs": ["keys"], "attrs": {"axis": axis}},
                      {"name": "act", "op": "Relu", "inputs": ["keys"], "outputs": ["y"]}],
            "outputs": {"y": {}}}


def test_a_concat_along_the_heads_is_told_its_axis():
    # [b, 4, 3, 8] and [b, 4, 5, 8] joined along the heads: their 3 and 5 rows clash. Along
    # the batch or the head size they clash too; along the rows the graph solves
    (d,) = shape_logic.solve(_cache("[b, 4, 3, 8]", "[b, 4, 5, 8]", 1)).diagnostics
    assert d.message == 'Concat "cache" needs past.shape[2] == k.shape[2]'
    assert d.notes == ["3 != 5", 'help: if Concat "cache" had axis = 2, the graph would solve']
    # the hint is checked: with it the graph solves
    assert shape_logic.solve(_cache("[b, 4, 3, 8]", "[b, 4, 5, 8]", 2)).status == "ok"


def test_a_negative_axis_is_tried_as_the_axis_it_names():
    # axis -3 is axis 1 of a rank-4 input: the same hint (axis 2 is -2, not offered twice)
    (d,) = shape_logic.solve(_cache("[b, 4, 3, 8]", "[b, 4, 5, 8]", -3)).diagnostics
    assert d.notes[-1] == 'help: if Concat "cache" had axis = 2, the graph would solve'


def test_no_hint_where_no_axis_clears_the_graph():
    # two axes differ (rows and head size): no one axis joins them
    (d,) = shape_logic.solve(_cache("[b, 4, 3, 8]", "[b, 4, 5, 9]", 1)).diagnostics
    assert not any(n.startswith("help:") for n in d.notes), d.notes


def test_no_hint_where_every_other_axis_clears_the_graph():
    # a Gather along axis 2 of a matrix: any axis in range would do, which says only that
    # 2 is out of range (the error's own message)
    g = {"name": "g",
         "inputs": {"table": {"dtype": "f32", "shape": "[100, 16]"},
                    "ids": {"dtype": "i64", "shape": "[n]"}},
         "nodes": [{"name": "emb", "op": "Gather", "inputs": ["table", "ids"],
                    "outputs": ["y"], "attrs": {"axis": 2}}],
         "outputs": {"y": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert not any(n.startswith("help:") for n in d.notes), d.notes


def test_no_hint_that_holds_for_one_input_size_only():
    # [n, 96] split by sizes [32, 32, 16] along the columns (80 for 96): along the rows it
    # clears only where n = 80, which the graph without the Split does not require - the
    # sizes are the mistake, not the axis
    g = {"name": "split",
         "inputs": {"x": {"dtype": "f32", "shape": "[n, 96]"}},
         "initializers": {"sizes": {"dtype": "i64", "shape": "[3]", "data": [32, 32, 16]}},
         "nodes": [{"name": "split", "op": "Split", "inputs": ["x", "sizes"],
                    "outputs": ["a", "b", "c"], "attrs": {"axis": 1}}],
         "outputs": {"a": {}, "b": {}, "c": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert "needs" in d.message or "sizes" in d.message
    assert not any(n.startswith("help:") for n in d.notes), d.notes


def test_the_axis_offered_is_the_one_the_inputs_differ_on():
    # [3, 3, b] and [5, 3, b] joined along the last axis clash at the first: along it the
    # graph solves, along the second not (a Concat's other axes must all agree, so one axis
    # at most clears it)
    (d,) = shape_logic.solve(_cache("[3, 3, b]", "[5, 3, b]", 2)).diagnostics
    assert d.notes[-1] == 'help: if Concat "cache" had axis = 0, the graph would solve'


def test_the_hint_is_in_the_json_notes():
    out = shape_logic.solve(_cache("[b, 4, 3, 8]", "[b, 4, 5, 8]", 1)).to_json()
    (d,) = out["diagnostics"]
    assert d["notes"][-1] == 'help: if Concat "cache" had axis = 2, the graph would solve'


def test_several_errors_get_no_hint():
    # two independent mistakes (two caches along the heads): no one change clears both
    g = _cache("[b, 4, 3, 8]", "[b, 4, 5, 8]", 1)
    g["inputs"]["pv"] = {"dtype": "f32", "shape": "[b, 4, 3, 8]"}
    g["inputs"]["v"] = {"dtype": "f32", "shape": "[b, 4, 6, 8]"}
    g["nodes"].append({"name": "cache_v", "op": "Concat", "inputs": ["pv", "v"],
                       "outputs": ["values"], "attrs": {"axis": 1}})
    g["outputs"]["values"] = {}
    sol = shape_logic.solve(g)
    assert len(sol.diagnostics) == 2
    assert not any(n.startswith("help:") for d in sol.diagnostics for n in d.notes)


def test_a_gemm_with_a_weight_stored_out_by_in_is_told_trans_b():
    # a Linear's weight is stored [out, in]: Gemm without transB multiplies [n, 64] by
    # [10, 64]
    g = {"name": "fc",
         "inputs": {"x": {"dtype": "f32", "shape": "[n, 64]"}},
         "initializers": {"w": {"dtype": "f32", "shape": "[10, 64]"},
                          "b": {"dtype": "f32", "shape": "[10]"}},
         "nodes": [{"name": "fc", "op": "Gemm", "inputs": ["x", "w", "b"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.notes[-1] == 'help: if Gemm "fc" had transB = 1, the graph would solve'


def test_a_transpose_is_told_the_permutation_with_two_entries_swapped():
    # heads split [b, 6, 4, 8] and transposed with perm [0, 2, 3, 1] for [0, 2, 1, 3]: the
    # scores' MatMul then meets the queries' 6 against the keys' 8
    g = {"name": "heads",
         "inputs": {"q": {"dtype": "f32", "shape": "[b, 6, 4, 8]"},
                    "kt": {"dtype": "f32", "shape": "[b, 4, 8, 6]"}},
         "nodes": [{"name": "tq", "op": "Transpose", "inputs": ["q"], "outputs": ["qh"],
                    "attrs": {"perm": [0, 2, 3, 1]}},
                   {"name": "scores", "op": "MatMul", "inputs": ["qh", "kt"],
                    "outputs": ["a"]}],
         "outputs": {"a": {}}}
    sol = shape_logic.solve(g)
    hints = [n for d in sol.diagnostics for n in d.notes if n.startswith("help:")]
    assert hints == ['help: if Transpose "tq" had perm = [0, 2, 1, 3], the graph would solve']


def test_no_hint_that_sizes_an_axis_declared_unknown():
    # x [?, 2] joined with itself along the rows, transposed, times w [3, 2]: 2*? meets 3.
    # Along the columns the graph solves only where x's ? is 3: no repair of the Concat
    g = {"name": "g",
         "inputs": {"x": {"dtype": "f32", "shape": "[?, 2]"},
                    "w": {"dtype": "f32", "shape": "[3, 2]"}},
         "nodes": [{"name": "cat", "op": "Concat", "inputs": ["x", "x"], "outputs": ["c"],
                    "attrs": {"axis": 0}},
                   {"name": "t", "op": "Transpose", "inputs": ["c"], "outputs": ["ct"]},
                   {"name": "m", "op": "MatMul", "inputs": ["ct", "w"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert not any(n.startswith("help:") for n in d.notes), d.notes
    g["inputs"]["x"]["shape"] = "[3, 2]"  # (declared 3, the same change is a repair)
    (d,) = shape_logic.solve(g).diagnostics
    assert d.notes[-1] == 'help: if Concat "cat" had axis = 1, the graph would solve'


def test_a_residual_convolution_without_padding_is_told_its_pads():
    # a 3x3 convolution of a residual block without padding=1: its [1, 4, 6, 6] meets the
    # skip's [1, 4, 8, 8] at the Add
    g = {"name": "res",
         "inputs": {"x": {"dtype": "f32", "shape": "[1, 4, 8, 8]"}},
         "initializers": {"w": {"dtype": "f32", "shape": "[4, 4, 3, 3]"}},
         "nodes": [{"name": "conv", "op": "Conv", "inputs": ["x", "w"], "outputs": ["y"]},
                   {"name": "skip", "op": "Add", "inputs": ["x", "y"], "outputs": ["z"]}],
         "outputs": {"z": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.notes[-1] == 'help: if Conv "conv" had pads = [1, 1, 1, 1], the graph would solve'
    g["nodes"][0]["attrs"] = {"kernel_shape": [3, 3], "dilations": [2, 2]}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.notes[-1] == 'help: if Conv "conv" had pads = [2, 2, 2, 2], the graph would solve'


def test_a_mean_subtracted_without_its_axis_kept_is_told_keepdims():
    # x - mean(x, axis 1) with the mean's axis dropped: [4, 8] against [4]
    g = {"name": "center", "opset": 17,
         "inputs": {"x": {"dtype": "f32", "shape": "[4, 8]"}},
         "nodes": [{"name": "mean", "op": "ReduceMean", "inputs": ["x"], "outputs": ["m"],
                    "attrs": {"axes": [1], "keepdims": 0}},
                   {"name": "sub", "op": "Sub", "inputs": ["x", "m"], "outputs": ["y"]}],
         "outputs": {"y": {}}}
    (d,) = shape_logic.solve(g).diagnostics
    assert d.notes[-1] == 'help: if ReduceMean "mean" had keepdims = 1, the graph would solve'
