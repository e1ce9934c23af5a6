"""Hugging Face transformers models as users bring them (bench/hf_models.py: tiny configs,
random weights), as exported and after onnxruntime's transformer optimizer fuses them into
its com.microsoft ops: every tensor's shape determined, symbolic in batch and sequence, and
onnxruntime's at two input sizes. Skipped where torch or transformers is not installed
(optional, heavy dependencies of the `bench` extra)."""
import os
import sys

import pytest

from shape_logic import solve

from .onnx_graphs import assert_every_dim_determined, assert_runtime_shapes

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime.transformers.optimizer")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import hf_models  # noqa: E402

FUSED_OPS = {"Attention", "EmbedLayerNormalization", "SkipLayerNormalization", "BiasGelu"}


def _check(model, feeds):
    sol = solve(model)
    assert sol.status == "ok" and not sol.warnings, sol.warnings
    assert_every_dim_determined(sol)
    for feed in feeds:
        assert_runtime_shapes(model, sol, feed)
    return sol


def _runs_as_onnxruntime(model, feeds) -> None:
    """Our executor's outputs are onnxruntime's (the contrib ops' kernels included)."""
    import numpy as np
    import onnxruntime as ort

    from shape_logic.executor import Program

    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    program = Program(model)
    for feed in feeds:
        got = program.run(feed)
        for out, want in zip(model.graph.output, session.run(None, feed)):
            np.testing.assert_allclose(got[out.name], want, rtol=1e-4, atol=1e-5)


@pytest.fixture(scope="module")
def bert():
    return hf_models.bert()


def test_bert_as_exported(bert):
    model, feeds, _ = bert
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, seq, 32]"
    # its 64 learned positions sliced to the sequence and added to it: seq <= 64, exactly
    # where onnxruntime runs it (encodings/broadcast.lp, @broadcast_range)
    assert sol.ranges == {"seq": [1, 64]}
    _runs_up_to(model, 64, "broadcast")


def _runs_up_to(model, longest: int, failure: str) -> None:
    """onnxruntime runs the text model at `longest` positions and fails at one more (its
    message matching `failure`)."""
    import onnxruntime as ort
    from hf_export import text_feeds

    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}
    feeds = [{k: v for k, v in text_feeds(2, n, "token_type_ids" in names).items()
              if k in names} for n in (longest, longest + 1)]
    session.run(None, feeds[0])
    with pytest.raises(Exception, match=failure):
        session.run(None, feeds[1])


def test_bert_fused_by_onnxruntime_s_optimizer(bert):
    model, feeds, model_type = bert
    fused = hf_models.fused(model, model_type)
    ops = {n.op_type for n in fused.graph.node if n.domain == "com.microsoft"}
    assert ops == FUSED_OPS  # (the optimizer fused what the test is about)
    sol = _check(fused, feeds)
    assert sol.shape("last_hidden_state") == "[batch, seq, 32]"
    _runs_as_onnxruntime(fused, feeds)
    # its embeddings read positions 0..seq - 1 of 64 (floors.lp's at_most)
    assert sol.ranges == {"seq": [1, 64]}
    _runs_up_to(fused, 64, "out of range")


def test_distilbert_fused_by_onnxruntime_s_optimizer():
    model, feeds, model_type = hf_models.distilbert()
    fused = hf_models.fused(model, model_type)
    assert {n.op_type for n in fused.graph.node if n.domain == "com.microsoft"} == FUSED_OPS
    sol = _check(fused, feeds)
    # (its EmbedLayerNormalization has no segment inputs: our kernel refused it)
    _runs_as_onnxruntime(fused, feeds)
    # its position ids, the 64 positions sliced to the sequence, have the ids' length
    assert sol.ranges == {"seq": [1, 64]}
    assert "ranges: seq in 1..64 (by min(64, seq) = seq)" in sol.to_text().splitlines()
    _runs_up_to(fused, 64, "same sequence_length")


def test_gpt2_s_learned_positions_bound_its_sequence():
    # arange(seq) into its 64 learned positions (rules/Gather.lp's value_bounds, at_most):
    # onnxruntime runs it at 64 positions and fails at 65, out of the table
    model, feeds, _ = hf_models.gpt2()
    sol = _check(model, feeds)
    assert sol.ranges == {"seq": [1, 64]}
    _runs_up_to(model, 64, "out of data bounds")


def test_gpt2_decoding_over_a_kv_cache_exported_by_dynamo():
    pytest.importorskip("onnxscript")
    model, feeds, _ = hf_models.gpt2_kv()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, seq, 32]"
    # the cache grows by the new positions (onnxruntime's symbolic inference is right here
    # too; our hand-written block in test_torch_export.py checks the causal mask's slices)
    assert sol.shape("present_k1") == "[batch, 4, past + seq, 8]"
    # its positions past..past + seq - 1 read 64 learned rows: onnxruntime runs it at
    # past + seq = 64 and fails at 65; and its mask (of its own length, total) is read at
    # those positions too, a GatherND of (batch, position) pairs
    assert sol.inequalities == ["past + seq <= 64", "past + seq <= total"]
    _runs_with_a_cache(model, feeds[0], [(60, 4), (10, 54)], [(60, 5), (10, 55)])
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for total in (6, 7, 9):  # past 4, seq 3
        feed = _cache_feed(feeds[0], 4, 3, total)
        if total >= 7:
            assert sol.unmet({"batch": 1, "past": 4, "seq": 3, "total": total}) == []
            session.run(None, feed)
        else:
            assert sol.unmet({"batch": 1, "past": 4, "seq": 3, "total": total}) == [
                "past + seq <= total"]
            with pytest.raises(Exception, match="invalid index"):
                session.run(None, feed)


def _cache_feed(feed: dict, past: int, seq: int, total: int | None = None) -> dict:
    """A KV-cache decoder's `feed` (hf_export.kv_cache_decoder's inputs) resized to a batch
    of 1, `seq` new ids of 1, a mask of `total` ones (past + seq by default) and caches of
    `past` positions (zeros, of the feed's heads and head size)."""
    import numpy as np

    sizes = {"input_ids": (1, seq), "attention_mask": (1, past + seq if total is None else total)}
    return {k: np.ones(sizes[k], v.dtype) if k in sizes
            else np.zeros((1, v.shape[1], past, v.shape[3]), v.dtype) for k, v in feed.items()}


def _runs_with_a_cache(model, feed, runs, fails) -> None:
    """onnxruntime runs the decoder at each (past, seq) of `runs` and fails at `fails`."""
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    for past, seq in runs:
        session.run(None, _cache_feed(feed, past, seq))
    for past, seq in fails:
        with pytest.raises(Exception, match="out of data bounds"):
            session.run(None, _cache_feed(feed, past, seq))


def test_wav2vec2_s_convolutions_over_a_dynamic_audio_length():
    model, feeds, _ = hf_models.wav2vec2()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, (length + 240)//320 - 1, 32]"


def test_sew_d_s_attention_mask_over_its_pooled_frames():
    """Its mask is ConstantOfShape([batch, frames // 2]) of an integer Div of the frames,
    which bounds allowed to be -1: both were fresh names. Its attention reshapes to [-1,
    pooled, 8] beside a slice of the frames, `max(0, pooled - 1)`, which the pooling's
    window makes `pooled - 1`, at least 1 (length >= 720: encodings/floors.lp); with the
    clamp the -1 did not decide the count, and 114 tensors were open."""
    model, feeds, _ = hf_models.sew_d()
    sol = _check(model, feeds)
    masks = [n.output[0] for n in model.graph.node if n.op_type == "ConstantOfShape"]
    assert masks
    assert sol.shape(masks[0]) == "[batch, (length + 560)//640 - 1]"


def test_wav2vec2_exported_by_dynamo():
    """torch.export computes the frames in the graph with an integer Div (truncating) of
    `length//80 - 3`, a floor division only where it is >= 0: the convolutions require
    length >= 400 (encodings/floors.lp). The frames were a fresh name, and 66 tensors
    with them."""
    pytest.importorskip("onnxscript")
    model, feeds, _ = hf_models.wav2vec2(dynamo=True)
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, (length + 240)//320 - 1, 32]"


def test_clip_vision_at_other_image_sizes():
    """Its position embeddings are a grid of int(16 ** 0.5) = 4 patches a side (Pow(16.0,
    0.5), Cast: the grid was [1, _1, _2, 32]) resized to the image's patches."""
    model, feeds, _ = hf_models.clip_vision()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, (height//8)*(width//8) + 1, 32]"


def test_detr_over_a_dynamic_image_size():
    """Its position embedding takes the last row of a cumulative sum, x[:, -1:] (end
    INT64_MAX) of the backbone's thrice halved height: `arithmetic gave up`, a fresh name."""
    model, feeds, _ = hf_models.detr()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, 5, 32]"
    _runs_as_onnxruntime(model, feeds[:1])


@pytest.mark.parametrize("name, out", [
    ("deberta_v2", "[batch, seq, 32]"),   # relative attention over log buckets, both ways
    ("t5", "[batch, target, 32]"),        # relative position buckets; the decoder's
    ("bart", "[batch, target, 32]"),      # learned positions with an offset
    ("segformer", "[batch, 16, (height + 7)//8, (width + 7)//8]"),
    # patches of ceil(h / 2.0) * 2 in float (rules/Ceil.lp: 308 of 1106 tensors were open)
    ("mobilevit", "[batch, 48, (height + 31)//32, (width + 31)//32]"),
])
def test_more_architectures(name, out):
    model, feeds, _ = getattr(hf_models.hf_models2, name)()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == out


def test_longformer_s_sliding_windows():
    """The sequence padded to a multiple of the window, m = seq + 3*seq%4, halved as m//2
    beside 2*(m//4) (one canonical form now: an Expand of one by the other was a broadcast
    of two sizes that may be 0), and aranges as NonZero(ConstantOfShape([4*batch], 1))
    (all counted: 218 tensors were open after them)."""
    model, feeds, _ = hf_models.hf_models2.longformer()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, seq, 32]"
    nonzeros = [n.output[0] for n in model.graph.node if n.op_type == "NonZero"]
    assert sol.shape(nonzeros[0]) == "[1, 4*batch]"
    # its windows are a Gather over the flattened keys at strides traced for one size
    # (as_strided): the greatest index fits at no batch of 1 and no sequence below 5, and
    # we require exactly the sizes where onnxruntime runs it (families.lp's value_bounds);
    # one of the three comes spelled two ways, `32*((seq + 3*seq%4)//4)` and `32*seq -
    # 32*(3*seq//4)` (the counted aranges' names, bound to 4*batch + 1, took another path
    # to it), and is printed once (requirements._spelled_before)
    assert len(sol.inequalities) == 3
    import numpy as np
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for batch in (1, 2, 3):
        for seq in range(2, 10):
            feed = {name: np.ones((batch, seq), np.int64) for name in feeds[0]}
            try:
                session.run(None, feed)
                runs = True
            except Exception:  # noqa: BLE001 - onnxruntime's failure is the fact checked
                runs = False
            assert (sol.unmet({"batch": batch, "seq": seq}) == []) == runs, (batch, seq)


def test_funnel_s_relative_positions():
    """An arange from pos[0] - pos[-1] over the positions cast to float: Gather's index -1
    of a Range over the sequence reads its last element (54 tensors were open)."""
    model, feeds, _ = hf_models.hf_models2.funnel()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, seq, 32]"


def test_beit_s_relative_position_bias_at_other_image_sizes():
    """Its table Resized to (2*(h//8) - 1) x (2*(w//8) - 1) and reshaped to [product, 4]:
    the product is >= 1 under the patch convolution's floors (h, w >= 8) once bounded
    around its factors' lower bounds (symbolic/bounds.py); it was [_1, 4]."""
    model, feeds, _ = hf_models.hf_models2.beit()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, (height//8)*(width//8) + 1, 32]"


@pytest.mark.slow
def test_mistral_decoding_over_a_kv_cache_with_a_sliding_window():
    pytest.importorskip("onnxscript")
    model, feeds, _ = hf_models.hf_models2.mistral_kv()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, seq, 32]"
    assert sol.shape("present_k1") == "[batch, 2, past + seq, 8]"
    # the mask is read at (batch position, position) pairs over past + seq positions, a
    # GatherND of two coordinates joined by a Concat: the mask must be as long, exactly
    # where onnxruntime runs it ("invalid index found" past it)
    assert sol.inequalities == ["past + seq <= total"]
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for past, seq, total in ((4, 3, 7), (4, 3, 9), (4, 3, 6), (0, 2, 2), (0, 2, 1)):
        feed = _cache_feed(feeds[0], past, seq, total)
        unmet = sol.unmet({"batch": 1, "past": past, "seq": seq, "total": total})
        if past + seq <= total:
            assert unmet == []
            session.run(None, feed)
        else:
            assert unmet == ["past + seq <= total"]
            with pytest.raises(Exception, match="invalid index"):
                session.run(None, feed)


def test_encodec_s_padding_to_whole_strides():
    """Each strided convolution's input is padded to whole strides by ceil((length -
    kernel + pad) / stride + 1) in float (rules/Ceil.lp: the Add between the Div and the
    Ceil left 28 of 604 tensors open). The exporter declares the output with one name for
    its batch and its frames, which we set aside (the one warning)."""
    model, feeds, _ = hf_models.hf_models3.encodec()
    sol = solve(model)
    assert sol.status == "ok" and len(sol.warnings) == 1
    assert sol.warnings[0].startswith("graph output last_hidden_state is declared")
    assert_every_dim_determined(sol)
    for feed in feeds:
        assert_runtime_shapes(model, sol, feed)
    assert sol.shape("last_hidden_state") == "[batch, 16, (length + 7)//8]"
    # its last convolution's input is padded by reflection (6 frames): the audio needs 49
    # samples, exactly where onnxruntime starts to run it ("pre-pad exceeds maximum allowed")
    assert sol.floors == {"length": 49}
    import numpy as np
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    session.run(None, {"input_values": np.zeros((1, 1, 49), np.float32)})
    with pytest.raises(Exception, match="exceeds maximum allowed"):
        session.run(None, {"input_values": np.zeros((1, 1, 48), np.float32)})


def test_gptj_s_rotary_table_bounds_its_sequence():
    """GPT-J's rotary sines and cosines are a table of 64 positions gathered at arange(seq)
    tiled, by a GatherElements through torch.export: seq <= 64, where onnxruntime fails
    past it."""
    model, feeds, _ = hf_models.hf_models3.gptj()
    sol = _check(model, feeds)
    assert sol.ranges == {"seq": [1, 64]}


def test_vitdet_s_windows_over_padded_patches():
    """Windows of 3 over the patches padded to whole windows: the batch recomputed as
    n // (Hp*Wp//3//3) (symbolic/ops.py's padded factors), and relative position tables
    resized by an If unless they have the size already (its else-branch's size is the
    then-branch's where it runs): 63 of 618 tensors were open."""
    model, feeds, _ = hf_models.hf_models3.vitdet()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == "[batch, 32, height//4, width//4]"


@pytest.mark.parametrize("name, out", [
    # transient-global attention: blocks of the padded sequence, seq//4 global tokens
    # (onnxruntime's symbolic inference states a wrong dim here)
    ("long_t5", "[batch, target, 32]"),
    # windows of 4 over the image padded to whole windows (onnxruntime's: 81% known)
    ("swin2sr", "[batch, 8, height + 3*height%4, width + 3*width%4]"),
    # the encoder's padding cut back as x[:, :-pad], seq rows only where seq % 4 != 0
    # (Slice.lp's case_dim), seq wherever the cross-attention runs (broadcast.lp,
    # Reshape.lp's counts): 16 tensors were open
    ("led", "[batch, target, 32]"),
])
def test_third_round_architectures(name, out):
    model, feeds, _ = getattr(hf_models.hf_models3, name)()
    sol = _check(model, feeds)
    assert sol.shape("last_hidden_state") == out


def test_swin2sr_exported_by_dynamo_floors_the_image_by_its_windows():
    """torch.export reshapes the image into windows of 4 with allowzero = 1 and leaves
    16*(height//4)*(width//4) = height*width, which fails at height or width 1..3:
    both >= 4 (encodings/floors.lp, @least_roots), and the windows' count is then never 0.
    17 tensors after the windows were fresh names; onnxruntime's at two sizes."""
    pytest.importorskip("onnxscript")
    model, feeds, _ = hf_models.hf_models3.swin2sr(dynamo=True)
    sol = _check(model, feeds)
    assert sol.floors == {"height": 4, "width": 4}
    assert sol.constraints == ["height%4 = 0", "width%4 = 0"]
    assert sol.shape("last_hidden_state") == "[1, 8, height, width]"


def test_mobilenet_v2_s_output_declared_with_a_shared_name(narrowing_solves):
    # the legacy exporter declares [C_0, 1280, C_0, C_3]: its name for the batch given to
    # the height too. Set aside; the graph solved without it is the one solve more (the
    # trial with the declaration is the model's own solve: 3 solves were 1.4 s, now 0.55)
    model, feeds, _ = hf_models.hf_models3.mobilenet_v2()
    sol = solve(model)
    assert sol.status == "ok" and list(sol.set_aside) == ["last_hidden_state"]
    (w,) = sol.warnings
    assert "which would require height//32 = batch" in w
    assert [outputs for outputs, *_ in narrowing_solves] == [[]]
    assert sol.shape("last_hidden_state") == "[batch, 1280, height//32, (width + 16)//32]"
    assert_every_dim_determined(sol)
    for feed in feeds:
        assert_runtime_shapes(model, sol, feed)


def test_bit_s_same_padding_split_as_truncated_halves():
    """BiT pads 37 - w (the exporter kept ceil(w / 2) at the traced w = 32), (37 - w) / 2
    before, truncated toward zero, and the rest after: negative past w = 37, where they crop.
    The halves are max(0, 37 - w)//2 - max(0, w - 37)//2 and 37 - w less it, their sum
    cancels w, and the padded image is 37 x 37 at every size (64 tensors were fresh names;
    onnxruntime's at 32 x 32 and 45 x 39)."""
    model, feeds, _ = hf_models.hf_models5.bit()
    sol = _check(model, feeds)
    assert sol.shape("/m/embedder/convolution/pad/Pad_output_0") == "[batch, 3, 37, 37]"
    assert sol.shape("last_hidden_state") == "[batch, 64, 4, 4]"


def test_mbart_s_positions_after_an_offset_bound_both_sequences():
    """MBart gathers its learned positions as arange(seq) + 2, expanded over the batch, from
    a table of 64 + 2 rows: seq <= 64 and target <= 64, exactly where onnxruntime runs it
    ("indices element out of data bounds" at 65). The bounds follow the Range through the
    Expand and the added 2 (encodings/families.lp)."""
    import numpy as np
    import onnxruntime as ort

    model, feeds, _ = hf_models.hf_models7.mbart()
    sol = _check(model, feeds)
    assert sol.ranges == {"seq": [1, 64], "target": [1, 64]}
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for seq, target, runs in ((64, 64, True), (65, 5, False), (5, 65, False)):
        feed = {i.name: np.ones((1, target if i.name.startswith("decoder") else seq), np.int64)
                for i in model.graph.input}
        unmet = sol.unmet({"seq": seq, "target": target})
        if runs:
            assert unmet == []
            session.run(None, feed)
        else:
            assert unmet
            with pytest.raises(Exception, match="out of data bounds"):
                session.run(None, feed)


def test_stablelm_s_mask_sliced_over_a_kv_cache_requires_no_inequality():
    """StableLM through torch.export slices its mask [.., total] to min(past + seq, total)
    and adds it to the scores over past + seq: it runs where past + seq <= total, and also
    where total is 1 (the mask broadcasts), so `past + seq <= total` would be wrong. What
    it requires is the broadcast's own condition, past + seq being no 1
    (encodings/broadcast.lp: a symbolic side that cannot be 1): the sliced length is 1 or
    past + seq - exactly where onnxruntime runs (before stop 54: nothing was said)."""
    pytest.importorskip("onnxscript")
    import onnxruntime as ort

    model, feeds, _ = hf_models.hf_models7.decoder_kv("StableLm", partial_rotary_factor=0.5)
    sol = _check(model, feeds)
    assert sol.inequalities == [] and sol.ranges == {}
    assert sol.one_of == {"min(past + seq, total)": [1, "past + seq"]}
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for total, runs in ((1, True), (2, False), (6, False), (7, True), (9, True)):
        feed = _cache_feed(feeds[0], 4, 3, total)
        assert (sol.unmet({"batch": 1, "past": 4, "seq": 3, "total": total}) == []) == runs
        if runs:
            session.run(None, feed)
        else:
            with pytest.raises(Exception, match="broadcast"):
                session.run(None, feed)
