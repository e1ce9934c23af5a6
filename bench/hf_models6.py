"""A sixth round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Vision: ViTMAE (random masking: the patches kept are a float share of their count, sorted
by noise, at a fixed size and with its position embeddings interpolated to other sizes) and
DeiT (a distillation token beside the class token). Text: ESM (rotary positions in an
encoder), XGLM and BioGPT (decoders with sinusoidal and learned positions), OLMo and
StarCoder2 (grouped-query decoders), M2M100 (an encoder-decoder). Speech: SpeechT5's
encoder behind its speech prenet, CLAP's audio tower (Swin over a spectrogram of a dynamic
number of frames, padded to its windows). Every tensor known, 0 wrong, onnxruntime's at two
sizes (stop 48).
"""
from __future__ import annotations

from hf_export import HW, OTHER_SIZES, audio, floats, image, modules, one_input, text_model
from hf_models2 import _SMALL, _VIT, _decoder
from hf_models4 import grouped_query, small_seq2seq

_TEXT = dict(**_SMALL, num_hidden_layers=2, intermediate_size=64, max_position_embeddings=64)


def vitmae(interpolate: bool = False):
    _, T = modules()
    inner = T.ViTMAEModel(T.ViTMAEConfig(**_VIT, mask_ratio=0.75))
    if interpolate:
        return image(inner, HW, OTHER_SIZES,
                      interpolate_pos_encoding=True)
    return image(inner, HW, [(1, 3, 32, 32), (2, 3, 32, 32)])


def vit_tower(name: str):
    """T.<name>Model of _VIT's size (a ViT-like vision tower) at OTHER_SIZES, its position
    embeddings interpolated."""
    _, T = modules()
    inner = getattr(T, f"{name}Model")(getattr(T, f"{name}Config")(**_VIT))
    return image(inner, HW, OTHER_SIZES, interpolate_pos_encoding=True)


def deit():
    return vit_tower("DeiT")


def esm():
    _, T = modules()
    config = T.EsmConfig(**_TEXT, position_embedding_type="rotary", pad_token_id=1,
                         mask_token_id=2)
    return (*text_model(T.EsmModel, config, False, False), None)


def xglm():
    _, T = modules()
    return _decoder(T.XGLMModel, T.XGLMConfig(vocab_size=_SMALL["vocab_size"], d_model=32,
                                              num_layers=2, attention_heads=4, ffn_dim=64,
                                              max_position_embeddings=64))


def biogpt():
    _, T = modules()
    return _decoder(T.BioGptModel, T.BioGptConfig(**_TEXT))


def olmo():
    return grouped_query("Olmo")


def starcoder2():
    return grouped_query("Starcoder2")


def m2m100():
    return small_seq2seq("M2M100", pad_token_id=1)


def speecht5_encoder():
    """SpeechT5's encoder behind its speech prenet (Wav2Vec2's convolutions) over audio of a
    dynamic length."""
    _, T = modules()
    from transformers.models.speecht5.modeling_speecht5 import (
        SpeechT5EncoderWithSpeechPrenet)

    config = T.SpeechT5Config(
        vocab_size=_SMALL["vocab_size"], hidden_size=32, encoder_layers=1, decoder_layers=1,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
        decoder_ffn_dim=64, conv_dim=(16,) * 7, num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=4)
    return audio(SpeechT5EncoderWithSpeechPrenet(config))


def clap_audio():
    """Log-mel frames (a dynamic count) of 32 bins through CLAP's Swin audio tower."""
    _, T = modules()
    config = T.ClapAudioConfig(
        window_size=4, num_mel_bins=32, spec_size=64, patch_size=4, patch_stride=(4, 4),
        hidden_size=32, depths=[1, 1], num_attention_heads=[2, 2], patch_embeds_hidden_size=16,
        enable_fusion=False)
    return one_input(T.ClapAudioModel(config), "input_features",
                     lambda m, x: m(input_features=x, return_dict=False)[0],
                     {0: "batch", 2: "frames"},
                     [floats("input_features", 1, 1, 64, 32),
                      floats("input_features", 2, 1, 50, 32)])


MODELS = {"hf_vitmae": vitmae, "hf_vitmae_interpolated": lambda: vitmae(interpolate=True),
          "hf_deit": deit, "hf_esm": esm, "hf_xglm": xglm, "hf_biogpt": biogpt, "hf_olmo": olmo,
          "hf_starcoder2": starcoder2, "hf_m2m100": m2m100,
          "hf_speecht5_encoder": speecht5_encoder, "hf_clap_audio": clap_audio}
