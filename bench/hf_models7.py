"""A seventh round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Text: RoFormer (rotary positions in an encoder), RemBERT (embeddings narrower than the
hidden size), NEZHA (relative positions), Data2Vec's text model, ERNIE (task-type
embeddings), MBart and Blenderbot (encoder-decoders; MBart's learned positions are
arange(seq) + 2 into a table of 64 + 2 rows), Cohere and Persimmon (decoders). Vision:
SigLIP's and ViT-MSN's towers with their positions interpolated to other image sizes.
Speech: Data2Vec's audio model. Every tensor known, 0 wrong, onnxruntime's at two sizes
(stop 50; MBart's `seq in 1..64, target in 1..64` found then: the bounds of an arange
were not carried through an Expand and an added constant). Tried and left out:
MobileViTV2 (its unfold exports only at opset 18, where torch.export cannot solve the
image's divisibility) and EfficientFormer (its tiny config does not run in torch).
"""
from __future__ import annotations

from hf_export import floats, modules, one_input
from hf_models2 import _SMALL, _VIT, _decoder
from hf_models3 import _HW, _encoder, _image
from hf_models4 import grouped_query, small_seq2seq

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


def siglip_vision():
    _, T = modules()
    inner = T.SiglipVisionModel(T.SiglipVisionConfig(**_VIT))
    return _image(inner, _HW, [(1, 3, 32, 48), (2, 3, 40, 24)], interpolate_pos_encoding=True)


def vit_msn():
    _, T = modules()
    inner = T.ViTMSNModel(T.ViTMSNConfig(**_VIT))
    return _image(inner, _HW, [(1, 3, 32, 48), (2, 3, 40, 24)], interpolate_pos_encoding=True)


def data2vec_audio():
    _, T = modules()
    from hf_models import _audio_config

    inner = T.Data2VecAudioModel(_audio_config(T.Data2VecAudioConfig, conv_dim=(16,) * 7))
    return one_input(inner, "input_values",
                     lambda m, x: m(input_values=x, return_dict=False)[0],
                     {0: "batch", 1: "length"},
                     [floats("input_values", 1, 16000), floats("input_values", 2, 12345)])


MODELS = {"hf_roformer": roformer, "hf_rembert": rembert, "hf_nezha": nezha,
          "hf_data2vec_text": data2vec_text, "hf_ernie": ernie, "hf_mbart": mbart,
          "hf_blenderbot": blenderbot, "hf_cohere": cohere, "hf_persimmon": persimmon,
          "hf_siglip_vision": siglip_vision, "hf_vit_msn": vit_msn,
          "hf_data2vec_audio": data2vec_audio}
