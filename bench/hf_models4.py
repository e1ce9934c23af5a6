"""A fourth round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Encoders: ELECTRA (an embedding projection), ConvBERT (span-based dynamic convolution
beside self-attention, heads halved), SqueezeBERT (grouped 1x1 convolutions for every
projection). Decoders: OPT (learned positions offset by 2, from the mask's cumulative
sum: no bound on the sequence, data), GPT-Neo (local attention over a window of 4 beside
global), StableLM (rotary over half of each head), Qwen3 (a norm per head on queries and
keys), and Pegasus (sinusoidal positions, an encoder-decoder). HuBERT over a dynamic audio
length. Vision: PoolFormer (pooling as token mixer, its strided stages one division:
(h + 29)//32 where torch.export declares (h - 3)//32 + 1), RegNet (grouped convolutions,
squeeze-excitation), GLPN (Mix Transformer stages with spatial reduction, a decoder that
upsamples back) and Data2Vec vision (BEiT's relative position bias interpolated). Also
PoolFormer and Swin2SR through torch.export's exporter (`*_dynamo`: Swin2SR's windows leave
16*(height//4)*(width//4) = height*width, whose floors height, width >= 4 make the windows'
count never 0; torch.export specializes its batch to 1 and the image to multiples of 4).
All: every tensor known, 0 wrong, onnxruntime's at two sizes (stop 47).
"""
from __future__ import annotations

from hf_export import HW, OTHER_SIZES, VOCAB, audio, image, modules, text_model
from hf_models2 import _MIX, _SMALL, _VIT, _decoder, _seq2seq

_TEXT = dict(**_SMALL, num_hidden_layers=2, intermediate_size=64, max_position_embeddings=64)


def electra():
    _, T = modules()
    return (*text_model(T.ElectraModel, T.ElectraConfig(**_TEXT, embedding_size=16),
                        True, False), None)


def convbert():
    _, T = modules()
    config = T.ConvBertConfig(**_TEXT, embedding_size=32, head_ratio=2, conv_kernel_size=3)
    return (*text_model(T.ConvBertModel, config, True, False), None)


def squeezebert():
    _, T = modules()
    config = T.SqueezeBertConfig(**_TEXT, embedding_size=32, q_groups=2, k_groups=2,
                                 v_groups=2, post_attention_groups=2, intermediate_groups=2,
                                 output_groups=2)
    return (*text_model(T.SqueezeBertModel, config, True, False), None)


def opt():
    _, T = modules()
    return _decoder(T.OPTModel, T.OPTConfig(vocab_size=VOCAB, hidden_size=32,
                                            num_attention_heads=4, num_hidden_layers=2,
                                            ffn_dim=64, max_position_embeddings=64,
                                            word_embed_proj_dim=32))


def gpt_neo():
    _, T = modules()
    return _decoder(T.GPTNeoModel, T.GPTNeoConfig(
        vocab_size=VOCAB, hidden_size=32, num_heads=4, num_layers=2, window_size=4,
        attention_types=[[["global", "local"], 1]], max_position_embeddings=64))


def grouped_query(name: str, **extra):
    """A decoder T.<name>Model of 2 layers, 4 heads over 2 key/value heads."""
    _, T = modules()
    return _decoder(getattr(T, f"{name}Model"), getattr(T, f"{name}Config")(
        **_SMALL, num_hidden_layers=2, intermediate_size=64, num_key_value_heads=2, **extra))


def stablelm():
    return grouped_query("StableLm", partial_rotary_factor=0.5)


def qwen3():
    return grouped_query("Qwen3", head_dim=8)


def small_seq2seq(name: str, **extra):
    """An encoder-decoder T.<name>Model of one layer each, 4 heads, d_model 32."""
    _, T = modules()
    return _seq2seq(getattr(T, f"{name}Model")(getattr(T, f"{name}Config")(
        vocab_size=VOCAB, d_model=32, encoder_layers=1, decoder_layers=1,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_position_embeddings=64, **extra)), None)


def pegasus():
    return small_seq2seq("Pegasus")


def hubert():
    _, T = modules()
    from hf_models import _audio_config

    inner = T.HubertModel(_audio_config(T.HubertConfig, conv_dim=(16,) * 7))
    return audio(inner)


def poolformer(dynamo: bool = False):
    _, T = modules()
    inner = T.PoolFormerModel(T.PoolFormerConfig(hidden_sizes=[16, 32, 32, 32],
                                                 depths=[1, 1, 1, 1]))
    return image(inner, HW, [(1, 3, 64, 64), (2, 3, 96, 80)], dynamo=dynamo)


def regnet():
    _, T = modules()
    inner = T.RegNetModel(T.RegNetConfig(embedding_size=16, hidden_sizes=[16, 32],
                                         depths=[1, 1], groups_width=8))
    return image(inner, HW, [(1, 3, 64, 64), (2, 3, 96, 80)])


def glpn():
    _, T = modules()
    inner = T.GLPNModel(T.GLPNConfig(**_MIX, hidden_sizes=[16, 32], decoder_hidden_size=16))
    return image(inner, HW, [(1, 3, 32, 32), (2, 3, 64, 48)])


def data2vec_vision():
    _, T = modules()
    inner = T.Data2VecVisionModel(T.Data2VecVisionConfig(**_VIT,
                                                         use_relative_position_bias=True))
    return image(inner, HW, OTHER_SIZES, interpolate_pos_encoding=True)


def swin2sr_dynamo():
    from hf_models3 import swin2sr

    return swin2sr(dynamo=True)


MODELS = {"hf_electra": electra, "hf_convbert": convbert, "hf_squeezebert": squeezebert,
          "hf_opt": opt, "hf_gpt_neo": gpt_neo, "hf_stablelm": stablelm, "hf_qwen3": qwen3,
          "hf_pegasus": pegasus, "hf_hubert": hubert, "hf_poolformer": poolformer,
          "hf_poolformer_dynamo": lambda: poolformer(dynamo=True), "hf_regnet": regnet,
          "hf_glpn": glpn, "hf_data2vec_vision": data2vec_vision,
          "hf_swin2sr_dynamo": swin2sr_dynamo}
