"""A WaveNet-like graph for the streaming tests: gated, dilated, causal 1-D convolutions
with residual and skip connections over x : [1, C, T], then a channel mix by MatMul (over
a non-streamed axis), a strided max-pool with end padding and a Slice along time."""
import numpy as np


def wavenet(channels=4, dilations=(1, 2, 4, 8), seed=0, time="T") -> dict:
    rng = np.random.default_rng(seed)
    c = channels
    inits, nodes = {}, []

    def init(name, shape):
        inits[name] = {"dtype": "f32", "shape": list(shape),
                       "data": (rng.standard_normal(shape) * 0.4).astype(np.float32).tolist()}
        return name

    def node(op, ins, out, **attrs):
        nodes.append({"name": out, "op": op, "inputs": ins, "outputs": [out], "attrs": attrs})
        return out

    h, skips = "x", []
    unique = len(set(dilations)) == len(dilations)
    for i, dil in enumerate(dilations):
        d = dil if unique else f"{i}_{dil}"  # the layer's tag in names
        causal = {"dilations": [dil], "pads": [dil, 0]}  # 2 taps: d steps of history
        f = node("Conv", [h, init(f"wf{d}", (c, c, 2)), init(f"bf{d}", (c,))], f"f{d}",
                 **causal)
        g = node("Conv", [h, init(f"wg{d}", (c, c, 2))], f"g{d}", **causal)
        z = node("Mul", [node("Tanh", [f], f"tf{d}"), node("Sigmoid", [g], f"sg{d}")],
                 f"z{d}")
        res = node("Conv", [z, init(f"wr{d}", (c, c, 1))], f"r{d}")
        skips.append(node("Conv", [z, init(f"ws{d}", (c, c, 1))], f"s{d}"))
        h = node("Add", [h, res], f"h{d}")
    total = node("Sum", skips, "skip")
    act = node("Relu", [total], "act")
    tr = node("Transpose", [act], "tr", perm=[0, 2, 1])  # [1, T, C]
    mixed = node("MatMul", [tr, init("mix", (c, 3))], "mixed")  # [1, T, 3]
    y = node("Transpose", [mixed], "y", perm=[0, 2, 1])  # [1, 3, T]
    node("MaxPool", [y], "pooled", kernel_shape=[3], strides=[2], pads=[1, 1])
    inits["start"] = {"dtype": "i64", "shape": [1], "data": [3]}
    inits["end"] = {"dtype": "i64", "shape": [1], "data": [2**62]}
    inits["axis"] = {"dtype": "i64", "shape": [1], "data": [2]}
    node("Slice", [y, "start", "end", "axis"], "late")
    return {"name": "wavenet", "inputs": {"x": {"dtype": "f32", "shape": f"[1, {c}, {time}]"}},
            "initializers": inits, "nodes": nodes,
            "outputs": {"y": {}, "pooled": {}, "late": {}}}
