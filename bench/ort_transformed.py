"""Models as onnxruntime's own tools rewrite them, for us and the peers: its graph optimizer's
saved models (`SessionOptions.optimized_model_filepath` at the extended level: FusedConv,
FusedGemm, FusedMatMul, QuickGelu, ...; at `all`, which adds the machine-specific NCHWc
layout), `quantize_dynamic` (DynamicQuantizeLinear, MatMulInteger, DynamicQuantizeLSTM) and
`quantize_static` in the QOperator format (QLinearConv, QLinearMatMul, QGemm,
QLinearSoftmax, QLinearAveragePool, ...) and the QDQ one. Users bring these files as often
as the exports themselves.

Per model and rewrite, as bench/compare_peers.py scores them (the truths from onnxruntime
running the rewritten model at the model's input sizes): the tensors each tool fully
determines and gets right, the wrong dims, the time; then our totals and, for the tensors
we leave open, the operators that made them (the ones we have no rule file for are named
in our warnings, printed under the model).

    python bench/ort_transformed.py [--set models|hf|zoo|zoo2|zoo3] [--kinds ext,dyn,qop,qdq]
                                    [--only NAME ...]

`--set hf` needs the transformers package (the `bench` extra). The light models' QOperator
and dynamic quantization fail in onnxruntime's quantizer (their weights are graph inputs),
and the T5 layer's quantized graphs fail in onnxruntime itself: those are printed as such.
"""
from __future__ import annotations

import argparse
import collections
import logging
import os
import sys
import tempfile
import warnings

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_peers as C  # noqa: E402

KINDS = ("ext", "dyn", "qop", "qdq")


def _without_initializer_inputs(model):
    """The model with no graph input that an initializer backs (IR 3's way of listing
    weights: onnxruntime's optimizer otherwise adds inputs for the constants it makes), and
    an opset import for each domain its nodes use."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    inits = {i.name for i in m.graph.initializer}
    kept = [i for i in m.graph.input if i.name not in inits]
    del m.graph.input[:]
    m.graph.input.extend(kept)
    m.ir_version = max(m.ir_version, 4)
    # (onnxruntime's transformer optimizer leaves its com.microsoft domain undeclared, and
    # the quantizers' shape inference then fails on its nodes)
    declared = {o.domain for o in m.opset_import}
    for domain in sorted({n.domain for n in m.graph.node} - declared - {"", "ai.onnx"}):
        m.opset_import.append(onnx.helper.make_opsetid(domain, 1))
    return m


class _Feeds:
    """quantize_static's calibration reader over the model's feeds."""

    def __init__(self, feeds):
        self.it = iter(feeds)

    def get_next(self):
        return next(self.it, None)


def rewritten(model, feeds, kind: str, tmp: str):
    """The model as onnxruntime's tool `kind` writes it, made in the directory tmp (the
    quantizers leave their weights' temporary files in the working directory)."""
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        return _rewritten(model, feeds, kind, tmp)
    finally:
        os.chdir(cwd)


def _rewritten(model, feeds, kind: str, tmp: str):
    import onnxruntime as ort
    from onnxruntime import quantization as q

    src, dst = os.path.join(tmp, "in.onnx"), os.path.join(tmp, f"{kind}.onnx")
    model = _without_initializer_inputs(model)
    if kind in ("basic", "ext", "all"):
        onnx.save(model, src)
        so = ort.SessionOptions()
        so.graph_optimization_level = {
            "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
            "ext": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
            "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}[kind]
        so.optimized_model_filepath = dst
        ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])
    elif kind == "dyn":
        q.quantize_dynamic(_preprocessed(model, src), dst, weight_type=q.QuantType.QInt8)
    else:
        q.quantize_static(_preprocessed(model, src), dst, _Feeds(feeds),
                          quant_format=q.QuantFormat.QOperator
                          if kind == "qop" else q.QuantFormat.QDQ,
                          activation_type=q.QuantType.QUInt8, weight_type=q.QuantType.QInt8)
    out = onnx.load(dst)
    # (the shapes the pre-processing or the optimizer wrote for intermediate values: every
    # tool infers them itself; onnx's keeps what it is given)
    del out.graph.value_info[:]
    return out


def _preprocessed(model, src: str) -> str:
    """The model saved at src after the quantizers' pre-processing (onnxruntime's advice:
    its symbolic shape inference, which a fused transformer's contrib ops need), or as it
    is where that fails."""
    from onnxruntime.quantization.shape_inference import quant_pre_process

    onnx.save(model, src)
    pre = src[:-5] + "_pre.onnx"
    try:
        quant_pre_process(src, pre, skip_optimization=True)
        return pre
    except Exception:  # noqa: BLE001 - its shape inference fails variously
        return src


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="models", choices=["models", "hf", *C.ZOOS])
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--only", nargs="*", default=[])
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # (the quantizer's advice, per tensor)
    warnings.simplefilter("ignore")
    import onnxruntime as ort

    ort.set_default_logger_severity(3)
    C.compile_ours()
    tmp = tempfile.mkdtemp()
    totals = {t: [0, 0, 0, 0.0] for t in C.TOOLS}  # known, tensors, wrong, time
    open_ops = collections.Counter()
    print(f"{'model':22} {'kind':4} {'tensors':>7}  " + "  ".join(f"{t:>24}" for t in C.TOOLS))
    for name, model, feeds in C.model_set(args.set, set(args.only)):
        for kind in args.kinds.split(","):
            try:
                m = rewritten(model, feeds, kind, tmp)
                truths = [C.runtime_shapes(m, f) for f in feeds]
            except Exception as e:  # noqa: BLE001 - onnxruntime's tools fail variously
                print(f"{name:22} {kind:4} onnxruntime fails: {type(e).__name__}: "
                      f"{str(e).splitlines()[0][:90]}")
                continue
            bindings = [C.input_bindings(m, f) for f in feeds]
            tensors, results = C.scored_tools(m, truths, bindings)
            ours, our_b = results["shape-logic"][4], C.our_bindings(m, bindings)
            C.REQUIRES.pop(id(m), None)
            cells = C.compact_cells(results, len(tensors), totals)
            print(f"{name:22} {kind:4} {len(tensors):7d}  " + "  ".join(cells), flush=True)
            C.NARROWING.pop(id(m), None)
            producer = {t: n for n in m.graph.node for t in n.output}
            for t in tensors:
                if C.score(ours, truths, our_b, [t])[0] == 0:  # (not known: open)
                    n = producer[t]
                    open_ops[(kind, f"{n.domain}:{n.op_type}" if n.domain else n.op_type)] += 1
    print(f"{'total':27} " + "  ".join(C.compact_cell(*t) for t in totals.values()))
    print("our open tensors by the operator that made them (rewrite, operator: count):")
    for (kind, op), count in open_ops.most_common(25):
        print(f"  {kind:4} {op:40} {count}")


if __name__ == "__main__":
    main()
