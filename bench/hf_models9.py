"""A ninth round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Decoders through torch.export's exporter: DeepSeek-V3 (multi-head latent attention: queries
and keys/values through low-rank projections, a rotary part split off each head and the
keys' one shared by every head, interleaved; its second layer a mixture of 4 experts routed
by group, top-1 of 2 groups then top-2 experts, beside a shared expert), Qwen2-MoE (every
layer 4 experts and a shared expert gated by a sigmoid), both with their experts' loops
taken over every expert (their own skip an expert without tokens, or loop over the experts
the data hits: guards torch.export cannot take), Gemma 3's text model (a sliding window of 4
and global attention alternating, per-head RMS norms of queries and keys, two rotary bases)
and Zamba2 (Mamba2 layers, chunks of 4, and a shared attention block over the hidden states
concatenated with the embeddings, LoRA adapters; over input_ids alone: its Mamba layers
test the mask for all ones). Encoders through TorchScript's: ModernBERT (global and
sliding-window layers, a window of 4 from a distance matrix), UMT5 (a relative position
bias of every layer's own), LiLT (a layout stream over token boxes beside the text, the two
streams' attention scores shared) and Nystromformer (landmarks as the means of 4 segments of
the sequence, reshaped (-1, heads, 4, seq_len // 4, d) with the config's seq_len, 8: it
runs at that length only, the batch dynamic; a pseudo-inverse by six Newton iterations).

Vision: OWLv2's tower (positions interpolated to the image), Hiera (patches by a stride-2
convolution, positions interpolated, tokens unrolled into mask units by reshapes that
multiply the batch by 4 per stage, windowed attention in mask units, queries pooled by a
max over strides, through TorchScript's), EfficientFormer (pooling blocks on maps, then
attention with a bias table of 2 x 2 positions: the image is 64 x 64 at both sizes,
declared dynamic), EoMT (a ViT whose last block takes 5 queries, mask logits from an
upscaled patch grid, masked attention from them resized to a grid the config fixes: 32 x
32), Conditional DETR (spatial queries from reference points, content and position
concatenated in cross-attention) and DAB-DETR (4-d anchor boxes as queries, refined per
layer, attention modulated by their width and height) over a small ResNet. Time series:
PatchTST (the series scaled per channel, unfolded into patches, channels into the batch;
context and channels fixed by the config, the batch dynamic; torch.export's). Audio:
Moonshine's encoder over raw samples (convolutions of kernel 127 stride 64, 7 / 3, 3 / 2:
frames ((((length - 127)//64 + 1 - 7)//3 + 1) - 3)//2 + 1; partial rotary; torch.export's)
and Parakeet's FastConformer encoder (mel frames subsampled by 8 through three stride-2
2-D convolutions, relative positions by a rel_shift, depthwise convolutions).

0 wrong everywhere. Every tensor known but in DeepSeek-V3 (79%) and Qwen2-MoE (62%, ort the
same: each expert's tokens, NonZero's counts), Nystromformer (66%, ort 100%: its landmarks'
batch, batch*seq//8, broadcast against batch is open, a fresh name, which only the
second layer's failure at batch 1 and seq 16 pins; ort names it batch) and Hiera (70%, ort
99%: a Reshape to [batch, height//2, width//2, 16] of [batch, n, 16] gives fresh names for
the two floor divisions, n being open: the broadcast sum of the convolution's
((h + 1)//2)*((w + 1)//2) tokens and the position table's (h//2)*(w//2), equal at even
sizes only). onnxruntime's symbolic inference fails on
Zamba2 (an AssertionError).

Tried and left out: Mamba (v1) and Jamba (their scans loop over the sequence in Python:
torch.export specializes its length; Jamba's mask test besides), Bamba (`cache_position[0]
> 0`, a guard on data, even without a mask), Llama 4's text model (rotary in complex
numbers: torch.export's exporter has no ONNX for them), Qwen2-VL's vision tower (its
attention splits the patches by cu_seqlens.tolist(): a split the data decides, which
torch.export cannot take and TorchScript's bakes), CANINE (local attention chunked by a
Python range over the length: torch.export specializes it; TorchScript's export fails in
onnxruntime at its own traced size), Reformer (reversible layers, an autograd Function
TorchScript's exporter cannot trace; through torch.export's the padding to whole chunks
needs seq = 4 * chunks, then the ONNX translation fails on a remainder by a symbolic
size), Dinov2 with registers (antialiased bicubic interpolation: not in opset 17;
torch.export's specializes the image size) and MobileViTV2 (Col2Im of a dynamic size:
TorchScript's exporter needs it constant, torch.export's fails in sympy on the fold).
"""
from __future__ import annotations

import functools

import numpy as np
from hf_export import (HW, OTHER_SIZES, VOCAB, floats, image, layout_model, modules,
                       multi_input, one_input, text_feeds, text_model, wrapped)


def _decoder(model_cls, config):
    return (*text_model(model_cls, config, False, True), None)


def _encoder(model_cls, config, token_types=False):
    return (*text_model(model_cls, config, token_types, False), None)


# ----- decoders


def _every_expert_deepseek(model):
    """DeepSeek's experts without their `if token_indices.numel() > 0` (a guard on the
    data's count, which torch.export cannot take): an expert with no tokens adds nothing."""
    torch, _ = modules()

    def moe(self, hidden_states, topk_indices, topk_weights):
        final = torch.zeros_like(hidden_states, dtype=topk_weights.dtype)
        expert_mask = torch.nn.functional.one_hot(topk_indices, num_classes=len(self.experts))
        expert_mask = expert_mask.permute(2, 0, 1)
        for i, expert in enumerate(self.experts):
            token_indices, weight_indices = torch.where(expert_mask[i])
            out = expert(hidden_states[token_indices])
            final.index_add_(0, token_indices,
                             out * topk_weights[token_indices, weight_indices].unsqueeze(-1))
        return final.type(hidden_states.dtype)

    for layer in model.layers:
        if hasattr(layer.mlp, "moe"):
            layer.mlp.moe = functools.partial(moe, layer.mlp)
    return model


def deepseek_v3():
    """Multi-head latent attention (query rank 24, key/value rank 16, heads of 8 + 4 rotary
    dims for queries and keys, 8 for values), its second layer a mixture of experts."""
    _, T = modules()
    config = T.DeepseekV3Config(
        vocab_size=VOCAB, hidden_size=32, intermediate_size=64, moe_intermediate_size=16,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4, n_shared_experts=1,
        n_routed_experts=4, kv_lora_rank=16, q_lora_rank=24, qk_rope_head_dim=4,
        v_head_dim=8, qk_nope_head_dim=8, n_group=2, topk_group=1, num_experts_per_tok=2,
        first_k_dense_replace=1, max_position_embeddings=64)
    return _decoder(lambda c: _every_expert_deepseek(T.DeepseekV3Model(c)), config)


def _every_expert_qwen2_moe(model):
    """Qwen2-MoE's sparse blocks looping over every expert, not over those the data hits
    (a loop count torch.export cannot take); otherwise as transformers' forward."""
    torch, _ = modules()
    F = torch.nn.functional

    def forward(self, hidden_states):
        batch, seq, hidden = hidden_states.shape
        x = hidden_states.view(-1, hidden)
        router_logits = self.gate(x)
        weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        weights, selected = torch.topk(weights, self.top_k, dim=-1)
        final = torch.zeros_like(x)
        expert_mask = F.one_hot(selected, num_classes=self.num_experts).permute(2, 1, 0)
        for i, expert in enumerate(self.experts):
            idx, top_x = torch.where(expert_mask[i])
            final.index_add_(0, top_x, expert(x[top_x]) * weights[top_x, idx, None])
        shared = F.sigmoid(self.shared_expert_gate(x)) * self.shared_expert(x)
        return (final + shared).reshape(batch, seq, hidden), router_logits

    for layer in model.layers:
        if hasattr(layer.mlp, "shared_expert_gate"):
            layer.mlp.forward = functools.partial(forward, layer.mlp)
    return model


def qwen2_moe():
    """Every layer 4 experts (top-2 of a softmax, each expert's tokens by NonZero) and a
    shared expert gated by a sigmoid."""
    _, T = modules()
    config = T.Qwen2MoeConfig(
        vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, moe_intermediate_size=16,
        shared_expert_intermediate_size=32, num_experts_per_tok=2, num_experts=4,
        max_position_embeddings=64)
    return _decoder(lambda c: _every_expert_qwen2_moe(T.Qwen2MoeModel(c)), config)


def gemma3_text():
    """A sliding-window layer (4 positions) then a global one, at 5 and 7 positions."""
    _, T = modules()
    return _decoder(T.Gemma3TextModel, T.Gemma3TextConfig(
        vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=8, query_pre_attn_scalar=8,
        sliding_window=4, layer_types=["sliding_attention", "full_attention"],
        max_position_embeddings=64))


def zamba2():
    """A Mamba2 layer, then a hybrid one (the shared attention block over [hidden,
    embeddings] with LoRA adapters, then Mamba2), over input_ids alone; eager attention
    (torch.export fails on its SDPA call: a guard on a size from the data)."""
    _, T = modules()
    inner = T.Zamba2Model(T.Zamba2Config(
        vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
        layers_block_type=["mamba", "hybrid"], mamba_d_state=8, mamba_expand=2,
        n_mamba_heads=4, chunk_size=4, num_attention_heads=4, num_key_value_heads=4,
        intermediate_size=64, use_shared_attention_adapter=True, adapter_rank=4,
        use_mem_rope=True, max_position_embeddings=64, attn_implementation="eager"))
    feeds = [{"input_ids": text_feeds(b, s)["input_ids"]} for b, s in ((2, 5), (3, 7))]
    return one_input(inner, "input_ids",
                     lambda m, x: m(input_ids=x, use_cache=False, return_dict=False)[0],
                     {0: "batch", 1: "seq"}, feeds, dynamo=True)


# ----- encoders


def modernbert():
    """A global layer then a local one (a window of 4), eager attention (no unpadding)."""
    _, T = modules()
    return _encoder(T.ModernBertModel, T.ModernBertConfig(
        vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, max_position_embeddings=64, global_attn_every_n_layers=2,
        local_attention=4, pad_token_id=0, eos_token_id=1, bos_token_id=2, cls_token_id=2,
        sep_token_id=1, attn_implementation="eager"))


def umt5():
    _, T = modules()
    return _encoder(T.UMT5EncoderModel, T.UMT5Config(
        vocab_size=VOCAB, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4,
        relative_attention_num_buckets=8, relative_attention_max_distance=16))


def lilt():
    """Token boxes [batch, seq, 4] (x0, y0, x1, y1 in 0..99) beside the ids; the layout
    stream 48 / 4 = 12 wide."""
    _, T = modules()
    inner = T.LiltModel(T.LiltConfig(
        vocab_size=VOCAB, hidden_size=48, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64, channel_shrink_ratio=4,
        max_2d_position_embeddings=128))

    def boxes(rng, batch, seq):
        corners = np.sort(rng.integers(0, 100, (batch, seq, 2, 2)), axis=2)  # (x0 y0)(x1 y1)
        return corners.reshape(batch, seq, 4).astype(np.int64)

    return layout_model(inner, boxes)


def nystromformer():
    """4 landmarks over the config's 8 positions: batches of 2 and 3 at 8 positions (the
    sequence axis declared dynamic too; we find batch*seq % 8 = 0)."""
    _, T = modules()
    inner = T.NystromformerModel(T.NystromformerConfig(
        vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64, segment_means_seq_len=8,
        num_landmarks=4, conv_kernel_size=3))
    call = wrapped(inner, lambda m, ids, mask, types: m(
        input_ids=ids, attention_mask=mask, token_type_ids=types, return_dict=False)[0])
    return multi_input(call, [text_feeds(2, 8, True), text_feeds(3, 8, True)],
                       {n: {0: "batch", 1: "seq"}
                        for n in ("input_ids", "attention_mask", "token_type_ids")})


# ----- vision


def owlv2_vision():
    _, T = modules()
    inner = T.Owlv2VisionModel(T.Owlv2VisionConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        image_size=32, patch_size=8))
    return image(inner, HW, OTHER_SIZES, interpolate_pos_encoding=True)


def hiera():
    """Four stages of one layer (mask units of 8 x 8 tokens, queries pooled by 2 x 2 twice),
    positions interpolated: 64 x 64 and 96 x 64 images."""
    _, T = modules()
    inner = T.HieraModel(T.HieraConfig(
        embed_dim=16, image_size=[64, 64], patch_size=[3, 3], patch_stride=[2, 2],
        patch_padding=[1, 1], depths=[1, 1, 1, 1], num_heads=[1, 2, 2, 4],
        num_query_pool=2, query_stride=[2, 2], masked_unit_size=[8, 8],
        masked_unit_attention=[True, True, False, False]), add_pooling_layer=False)
    return image(inner, HW, [(1, 3, 64, 64), (2, 3, 96, 64)], interpolate_pos_encoding=True)


def efficientformer():
    """Its last stage's attention biases are a table of 2 x 2 positions: the image is 64 x
    64 (we find ((height + 31)//32)*((width + 31)//32) = 4)."""
    _, T = modules()
    inner = T.EfficientFormerModel(T.EfficientFormerConfig(
        depths=[1, 1, 1, 2], hidden_sizes=[8, 16, 24, 32], dim=32, key_dim=8,
        num_attention_heads=2, resolution=2, num_meta3d_blocks=1, image_size=64))
    return image(inner, HW, [(1, 3, 64, 64), (2, 3, 64, 64)])


def eomt():
    """Mask logits [batch, 5 queries, 8, 8] (the 4 x 4 patch grid upscaled once); positions
    not interpolated: the image is 32 x 32 (we find (height//8)*(width//8) one of 1, 16)."""
    _, T = modules()
    inner = T.EomtForUniversalSegmentation(T.EomtConfig(
        hidden_size=32, num_hidden_layers=3, num_attention_heads=4, mlp_ratio=2, image_size=32,
        patch_size=8, num_upscale_blocks=1, num_blocks=1, num_queries=5, num_register_tokens=2,
        num_labels=3))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x).masks_queries_logits,
                     HW, [floats("pixel_values", 1, 3, 32, 32),
                          floats("pixel_values", 2, 3, 32, 32)])


def _resnet(stages):
    _, T = modules()
    return T.ResNetConfig(embedding_size=8, hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1],
                          layer_type="basic", out_features=stages)


def _detr_variant(model: str, config: str, **width):
    """A DETR variant (`model`, `config`: its transformers classes; `width`: its name for
    the model width, 32) on a basic ResNet's last stage, two decoder layers over 5 queries;
    its last hidden state."""
    _, T = modules()
    inner = getattr(T, model)(getattr(T, config)(
        use_timm_backbone=False, backbone=None, use_pretrained_backbone=False,
        backbone_config=_resnet(["stage4"]), encoder_layers=1, decoder_layers=2,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
        decoder_ffn_dim=64, num_queries=5, **width))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x).last_hidden_state,
                     HW, [floats("pixel_values", 1, 3, 64, 96),
                          floats("pixel_values", 2, 3, 80, 56)])


def conditional_detr():
    """Two decoder layers over 5 queries; its last hidden state."""
    return _detr_variant("ConditionalDetrModel", "ConditionalDetrConfig", d_model=32)


def dab_detr():
    """Two decoder layers over 5 anchor boxes; its last hidden state."""
    return _detr_variant("DabDetrModel", "DabDetrConfig", hidden_size=32)


# ----- time series, audio


def patchtst():
    """32 steps of 3 channels, patches of 8 every 4 (7 of them): [batch, 3, 7, 32]."""
    _, T = modules()
    inner = T.PatchTSTModel(T.PatchTSTConfig(
        num_input_channels=3, context_length=32, patch_length=8, patch_stride=4,
        num_hidden_layers=2, d_model=32, num_attention_heads=4, ffn_dim=64))
    return one_input(inner, "past_values",
                     lambda m, x: m(past_values=x, return_dict=False)[0], {0: "batch"},
                     [floats("past_values", 1, 32, 3), floats("past_values", 2, 32, 3)],
                     dynamo=True)


def moonshine():
    """4000 and 3210 samples: 9 and 7 frames."""
    _, T = modules()
    inner = T.MoonshineModel(T.MoonshineConfig(
        vocab_size=VOCAB, hidden_size=32, intermediate_size=64, encoder_num_hidden_layers=2,
        decoder_num_hidden_layers=1, encoder_num_attention_heads=4,
        decoder_num_attention_heads=4, max_position_embeddings=64)).get_encoder()
    return one_input(inner, "input_values",
                     lambda m, x: m(input_values=x, return_dict=False)[0],
                     {0: "batch", 1: "length"},
                     [floats("input_values", 1, 4000), floats("input_values", 2, 3210)],
                     dynamo=True)


def parakeet():
    """16 mel bins at 50 and 37 frames: 7 and 5 after the subsampling."""
    _, T = modules()
    inner = T.ParakeetEncoder(T.ParakeetEncoderConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        conv_kernel_size=9, subsampling_factor=8, subsampling_conv_channels=8, num_mel_bins=16,
        max_position_embeddings=256))
    return one_input(inner, "input_features",
                     lambda m, x: m(input_features=x, return_dict=False)[0],
                     {0: "batch", 1: "frames"},
                     [floats("input_features", 1, 50, 16), floats("input_features", 2, 37, 16)])


MODELS = {"hf_deepseek_v3": deepseek_v3, "hf_qwen2_moe": qwen2_moe,
          "hf_gemma3_text": gemma3_text, "hf_zamba2": zamba2, "hf_modernbert": modernbert,
          "hf_umt5": umt5, "hf_lilt": lilt, "hf_nystromformer": nystromformer,
          "hf_owlv2_vision": owlv2_vision, "hf_hiera": hiera,
          "hf_efficientformer": efficientformer, "hf_eomt": eomt,
          "hf_conditional_detr": conditional_detr, "hf_dab_detr": dab_detr,
          "hf_patchtst": patchtst, "hf_moonshine": moonshine, "hf_parakeet": parakeet}
