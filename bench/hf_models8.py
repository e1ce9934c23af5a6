"""An eighth round of Hugging Face architectures for bench/hf_models.py's MODELS (tiny configs,
random weights, built from code: nothing is downloaded), each maker returning (model, [feeds
at two input sizes], onnxruntime's optimizer model type or None) as there.

Video: TimeSformer (divided space-time attention; its layers take the frames and the patches
across from the config, so only the batch and the height vary: rows of patches
((tokens - 1)//4)//4), ViViT (tubelets, position embeddings interpolated), X-CLIP (a video
tower, frames integrated by a transformer, prompts from the video for each text; texts and
videos of their own batches). Vision: GroupViT's tower (group tokens, hard assignment by
ArgMax and a scatter, positions interpolated), RT-DETR and Deformable DETR over a small
ResNet (multi-scale deformable attention by GridSample over three levels, anchors, top-k
queries), Depth Anything (DINOv2 at patches of 14, a DPT neck; its head resizes to the
traced 28 x 42, which the graph keeps at every size), MaskFormer and Mask2Former over a small
ResNet (an FPN or a deformable pixel decoder, masked attention, mask logits at a quarter
of the image), Pix2Struct's tower (flattened patches of a dynamic count, row and column
ids read from the data), Idefics3's tower (bucketed fractional position ids from a
patch mask, batch 1: torch.export's exporter) and SuperPoint (keypoints above a threshold,
away from the border: NonZero counts the data decides; torch.export's). Text: BROS
(pairwise relative box embeddings [seq, seq, batch, ..]). Audio: MusicGen's decoder over 2
codebooks, UniVNet (location-variable convolutions: kernels predicted from the mel frames,
the waveform unfolded by hop), FastSpeech2-Conformer (durations predicted and the encoder's
frames repeated by them in a Loop: a length the data decides; relative positions sliced
from a table the graph does not bound, as Wav2Vec2-Conformer's).

0 wrong everywhere; every tensor known but in Idefics3 (63%: the limit of a Range is the sum
of a column of an all-ones mask, h//8, not derived, nor a NonZero over that all-true mask),
SuperPoint (74%, ort the same: the data's counts, but a Concat on axis -1 of two [_1, 1]
gives [_2, 2]) and FastSpeech2 (82%: besides the data's length, a Conv of kernel 3 padded
by 1 over it gives a fresh length). MaskFormer's and Mask2Former's warnings on their
declared outputs (the exporter names two axes alike) run to 15,000 and 12,000 characters.

Tried and left out: ZoeDepth (its export splits the stacked hidden states by the traced
batch: onnxruntime fails at batch 2), RecurrentGemma and RWKV (their scans loop over the
sequence in Python: torch.export specializes its length), Mimi (neither exporter: an
unordered_map::at in TorchScript's, a packed-sequence mask in torch.export's), DiNAT
(needs natten, not installed), MaskFormer and Mask2Former over Swin (window paddings traced
at 64 x 64: onnxruntime fails at 96 x 64), UniVNet, Idefics3 and SuperPoint through
TorchScript's exporter (Unfold of a dynamic size unsupported; invalid models: a float
index into a Gather, a MaxPool's dilations). CLIPSeg, UperNet (image fixed: adaptive
pooling), MobileBERT, DAC's encoder, SpeechT5's HiFi-GAN and PatchTSMixer built, ran and
were all known, 0 wrong: not kept in this round.
"""
from __future__ import annotations

import functools

import numpy as np
from hf_export import (HW, OTHER_SIZES, VOCAB, floats, image, layout_model, modules,
                       multi_input, one_input, text_feeds, wrapped)


# ----- video


def timesformer():
    """4 frames of 32-wide images (the layers read both from the config), heights 40 and 24
    (not the 32 of its position table: interpolated)."""
    _, T = modules()
    inner = T.TimesformerModel(T.TimesformerConfig(
        image_size=32, patch_size=8, num_frames=4, hidden_size=32, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=64))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x, return_dict=False)[0],
                     {0: "batch", 3: "height"},
                     [floats("pixel_values", 1, 4, 3, 40, 32),
                      floats("pixel_values", 2, 4, 3, 24, 32)])


def vivit():
    """Tubelets of 2 frames of 8 x 8 patches, positions interpolated to the image."""
    _, T = modules()
    inner = T.VivitModel(T.VivitConfig(
        image_size=32, num_frames=2, tubelet_size=[2, 8, 8], hidden_size=32,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=64),
        add_pooling_layer=False)
    return one_input(inner, "pixel_values",
                     lambda m, x: m(pixel_values=x, interpolate_pos_encoding=True,
                                    return_dict=False)[0],
                     {0: "batch", 3: "height", 4: "width"},
                     [floats("pixel_values", 1, 2, 3, 32, 48),
                      floats("pixel_values", 2, 2, 3, 40, 24)])


def xclip():
    """X-CLIP's logits per video [batch, texts]: 4 frames of 32 x 32 (its frame positions are
    a table of 4), texts of a dynamic length."""
    _, T = modules()
    config = T.XCLIPConfig(
        text_config={"vocab_size": VOCAB, "hidden_size": 32, "intermediate_size": 64,
                     "num_hidden_layers": 1, "num_attention_heads": 4,
                     "max_position_embeddings": 64},
        vision_config={"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1,
                       "num_attention_heads": 4, "image_size": 32, "patch_size": 8,
                       "num_frames": 4, "mit_hidden_size": 16, "mit_intermediate_size": 32,
                       "mit_num_hidden_layers": 1, "mit_num_attention_heads": 4},
        projection_dim=16, prompt_layers=1, prompt_attention_heads=4)
    call = wrapped(T.XCLIPModel(config),
                   lambda m, ids, px: m(input_ids=ids, pixel_values=px, return_dict=False)[0])

    def feeds(batch, texts, seq):
        return {"input_ids": text_feeds(texts, seq)["input_ids"],
                **floats("pixel_values", batch, 4, 3, 32, 32)}

    return multi_input(call, [feeds(1, 2, 5), feeds(2, 3, 7)],
                       {"input_ids": {0: "texts", 1: "seq"}, "pixel_values": {0: "batch"}},
                       ["logits_per_video"])


# ----- vision


def groupvit_vision():
    """Two grouping stages (8 then 4 group tokens), positions interpolated to the image."""
    _, T = modules()
    inner = T.GroupViTVisionModel(T.GroupViTVisionConfig(
        hidden_size=32, intermediate_size=64, depths=[1, 1, 1], num_hidden_layers=3,
        num_group_tokens=[8, 4, 0], num_output_groups=[8, 4, 4], num_attention_heads=4,
        image_size=32, patch_size=8))
    embeddings = inner.vision_model.embeddings  # (the model's forward does not pass the flag)
    embeddings.forward = functools.partial(type(embeddings).forward, embeddings,
                                           interpolate_pos_encoding=True)
    return image(inner, HW, OTHER_SIZES)


def _resnet(stages):
    _, T = modules()
    return T.ResNetConfig(embedding_size=8, hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1],
                          layer_type="basic", out_features=stages)


def rt_detr():
    """RT-DETR: a hybrid encoder over three ResNet levels, anchors from the levels' sizes, 5
    queries chosen by TopK, a deformable decoder layer (GridSample)."""
    _, T = modules()
    inner = T.RTDetrModel(T.RTDetrConfig(
        backbone_config=_resnet(["stage2", "stage3", "stage4"]), encoder_in_channels=[16, 24, 32],
        encoder_hidden_dim=16, encoder_ffn_dim=32, encoder_attention_heads=2, d_model=16,
        num_queries=5, decoder_in_channels=[16, 16, 16], decoder_ffn_dim=32, decoder_layers=1,
        decoder_attention_heads=2, decoder_n_points=2, num_denoising=0))
    return image(inner, HW, [(1, 3, 64, 64), (2, 3, 96, 64)])


def deformable_detr():
    """Deformable DETR: multi-scale deformable attention (GridSample) over three ResNet
    levels flattened together, 5 queries; its last hidden state."""
    _, T = modules()
    inner = T.DeformableDetrModel(T.DeformableDetrConfig(
        use_timm_backbone=False, backbone=None, use_pretrained_backbone=False,
        backbone_config=_resnet(["stage2", "stage3", "stage4"]), d_model=32,
        encoder_layers=1, decoder_layers=1, encoder_attention_heads=4, decoder_attention_heads=4,
        encoder_ffn_dim=64, decoder_ffn_dim=64, num_queries=5, num_feature_levels=3,
        encoder_n_points=2, decoder_n_points=2, disable_custom_kernels=True))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x).last_hidden_state,
                     HW, [floats("pixel_values", 1, 3, 64, 64),
                          floats("pixel_values", 2, 3, 80, 56)])


def depth_anything():
    """DINOv2 at patches of 14, four of its layers reassembled by DPT's neck; the head
    resizes the depth to int(patches * 14), traced: 28 x 42 at every image size."""
    _, T = modules()
    backbone = T.Dinov2Config(hidden_size=32, num_hidden_layers=4, num_attention_heads=4,
                              intermediate_size=64, image_size=28, patch_size=14,
                              out_indices=[1, 2, 3, 4], reshape_hidden_states=False)
    inner = T.DepthAnythingForDepthEstimation(T.DepthAnythingConfig(
        backbone_config=backbone, reassemble_hidden_size=32, neck_hidden_sizes=[8, 16, 32, 32],
        fusion_hidden_size=16, head_hidden_size=8))
    return image(inner, HW, [(1, 3, 28, 42), (2, 3, 56, 28)])


def maskformer():
    """MaskFormer over a small ResNet: an FPN pixel decoder, DETR's decoder over 5 queries,
    mask logits at a quarter of the image."""
    _, T = modules()
    inner = T.MaskFormerForInstanceSegmentation(T.MaskFormerConfig(
        backbone_config=_resnet(["stage1", "stage2", "stage3", "stage4"]), fpn_feature_size=32,
        mask_feature_size=32, num_queries=5, num_labels=3,
        decoder_config={"model_type": "detr", "d_model": 32, "encoder_layers": 1,
                        "decoder_layers": 1, "encoder_attention_heads": 4,
                        "decoder_attention_heads": 4, "encoder_ffn_dim": 64,
                        "decoder_ffn_dim": 64, "num_queries": 5}))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x).masks_queries_logits,
                     HW, [floats("pixel_values", 1, 3, 64, 64),
                          floats("pixel_values", 2, 3, 96, 64)])


def mask2former():
    """Mask2Former over a small ResNet (transformers warns it supports Swin; it runs): a
    pixel decoder of multi-scale deformable attention (GridSample) over three levels,
    masked attention in the decoder (the previous layer's mask logits resized to each
    level), mask logits at a quarter of the image."""
    _, T = modules()
    inner = T.Mask2FormerForUniversalSegmentation(T.Mask2FormerConfig(
        backbone_config=_resnet(["stage1", "stage2", "stage3", "stage4"]), feature_size=32,
        mask_feature_size=32, hidden_dim=32, encoder_feedforward_dim=64, dim_feedforward=64,
        encoder_layers=1, decoder_layers=2, num_attention_heads=4, num_queries=5,
        common_stride=4, num_labels=3))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x).masks_queries_logits,
                     HW, [floats("pixel_values", 1, 3, 64, 64),
                          floats("pixel_values", 2, 3, 96, 64)])


def pix2struct_vision():
    """Flattened patches [batch, patches, 2 + 4*4*3]: 1-based row and column ids first (read
    from the data into tables of 64), the mask from the patches' sums."""
    _, T = modules()
    inner = T.Pix2StructVisionModel(T.Pix2StructVisionConfig(
        hidden_size=32, patch_embed_hidden_size=48, d_ff=64, d_kv=8, num_hidden_layers=2,
        num_attention_heads=4, seq_len=64))

    def feeds(batch, rows, cols):
        rng = np.random.default_rng(rows * cols)
        r, c = np.meshgrid(np.arange(1, rows + 1), np.arange(1, cols + 1), indexing="ij")
        x = np.concatenate([np.stack([r.ravel(), c.ravel()], -1).astype(np.float32),
                            rng.standard_normal((rows * cols, 48)).astype(np.float32)], -1)
        return {"flattened_patches": np.repeat(x[None], batch, 0)}

    return one_input(inner, "flattened_patches",
                     lambda m, x: m(flattened_patches=x, return_dict=False)[0],
                     {0: "batch", 1: "patches"}, [feeds(1, 3, 4), feeds(2, 5, 3)])


def idefics3_vision():
    """Idefics3's tower: position ids bucketed from the fractional coordinates of an all-ones
    patch mask (arange(n) / n for n = the mask's row and column sums), scattered where the
    mask holds (NonZero). A loop over the batch in Python: batch 1, torch.export's exporter."""
    _, T = modules()
    inner = T.Idefics3VisionTransformer(T.Idefics3VisionConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        image_size=32, patch_size=8))
    return image(inner, HW, [(1, 3, 32, 32), (1, 3, 24, 16)], dynamo=True)


def superpoint():
    """SuperPoint's keypoint scores: NMS by max-pooling, the pixels above a threshold
    (NonZero) kept away from the border, per image (batch 1), torch.export's exporter."""
    _, T = modules()
    inner = T.SuperPointForKeypointDetection(T.SuperPointConfig(
        encoder_hidden_sizes=[8, 8, 16, 16], decoder_hidden_size=32, descriptor_decoder_dim=16,
        max_keypoints=-1))
    return one_input(inner, "pixel_values", lambda m, x: m(pixel_values=x, return_dict=False)[1],
                     HW, [floats("pixel_values", 1, 1, 32, 48),
                          floats("pixel_values", 1, 1, 40, 32)], dynamo=True)


# ----- text


def bros():
    """BROS: token boxes [batch, seq, 4] beside the ids, made 8 corners, their pairwise
    differences embedded [seq, seq, batch, ..] into every layer's attention."""
    _, T = modules()
    inner = T.BrosModel(T.BrosConfig(vocab_size=VOCAB, hidden_size=64, num_attention_heads=4,
                                     num_hidden_layers=2, intermediate_size=64,
                                     max_position_embeddings=64))
    return layout_model(inner, lambda rng, batch, seq:
                        rng.random((batch, seq, 4)).astype(np.float32))


# ----- audio


def musicgen():
    """MusicGen's decoder over 2 codebooks: the codes [batch, 2, seq] flattened to
    [batch * 2, seq] as its generate does, reshaped back to (-1, 2, seq) inside, each
    codebook's embedding summed (torch.export's exporter)."""
    _, T = modules()
    from transformers.models.musicgen.configuration_musicgen import MusicgenDecoderConfig

    inner = T.MusicgenModel(MusicgenDecoderConfig(
        vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        ffn_dim=64, max_position_embeddings=64, num_codebooks=2))

    def call(m, codes):
        return m(input_ids=codes.reshape(-1, codes.shape[-1]), use_cache=False,
                 return_dict=False)[0]

    def feeds(batch, seq):
        rng = np.random.default_rng(batch * 10 + seq)
        return {"codes": rng.integers(0, VOCAB, (batch, 2, seq)).astype(np.int64)}

    return one_input(inner, "codes", call, {0: "batch", 2: "seq"}, [feeds(2, 5), feeds(3, 7)],
                     dynamo=True)


def univnet():
    """UniVNet: mel frames [batch, frames, 16] and noise of their length, upsampled by 4 then
    2 through location-variable convolutions (kernels predicted per frame, the signal
    unfolded by hop and contracted by Einsum): a waveform of 8 * frames (torch.export's
    exporter; TorchScript's cannot export an Unfold of a dynamic size)."""
    _, T = modules()
    inner = T.UnivNetModel(T.UnivNetConfig(
        model_in_channels=16, model_hidden_channels=8, num_mel_bins=16,
        resblock_stride_sizes=[4, 2], resblock_kernel_sizes=[3, 3],
        resblock_dilation_sizes=[[1, 3], [1, 3]], kernel_predictor_num_blocks=1,
        kernel_predictor_hidden_channels=16))

    def call(m, mel, noise):
        return m(input_features=mel, noise_sequence=noise, return_dict=False)[0]

    def feeds(batch, frames):
        return {**floats("input_features", batch, frames, 16),
                **floats("noise_sequence", batch, frames, 16)}

    # (traced at batch 2: traced at 1, torch.export specialized the noise's batch to 1)
    return multi_input(wrapped(inner, call), [feeds(2, 7), feeds(3, 10)],
                       {"input_features": {0: "batch", 1: "frames"},
                        "noise_sequence": {0: "batch", 1: "frames"}}, ["waveform"], dynamo=True)


def fastspeech2():
    """FastSpeech2-Conformer's spectrogram: durations predicted per token, rounded, the
    encoder's frames repeated by them (a Loop over SplitToSequence: a length the data
    decides), Conformer layers with relative positions on both sides."""
    _, T = modules()
    config = T.FastSpeech2ConformerConfig(
        hidden_size=32, vocab_size=VOCAB, num_mel_bins=16, encoder_num_attention_heads=2,
        encoder_layers=1, encoder_linear_units=64, decoder_num_attention_heads=2,
        decoder_layers=1, decoder_linear_units=64, speech_decoder_postnet_layers=2,
        speech_decoder_postnet_units=16, duration_predictor_layers=1,
        duration_predictor_channels=16, pitch_predictor_layers=1, pitch_predictor_channels=16,
        energy_predictor_layers=1, energy_predictor_channels=16, max_source_positions=64,
        encoder_kernel_size=3, decoder_kernel_size=3)
    return one_input(T.FastSpeech2ConformerModel(config), "input_ids",
                     lambda m, x: m(input_ids=x, return_dict=False)[0], {0: "batch", 1: "seq"},
                     [{"input_ids": text_feeds(1, 5)["input_ids"]},
                      {"input_ids": text_feeds(1, 8)["input_ids"]}])


MODELS = {"hf_timesformer": timesformer, "hf_vivit": vivit, "hf_xclip": xclip,
          "hf_groupvit_vision": groupvit_vision, "hf_rt_detr": rt_detr,
          "hf_deformable_detr": deformable_detr, "hf_depth_anything": depth_anything,
          "hf_maskformer": maskformer, "hf_mask2former": mask2former,
          "hf_pix2struct_vision": pix2struct_vision, "hf_idefics3_vision": idefics3_vision,
          "hf_superpoint": superpoint, "hf_bros": bros, "hf_musicgen": musicgen,
          "hf_univnet": univnet, "hf_fastspeech2": fastspeech2}
