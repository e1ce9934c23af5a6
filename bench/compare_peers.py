"""Shape inference on real exported models: shape-logic vs onnx's infer_shapes(data_prop=True)
vs onnxruntime's SymbolicShapeInference, all in one run.

Models: small PyTorch exports built on the fly (bench/torch_models.py: GPT-2 / LLaMA-like
blocks with a KV cache, a BERT layer, a T5 layer, ViT, ResNet, UNet, LSTM, GRU,
NonZero/TopK; random weights,
dynamic batch and sequence) and onnx's shipped light models. For every intermediate
tensor (node output) onnxruntime gives the true shape at two input sizes (one for the
light models, whose inputs are fixed). Per model and tool:

  known    tensors whose shape the tool fully determines (every dim an integer or an
           expression of the inputs' dims) and that is right at every size (a
           sequence's: every element's; an optional's: its element's, if it has one);
  wrong    dims the tool states that differ from the runtime at some size (ours: also a
           requirement of the input dims that a size that runs breaks);
  time     wall time of one inference (each tool's first call pays its imports and
           one-time set-up, as a command-line run would). The harness's own heap (torch,
           the exports, onnxruntime's truths) is frozen out of the garbage collector
           before each model's calls: a tool's collections would otherwise traverse it,
           which no command-line run of the tool has to do.

Under a model's line, what we find the graph requires of its input dims (`requires: seq in
1..64`: a learned position table's length, past which onnxruntime fails), which neither
peer reports. Totals are printed for the exported models, the light models and all; then
each tool's warm time (best of --warm further calls per model, after the first), as a
process that infers many models sees it.

    python bench/compare_peers.py [--only NAME ...] [--no-light] [--warm N] [--dynamo]
                                  [--zoo | --zoo2 | --zoo3 | --hf]

--dynamo exports the models with torch.export's exporter (torch.onnx.export's default;
needs onnxscript, in the `bench` extra) instead of the TorchScript one. Where we set a
model's declared output aside (shape_logic/narrowing.py: dynamo declares an RNN's output
with the traced length, the legacy exporter gives outputs it does not know the names of
others), our warning is printed under the model's line. --zoo compares on
bench/torch_zoo.py's building blocks (attention, normalization, padding, resizing,
rolling, windows, sorting...) instead of the models; --zoo2 on those of
bench/zoo_sequence.py (decoder steps with caches and cross-attention, mixture of experts,
selective scan, rotary, ALiBi, padding masks) and bench/zoo_vision.py (diffusion UNet
block, ConvNeXt, MobileNetV3, MBConv, DETR, wav2vec2 features, fold, spectrogram, index
updates, 'same' convolutions); --zoo3 on bench/zoo_scripted.py's torch.jit.script modules
(If, Loop, sequences and optionals from Optional[Tensor], appended lists, while loops,
greedy decoding; TorchScript exporter only). --hf on Hugging Face transformers models
(bench/hf_models.py: BERT, DistilBERT, ViT, GPT-2 (also over a KV cache), LLaMA, MPT,
Wav2Vec2, SEW-D, CLIP vision, DETR, and bench/hf_models2.py's: RoBERTa, ALBERT, DeBERTa-v2,
Longformer, Funnel, T5, BART, Whisper, BLOOM, Falcon, Mistral (also over a KV cache),
Qwen2, Phi, GPT-NeoX, ConvNeXt, BEiT, DINOv2, SegFormer, Swin, WavLM, Wav2Vec2-Conformer,
Speech2Text, MobileViT, Swin V2, and bench/hf_models3.py's: Mixtral's mixture-of-experts
block, GPT-J, Gemma 2, GPTBigCode, Mamba 2, XLNet, FNet, LED, LongT5, YOLOS, DPT, Swin2SR,
ViTDet, MobileNetV2, EnCodec, and bench/hf_models4.py's: ELECTRA, ConvBERT, SqueezeBERT,
OPT, GPT-Neo, StableLM, Qwen3, Pegasus, HuBERT, PoolFormer (also through torch.export),
RegNet, GLPN, Data2Vec vision, Swin2SR through torch.export, and bench/hf_models5.py's:
MPNet, BigBird, CodeGen, Phi-3, Gemma, MarianMT, CvT, PVT v2, EfficientNet, MobileNetV1,
FocalNet, ConvNeXt V2, VAN, LeViT, BiT, SwiftFormer, VideoMAE, Perceiver, SEW, UniSpeech,
the Audio Spectrogram Transformer, and bench/hf_models6.py's: ViTMAE (also at other image
sizes), DeiT, ESM, XGLM, BioGPT, OLMo, StarCoder2, M2M100, SpeechT5's encoder, CLAP's audio
tower, and bench/hf_models7.py's: RoFormer, RemBERT, NEZHA, Data2Vec (text and audio), ERNIE,
LayoutLM, XLM, Splinter, MBart, Blenderbot, CTRL, Cohere, Persimmon, Granite, Nemotron,
SigLIP, ViT-MSN, OWL-ViT and BLIP vision, ResNet, SAM's image encoder, UniSpeech-SAT,
Wav2Vec2-BERT, LLaMA, Qwen2, Gemma 2, StarCoder2 and StableLM over a KV cache, and
bench/hf_models8.py's: TimeSformer, ViViT, X-CLIP, GroupViT vision, RT-DETR, Deformable
DETR, Depth Anything, MaskFormer, Mask2Former, Pix2Struct and Idefics3 vision, SuperPoint,
BROS, MusicGen's decoder, UniVNet, FastSpeech2-Conformer, and bench/hf_models9.py's:
DeepSeek-V3, Qwen2-MoE, Gemma 3's text model, Zamba2, ModernBERT, UMT5, LiLT,
Nystromformer, OWLv2 vision, Hiera, EfficientFormer, EoMT, Conditional DETR, DAB-DETR,
PatchTST, Moonshine's and Parakeet's encoders; tiny configs, random weights; needs the
transformers package, in the `bench` extra), each also after onnxruntime's transformer
optimizer where it applies (`<name>_fused`: Attention, EmbedLayerNormalization,
SkipLayerNormalization, BiasGelu from com.microsoft).
"""
from __future__ import annotations

import argparse
import gc
import math
import os
import re
import sys
import time
import warnings

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)


# ----- the truth: onnxruntime with every node output made a graph output

# (tests/onnx_graphs.py runs the model in onnxruntime with every value made an output)
from tests.onnx_graphs import each_shape, runtime_shapes  # noqa: E402


def input_bindings(model, feeds: dict) -> dict:
    """Input dim_param -> its value at these feeds."""
    out = {}
    for vi in model.graph.input:
        if vi.name not in feeds:
            continue
        for d, n in zip(vi.type.tensor_type.shape.dim, feeds[vi.name].shape):
            # (`?` names no size: paddle2onnx writes it for a height and a width alike, so
            # no tool is credited for reading the two as one)
            if d.HasField("dim_param") and d.dim_param.strip() not in ("?", "*"):
                out[d.dim_param] = int(n)
    return out


# ----- each tool's answer: tensor -> list of dims (int, str expression, or None)

NARROWING: dict = {}  # id(model) -> our warnings that a declared output was set aside
# id(model) -> (what we find the graph requires of its input dims (a learned position
# table's length: `seq in 1..64`), which neither peer reports; our Solution; its names for
# the inputs' dim_params)
REQUIRES: dict = {}


def ours(model):
    from shape_logic import solve

    sol = solve(model)
    NARROWING[id(model)] = [w for w in sol.warnings if w.startswith("graph output ")]
    inputs = sol.graph.input_symbols()
    REQUIRES[id(model)] = ([f"{s} in {lo}..{hi}" for s, (lo, hi) in sol.ranges.items()
                            if s in inputs] + sol.inequalities, sol, sol.graph.symbol_map)
    # (a fresh name is no size the graph determines, except one the import gave an input's
    # unnamed dim, `?` or -1: a shape in it is known, as in a dim_param)
    given = {s for x in sol.graph.inputs for d in sol.dims(x) or () for s in d.symbols()}
    shapes = {}
    for t in sol.graph.tensors():
        dims = sol.dims(t)
        if dims is None:
            shapes[t] = None
            continue
        shapes[t] = [d.value if d.is_int else
                     (None if any(s.startswith("_") and s not in given for s in d.symbols())
                      else d)
                     for d in dims]
    return shapes


def onnx_data_prop(model):
    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    return _value_info_shapes(inferred)


def ort_symbolic(model):
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inferred = SymbolicShapeInference.infer_shapes(model, auto_merge=True,
                                                       guess_output_rank=False)
    return _value_info_shapes(inferred)


def _value_info_shapes(model) -> dict:
    out = {}
    for vi in (list(model.graph.input) + list(model.graph.value_info)
               + list(model.graph.output)):
        tp = vi.type
        while tp.HasField("sequence_type") or tp.HasField("optional_type"):  # the element's
            tp = (tp.sequence_type if tp.HasField("sequence_type") else tp.optional_type).elem_type
        tt = tp.tensor_type
        if not tt.HasField("shape"):
            out[vi.name] = None
            continue
        out[vi.name] = [d.dim_value if d.HasField("dim_value") else
                        (d.dim_param or None) for d in tt.shape.dim]
    return out


def evaluate(dim, bindings: dict):
    """An int, or None when the dim is unknown (unnamed, or a symbol no input binds)."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return dim
    if not isinstance(dim, str):  # our Expr
        from shape_logic.symbolic.expr import Expr

        if not dim.symbols() <= bindings.keys():
            return None
        e = dim.subs({k: Expr.const(v) for k, v in bindings.items() if k in dim.symbols()})
        return e.value if e.is_int else None
    if dim.strip() in bindings:  # (a name as it is, `?` among them)
        return bindings[dim.strip()]
    # (a dim_param that is no identifier, paddle2onnx's `DynamicDimension.0`, as a peer
    # writes it back: replaced by one before the names are read)
    for k in sorted((k for k in bindings if not k.isidentifier() and k in dim), key=len,
                    reverse=True):
        alias = f"_bound{len(bindings)}_{abs(hash(k))}"
        dim, bindings = dim.replace(k, alias), {**bindings, alias: bindings[k]}
    names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", dim))
    funcs = {"floor": math.floor, "ceiling": math.ceil, "Max": max, "Min": min, "max": max,
             "min": min, "Floor": math.floor, "CeilToInt": math.ceil, "ceil": math.ceil,
             "Mod": lambda a, b: a % b}
    if not names <= bindings.keys() | funcs.keys():
        return None
    try:
        v = eval(dim.replace("//", "__FLOORDIV__").replace("/", "/")
                 .replace("__FLOORDIV__", "//"), {"__builtins__": {}}, {**funcs, **bindings})
        return int(v) if float(v).is_integer() else None
    except Exception:  # noqa: BLE001 - a string we cannot read is an unknown dim
        return None


TOOLS = {"shape-logic": ours, "onnx data_prop": onnx_data_prop, "ort symbolic": ort_symbolic}


def our_bindings(model, bindings: list) -> list:
    """The bindings by the names our solve gave the input dims (a dim_param that is not a
    NAME of the shape language, paddle2onnx's `p2o.DynamicDimension.0`, is renamed:
    graph.symbol_map), for scoring our shapes."""
    names = REQUIRES.get(id(model), ([], None, {}))[2]
    return [{names.get(k, k): v for k, v in b.items()} for b in bindings]


def named_inputs(model, shapes: dict | None, truths: list, bindings: list) -> list:
    """The bindings, and the names a tool gives the inputs' unnamed dims (`?`, -1: our
    import's fresh names, onnxruntime's `?` as it reads it) bound to their sizes in the
    truths; a name that stands for two sizes anywhere (paddle2onnx's `?` for a height and
    a width) is bound nowhere, so no tool is credited for reading them as one."""
    if not shapes:
        return bindings
    sizes = [{} for _ in truths]
    for vi in model.graph.input:
        for k, truth in enumerate(truths):
            for d, n in zip(shapes.get(vi.name) or (), truth.get(vi.name) or ()):
                if isinstance(n, int) and d is not None and not isinstance(d, int) and re.fullmatch(
                        r"[A-Za-z_][A-Za-z0-9_.]*|\?", str(d).strip()):
                    sizes[k].setdefault(str(d).strip(), set()).add(n)
    ambiguous = {name for feed in sizes for name, ns in feed.items() if len(ns) > 1}
    return [{**{name: ns.pop() for name, ns in feed.items() if name not in ambiguous},
             **{k: v for k, v in b.items() if k not in ambiguous}}
            for feed, b in zip(sizes, bindings)]


def rejected(requires: tuple, bindings: list) -> list:
    """What the sizes that run (onnxruntime's truths) break of what we say the graph requires
    (ranges, floors, one_of, inequalities, constraints: Solution.unmet), each counted as a
    wrong dim."""
    _, sol, names = requires
    if sol is None:
        return []
    return [broken for b in bindings
            for broken in sol.unmet({names.get(k, k): v for k, v in b.items()})]


def score(shapes: dict | None, truths: list, bindings: list, tensors: list) -> tuple:
    """(tensors fully known and right at every size, wrong dims). A sequence's shape is
    what each of its elements has; an optional's its element's (none to check when it is
    empty)."""
    if shapes is None:
        return 0, 0
    known = wrong = 0
    for t in tensors:
        dims = shapes.get(t)
        if dims is None:
            continue
        ok = True
        for truth, b in zip(truths, bindings):
            values = [evaluate(d, b) for d in dims]
            ok = ok and None not in values
            for want in each_shape(truth[t]):
                if len(dims) != len(want):
                    wrong += 1
                    ok = False
                    continue
                for v, w in zip(values, want):
                    if v is not None and v != w:
                        wrong += 1
                        ok = False
        known += ok
    return known, wrong


def zoo_models(only, exporter: str, zoos=("torch_zoo",)):
    """The building blocks of the zoo modules `zoos` (bench/torch_zoo.py, zoo_sequence.py,
    zoo_vision.py, zoo_scripted.py) that `exporter` can export."""
    import importlib

    import torch_zoo

    for module in zoos:
        entries = importlib.import_module(module).zoo()
        for name, entry in entries.items():
            if (only and name not in only) or exporter not in entry[-1]:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model, feeds = torch_zoo.build(name, exporter, entries)
            yield name, model, feeds


def hf_models(only):
    """bench/hf_models.py's models as exported and, where onnxruntime's transformer
    optimizer takes them, fused by it (`<name>_fused`)."""
    import hf_models as hf

    for name, make in hf.MODELS.items():
        if only and name not in only and f"{name}_fused" not in only:
            continue
        model, feeds, model_type = make()
        if not only or name in only:
            yield name, model, feeds
        if model_type and (not only or f"{name}_fused" in only):
            yield f"{name}_fused", hf.fused(model, model_type), feeds


ZOOS = {"zoo": ("torch_zoo",), "zoo2": ("zoo_sequence", "zoo_vision"), "zoo3": ("zoo_scripted",)}


def model_set(which: str, only: set, exporter: str = "torchscript", light: bool = True):
    """The models of set `which`: hf (hf_models), zoo, zoo2, zoo3 (ZOOS' modules), models (the
    default set's exports, and onnx's light models if `light`): (name, model, feeds)."""
    if which == "hf":
        return hf_models(only)
    if which in ZOOS:
        return zoo_models(only, exporter, ZOOS[which])
    return models(only, light)


def models(only, light: bool):
    import torch_models

    for name, make in torch_models.MODELS.items():
        if only and name not in only:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model, feeds = make()
        yield name, model, feeds
    if not light:
        return
    from executor import light_models, load_case

    for path in light_models():
        name = os.path.basename(path)[:-5]
        if only and name not in only:
            continue
        model, feeds, _ = load_case(path)
        yield name, model, [feeds]


def compile_ours() -> None:
    """Our modules' bytecode written beforehand, as every peer's is: pip compiles an
    installed package's modules (the peers' wheels), an editable install compiles ours
    on first import and keeps the bytecode - unless PYTHONDONTWRITEBYTECODE is set, as on
    this VM, where every process compiled all of ours from source inside our first call
    (~60 ms of the 20 models' cold total of ~1.4 s, for nothing a user's install does)."""
    import compileall

    # (the package's path, not the package: importing it here would take its imports
    # out of our first call, which a command-line run pays)
    compileall.compile_dir(os.path.join(os.path.dirname(HERE), "shape_logic"), quiet=1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--no-light", action="store_true")
    ap.add_argument("--warm", type=int, default=2, help="warm calls per model and tool (0: none)")
    ap.add_argument("--dynamo", action="store_true",
                    help="export with torch.export's exporter, not the TorchScript one")
    ap.add_argument("--zoo", action="store_true",
                    help="the building blocks of bench/torch_zoo.py instead of the models")
    ap.add_argument("--zoo2", action="store_true",
                    help="those of bench/zoo_sequence.py and zoo_vision.py instead")
    ap.add_argument("--zoo3", action="store_true",
                    help="bench/zoo_scripted.py's torch.jit.script modules instead")
    ap.add_argument("--hf", action="store_true",
                    help="Hugging Face transformers models (bench/hf_models.py) instead, "
                         "also fused by onnxruntime's transformer optimizer")
    args = ap.parse_args(argv)
    compile_ours()
    if args.dynamo:
        import torch_models

        torch_models.use_dynamo(True)
    which = next((z for z in ("hf", "zoo3", "zoo2", "zoo") if getattr(args, z)), "models")
    chosen = model_set(which, set(args.only), "dynamo" if args.dynamo else "torchscript",
                       not args.no_light)
    groups = {"exported": {t: [0, 0, 0, 0.0] for t in TOOLS},  # known, tensors, wrong, time
              "light": {t: [0, 0, 0, 0.0] for t in TOOLS}}
    head = f"{'model':22} {'tensors':>7}  " + "  ".join(f"{t:>30}" for t in TOOLS)
    print(head)
    print(f"{'':22} {'':>7}  " + "  ".join(f"{'known  wrong   time':>30}" for _ in TOOLS))
    seen = []
    for name, model, feeds in chosen:
        group = "light" if name.startswith("light_") else "exported"
        seen.append((group, model))
        truths = [runtime_shapes(model, f) for f in feeds]
        bindings = [input_bindings(model, f) for f in feeds]
        cells = []
        gc.collect()
        gc.freeze()  # the tools' collections skip the harness's heap (see `time` above)
        tensors, results = scored_tools(model, truths, bindings)
        for tool, (known, wrong, dt, err, _) in results.items():
            tot = groups[group][tool]
            tot[0] += known
            tot[1] += len(tensors)
            tot[2] += wrong
            tot[3] += dt
            share = f"{100 * known / max(len(tensors), 1):5.1f}%"
            cells.append(f"{share + (' ' + err if err else ''):>14} {wrong:6d} {dt:7.2f}s")
        print(f"{name:22} {len(tensors):7d}  " + "  ".join(f"{c:>30}" for c in cells),
              flush=True)
        required, sol, names = REQUIRES.pop(id(model), ([], None, {}))
        if required:
            print(f"{'':24}requires: {', '.join(required)}")
        for broken in rejected((required, sol, names), bindings):
            print(f"{'':24}WRONG: a size that runs breaks our requirement {broken}")
        for w in NARROWING.pop(id(model), []):
            print(f"{'':24}warning: {w}")
    both = {t: [a + b for a, b in zip(groups["exported"][t], groups["light"][t])]
            for t in TOOLS}
    for label, totals in (("total exported", groups["exported"]), ("total light",
                                                                   groups["light"]),
                          ("total", both)):
        n = totals["shape-logic"][1]
        if n:
            print(f"{label:22} {n:7d}  " + "  ".join(
                f"{f'{100 * k / max(n, 1):5.1f}%':>14} {w:6d} {dt:7.2f}s".rjust(30)
                for k, n, w, dt in totals.values()))
    if args.warm:
        print(f"warm (best of {args.warm} calls after the first, per model):")
        warm = [(group, [best_time(fn, model, args.warm) for fn in TOOLS.values()])
                for group, model in seen]
        for label, wanted in (("exported", {"exported"}), ("light", {"light"}),
                              ("all", {"exported", "light"})):
            sums = [sum(times[k] for g, times in warm if g in wanted)
                    for k in range(len(TOOLS))]
            print(f"{'  ' + label:22} {'':7}  " + "  ".join(f"{f'{t:7.2f}s':>30}" for t in sums))


def scored_tools(model, truths: list, bindings: list) -> tuple:
    """(tensors, {tool: (known, wrong, seconds, error, shapes)}): each tool once on a model,
    scored against onnxruntime's truths at the bindings' sizes (ours under the names our
    solve gave the input dims, and what we require of them counted as wrong where a size
    that runs breaks it). What we require stays in REQUIRES for the caller."""
    produced = {t for n in model.graph.node for t in n.output if t}
    # (a value with no shape to check at any size - an empty sequence, SequenceEmpty's, or
    # an empty optional - is no tensor any tool can get right or wrong: not counted)
    tensors = sorted(t for t in produced & set(truths[0])
                     if any(each_shape(truth[t]) for truth in truths))
    results = {}
    for tool, fn in TOOLS.items():
        shapes, err, dt = timed(fn, model)
        ours = tool == "shape-logic"
        given = our_bindings(model, bindings) if ours else bindings
        known, wrong = score(shapes, truths, named_inputs(model, shapes, truths, given),
                             tensors)
        if ours and id(model) in REQUIRES:
            wrong += len(rejected(REQUIRES[id(model)], bindings))
        results[tool] = (known, wrong, dt, err, shapes)
    return tensors, results


def compact_cells(results: dict, n: int, totals: dict) -> list:
    """Each tool's `known% wrong time` cell in the narrow layout of bench/ort_transformed.py
    and bench/pypi_models.py (scored_tools' results over n tensors), its figures added to
    totals: tool -> [known, tensors, wrong, seconds]."""
    cells = []
    for tool, (known, wrong, dt, err, _) in results.items():
        for k, v in enumerate((known, n, wrong, dt)):
            totals[tool][k] += v
        cells.append(compact_cell(known, n, wrong, dt, err))
    return cells


def compact_cell(known: int, n: int, wrong: int, dt: float, err: str = "") -> str:
    share = f"{100 * known / max(n, 1):5.1f}%" + (f" {err}" if err else "")
    return f"{share:>12} {wrong:4d} {dt:5.2f}s"


def timed(fn, model) -> tuple:
    """(shapes, error, seconds) of one call of a tool on a model: a peer crashing is a
    result (its exception's name), timed too."""
    t0 = time.perf_counter()
    try:
        shapes, err = fn(model), ""
    except Exception as e:  # noqa: BLE001 - onnx's and onnxruntime's errors have no common type
        shapes, err = None, type(e).__name__
    return shapes, err, time.perf_counter() - t0


def best_time(fn, model, calls: int) -> float:
    """The best of `calls` calls of fn on model (a crash counts its time)."""
    best = math.inf
    for _ in range(calls):
        t0 = time.perf_counter()
        try:
            fn(model)
        except Exception:  # noqa: BLE001 - a peer crashing is a result
            pass
        best = min(best, time.perf_counter() - t0)
    return best


if __name__ == "__main__":
    main()
