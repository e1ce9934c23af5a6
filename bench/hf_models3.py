"""A third round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Decoders through torch.export's exporter: GPT-J (rotary over the first 4 dims of each head,
interleaved), Gemma 2 (attention logits soft-capped by tanh, sliding-window and global
layers alternating, grouped-query attention with its own head_dim), GPTBigCode (multi-query:
one key/value head, keys and values split from one projection) and Mamba 2 (no attention: a
chunked selective scan, the sequence padded to whole chunks of 4, segment sums over a
cumulative sum, a causal convolution cut back to the sequence). Mixtral's sparse mixture of
experts block alone, through TorchScript's (its decoder exports with neither): routing by
TopK and OneHot, each expert's tokens by NonZero, a count the data decides (left open). FNet
(a 2-D FFT over sequence and hidden, torch.export's: DFT) and XLNet (relative attention by
Einsum over positions from an arange of 2*seq, and its rel_shift: the scores reshaped with
their last two axes swapped, the first row dropped, reshaped back to 2*seq - 1 columns and
cut to the keys by an index_select of an arange) through the TorchScript exporter, as the
other encoders, with LED (Longformer's attention in a BART encoder-decoder: the sequence
padded to whole windows of 4 and cut back by x[:, :-pad], empty where the pad is 0: see led)
and LongT5 (transient-global attention: the sequence padded to whole blocks of 3 for a local
radius of 2, global tokens summing blocks of 4, relative buckets in the graph).

Vision: YOLOS (detection tokens after the patches, position embeddings interpolated to the
image's patches), DPT (a ViT whose tokens are reassembled into maps at four scales and fused
by upsampling), Swin2SR's body (windows of 4 over the image reflect-padded to whole windows:
onnxruntime runs its export only at multiples of 4, values traced at 16 x 16), ViTDet
(windows of 3 over patches padded to whole windows, Hp*Wp//3//3 of them per image, and
relative position tables resized by an If unless they have the size already: rules/If.lp's
join) and MobileNetV2 with TensorFlow's 'SAME' padding, which the export bakes at the traced
32 x 48 (a pad of 0 or 1 a side: odd widths after four halvings, so the last stride rounds
width up and height down). Audio: EnCodec's encoder (causal convolutions whose input is
padded to whole strides, ceil((length - kernel + pad) / stride + 1) in float: rules/Ceil.lp,
then an LSTM).
"""
from __future__ import annotations

from hf_export import (HW, OTHER_SIZES, VOCAB, floats, image, modules, one_input, text_feeds,
                       text_model)

_SMALL = dict(vocab_size=VOCAB, hidden_size=32, num_attention_heads=4)


def _decoder(model_cls, config):
    return (*text_model(model_cls, config, False, True), None)


def _encoder(model_cls, config, token_types=False):
    return (*text_model(model_cls, config, token_types, False), None)


def _moe(block):
    """A sparse mixture-of-experts block over hidden states [batch, seq, 32]."""
    return one_input(block, "hidden_states", lambda m, x: m(x)[0], {0: "batch", 1: "seq"},
                     [floats("hidden_states", 2, 5, 32), floats("hidden_states", 3, 7, 32)])


def mixtral_moe():
    _, T = modules()
    from transformers.models.mixtral.modeling_mixtral import MixtralSparseMoeBlock

    return _moe(MixtralSparseMoeBlock(T.MixtralConfig(
        **_SMALL, intermediate_size=64, num_local_experts=4, num_experts_per_tok=2)))


def gptj():
    _, T = modules()
    return _decoder(T.GPTJModel, T.GPTJConfig(vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4,
                                              n_positions=64, rotary_dim=4))


def gemma2():
    _, T = modules()
    return _decoder(T.Gemma2Model, T.Gemma2Config(
        **_SMALL, intermediate_size=64, num_hidden_layers=2, num_key_value_heads=2, head_dim=8,
        max_position_embeddings=64, sliding_window=4, attn_logit_softcapping=50.0,
        final_logit_softcapping=30.0))


def gpt_bigcode():
    _, T = modules()
    return _decoder(T.GPTBigCodeModel, T.GPTBigCodeConfig(
        vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4, n_positions=64, multi_query=True))


def xlnet():
    _, T = modules()
    return _encoder(T.XLNetModel, T.XLNetConfig(vocab_size=VOCAB, d_model=32, n_layer=2,
                                                n_head=4, d_inner=64), True)


def fnet():
    _, T = modules()
    inner = T.FNetModel(T.FNetConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                                     intermediate_size=64, max_position_embeddings=64))
    return one_input(inner, "input_ids", lambda m, x: m(input_ids=x, return_dict=False)[0],
                     {0: "batch", 1: "seq"},
                     [{"input_ids": text_feeds(*size)["input_ids"]} for size in ((2, 5), (3, 7))],
                     True)


def yolos():
    _, T = modules()
    inner = T.YolosModel(T.YolosConfig(hidden_size=32, num_hidden_layers=2,
                                       num_attention_heads=4, intermediate_size=64,
                                       image_size=[32, 32], patch_size=8, num_detection_tokens=5),
                         add_pooling_layer=False)
    return image(inner, HW, OTHER_SIZES)


def led():
    """Its encoder pads the sequence to whole windows of 4 and cuts the padding back off as
    x[:, :-pad]: seq rows where seq % 4 != 0, none where the pad is 0 (and the decoder's
    cross-attention then fails in onnxruntime). So the rows are seq in every run: the
    cut's length in each case (rules/Slice.lp's case_dim), the scores plus the mask [batch,
    1, target, seq] seq (broadcast.lp: seq is 1 only where the pad is not 0), and the
    attention's MatMul gives the rows that (rules/Reshape.lp's counts)."""
    _, T = modules()
    from hf_models2 import _seq2seq

    config = T.LEDConfig(vocab_size=VOCAB, d_model=32, encoder_layers=1, decoder_layers=1,
                         encoder_attention_heads=4, decoder_attention_heads=4,
                         encoder_ffn_dim=64, decoder_ffn_dim=64, max_encoder_position_embeddings=64,
                         max_decoder_position_embeddings=64, attention_window=4)
    return _seq2seq(T.LEDModel(config), None)


def dpt():
    _, T = modules()
    inner = T.DPTModel(T.DPTConfig(
        hidden_size=32, num_hidden_layers=4, num_attention_heads=4, intermediate_size=64,
        image_size=32, patch_size=8, backbone_out_indices=[0, 1, 2, 3],
        neck_hidden_sizes=[8, 8, 16, 16], fusion_hidden_size=16), add_pooling_layer=False)
    return image(inner, HW, OTHER_SIZES)


def swin2sr(dynamo: bool = False):
    """(torch.export specializes the batch to 1 and the image to multiples of the window,
    guards it cannot state in the graph: its sizes are those)"""
    _, T = modules()
    inner = T.Swin2SRModel(T.Swin2SRConfig(image_size=16, patch_size=1, embed_dim=8,
                                           depths=[1], num_heads=[2], window_size=4,
                                           upscale=2))
    sizes = [(1, 3, 16, 16), (1, 3, 8, 12)] if dynamo else [(1, 3, 16, 16), (2, 3, 24, 20)]
    return image(inner, HW, sizes, dynamo)


def encodec():
    _, T = modules()
    inner = T.EncodecModel(T.EncodecConfig(
        target_bandwidths=[1.5], sampling_rate=8000, audio_channels=1, hidden_size=16,
        num_filters=4, num_residual_layers=1, upsampling_ratios=[4, 2], codebook_size=32,
        codebook_dim=16, use_causal_conv=True, num_lstm_layers=1))
    return one_input(inner, "input_values",
                     lambda m, x: m.encoder(x),
                     {0: "batch", 2: "length"},
                     [floats("input_values", 1, 1, 100), floats("input_values", 2, 1, 123)])


def long_t5():
    _, T = modules()
    from hf_models2 import _seq2seq

    config = T.LongT5Config(vocab_size=VOCAB, d_model=32, d_kv=8, d_ff=64, num_layers=1,
                            num_decoder_layers=1, num_heads=4, local_radius=2,
                            global_block_size=4, encoder_attention_type="transient-global",
                            relative_attention_num_buckets=8,
                            relative_attention_max_distance=16, decoder_start_token_id=0)
    return _seq2seq(T.LongT5Model(config), None)


def mamba2():
    _, T = modules()
    return _decoder(T.Mamba2Model, T.Mamba2Config(
        vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_heads=4, head_dim=16,
        state_size=8, expand=2, n_groups=1, chunk_size=4))


def vitdet():
    _, T = modules()
    inner = T.VitDetModel(T.VitDetConfig(hidden_size=32, num_hidden_layers=2,
                                         num_attention_heads=4, mlp_ratio=2, image_size=32,
                                         pretrain_image_size=32, patch_size=4, window_size=3,
                                         window_block_indices=[0],
                                         use_relative_position_embeddings=True))
    return image(inner, HW, [(2, 3, 32, 48), (1, 3, 40, 24)])


def mobilenet_v2():
    _, T = modules()
    inner = T.MobileNetV2Model(T.MobileNetV2Config(depth_multiplier=0.25, tf_padding=True,
                                                   image_size=32))
    return image(inner, HW, [(2, 3, 32, 48), (1, 3, 41, 27)])


MODELS = {"hf_mixtral_moe": mixtral_moe, "hf_gptj": gptj, "hf_gemma2": gemma2,
          "hf_gpt_bigcode": gpt_bigcode, "hf_mamba2": mamba2, "hf_xlnet": xlnet,
          "hf_fnet": fnet, "hf_led": led, "hf_long_t5": long_t5, "hf_yolos": yolos,
          "hf_dpt": dpt, "hf_swin2sr": swin2sr, "hf_vitdet": vitdet,
          "hf_mobilenet_v2": mobilenet_v2, "hf_encodec": encodec}
