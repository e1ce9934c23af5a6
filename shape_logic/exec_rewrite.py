"""What the executor does to a graph once, before any run (ONNX Runtime's basic graph
optimizations, kept checkable):

- constant folding: a node whose inputs are all constants runs here, once (ONNX's light
  models make their weights with ConstantOfShape); its outputs are still checked
  against their inferred shapes on every run;
- BatchNormalization + per-channel Mul/Add fusion, into the normalization's scale/bias;
- Conv + BatchNormalization fusion: an inference BatchNormalization of a Conv's output,
  with constant weights and statistics, is folded into the Conv's weights and bias.
  The Conv's own output is no longer made, but its inferred shape is checked against
  the fused result (BatchNormalization keeps the shape);
- Conv + Relu fusion (ONNX Runtime's FusedConv): a Relu that alone reads a Conv's output
  runs in place on the Conv's new result; checked the same way (Relu keeps the shape);
  likewise a Relu after an inference BatchNormalization; such a Relu moves past a
  MaxPool that alone reads its output (it then runs on the pooled output);
- a Conv's constant bias moved into the pad-free Conv that alone reads its output;
- Conv + Add fusion: a residual Add of a Conv's output runs in place on its result;
- freeing: each intermediate is dropped after its last use.
"""
from __future__ import annotations

import dataclasses

import numpy as np

# ops whose outputs change from run to run: never folded
NOT_FOLDED = {"Dropout", "RandomNormal", "RandomUniform", "RandomNormalLike",
              "RandomUniformLike", "Multinomial", "Bernoulli"}


def plain(node, op: str) -> bool:
    """Whether `node` is ONNX's operator `op`: the rewrites read its layout and attributes as
    ONNX's (a com.microsoft.nchwc Conv of the same name holds blocked tensors and filters)."""
    return node.op == op and node.domain in ("", "ai.onnx")


def uses(step) -> list:
    """The tensors a step reads: its node's inputs and, for a kernel running a body, the
    tensors of the graph around the body that it uses (kernels/bodies.py)."""
    return step.node.inputs + list(getattr(step.kernel, "outer_names", ()))


def give_outer(kernel, env: dict) -> None:
    """Hand a body-running kernel the values of the outer tensors it uses."""
    names = getattr(kernel, "outer_names", None)
    if names:
        kernel.outer_values = {n: env[n] for n in names if n in env}


def fold_constants(steps, constants: dict, folded: dict, fail) -> list:
    """Run the steps whose inputs are all known now; returns the steps left.
    `folded` gets tensor -> origin; `fail(node, args, exc)` makes the error."""
    kept = []
    for step in steps:
        node = step.node
        if node.op in NOT_FOLDED or not all(t in constants for t in uses(step) if t):
            kept.append(step)
            continue
        args = [constants[t] if t else None for t in node.inputs]
        give_outer(step.kernel, constants)
        try:
            with np.errstate(all="ignore"):
                outs = step.kernel(*args)
        except Exception as e:  # noqa: BLE001  (any kernel failure: one line, as at run time)
            raise fail(node, args, e) from None
        for t, arr, origin in zip(node.outputs, outs, step.origins):
            if t:
                constants[t] = arr
                folded[t] = origin
    return kept


def readers_and_producers(steps) -> tuple[dict, dict]:
    """{tensor: the steps that read it (bodies' outer tensors included)}, {tensor: its step}."""
    readers: dict[str, list] = {}
    for step in steps:
        for t in uses(step):
            if t:
                readers.setdefault(t, []).append(step)
    producer = {t: step for step in steps for t in step.node.outputs if t}
    return readers, producer


def fuse_conv_batchnorm(steps, constants: dict, outputs: set) -> list:
    """Fold each inference BatchNormalization that alone reads a Conv's output into it."""
    readers, producer = readers_and_producers(steps)
    drop = set()
    for bn in steps:
        node = bn.node
        if node.op != "BatchNormalization" or not _inference(bn) or len(node.inputs) != 5:
            continue
        x = node.inputs[0]
        conv = producer.get(x)
        if conv is None or not plain(conv.node, "Conv") or x in outputs or len(readers[x]) != 1:
            continue
        params = node.inputs[1:] + conv.node.inputs[1:]
        if not all(t in constants for t in params if t):
            continue
        w_name = conv.node.inputs[1]
        b_name = conv.node.inputs[2] if len(conv.node.inputs) > 2 else ""
        scale, bias, mean, var = (constants[t] for t in node.inputs[1:])
        w = constants[w_name]
        eps = bn.kernel.kw["epsilon"]
        a = scale.astype(np.float64) / np.sqrt(var.astype(np.float64) + eps)
        b0 = constants[b_name].astype(np.float64) if b_name else 0.0
        new_w = (w * a.reshape((-1,) + (1,) * (w.ndim - 1))).astype(w.dtype)
        new_b = ((b0 - mean) * a + bias).astype(w.dtype)
        tag = f"{w_name}#fused:{node.name}"
        constants[tag + ":W"] = new_w
        constants[tag + ":B"] = new_b
        fused_node = dataclasses.replace(conv.node, inputs=[conv.node.inputs[0], tag + ":W",
                                                            tag + ":B"],
                                         outputs=list(node.outputs[:1]))
        origin = f'output 0 of BatchNormalization node "{node.name}" (fused into Conv ' \
                 f'node "{conv.node.name}")'
        conv_origin = f'output 0 of Conv node "{conv.node.name}" (fused with ' \
                      f'BatchNormalization node "{node.name}")'
        carried = bn.aliases[0] if bn.aliases else []
        fused = dataclasses.replace(conv, node=fused_node, origins=[origin],
                                    aliases=[[(x, conv_origin)] + carried])
        steps[steps.index(conv)] = fused
        drop.add(id(bn))
    return [s for s in steps if id(s) not in drop]


def fuse_conv_relu(steps, outputs: set) -> list:
    """Run each Relu that alone reads a Conv's output inside the Conv (kernels/Conv.py
    `relu`: in place on its result, which no other tensor shares); likewise after an
    inference BatchNormalization of one output (DenseNet's BN -> Relu -> Conv)."""
    readers, producer = readers_and_producers(steps)
    drop = set()
    for relu in steps:
        node = relu.node
        if node.op != "Relu" or len(node.inputs) != 1 or not node.outputs[0]:
            continue
        x = node.inputs[0]
        conv = producer.get(x)
        if conv is None or getattr(conv.kernel, "relu", True) or x in outputs \
                or len(readers[x]) != 1 or not (plain(conv.node, "Conv") or (
                    conv.node.op == "BatchNormalization" and _inference(conv)
                    and len(conv.node.outputs) == 1)):
            continue
        conv.kernel.relu = True
        fused_node = dataclasses.replace(conv.node, outputs=list(node.outputs[:1]))
        steps[steps.index(conv)] = _fused_into(conv, node, fused_node, x)
        drop.add(id(relu))
    return [s for s in steps if id(s) not in drop]


def pool_after_relu(steps, outputs: set) -> list:
    """Move a Relu fused into a Conv or BatchNormalization (`relu`) past the MaxPool that
    alone reads its output: max is monotone, so MaxPool(Relu(x)) = Relu(MaxPool(x)),
    and the Relu then passes over the pooled output, a quarter of the elements for a
    3x3/2 or 2x2/2 pool (squeezenet's first conv, 64 x 111 x 111: ~85 us a run). Only
    where every window holds an input element (no dilation, pads below the kernel, no
    ceil_mode): a window of padding alone would give the pad value, not 0."""
    readers, producer = readers_and_producers(steps)
    for pool in steps:
        node = pool.node
        if not plain(node, "MaxPool") or len(node.outputs) != 1 or not node.outputs[0] \
                or not _windows_hold_input(pool.kernel.kw):
            continue
        t = node.inputs[0]
        src = producer.get(t)
        if src is None or not getattr(src.kernel, "relu", False) or t in outputs \
                or len(readers[t]) != 1 or src.node.op not in ("Conv", "BatchNormalization"):
            continue
        src.kernel.relu = False
        pool.kernel.relu = True
    return steps


def _windows_hold_input(kw: dict) -> bool:
    kernel = kw.get("kernel_shape") or ()
    pads = kw.get("pads") or [0] * (2 * len(kernel))
    return bool(kernel) and kw.get("auto_pad", "NOTSET") in ("NOTSET", "VALID") \
        and not kw.get("ceil_mode") and all(d == 1 for d in kw.get("dilations") or ()) \
        and len(pads) == 2 * len(kernel) \
        and all(p < k for p, k in zip(pads, list(kernel) * 2))


def _fused_into(conv, node, fused_node, made: str):
    """The Conv's step computing `node`'s output instead (as `fused_node`): the Conv's own
    output `made` is no longer made, and is checked as an alias of the result."""
    origin = f'output 0 of {node.op} node "{node.name}" (fused into {conv.node.op} node ' \
             f'"{conv.node.name}")'
    carried = conv.aliases[0] if conv.aliases else []
    return dataclasses.replace(conv, node=fused_node, origins=[origin],
                               aliases=[carried + [(made, conv.origins[0])]])


def fuse_conv_add(steps, outputs: set, dims_of) -> list:
    """Run each two-input Add or Sum that alone reads a Conv's output inside the Conv, in
    place on its new result, when the other input has the same (concrete, solved) shape:
    a residual connection (ShuffleNet, ResNet) then costs no new array, and a Relu after
    it fuses too (fuse_conv_relu runs again). The fused step takes the Add's place, where
    the other input is made. The same operation on the same values: the same bits."""
    readers, producer = readers_and_producers(steps)
    for add in list(steps):
        node = add.node
        if node.op not in ("Add", "Sum") or len(node.inputs) != 2 or not node.outputs[0]:
            continue
        for t, other in (node.inputs, node.inputs[::-1]):
            conv = producer.get(t)
            if conv is None or not plain(conv.node, "Conv") or t == other or t in outputs \
                    or len(readers[t]) != 1 or getattr(conv.kernel, "relu", True) \
                    or getattr(conv.kernel, "n_inputs", None) != (2, 3):
                continue
            shape = dims_of(t)
            if shape is None or shape != dims_of(other):
                continue
            conv.kernel.n_inputs = (2, 4)  # x, w, bias or absent, the addend
            ins = conv.node.inputs + [""] * (3 - len(conv.node.inputs))
            fused_node = dataclasses.replace(conv.node, inputs=ins + [other],
                                             outputs=list(node.outputs[:1]))
            steps[steps.index(add)] = _fused_into(conv, node, fused_node, t)
            steps.remove(conv)
            readers, producer = readers_and_producers(steps)
            break
    return steps


def push_conv_bias(steps, constants: dict, outputs: set) -> list:
    """Move the constant bias of a Conv whose output only a pad-free Conv reads into that
    Conv's bias: B(y + b) = B(y) + (B's weights summed over their taps) @ b per group,
    since without padding every tap of B reads a biased value. ShuffleNet's depthwise
    convolutions then skip a pass over their output. Not with a Relu fused in between
    (it is not linear). Equal up to float rounding (the sums are made in float64)."""
    readers, producer = readers_and_producers(steps)
    for i, a in enumerate(steps):
        node = a.node
        if not plain(node, "Conv") or len(node.inputs) < 3 or not node.inputs[2] \
                or node.inputs[2] not in constants or getattr(a.kernel, "relu", True):
            continue
        t = node.outputs[0]
        users = readers.get(t, [])
        if t in outputs or len(users) != 1 or not plain(users[0].node, "Conv"):
            continue
        b_step = users[0]
        kw = b_step.kernel.kw
        if b_step.node.inputs[0] != t or b_step.node.inputs[1] not in constants \
                or t in b_step.node.inputs[1:] or kw["auto_pad"] not in ("NOTSET", "VALID") \
                or any(kw["pads"] or ()):
            continue
        w = constants[b_step.node.inputs[1]]
        bias = constants[node.inputs[2]].astype(np.float64)
        order = getattr(a.kernel, "order", None)
        if order is not None:  # a's result channel j is its output channel argsort(order)[j]
            bias = bias[np.argsort(order)]
        m, group = w.shape[0], kw["group"]
        if w.ndim < 3 or bias.shape != (w.shape[1] * group,) or m % group:
            continue
        taps = w.reshape(m, w.shape[1], -1).astype(np.float64).sum(axis=2)  # [M, C/G]
        shift = (taps * bias.reshape(group, -1)[np.arange(m) // (m // group)]).sum(axis=1)
        old = b_step.node.inputs[2] if len(b_step.node.inputs) > 2 else ""
        new_b = shift + (constants[old].astype(np.float64) if old else 0.0)
        tag = f"{b_step.node.inputs[1]}#bias-of:{node.name}"
        constants[tag] = new_b.astype(w.dtype)
        steps[i] = dataclasses.replace(a, node=dataclasses.replace(node, inputs=node.inputs[:2]))
        j = steps.index(b_step)
        steps[j] = dataclasses.replace(b_step, node=dataclasses.replace(
            b_step.node, inputs=b_step.node.inputs[:2] + [tag] + b_step.node.inputs[3:]))
        readers, producer = readers_and_producers(steps)
    return steps


def fuse_batchnorm_affine(steps, constants: dict, outputs: set, rank_of) -> list:
    """Fold a per-channel constant Mul or Add after an inference BatchNormalization into
    its scale and bias (DenseNet's BN -> Mul -> Add): scale*v, bias*v for Mul, bias+v for
    Add. Needs the rank of the BatchNormalization's output (`rank_of`, from the solved
    shapes; None when unknown: then nothing is fused). Repeats while something folds."""
    changed = True
    while changed:
        changed = False
        readers: dict[str, list] = {}
        for step in steps:
            for t in step.node.inputs:
                if t:
                    readers.setdefault(t, []).append(step)
        for i, bn in enumerate(steps):
            node = bn.node
            if node.op != "BatchNormalization" or not _inference(bn) \
                    or not all(t in constants for t in node.inputs[1:5]):
                continue
            t = node.outputs[0]
            users = readers.get(t, [])
            if t in outputs or len(users) != 1 or users[0].node.op not in ("Mul", "Add"):
                continue
            op = users[0]
            others = [u for u in op.node.inputs if u != t]
            if len(op.node.inputs) != 2 or len(others) != 1 or others[0] not in constants \
                    or op.node.attrs.get("broadcast"):  # (before opset 7: Add-6's own way)
                continue
            channels = constants[node.inputs[1]].shape[0]
            v = _per_channel(constants[others[0]], channels, rank_of(t))
            if v is None:
                continue
            scale, bias = constants[node.inputs[1]], constants[node.inputs[2]]
            if op.node.op == "Mul":
                scale, bias = scale * v, bias * v
            else:
                bias = bias + v
            tag = f"{node.inputs[1]}#fused:{op.node.name}"
            constants[tag + ":scale"] = scale.astype(constants[node.inputs[1]].dtype)
            constants[tag + ":bias"] = bias.astype(constants[node.inputs[2]].dtype)
            new_node = dataclasses.replace(node, inputs=[node.inputs[0], tag + ":scale",
                                                         tag + ":bias", *node.inputs[3:5]],
                                           outputs=list(op.node.outputs[:1]))
            origin = f'output 0 of {op.node.op} node "{op.node.name}" (fused into ' \
                     f'BatchNormalization node "{node.name}")'
            carried = (bn.aliases[0] if bn.aliases else []) + [(t, bn.origins[0])]
            steps[i] = dataclasses.replace(bn, node=new_node, origins=[origin],
                                           aliases=[carried])
            steps = [s for s in steps if s is not op]
            changed = True
            break
    return steps


def _per_channel(c: np.ndarray, channels: int, rank: int | None):
    """c as a [channels] vector if, broadcast against an [N, C, ...] tensor of rank `rank`,
    it scales or shifts each channel without changing the shape; else None."""
    if rank is None or c.ndim > rank:
        return None
    if c.size == 1:
        return np.full(channels, c.reshape(-1)[0], dtype=c.dtype)
    shape = (1,) * (rank - c.ndim) + c.shape  # NumPy aligns the trailing axes
    if rank >= 2 and shape[1] == channels and all(d == 1 for i, d in enumerate(shape)
                                                  if i != 1):
        return c.reshape(channels)
    return None


def _inference(step) -> bool:
    kw = step.kernel.kw
    outs = [t for t in step.node.outputs if t]
    return not kw.get("training_mode") and len(outs) == 1 and step.node.outputs[0]


def assign_frees(steps, outputs: set) -> None:
    """Give each step the tensors whose last use it is (graph outputs are kept)."""
    last: dict[str, int] = {}
    for i, step in enumerate(steps):
        for t in uses(step) + step.node.outputs:
            if t:
                last[t] = i
    for step in steps:
        step.free = []
    for t, i in last.items():
        if t not in outputs:
            steps[i].free.append(t)


def drop_unused_constants(steps, constants: dict, outputs: set) -> None:
    used = {t for step in steps for t in uses(step)} | outputs
    for t in list(constants):
        if t not in used:  # read only by folded or fused nodes: not needed at run time
            del constants[t]
