"""More Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs, random
weights, built from code: nothing is downloaded), each maker returning (model, [feeds at two
input sizes], onnxruntime's optimizer model type or None) as there.

Encoders through the TorchScript exporter: RoBERTa (positions from a cumulative sum of the
non-padding tokens), ALBERT (factorized embeddings, one shared layer), DeBERTa-v2 (relative
attention over log buckets of the distance, gathered both ways). Encoder-decoders through
it too, with their own dynamic target length: T5 (relative position buckets computed in
the graph from Log, Min and Where; a causal mask in the decoder) and BART (learned positions
with an offset). Decoders, which transformers' TorchScript export no longer traces, through
torch.export's: BLOOM (ALiBi slopes over a cumulative sum of the mask), Falcon (rotary,
one key/value head), Mistral (grouped-query attention with a sliding window), Qwen2
(grouped-query attention with bias), Phi (partial rotary), GPT-NeoX (parallel residual,
partial rotary), and Mistral decoding over a KV cache, Whisper (its encoder at the 32 mel
frames it requires, its decoder over a dynamic target: TorchScript's exporter fails on it).
Longformer (sliding windows over the sequence padded to a multiple of the window) and Funnel
(the sequence pooled between blocks, relative positions from aranges) through TorchScript's.

Vision and audio, TorchScript's exporter: ConvNeXt, BEiT (a relative position bias table
interpolated to the patches), DINOv2 (position embeddings resized by float scales) and
SegFormer over a dynamic image size; Swin and Swin V2 too, which onnxruntime runs only at
multiples of 16 (their exports keep values traced at 32 x 32), and MobileViT (multiples of
32; patches of a size rounded up in float); WavLM over a dynamic audio length (relative
position buckets over the frames), Wav2Vec2-Conformer's relative positions over them (a
length the graph leaves open: see its maker) and Speech2Text (convolutions subsampling the
frames of its features, a decoder over a dynamic target).
"""
from __future__ import annotations

import numpy as np

from hf_export import (HW, OTHER_SIZES, VOCAB, audio, export, floats, image, kv_cache_decoder,
                       modules, one_input, text_feeds, text_model)

_SMALL = dict(vocab_size=VOCAB, hidden_size=32, num_attention_heads=4)


def roberta():
    _, T = modules()
    config = T.RobertaConfig(**_SMALL, num_hidden_layers=2, intermediate_size=64,
                             max_position_embeddings=70)
    return (*text_model(T.RobertaModel, config, False, False), "bert")


def albert():
    _, T = modules()
    config = T.AlbertConfig(**_SMALL, embedding_size=16, num_hidden_layers=2,
                            intermediate_size=64, max_position_embeddings=64)
    return (*text_model(T.AlbertModel, config, True, False), None)


def deberta_v2():
    """Relative attention in both directions (c2p, p2c) over 16 log position buckets."""
    _, T = modules()
    config = T.DebertaV2Config(**_SMALL, num_hidden_layers=2, intermediate_size=64,
                               max_position_embeddings=64, relative_attention=True,
                               position_buckets=16, pos_att_type=["p2c", "c2p"])
    return (*text_model(T.DebertaV2Model, config, False, False), None)


def _seq2seq(model, model_type):
    """An encoder-decoder over (input_ids, attention_mask) of [batch, seq] and
    decoder_input_ids of [batch, target], returning the decoder's last hidden state."""
    torch, _ = modules()

    class Seq2Seq(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = model.eval()

        def forward(self, input_ids, attention_mask, decoder_input_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          decoder_input_ids=decoder_input_ids, use_cache=False,
                          return_dict=False)[0]

    def feeds(batch, seq, target):
        f = text_feeds(batch, seq)
        rng = np.random.default_rng(target)
        f["decoder_input_ids"] = rng.integers(0, VOCAB, (batch, target)).astype(np.int64)
        return f

    names = ["input_ids", "attention_mask", "decoder_input_ids"]
    f = feeds(2, 5, 3)
    dims = {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
            "decoder_input_ids": {0: "batch", 1: "target"}}
    onnx_model = export(Seq2Seq(), tuple(torch.from_numpy(f[n]) for n in names), names,
                        ["last_hidden_state"], dims, False)
    return onnx_model, [feeds(2, 5, 3), feeds(3, 9, 4)], model_type


def t5():
    """Relative position buckets (8, distances up to 16) computed in the graph."""
    _, T = modules()
    config = T.T5Config(vocab_size=VOCAB, d_model=32, d_kv=8, d_ff=64, num_layers=2,
                        num_decoder_layers=2, num_heads=4, relative_attention_num_buckets=8,
                        relative_attention_max_distance=16, decoder_start_token_id=0)
    return _seq2seq(T.T5Model(config), None)


def bart():
    _, T = modules()
    config = T.BartConfig(vocab_size=VOCAB, d_model=32, encoder_layers=1, decoder_layers=1,
                          encoder_attention_heads=4, decoder_attention_heads=4,
                          encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64)
    return _seq2seq(T.BartModel(config), None)


def _decoder(model_cls, config):
    return (*text_model(model_cls, config, False, True), None)


def bloom():
    _, T = modules()
    return _decoder(T.BloomModel, T.BloomConfig(vocab_size=VOCAB, hidden_size=32, n_layer=2,
                                                n_head=4))


def falcon():
    _, T = modules()
    return _decoder(T.FalconModel, T.FalconConfig(**_SMALL, num_hidden_layers=2,
                                                  new_decoder_architecture=False,
                                                  multi_query=True, alibi=False))


def mistral():
    """Grouped-query attention (4 heads over 2), a sliding window of 4 positions."""
    _, T = modules()
    return _decoder(T.MistralModel, T.MistralConfig(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, num_key_value_heads=2,
        max_position_embeddings=64, sliding_window=4))


def qwen2():
    _, T = modules()
    return _decoder(T.Qwen2Model, T.Qwen2Config(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, num_key_value_heads=2,
        max_position_embeddings=64))


def phi():
    _, T = modules()
    return _decoder(T.PhiModel, T.PhiConfig(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, max_position_embeddings=64,
        partial_rotary_factor=0.5))


def gpt_neox():
    _, T = modules()
    return _decoder(T.GPTNeoXModel, T.GPTNeoXConfig(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, max_position_embeddings=64,
        rotary_pct=0.5))


def convnext():
    """Two stages over a dynamic image size: a 4 x 4 patchify, a 2 x 2 downsampling."""
    _, T = modules()
    inner = T.ConvNextModel(T.ConvNextConfig(num_channels=3, num_stages=2, hidden_sizes=[8, 16],
                                             depths=[1, 1]))
    return one_input(inner, "pixel_values",
                     lambda m, x: m(pixel_values=x, return_dict=False)[0],
                     {0: "batch", 2: "height", 3: "width"},
                     [floats("pixel_values", 1, 3, 32, 32), floats("pixel_values", 2, 3, 48, 40)])


def longformer():
    """Sliding-window attention (a window of 4): the sequence padded to a multiple of the
    window, chunks of half a window, aranges over symbolic lengths as
    NonZero(ConstantOfShape([n], 1))."""
    _, T = modules()
    config = T.LongformerConfig(**_SMALL, num_hidden_layers=2, intermediate_size=64,
                                max_position_embeddings=80, attention_window=4)
    return (*text_model(T.LongformerModel, config, False, False), None)


def funnel():
    """The sequence pooled by 2 between blocks; relative positions from aranges over the
    pooled positions (float elements: the first and last of a Range)."""
    _, T = modules()
    config = T.FunnelConfig(vocab_size=VOCAB, d_model=32, n_head=4, d_head=8, d_inner=64,
                            block_sizes=[1, 1], num_decoder_layers=1)
    return (*text_model(T.FunnelModel, config, False, False), None)


def whisper():
    """Whisper's encoder (two convolutions over 32 mel frames, the length it requires) and
    decoder over a dynamic target, through torch.export's exporter (TorchScript's fails)."""
    _, T = modules()
    config = T.WhisperConfig(vocab_size=VOCAB, num_mel_bins=8, d_model=32, encoder_layers=1,
                             decoder_layers=1, encoder_attention_heads=4,
                             decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64,
                             max_source_positions=16, max_target_positions=16, pad_token_id=0,
                             bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
    return _speech_seq2seq(T.WhisperModel(config).eval(), lambda batch: (batch, 8, 32),
                           {0: "batch"}, [(2, 3), (1, 7)], True)


def _speech_seq2seq(inner, shape, feature_dims: dict, sizes: list, dynamo: bool):
    """An encoder over input_features of `shape(batch, *rest)` (feature_dims: its named
    axes) and a decoder over a dynamic target; `sizes`: (batch, *rest, target) of the two
    feeds, the first the export's."""
    torch, _ = modules()

    class SpeechSeq2Seq(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner

        def forward(self, input_features, decoder_input_ids):
            return self.m(input_features=input_features, decoder_input_ids=decoder_input_ids,
                          use_cache=False, return_dict=False)[0]

    def feeds(batch, *rest_target):
        *rest, target = rest_target
        f = floats("input_features", *shape(batch, *rest))
        rng = np.random.default_rng(target)
        f["decoder_input_ids"] = rng.integers(0, VOCAB, (batch, target)).astype(np.int64)
        return f

    names = ["input_features", "decoder_input_ids"]
    f = feeds(*sizes[0])
    model = export(SpeechSeq2Seq(), tuple(torch.from_numpy(f[n]) for n in names), names,
                   ["last_hidden_state"], {"input_features": feature_dims,
                                           "decoder_input_ids": {0: "batch", 1: "target"}},
                   dynamo)
    return model, [feeds(*size) for size in sizes], None


def mistral_kv():
    """Mistral decoding over a KV cache (two layers, 2 key/value heads of 8) with a sliding
    window of 4, through torch.export's exporter: the window's mask over past + seq."""
    _, T = modules()
    inner = T.MistralModel(T.MistralConfig(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, num_key_value_heads=2,
        max_position_embeddings=64, sliding_window=4)).eval()
    return (*kv_cache_decoder(inner, 2, 8), None)


_VIT = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
            image_size=32, patch_size=8)
# two Mix Transformer stages (SegFormer's encoder, GLPN's, PVT v2): overlapping patches by
# convolutions 7/4 and 3/2, keys reduced by 2 in the first
_MIX = dict(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], patch_sizes=[7, 3],
            strides=[4, 2], num_attention_heads=[1, 2], mlp_ratios=[2, 2])


def beit():
    """A relative position bias table interpolated to the image's patches: Resized to
    (2*(h//8) - 1) x (2*(w//8) - 1) and reshaped to [their product, heads]."""
    _, T = modules()
    inner = T.BeitModel(T.BeitConfig(**_VIT, use_relative_position_bias=True))
    return image(inner, HW, OTHER_SIZES, interpolate_pos_encoding=True)


def dinov2():
    """Position embeddings resized by scale factors computed in float from the patches."""
    _, T = modules()
    return image(T.Dinov2Model(T.Dinov2Config(**_VIT)), HW, OTHER_SIZES)


def segformer():
    """Overlapping patch embeddings (convolutions 7/4 and 3/2), attention over keys reduced
    by a strided convolution."""
    _, T = modules()
    inner = T.SegformerModel(T.SegformerConfig(**_MIX, hidden_sizes=[8, 16],
                                               decoder_hidden_size=16))
    return image(inner, HW, OTHER_SIZES)


def swin():
    """Shifted windows (4 x 4) over a dynamic image size: the patches padded to a multiple of
    the window, in windows. The TorchScript export keeps values traced at 32 x 32: onnxruntime
    runs it only where height and width are multiples of 16."""
    _, T = modules()
    inner = T.SwinModel(T.SwinConfig(image_size=32, patch_size=2, embed_dim=8, depths=[1, 1],
                                     num_heads=[2, 2], window_size=4))
    return image(inner, HW, [(1, 3, 32, 32), (2, 3, 48, 32)])


def mobilevit():
    """MobileViT unfolds its feature maps into 2 x 2 patches of a size rounded up in float,
    ceil(h / 2.0) * 2 (rules/Ceil.lp: the rounding of a float quotient of a size). onnxruntime
    runs the export at multiples of 32 only (values traced at 32 x 32)."""
    _, T = modules()
    inner = T.MobileViTModel(T.MobileViTConfig(
        image_size=32, patch_size=2, hidden_sizes=[16, 24, 32],
        neck_hidden_sizes=[8, 8, 16, 16, 24, 24, 48], num_attention_heads=2, expand_ratio=2.0))
    return image(inner, HW, [(1, 3, 32, 32), (2, 3, 64, 96)])


def swinv2():
    """Swin V2: a continuous position bias from log-spaced relative coordinates (an MLP over
    a constant table), over a dynamic image size (onnxruntime: multiples of 16)."""
    _, T = modules()
    inner = T.Swinv2Model(T.Swinv2Config(image_size=32, patch_size=2, embed_dim=8,
                                         depths=[1, 1], num_heads=[2, 2], window_size=4))
    return image(inner, HW, [(1, 3, 32, 32), (2, 3, 48, 32)])


def wavlm():
    """Wav2Vec2's feature extractor, and gated relative position buckets over the frames."""
    _, T = modules()
    from hf_models import _audio_config

    inner = T.WavLMModel(_audio_config(T.WavLMConfig, conv_dim=(16,) * 7, num_buckets=16,
                                       max_bucket_distance=32))
    return audio(inner)


def wav2vec2_conformer():
    """Relative positions over the frames f: a Slice of a [1, 9999, 32] table from 5000 - f to
    4999 + f, 2*f - 1 long only while f <= 5000 (past that, the start counts from the end):
    the graph does not bound f, so that length stays open (19 tensors)."""
    _, T = modules()
    from hf_models import _audio_config

    inner = T.Wav2Vec2ConformerModel(_audio_config(
        T.Wav2Vec2ConformerConfig, conv_dim=(16,) * 7, position_embeddings_type="relative",
        conv_depthwise_kernel_size=3))
    return audio(inner)


def speech2text():
    """Speech2Text: two strided convolutions subsample the frames of the input features,
    a decoder over a dynamic target."""
    _, T = modules()
    config = T.Speech2TextConfig(
        vocab_size=VOCAB, d_model=32, encoder_layers=1, decoder_layers=1,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_source_positions=200, max_target_positions=64,
        input_feat_per_channel=8, conv_channels=16, num_conv_layers=2, pad_token_id=1,
        decoder_start_token_id=2)
    return _speech_seq2seq(T.Speech2TextModel(config).eval(),
                           lambda batch, frames: (batch, frames, 8),
                           {0: "batch", 1: "frames"}, [(2, 30, 3), (1, 47, 7)], False)


MODELS = {"hf_roberta": roberta, "hf_albert": albert, "hf_deberta_v2": deberta_v2,
          "hf_t5": t5, "hf_bart": bart, "hf_bloom": bloom, "hf_falcon": falcon,
          "hf_mistral": mistral, "hf_qwen2": qwen2, "hf_phi": phi, "hf_gpt_neox": gpt_neox,
          "hf_convnext": convnext, "hf_longformer": longformer, "hf_funnel": funnel,
          "hf_whisper": whisper, "hf_mistral_kv": mistral_kv, "hf_beit": beit,
          "hf_dinov2": dinov2, "hf_segformer": segformer, "hf_swin": swin, "hf_wavlm": wavlm,
          "hf_wav2vec2_conformer": wav2vec2_conformer, "hf_speech2text": speech2text,
          "hf_mobilevit": mobilevit, "hf_swinv2": swinv2}
