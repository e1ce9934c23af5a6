"""Writes the broken-graph corpus (run by hand when a case is added; the files are committed)."""
import json
from pathlib import Path

HERE = Path(__file__).parent / "cases"


def f32(shape):
    return {"dtype": "f32", "shape": shape}


def node(name, op, ins, outs, **attrs):
    n = {"name": name, "op": op, "inputs": ins, "outputs": outs}
    if attrs:
        n["attrs"] = attrs
    return n


def i64(data):
    return {"dtype": "i64", "data": data}


CASES = {
    "transposed_weight": {
        "doc": "A linear layer whose weight is stored [out, in] but used as [in, out].",
        "inputs": {"x": f32("[b, 784]"), "w": f32([256, 784])},
        "nodes": [node("fc", "MatMul", ["x", "w"], ["h"])]},
    "attention_k_not_transposed": {
        "doc": "INTERFACE §5: scores = Q @ Kt where K was transposed the wrong way.",
        "inputs": {"Q": f32("[a, 128]"), "K": f32("[c, 256]")},
        "nodes": [node("kt", "Transpose", ["K"], ["Kt"]), node("s", "MatMul", ["Q", "Kt"], ["S"])]},
    "wrong_reshape_target": {
        "doc": "Reshape [2, 3] into [4, 2]: six elements do not make eight.",
        "inputs": {"x": f32([2, 3])}, "initializers": {"t": i64([4, 2])},
        "nodes": [node("r", "Reshape", ["x", "t"], ["y"])]},
    "reshape_heads_wrong": {
        "doc": "Splitting 768 features into 12 heads of 48 (should be 64).",
        "inputs": {"x": f32("[b, s, 768]")}, "initializers": {"t": i64([0, 0, 12, 48])},
        "nodes": [node("split", "Reshape", ["x", "t"], ["h"])]},
    "concat_mismatched": {
        "doc": "Concatenating feature maps whose spatial sizes differ.",
        "inputs": {"a": f32("[n, 64, 56, 56]"), "b": f32("[n, 32, 28, 28]")},
        "nodes": [node("cat", "Concat", ["a", "b"], ["y"], axis=1)]},
    "concat_rank_mismatch": {
        "doc": "Concat of a rank-2 and a rank-3 tensor.",
        "inputs": {"a": f32("[n, 4]"), "b": f32("[n, 4, 1]")},
        "nodes": [node("cat", "Concat", ["a", "b"], ["y"], axis=0)]},
    "conv_channel_mismatch": {
        "doc": "A conv expecting 3 input channels applied to a 1-channel image.",
        "inputs": {"img": f32("[n, 1, 28, 28]"), "w": f32([16, 3, 3, 3])},
        "nodes": [node("conv", "Conv", ["img", "w"], ["y"], pads=[1, 1, 1, 1])]},
    "conv_chain_channels": {
        "doc": "The second conv expects the first's 16 channels but gets 32-channel weights.",
        "inputs": {"x": f32("[n, 3, h, w]"), "w1": f32([16, 3, 3, 3]), "w2": f32([8, 32, 3, 3])},
        "nodes": [node("c1", "Conv", ["x", "w1"], ["y1"]), node("act", "Relu", ["y1"], ["a1"]),
                  node("c2", "Conv", ["a1", "w2"], ["y2"])]},
    "wrong_flatten_before_gemm": {
        "doc": "Flattening [n, 64, 7, 7] gives 3136 features; the classifier expects 2048.",
        "inputs": {"x": f32("[n, 64, 7, 7]"), "w": f32([10, 2048]), "bias": f32([10])},
        "nodes": [node("flat", "Flatten", ["x"], ["f"], axis=1),
                  node("fc", "Gemm", ["f", "w", "bias"], ["y"], transB=1)]},
    "gemm_missing_transB": {
        "doc": "Gemm with a [out, in] weight but without transB.",
        "inputs": {"x": f32("[n, 512]"), "w": f32([1000, 512])},
        "nodes": [node("fc", "Gemm", ["x", "w"], ["y"])]},
    "broadcast_incompatible": {
        "doc": "Adding a per-channel bias of the wrong length.",
        "inputs": {"x": f32("[b, s, 768]"), "bias": f32([512])},
        "nodes": [node("add", "Add", ["x", "bias"], ["y"])]},
    "output_annotation_contradicts": {
        "doc": "The declared output says 10 classes; the graph computes 1000.",
        "inputs": {"x": f32("[n, 512]"), "w": f32([512, 1000])},
        "nodes": [node("fc", "MatMul", ["x", "w"], ["logits"]),
                  node("sm", "Softmax", ["logits"], ["probs"], axis=-1)],
        "outputs": {"probs": {"shape": "[n, 10]"}}},
    "backward_contradiction": {
        "doc": "Two outputs, solved backward, ask the shared input for different heights.",
        "inputs": {"x": f32("[1, 3, h, h]"), "w": f32([8, 3, 3, 3])},
        "nodes": [node("conv", "Conv", ["x", "w"], ["y"]), node("id", "Identity", ["x"], ["z"])],
        "outputs": {"y": {"shape": "[1, 8, 30, 30]"}, "z": {"shape": "[1, 3, 40, 40]"}}},
    "residual_after_stride": {
        "doc": "A residual add across a strided conv without a projection.",
        "inputs": {"x": f32("[n, 64, 56, 56]"), "w": f32([64, 64, 3, 3])},
        "nodes": [node("conv", "Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2]),
                  node("add", "Add", ["y", "x"], ["out"])]},
    "dtype_mismatch": {
        "doc": "Adding an int64 index tensor to float activations.",
        "inputs": {"x": f32("[n, 4]"), "idx": {"dtype": "i64", "shape": "[n, 4]"}},
        "nodes": [node("add", "Add", ["x", "idx"], ["y"])]},
    "softmax_axis_out_of_range": {
        "doc": "Softmax over axis 3 of a rank-2 tensor.",
        "inputs": {"x": f32("[n, 10]")},
        "nodes": [node("sm", "Softmax", ["x"], ["y"], axis=3)]},
    "matmul_batch_clash": {
        "doc": "Batched matmul whose batch sizes differ and neither is 1.",
        "inputs": {"a": f32([4, 8, 16]), "b": f32([3, 16, 8])},
        "nodes": [node("bmm", "MatMul", ["a", "b"], ["y"])]},
    "reshape_two_inferred": {
        "doc": "A reshape target with two -1 entries.",
        "inputs": {"x": f32("[b, 12]")}, "initializers": {"t": i64([-1, -1])},
        "nodes": [node("r", "Reshape", ["x", "t"], ["y"])]},
    "kernel_larger_than_input": {
        "doc": "A 7x7 kernel on a 5x5 input without padding: the output would be negative.",
        "inputs": {"x": f32([1, 3, 5, 5]), "w": f32([8, 3, 7, 7])},
        "nodes": [node("conv", "Conv", ["x", "w"], ["y"])]},
    "split_sizes_wrong": {
        "doc": "Splitting 96 channels into 32 + 32 + 16.",
        "inputs": {"x": f32("[n, 96]")}, "initializers": {"sizes": i64([32, 32, 16])},
        "nodes": [node("split", "Split", ["x", "sizes"], ["a", "b", "c"], axis=1)]},
    "layernorm_scale_wrong": {
        "doc": "LayerNorm over 768 features with a 512-long scale.",
        "inputs": {"x": f32("[b, s, 768]"), "scale": f32([512])},
        "nodes": [node("ln", "LayerNormalization", ["x", "scale"], ["y"], axis=-1)]},
    "batchnorm_params_wrong": {
        "doc": "BatchNorm parameters for 64 channels after a 128-channel conv.",
        "inputs": {"x": f32("[n, 128, h, w]"), "scale": f32([64]), "bias": f32([64]),
                   "mean": f32([64]), "var": f32([64])},
        "nodes": [node("bn", "BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"])]},
    "gather_axis_out_of_range": {
        "doc": "Gather along axis 2 of a matrix.",
        "inputs": {"table": f32("[vocab, 512]"), "ids": {"dtype": "i64", "shape": "[b, s]"}},
        "nodes": [node("emb", "Gather", ["table", "ids"], ["e"], axis=2)]},
    "transpose_perm_wrong_length": {
        "doc": "A 3-axis permutation applied to a 4-D tensor.",
        "inputs": {"x": f32("[b, h, s, d]")},
        "nodes": [node("t", "Transpose", ["x"], ["y"], perm=[0, 2, 1])]},
    "pool_annotation_wrong": {
        "doc": "A stride-2 pool annotated as keeping the spatial size.",
        "inputs": {"x": f32("[n, 64, 112, 112]")},
        "nodes": [node("pool", "MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2])],
        "annotations": {"y": {"shape": "[n, 64, 112, 112]"}}},
    "where_condition_not_bool": {
        "doc": "Where with a float mask as its condition.",
        "inputs": {"mask": f32("[b, s]"), "x": f32("[b, s]"), "y": f32("[b, s]")},
        "nodes": [node("sel", "Where", ["mask", "x", "y"], ["out"])]},
    "two_independent_mistakes": {
        "doc": "A transposed weight in one branch and a wrong bias in another.",
        "inputs": {"x": f32("[n, 64]"), "w": f32([32, 64]), "z": f32("[n, 10]"),
                   "bias": f32([12])},
        "nodes": [node("fc", "MatMul", ["x", "w"], ["h"]),
                  node("add", "Add", ["z", "bias"], ["zb"])]},
    "symbol_two_values": {
        "doc": "One symbolic length is joined with 128 steps on one path and 256 on another.",
        "inputs": {"tokens": f32("[b, s, 64]"), "a": f32("[b, 128, 8]"), "c": f32("[b, 256, 8]")},
        "nodes": [node("join_a", "Concat", ["tokens", "a"], ["ta"], axis=2),
                  node("join_c", "Concat", ["tokens", "c"], ["tc"], axis=2)]},
}


def chain_with_side_branch() -> dict:
    """10 nodes: a chain of Relus from x to an annotated output that contradicts x, and a
    side branch hanging off the chain that has nothing to do with the conflict."""
    nodes, prev = [], "x"
    for i in range(7):
        nodes.append(node(f"r{i}", "Relu", [prev], [f"t{i}"]))
        prev = f"t{i}"
    nodes.append(node("side0", "Sigmoid", ["t2"], ["s0"]))
    nodes.append(node("side1", "Tanh", ["s0"], ["s1"]))
    nodes.append(node("side2", "Exp", ["s1"], ["s2"]))
    return {"doc": "A 10-node graph where only the chain conflicts; the side branch must not "
                   "appear in the core.",
            "inputs": {"x": f32("[n, 16]")}, "nodes": nodes,
            "outputs": {"t6": {"shape": "[n, 32]"}, "s2": {}}}


CASES["chain_with_side_branch"] = chain_with_side_branch()

if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, g in CASES.items():
        g = {"name": name, **g}
        (HERE / f"{name}.json").write_text(json.dumps(g, indent=1) + "\n")
    print(len(CASES), "cases written")
