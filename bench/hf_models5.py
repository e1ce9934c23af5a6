"""A fifth round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Text: MPNet (relative position buckets), BigBird (block-sparse attention, which falls back to
full attention over short sequences), CodeGen (rotary over part of each head, its fused
projection cut in four), Phi-3 and Gemma (grouped-query decoders), MarianMT (an
encoder-decoder, sinusoidal positions), Perceiver (token ids cross-attended by latents).
Vision: CvT (convolutional token embeddings and projections, a class token in the last
stage), PVT v2 (overlapping patches, spatial reduction), EfficientNet and MobileNetV1 with
TensorFlow's 'same' padding computed from the image size, FocalNet (focal modulation),
ConvNeXt V2 (global response normalization), VAN (large-kernel attention), LeViT
(attention biases from tables of offsets), BiT (weight-standardized convolutions, 'same'
padding split as (k - w) / 2 before and the rest after: a quotient of a dividend that may
be negative, which Div truncates), SwiftFormer, VideoMAE (tubelets of frames, 3-D
convolutions). Audio: SEW (frames squeezed by 2 and upsampled back), UniSpeech, the Audio
Spectrogram Transformer. Every tensor known, 0 wrong, onnxruntime's at two sizes (stop
48; onnxruntime's symbolic inference fails on SEW).

Tried and left out: Nystromformer (its landmarks need the sequence to be a multiple of
their count: the export fails at 5), PatchTST and Mamba (exports that onnxruntime
refuses at other sizes: traced lengths), DINOv2 with registers (the exporter fails on
its interpolation), Informer (its lags need inputs of its own). Hiera: onnxruntime's
symbolic inference states [batch, height//4, width//4, 16] for its unrolled patches, right
at 64 x 64, the only size its position table takes whole; but at height 1..3 and width 4
the patches are one, broadcast to the table's 256, and the Reshape's 0 copies 256 (allowzero
= 0): [batch, 256, 1, 16], a run of the graph. We leave those axes fresh names (the
comparison would count them as unknown: the model is not in MODELS).
"""
from __future__ import annotations

from hf_export import HW, VOCAB, audio, floats, image, modules, one_input, text_feeds, text_model
from hf_models2 import _MIX, _SMALL, _decoder
from hf_models4 import grouped_query, small_seq2seq

_TEXT = dict(**_SMALL, num_hidden_layers=2, intermediate_size=64, max_position_embeddings=64)
_SIZES = [(1, 3, 32, 32), (2, 3, 48, 40)]


def mpnet():
    _, T = modules()
    return (*text_model(T.MPNetModel, T.MPNetConfig(**_TEXT), False, False), None)


def bigbird():
    _, T = modules()
    config = T.BigBirdConfig(**_TEXT, attention_type="block_sparse", block_size=2,
                             num_random_blocks=1)
    return (*text_model(T.BigBirdModel, config, True, False), None)


def codegen():
    _, T = modules()
    return _decoder(T.CodeGenModel, T.CodeGenConfig(vocab_size=VOCAB, n_embd=32, n_layer=2,
                                                    n_head=4, rotary_dim=4, n_positions=64))


def phi3():
    return grouped_query("Phi3", pad_token_id=0)


def gemma():
    return grouped_query("Gemma", head_dim=8)


def marian():
    return small_seq2seq("Marian", pad_token_id=0, decoder_start_token_id=0)


def _vision(name: str, sizes=None, **config):
    """T.<name>Model over an image of dynamic batch, height and width."""
    _, T = modules()
    inner = getattr(T, f"{name}Model")(getattr(T, f"{name}Config")(**config))
    return image(inner, HW, sizes or _SIZES)


def cvt():
    return _vision("Cvt", embed_dim=[16, 32, 32], num_heads=[1, 2, 2], depth=[1, 2, 3])


def pvt_v2():
    return _vision("PvtV2", [(1, 3, 32, 32), (2, 3, 64, 48)], **_MIX, hidden_sizes=[16, 32])


def efficientnet():
    return _vision("EfficientNet", width_coefficient=0.25, depth_coefficient=0.2,
                   hidden_dim=320)


def mobilenet_v1():
    return _vision("MobileNetV1", [(1, 3, 32, 32), (2, 3, 45, 39)], depth_multiplier=0.25,
                   tf_padding=True)


def focalnet():
    return _vision("FocalNet", embed_dim=16, depths=[1, 1], focal_levels=[2, 2],
                   focal_windows=[3, 3], patch_size=4, image_size=32)


def convnextv2():
    return _vision("ConvNextV2", hidden_sizes=[16, 32], depths=[1, 1], num_stages=2)


def van():
    return _vision("Van", hidden_sizes=[16, 32], depths=[1, 1], mlp_ratios=[2, 2],
                   patch_sizes=[7, 3], strides=[4, 2])


def bit():
    """'Same' padding of the traced total (the exporter keeps ceil(w / 2) at w = 32): 37 - w
    split as (37 - w) / 2 before, truncated, and 37 - w less that after, which crop at
    w > 37: the padded image is 37 x 37 at every size (the pads' sum cancels w)."""
    return _vision("Bit", [(1, 3, 32, 32), (2, 3, 45, 39)], embedding_size=16,
                   hidden_sizes=[32, 64], depths=[1, 1], num_groups=8, global_padding="SAME",
                   layer_type="bottleneck")


def swiftformer():
    return _vision("SwiftFormer", [(1, 3, 64, 64), (2, 3, 96, 80)], depths=[1, 1, 1, 1],
                   embed_dims=[16, 16, 32, 32])


def levit():
    """Attention biases indexed by fixed tables of offsets: the image is 64 x 64 (the
    batch is dynamic)."""
    return _vision("Levit", [(1, 3, 64, 64), (2, 3, 64, 64)], hidden_sizes=[16, 32, 48],
                   num_attention_heads=[1, 2, 3], depths=[1, 1, 1], key_dim=[8, 8, 8],
                   image_size=64, patch_size=16)


def perceiver():
    """Token ids through Perceiver's text preprocessor (learned positions: seq <= 64),
    cross-attended by 8 latents."""
    _, T = modules()
    from transformers.models.perceiver.modeling_perceiver import PerceiverTextPreprocessor

    config = T.PerceiverConfig(
        num_latents=8, d_latents=32, d_model=32, num_blocks=1, num_self_attends_per_block=1,
        num_self_attention_heads=4, num_cross_attention_heads=4, vocab_size=VOCAB,
        max_position_embeddings=64)
    inner = T.PerceiverModel(config, input_preprocessor=PerceiverTextPreprocessor(config))
    return one_input(inner, "inputs", lambda m, x: m(inputs=x, return_dict=False)[0],
                     {0: "batch", 1: "seq"},
                     [{"inputs": text_feeds(b, s)["input_ids"]} for b, s in ((2, 5), (3, 9))])


def videomae():
    """Tubelets of 2 frames of 8 x 8 patches: positions for 4 frames of 32 x 32 (the batch
    is dynamic)."""
    _, T = modules()
    inner = T.VideoMAEModel(T.VideoMAEConfig(
        image_size=32, patch_size=8, num_frames=4, tubelet_size=2, hidden_size=32,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        use_mean_pooling=False))
    return one_input(inner, "pixel_values",
                     lambda m, x: m(pixel_values=x, return_dict=False)[0], {0: "batch"},
                     [floats("pixel_values", b, 4, 3, 32, 32) for b in (1, 2)])


def _audio(name: str, **extra):
    """T.<name>Model over audio of a dynamic length (Wav2Vec2's convolutions)."""
    _, T = modules()
    from hf_models import _audio_config

    inner = getattr(T, f"{name}Model")(_audio_config(getattr(T, f"{name}Config"),
                                                     conv_dim=(16,) * 7, **extra))
    return audio(inner)


def sew():
    return _audio("SEW", conv_stride=(5, 2, 2, 2, 2, 2, 2), conv_kernel=(10, 3, 3, 3, 3, 2, 2),
                  squeeze_factor=2)


def unispeech():
    return _audio("UniSpeech")


def ast():
    """Spectrograms of 64 frames of 32 mel bins, patches of 16 at strides of 10."""
    _, T = modules()
    inner = T.ASTModel(T.ASTConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        patch_size=16, frequency_stride=10, time_stride=10, max_length=64, num_mel_bins=32))
    return one_input(inner, "input_values",
                     lambda m, x: m(input_values=x, return_dict=False)[0], {0: "batch"},
                     [floats("input_values", b, 64, 32) for b in (1, 2)])


MODELS = {"hf_mpnet": mpnet, "hf_bigbird": bigbird, "hf_codegen": codegen, "hf_phi3": phi3,
          "hf_gemma": gemma, "hf_marian": marian, "hf_cvt": cvt, "hf_pvt_v2": pvt_v2,
          "hf_efficientnet": efficientnet, "hf_mobilenet_v1": mobilenet_v1,
          "hf_focalnet": focalnet, "hf_convnextv2": convnextv2, "hf_van": van, "hf_bit": bit,
          "hf_swiftformer": swiftformer, "hf_videomae": videomae, "hf_sew": sew,
          "hf_unispeech": unispeech, "hf_ast": ast, "hf_levit": levit,
          "hf_perceiver": perceiver}
