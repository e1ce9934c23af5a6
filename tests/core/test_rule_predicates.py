"""A predicate that two of our rule files both define is one the other file's rules read
too, for its own nodes: GroupNorm.lp (com.microsoft, channels last) and
GroupNormalization.lp both defined groupnorm/3, and a graph with one node of each gave
both false errors. Such shared names are families on purpose (a file that `uses` another,
operators with one meaning); a new one must be added here knowingly."""
import glob
from collections import defaultdict

from clingo import ast

import shape_logic
from shape_logic.asp.program import ENCODINGS_DIR, RULES_DIR

# (name, arity): the rule files that define it together, on purpose
FAMILIES = {
    ("avgpool", 3), ("avgpool_op", 1),  # QLinearAveragePool uses AveragePool
    ("axes_len", 2), ("kept", 3), ("new_axes", 2), ("old_axes", 1),  # Squeeze, Unsqueeze
    ("cast_kept", 4), ("cast_widens", 2),  # Cast, CastLike: the same dtype facts
    ("class_loss", 4),  # SoftmaxCrossEntropyLoss uses NegativeLogLikelihoodLoss
    ("conv", 4), ("conv_bias", 2),  # ConvInteger, DeformConv, FusedConv, QLinearConv use Conv
    ("conv_fused", 1),  # FusedConv's activation: Conv.lp's checks
    ("convt", 4), ("convt_bias", 2), ("convt_pads", 4), ("convt_out", 4),  # ConvTranspose-
    # WithDynamicPads uses ConvTranspose
    ("cumulative", 4),  # CumProd uses CumSum
    ("embed_ln", 4),  # QEmbedLayerNormalization uses EmbedLayerNormalization
    ("fusedmm", 4),  # TransposeMatMul uses FusedMatMul
    ("gemm", 4), ("gemm_bias", 2),  # FusedGemm and QGemm use Gemm
    ("hconn", 4),  # HyperConnectionPostMix uses HyperConnectionPreMix
    ("lstm", 1), ("lstm_axis", 4), ("lstm_typed", 2), ("lstm_weights", 3),  # DynamicQuantizeLSTM
    ("maxpool", 3), ("maxpool_op", 1),  # NhwcMaxPool and MaxpoolWithMask use MaxPool
    ("ngramh", 2), ("ngramh_in", 3),  # VarlenNGramHashMapping uses NGramHashMapping
    ("mm", 4),  # the MatMul family
    ("ms_attention", 4), ("ms_attention_bias", 2), ("ms_attention_past", 2),  # QAttention
    ("nonneg_axes", 1), ("nonneg_upto", 2),  # Pad, Slice: each for its own nodes
    ("qlinear", 3), ("qlinear_zero", 2), ("qlinear_binary", 4),  # (De)QuantizeLinear, QLinear*
    ("qlinear_unary", 3),  # QLinearLeakyRelu, QLinearSoftmax use QLinearSigmoid
    ("rand_gen", 2), ("rand_like", 3),  # the random generators
    ("reduction", 4), ("reduce_value", 2),  # the Reduce* family (ReduceSum, ReduceProd: values)
    ("scatter_el", 5),  # Scatter uses ScatterElements
    ("spectral_window", 3),  # Blackman, Hamming, Hann windows
}


def _heads(path) -> set:
    out = set()

    def on_statement(stm):
        if stm.ast_type != ast.ASTType.Rule:
            return
        head = stm.head
        atoms = [head.atom] if head.ast_type == ast.ASTType.Literal else [
            e.literal.atom for e in getattr(head, "elements", ()) if hasattr(e, "literal")]
        for a in atoms:
            if a.ast_type == ast.ASTType.SymbolicAtom and \
                    a.symbol.ast_type == ast.ASTType.Function:
                out.add((a.symbol.name, len(a.symbol.arguments)))
    ast.parse_files([str(path)], on_statement)
    return out


def test_no_two_rule_files_share_a_predicate_by_chance():
    vocabulary = set()
    for path in glob.glob(str(ENCODINGS_DIR / "*.lp")):
        vocabulary |= _heads(path)
    schema = (ENCODINGS_DIR / "schema.lp").read_text()
    files = defaultdict(set)
    for path in RULES_DIR.glob("*.lp"):
        for head in _heads(path):
            files[head].add(path.name)
    shared = {h for h, fs in files.items() if len(fs) > 1 and h not in vocabulary
              and f"{h[0]}(" not in schema and f"{h[0]}/{h[1]}" not in schema}
    assert shared - FAMILIES == set(), {h: sorted(files[h]) for h in shared - FAMILIES}


def test_group_normalization_and_microsofts_group_norm_side_by_side():
    f32 = {"dtype": "f32"}
    g = {"opset": 21,
         "inputs": {"x": {**f32, "shape": "[2, 4, 3]"}, "s": {**f32, "shape": "[4]"},
                    "b": {**f32, "shape": "[4]"}, "z": {**f32, "shape": "[1, 5, 5, 4]"},
                    "gm": {**f32, "shape": "[4]"}, "bt": {**f32, "shape": "[4]"}},
         "nodes": [{"name": "gn", "op": "GroupNormalization", "inputs": ["x", "s", "b"],
                    "outputs": ["y"], "attrs": {"num_groups": 2}},
                   {"name": "gc", "op": "GroupNorm", "domain": "com.microsoft",
                    "inputs": ["z", "gm", "bt"], "outputs": ["w"],
                    "attrs": {"groups": 2, "activation": 0, "channels_last": 1}}]}
    sol = shape_logic.solve(g)
    assert sol.status == "ok", [d.message for d in sol.diagnostics]
    assert [d.value for d in sol.dims("y")] == [2, 4, 3]
    assert [d.value for d in sol.dims("w")] == [1, 5, 5, 4]
