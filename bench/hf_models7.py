"""A seventh round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Text: RoFormer (rotary positions in an encoder), RemBERT (embeddings narrower than the
hidden size), NEZHA (relative positions), Data2Vec's text model, ERNIE (task-type
embeddings), LayoutLM (2-D positions of token boxes), XLM, Splinter, MBart and Blenderbot
(encoder-decoders; MBart's learned positions are arange(seq) + 2 into a table of 64 + 2
rows), CTRL, Cohere, Persimmon, Granite and Nemotron (decoders). Vision: SigLIP's, ViT-MSN's,
OWL-ViT's and BLIP's towers with their positions interpolated to other image sizes, ResNet,
SAM's windowed image encoder. Speech: Data2Vec's audio model, UniSpeech-SAT, Wav2Vec2-BERT
(Conformer layers over feature frames). Over a KV cache through torch.export: LLaMA, Qwen2,
Gemma 2, StarCoder2, StableLM (its mask is sliced to min(past + seq, total) and added, so it
runs where past + seq <= total or total = 1: a disjunction we do not state; the others read
the mask by a GatherND, `past + seq <= total`). Every tensor known, 0 wrong, onnxruntime's
at two sizes (stop 50; found then: MBart's `seq in 1..64, target in 1..64`, the bounds of an
arange were not carried through an Expand and an added constant, and CTRL's `seq in 1..64`,
where torch.export gathers its positions by a GatherND, whose indices were not bounded).
Tried and left out: MobileViTV2 (its unfold exports only at opset 18, where torch.export
cannot solve the image's divisibility), EfficientFormer and LiLT (their tiny configs do not
run in torch), GLM, Qwen2-MoE and Reformer (the exports fail), CANINE (the export fails in
onnxruntime at every length, and we call the graph inconsistent: its downsampled characters'
attention pairs lengths that never agree) and Switch Transformers (onnxruntime fails at the
second size: the export reshapes one expert's routed tokens to a single row, as traced).
"""
from __future__ import annotations

from hf_export import HW, OTHER_SIZES, floats, image, kv_cache_decoder, modules, one_input
from hf_models2 import _SMALL, _decoder
from hf_models3 import _encoder
from hf_models4 import grouped_query, small_seq2seq
from hf_models5 import _audio
from hf_models6 import vit_tower

_TEXT = dict(**_SMALL, num_hidden_layers=2, intermediate_size=64, max_position_embeddings=64)


def roformer():
    _, T = modules()
    return _encoder(T.RoFormerModel, T.RoFormerConfig(**_TEXT, embedding_size=32), True)


def rembert():
    _, T = modules()
    return _encoder(T.RemBertModel, T.RemBertConfig(
        vocab_size=_SMALL["vocab_size"], hidden_size=32, num_attention_heads=4,
        num_hidden_layers=2, intermediate_size=64, max_position_embeddings=64,
        input_embedding_size=16, output_embedding_size=16), True)


def nezha():
    _, T = modules()
    return _encoder(T.NezhaModel, T.NezhaConfig(**_TEXT, max_relative_position=8), True)


def data2vec_text():
    _, T = modules()
    return _encoder(T.Data2VecTextModel, T.Data2VecTextConfig(**_TEXT, pad_token_id=1))


def ernie():
    _, T = modules()
    return _encoder(T.ErnieModel, T.ErnieConfig(**_TEXT, use_task_id=True), True)


def mbart():
    return small_seq2seq("MBart")


def blenderbot():
    return small_seq2seq("Blenderbot")


def cohere():
    return grouped_query("Cohere")


def persimmon():
    _, T = modules()
    return _decoder(T.PersimmonModel, T.PersimmonConfig(
        **_SMALL, num_hidden_layers=2, intermediate_size=64))


def layoutlm():
    """Token boxes default to zeros: their 2-D position tables are read at 0."""
    _, T = modules()
    return _encoder(T.LayoutLMModel, T.LayoutLMConfig(**_TEXT, max_2d_position_embeddings=128),
                    True)


def xlm():
    _, T = modules()
    return _encoder(T.XLMModel, T.XLMConfig(vocab_size=_SMALL["vocab_size"], emb_dim=32,
                                            n_layers=2, n_heads=4, max_position_embeddings=64))


def ctrl():
    _, T = modules()
    return _decoder(T.CTRLModel, T.CTRLConfig(vocab_size=_SMALL["vocab_size"], n_embd=32,
                                              n_layer=2, n_head=4, dff=64, n_positions=64))


def splinter():
    _, T = modules()
    return _encoder(T.SplinterModel, T.SplinterConfig(**_TEXT), True)


def granite():
    return grouped_query("Granite", embedding_multiplier=2.0, residual_multiplier=0.5,
                         attention_multiplier=0.1)


def nemotron():
    return grouped_query("Nemotron", partial_rotary_factor=0.5, head_dim=8)


def resnet():
    _, T = modules()
    inner = T.ResNetModel(T.ResNetConfig(embedding_size=8, hidden_sizes=[8, 16, 24, 32],
                                         depths=[1, 1, 1, 1]))
    return image(inner, HW, OTHER_SIZES)


def sam_vision():
    """SAM's image encoder: windows of 2 patches, one global attention layer."""
    _, T = modules()
    inner = T.SamVisionModel(T.SamVisionConfig(
        hidden_size=32, output_channels=16, num_hidden_layers=2, num_attention_heads=2,
        image_size=64, patch_size=8, window_size=2, global_attn_indexes=[1], mlp_dim=64))
    return image(inner, HW, [(1, 3, 64, 64), (2, 3, 64, 64)])


def wav2vec2_bert():
    """Wav2Vec2-BERT: Conformer layers over a dynamic number of feature frames."""
    _, T = modules()
    inner = T.Wav2Vec2BertModel(T.Wav2Vec2BertConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        feature_projection_input_dim=16, conv_depthwise_kernel_size=3, output_hidden_size=32))
    return one_input(inner, "input_features",
                     lambda m, x: m(input_features=x, return_dict=False)[0],
                     {0: "batch", 1: "frames"},
                     [floats("input_features", 1, 20, 16), floats("input_features", 2, 33, 16)])


def decoder_kv(name: str, **extra):
    """A two-layer decoder T.<name>Model (4 heads over 2 key/value heads of 8) over a KV
    cache, through torch.export's exporter (hf_export.kv_cache_decoder)."""
    _, T = modules()
    inner = getattr(T, f"{name}Model")(getattr(T, f"{name}Config")(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, num_key_value_heads=2,
        max_position_embeddings=64, **extra)).eval()
    return (*kv_cache_decoder(inner, 2, 8), None)


MODELS = {"hf_roformer": roformer, "hf_rembert": rembert, "hf_nezha": nezha,
          "hf_data2vec_text": data2vec_text, "hf_ernie": ernie, "hf_mbart": mbart,
          "hf_blenderbot": blenderbot, "hf_cohere": cohere, "hf_persimmon": persimmon,
          "hf_layoutlm": layoutlm, "hf_xlm": xlm, "hf_ctrl": ctrl, "hf_splinter": splinter,
          "hf_granite": granite, "hf_nemotron": nemotron, "hf_resnet": resnet,
          "hf_sam_vision": sam_vision, "hf_wav2vec2_bert": wav2vec2_bert,
          **{f"hf_{name}": (lambda c=cls: vit_tower(c)) for name, cls in (
              ("siglip_vision", "SiglipVision"), ("vit_msn", "ViTMSN"),
              ("owlvit_vision", "OwlViTVision"), ("blip_vision", "BlipVision"))},
          "hf_data2vec_audio": lambda: _audio("Data2VecAudio"),
          "hf_unispeech_sat": lambda: _audio("UniSpeechSat"),
          "hf_llama_kv": lambda: decoder_kv("Llama"), "hf_qwen2_kv": lambda: decoder_kv("Qwen2"),
          "hf_gemma2_kv": lambda: decoder_kv("Gemma2", head_dim=8),
          "hf_starcoder2_kv": lambda: decoder_kv("Starcoder2"),
          "hf_stablelm_kv": lambda: decoder_kv("StableLm", partial_rotary_factor=0.5)}
