"""Tensors filled with one value (schema.lp's fill/2): made by ConstantOfShape and an
Expand of one element, carried through copies, selections, casts, arithmetic and
reductions, read as the value of a one-element tensor and by NonZero's count.
torch.export writes Idefics3's patch positions as arange(sum(ones(1, h//8, w//8)[0][:, 0]))
and NonZero over that all-true mask: both are sizes of h and w, not fresh names."""
import numpy as np

import shape_logic
from shape_logic import solve


def _i64(data, shape=None):
    return {"dtype": "i64", "data": data, **({} if shape is None else {"shape": shape})}


def _mask_graph(tail):
    """pixel_values [1, 3, h, w] -> ones(1, h//8, w//8) as a bool mask (Expand of 1.0,
    Cast), then `tail` (nodes reading "mask")."""
    return {
        "opset": 18,
        "inputs": {"x": {"dtype": "f32", "shape": "[1, 3, h, w]"}},
        "initializers": {"two": _i64(2, []), "three": _i64(3, []), "eight": _i64(8, []),
                         "zero": _i64(0, []), "one_v": _i64([1]), "zero_v": _i64([0]),
                         "flat": _i64([-1]),
                         "onef": {"dtype": "f32", "shape": [], "data": 1.0},
                         "zerof": {"dtype": "f32", "shape": [], "data": 0.0}},
        "nodes": [
            {"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
            {"op": "Gather", "inputs": ["s", "two"], "outputs": ["hh"]},
            {"op": "Gather", "inputs": ["s", "three"], "outputs": ["ww"]},
            {"op": "Div", "inputs": ["hh", "eight"], "outputs": ["h8"]},
            {"op": "Div", "inputs": ["ww", "eight"], "outputs": ["w8"]},
            {"op": "Reshape", "inputs": ["h8", "flat"], "outputs": ["h8v"]},
            {"op": "Reshape", "inputs": ["w8", "flat"], "outputs": ["w8v"]},
            {"op": "Concat", "inputs": ["one_v", "h8v", "w8v"], "outputs": ["shp"],
             "attrs": {"axis": 0}},
            {"op": "Expand", "inputs": ["onef", "shp"], "outputs": ["ones"]},
            {"op": "Cast", "inputs": ["ones"], "outputs": ["mask"], "attrs": {"to": 9}},
            *tail,
        ],
    }


def idefics3_positions():
    """Idefics3's vision embeddings: position ids over the patches of the first image's
    mask, arange(0.0, float(mask[0][:, 0].sum()), 1.0) and its width's twin."""
    return _mask_graph([
        {"op": "Slice", "inputs": ["mask", "zero_v", "one_v", "zero_v"], "outputs": ["m0"]},
        {"op": "Squeeze", "inputs": ["m0", "zero_v"], "outputs": ["m"]},
        {"op": "Gather", "inputs": ["m", "zero"], "outputs": ["col"], "attrs": {"axis": 1}},
        {"op": "Gather", "inputs": ["m", "zero"], "outputs": ["row"], "attrs": {"axis": 0}},
        {"op": "Cast", "inputs": ["col"], "outputs": ["col_i"], "attrs": {"to": 7}},
        {"op": "Cast", "inputs": ["row"], "outputs": ["row_i"], "attrs": {"to": 7}},
        {"op": "ReduceSum", "inputs": ["col_i"], "outputs": ["n_h"], "attrs": {"keepdims": 0}},
        {"op": "ReduceSum", "inputs": ["row_i"], "outputs": ["n_w"], "attrs": {"keepdims": 0}},
        {"op": "Cast", "inputs": ["n_h"], "outputs": ["n_hf"], "attrs": {"to": 1}},
        {"op": "Cast", "inputs": ["n_w"], "outputs": ["n_wf"], "attrs": {"to": 1}},
        {"op": "Range", "inputs": ["zerof", "n_hf", "onef"], "outputs": ["pos_h"]},
        {"op": "Range", "inputs": ["zerof", "n_wf", "onef"], "outputs": ["pos_w"]},
        # the patch indices of the whole mask: every one of them
        {"op": "Reshape", "inputs": ["m", "flat"], "outputs": ["mf"]},
        {"op": "NonZero", "inputs": ["mf"], "outputs": ["idx"]},
    ])


def test_idefics3_positions_have_the_mask_sums_length():
    sol = solve(idefics3_positions())
    assert sol.status == "ok"
    assert sol.shape("ones") == "[1, h//8, w//8]" and sol.shape("col_i") == "[h//8]"
    assert sol.shape("n_h") == "[]"
    assert sol.shape("pos_h") == "[h//8]" and sol.shape("pos_w") == "[w//8]"
    assert sol.shape("idx") == "[1, (h//8)*(w//8)]"
    assert "ranges" not in sol.to_json()


def test_the_executor_agrees():
    g = idefics3_positions()
    g["outputs"] = {"pos_h": {}, "pos_w": {}, "idx": {}}
    x = np.zeros((1, 3, 40, 72), np.float32)
    out = shape_logic.run(g, {"x": x})  # every tensor checked against its inferred shape
    np.testing.assert_array_equal(out["pos_h"], np.arange(5, dtype=np.float32))
    assert out["pos_w"].shape == (9,) and out["idx"].shape == (1, 45)
    assert out.data_dependent == {}


def test_nonzero_counts_every_element_of_an_expanded_one():
    sol = solve(_mask_graph([
        {"op": "NonZero", "inputs": ["ones"], "outputs": ["nz"]},
        {"op": "NonZero", "inputs": ["mask"], "outputs": ["nzb"]},
    ]))
    assert sol.shape("nz") == "[3, (h//8)*(w//8)]"
    assert sol.shape("nzb") == "[3, (h//8)*(w//8)]"


def test_nonzero_of_a_zero_fill_counts_none():
    g = _mask_graph([
        {"op": "Sub", "inputs": ["ones", "ones"], "outputs": ["zeros"]},
        {"op": "NonZero", "inputs": ["zeros"], "outputs": ["nz"]},
    ])
    assert solve(g).shape("nz") == "[3, 0]"


def test_reductions_of_a_fill():
    # ones like x [n, 4]: their mean, maximum and minimum are 1 (each reduces at least
    # one: symbols are >= 1), a sum over axis 1 is 4, over both 4*n
    g = {"opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[n, 4]"}},
         "initializers": {"onef": {"dtype": "f32", "shape": [], "data": 1.0},
                          "flat": _i64([-1]), "axis1": _i64([1]), "zero_v": _i64([0]),
                          "one_v": _i64([1])},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
                   {"op": "Expand", "inputs": ["onef", "s"], "outputs": ["ones"]},
                   {"op": "Cast", "inputs": ["ones"], "outputs": ["oi"], "attrs": {"to": 7}},
                   {"op": "ReduceMean", "inputs": ["ones"], "outputs": ["mean"]},
                   {"op": "ReduceMax", "inputs": ["oi"], "outputs": ["mx"],
                    "attrs": {"keepdims": 0}},
                   {"op": "ReduceMin", "inputs": ["oi", "axis1"], "outputs": ["mn"]},
                   {"op": "ReduceSum", "inputs": ["oi", "axis1"], "outputs": ["rows"],
                    "attrs": {"keepdims": 0}},
                   {"op": "ReduceSum", "inputs": ["oi"], "outputs": ["all"]},
                   {"op": "Cast", "inputs": ["mean"], "outputs": ["mean_i"],
                    "attrs": {"to": 7}},
                   {"op": "Reshape", "inputs": ["mean_i", "flat"], "outputs": ["mean_v"]},
                   {"op": "Reshape", "inputs": ["mx", "flat"], "outputs": ["mx_v"]},
                   {"op": "Slice", "inputs": ["mn", "zero_v", "one_v", "zero_v"],
                    "outputs": ["mn0"]},
                   {"op": "Reshape", "inputs": ["mn0", "flat"], "outputs": ["mn_v"]},
                   {"op": "Slice", "inputs": ["rows", "zero_v", "one_v"], "outputs": ["r0"]},
                   {"op": "Reshape", "inputs": ["all", "flat"], "outputs": ["all_v"]},
                   {"op": "Concat", "inputs": ["mean_v", "mx_v", "mn_v", "r0", "all_v"],
                    "outputs": ["sizes"], "attrs": {"axis": 0}},
                   {"op": "ConstantOfShape", "inputs": ["sizes"], "outputs": ["z"]}]}
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("mean") == "[1, 1]" and sol.shape("mn") == "[n, 1]"
    assert sol.shape("z") == "[1, 1, 1, 4, 4*n]"
    out = shape_logic.run(g, {"x": np.zeros((3, 4), np.float32)})
    assert out["z"].shape == (1, 1, 1, 4, 12)


def test_a_sum_of_no_elements_is_0_and_their_maximum_unknown():
    # ones of shape [2, 0], reduced whole: the sum is 0, the maximum no fill of ours
    g = {"opset": 18,
         "inputs": {"x": {"dtype": "f32", "shape": "[2, 0]"}},
         "initializers": {"flat": _i64([-1]), "one": _i64([1])},
         "nodes": [{"op": "Shape", "inputs": ["x"], "outputs": ["s"]},
                   {"op": "ConstantOfShape", "inputs": ["s"], "outputs": ["c"],
                    "attrs": {"value": {"dtype": "i64", "data": [5]}}},
                   {"op": "ReduceSum", "inputs": ["c"], "outputs": ["t"]},
                   {"op": "Reshape", "inputs": ["t", "flat"], "outputs": ["tv"]},
                   {"op": "ConstantOfShape", "inputs": ["tv"], "outputs": ["e"]},
                   {"op": "ReduceMax", "inputs": ["c"], "outputs": ["m"]},
                   {"op": "Reshape", "inputs": ["m", "flat"], "outputs": ["mv"]},
                   {"op": "ConstantOfShape", "inputs": ["mv"], "outputs": ["f"]}]}
    sol = solve(g)
    assert sol.shape("e") == "[0]"
    assert sol.shape("f") == "[_1]"


def test_an_input_is_no_fill():
    g = {"opset": 18,
         "inputs": {"x": {"dtype": "i64", "shape": "[n]"}},
         "initializers": {"flat": _i64([-1])},
         "nodes": [{"op": "ReduceSum", "inputs": ["x"], "outputs": ["t"],
                    "attrs": {"keepdims": 0}},
                   {"op": "Range", "inputs": ["zero", "t", "one"], "outputs": ["r"]},
                   {"op": "NonZero", "inputs": ["x"], "outputs": ["nz"]}]}
    g["initializers"].update(zero=_i64(0, []), one=_i64(1, []))
    sol = solve(g)
    assert sol.status == "ok"
    assert sol.shape("r") == "[_1]" and sol.shape("nz") == "[1, _c1]"
