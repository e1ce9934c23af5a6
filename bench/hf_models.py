"""Hugging Face transformers models (tiny configs, random weights: nothing is downloaded)
exported to ONNX, as users bring them: for `compare_peers.py --hf` and tests/test_hf_models.py.

Each maker returns (model, [feeds at two input sizes], the model type onnxruntime's
transformer optimizer takes, or None). BERT, DistilBERT, ViT and MPT go through the
TorchScript exporter, the one whose graphs that optimizer fuses into its com.microsoft ops
(Attention, EmbedLayerNormalization, SkipLayerNormalization, BiasGelu); GPT-2 and LLaMA, which
transformers' TorchScript export no longer traces, through torch.export's (dynamo): the
optimizer fails on those (onnxruntime 1.32: an IndexError in its GPT-2 post-processing),
so they have no fused form.

Beyond text: Wav2Vec2 and SEW-D over a dynamic audio length (floor divisions of the
length through seven or thirteen convolutions; SEW-D pools the frames for its encoder),
CLIP's vision tower at other image sizes (interpolated position embeddings) and DETR with a
small ResNet backbone over a dynamic image size, all through the TorchScript exporter
(`wav2vec2(dynamo=True)` through torch.export's).

More architectures are bench/hf_models2.py's to hf_models9.py's (in MODELS too); the
export itself and the feeds are bench/hf_export.py's.

`fused(model, model_type)` is the model after that optimizer (its fusions in Python,
opt_level 0: no onnxruntime graph rewrites, which could not read the dynamo exports'
weights either), as the optimizer's users deploy it. Nothing is committed as
a binary: models are built on the fly (~1 s each, ~6 s for the dynamo exports).
"""
from __future__ import annotations

import copy
import logging
import warnings

import numpy as np

import hf_models2
import hf_models3
import hf_models4
import hf_models5
import hf_models6
import hf_models7
import hf_models8
import hf_models9
from hf_export import (VOCAB, audio, export, floats, kv_cache_decoder, modules, one_input,
                       text_feeds, text_model)


def bert():
    _, T = modules()
    config = T.BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                          num_attention_heads=4, intermediate_size=64,
                          max_position_embeddings=64)
    return (*text_model(T.BertModel, config, True, False), "bert")


def distilbert():
    _, T = modules()
    config = T.DistilBertConfig(vocab_size=VOCAB, dim=32, n_layers=2, n_heads=4,
                                hidden_dim=64, max_position_embeddings=64)
    return (*text_model(T.DistilBertModel, config, False, False), "bert")


def gpt2():
    _, T = modules()
    config = T.GPT2Config(vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4, n_positions=64)
    return (*text_model(T.GPT2Model, config, False, True), None)


def gpt2_kv(heads: int = 4, d: int = 32):
    """GPT-2 decoding over a KV cache: the past keys and values of each layer as inputs
    [batch, heads, past, d / heads], the mask over past + seq positions (its own dim name:
    the exporter cannot tie it), the present keys and values as outputs."""
    _, T = modules()
    config = T.GPT2Config(vocab_size=VOCAB, n_embd=d, n_layer=2, n_head=heads,
                          n_positions=64)
    return (*kv_cache_decoder(T.GPT2Model(config).eval(), heads, d // heads), None)


def llama():
    _, T = modules()
    config = T.LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                           num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                           max_position_embeddings=64)
    return (*text_model(T.LlamaModel, config, False, True), None)


def mpt():
    """MPT (ALiBi attention, no position embeddings) at 5 positions and at 65, past its
    max_seq_len of 64: its ALiBi table [heads, 1, 64] is sliced from 64 - seq, which takes
    seq positions up to 64 and 1 at 65 (the scores broadcast it): open, 2 tensors
    (onnxruntime's symbolic inference says seq there). The scores plus it are seq at every
    length that runs (broadcast.lp's case_dim: seq is 1 only where the start is >= 0)."""
    _, T = modules()
    config = T.MptConfig(vocab_size=VOCAB, d_model=32, n_layers=2, n_heads=4, max_seq_len=64)
    model, _ = text_model(T.MptModel, config, False, False)
    return model, [text_feeds(2, 5), text_feeds(1, 65)], None


def vit():
    torch, T = modules()
    config = T.ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=64, image_size=32, patch_size=8)
    inner = T.ViTModel(config).eval()

    class Vit(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = inner

        def forward(self, pixel_values):
            return self.m(pixel_values=pixel_values, return_dict=False)[0]

    def feeds(batch):
        rng = np.random.default_rng(batch)
        return {"pixel_values": rng.standard_normal((batch, 3, 32, 32)).astype(np.float32)}

    model = export(Vit(), (torch.from_numpy(feeds(2)["pixel_values"]),), ["pixel_values"],
                    ["last_hidden_state"], {"pixel_values": {0: "batch"}}, False)
    return model, [feeds(2), feeds(3)], "vit"


def _audio_config(cls, **kw):
    """Wav2Vec2's feature extractor (seven convolutions, strides 5, 2, .., 2: the frames are
    ((length//80 + 1)//2 + 1)//2 - 1), narrow, and a two-layer encoder."""
    return cls(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
               num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4, **kw)


def wav2vec2(dynamo: bool = False):
    """Audio of a dynamic length (16000 and 12345 samples) through the convolutions."""
    _, T = modules()
    inner = T.Wav2Vec2Model(_audio_config(T.Wav2Vec2Config, conv_dim=(16,) * 7))
    return audio(inner, dynamo)


def sew_d():
    """SEW-D: Wav2Vec2's frames pooled by 2 for the encoder (its attention mask is
    ConstantOfShape([batch, frames // 2]), an integer Div of a length from the convolutions)
    and upsampled back. The exporter names the output's dims itself."""
    _, T = modules()
    inner = T.SEWDModel(_audio_config(T.SEWDConfig, conv_dim=(16,) * 13, squeeze_factor=2,
                                      position_buckets=16, max_position_embeddings=64))
    return audio(inner)


def clip_vision():
    """CLIP's vision tower at image sizes other than its own 32 x 32 (interpolated position
    embeddings: a grid of int(16 ** 0.5) = 4 patches a side resized to height//8, width//8)."""
    _, T = modules()
    inner = T.CLIPVisionModel(T.CLIPVisionConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        image_size=32, patch_size=8))
    return one_input(
        inner, "pixel_values",
        lambda m, x: m(pixel_values=x, interpolate_pos_encoding=True, return_dict=False)[0],
        {0: "batch", 2: "height", 3: "width"},
        [floats("pixel_values", 1, 3, 32, 48), floats("pixel_values", 2, 3, 40, 24)])


def detr():
    """DETR with a two-stage ResNet backbone (nothing downloaded: no timm, no pretrained
    weights) over images of a dynamic size; its position embedding divides by the last row
    and column of a cumulative sum, x[:, -1:] with the end INT64_MAX."""
    _, T = modules()
    backbone = T.ResNetConfig(num_channels=3, embedding_size=8, hidden_sizes=[8, 16],
                              depths=[1, 1], layer_type="basic", out_features=["stage2"])
    inner = T.DetrModel(T.DetrConfig(
        use_timm_backbone=False, backbone_config=backbone, use_pretrained_backbone=False,
        backbone=None, d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
        decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, num_queries=5))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x, return_dict=False)[0],
                      {0: "batch", 2: "height", 3: "width"},
                      [floats("pixel_values", 1, 3, 64, 96),
                       floats("pixel_values", 2, 3, 80, 56)])


MODELS = {"hf_bert": bert, "hf_distilbert": distilbert, "hf_vit": vit, "hf_gpt2": gpt2,
          "hf_gpt2_kv": gpt2_kv, "hf_llama": llama, "hf_mpt": mpt, "hf_wav2vec2": wav2vec2,
          "hf_wav2vec2_dynamo": lambda: wav2vec2(dynamo=True), "hf_sew_d": sew_d,
          "hf_clip_vision": clip_vision, "hf_detr": detr, **hf_models2.MODELS,
          **hf_models3.MODELS, **hf_models4.MODELS, **hf_models5.MODELS,
          **hf_models6.MODELS, **hf_models7.MODELS, **hf_models8.MODELS, **hf_models9.MODELS}


def fused(model, model_type: str, heads: int = 4, hidden: int = 32):
    """The model after onnxruntime's transformer optimizer (its fusions only). The
    optimizer rewrites the model it is given (its weights go to a temporary file): it
    gets a copy."""
    from onnxruntime.transformers.optimizer import optimize_model

    logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return optimize_model(copy.deepcopy(model), model_type=model_type, num_heads=heads,
                              hidden_size=hidden, opt_level=0, use_gpu=False).model