"""WhisperBeamSearch (com.microsoft): onnxruntime's beam search for Whisper (model_type 2,
beam_search_impl_whisper.h, subgraph_whisper_encoder.cc, subgraph_whisper_decoder.cc), run
as BeamSearch runs T5 (kernels/BeamSearch.py): the `encoder` once on the batch,
(encoder_input_ids: the audio features [batch, n_mels, frames], decoder_input_ids) ->
(logits, encoder_hidden_states, per layer present_key_self and present_value_self, per
layer present_key_cross and present_value_cross), its logits the first step's; then the
`decoder` per token, (input_ids, the 4 * layers pasts) -> (logits, the 2 * layers
self-attention presents). The sequences start with decoder_input_ids
(input 10, [batch, length]), else with decoder_start_token_id alone.

Refused (not reproduced): a decoder taking encoder_hidden_states (onnxruntime allocates
that input without copying the encoder's values into it), logits_processor other than 0
(Whisper's timestamp rules), cross_qk_layer_head, extra_decoding_ids, attention_mask, the
cross_qk and non_speech_probs outputs, an empty batch (onnxruntime crashes), a max_length
of the start's length + 1 (onnxruntime runs the decoder on unset inputs)."""
import numpy as np

from .BeamSearch import BeamSearch
from .bodies import Body
from .GreedySearch import body_of


class WhisperBeamSearch(BeamSearch):
    domains = ("com.microsoft",)
    attrs = {**BeamSearch.attrs, "model_type": 2, "decoder_output_cross_qk": 0,
             "translate_token_id": -1, "transcribe_token_id": -1,
             "start_of_lm_token_id": -1, "no_speech_token_id": -1,
             "no_timestamps_token_id": -1, "beginning_timestamp_token_id": -1}
    # onnxruntime needs inputs 0 to 5 (min_length and length_penalty too)
    n_inputs = (6, 15)

    def setup(self, decoder, encoder, model_type, decoder_output_cross_qk, **_):
        if model_type != 2:
            raise self.fail(f"model_type must be 2 (Whisper), not {model_type}")
        if encoder is None:
            raise self.fail("the encoder subgraph is required")
        if decoder_output_cross_qk:
            raise self.fail("decoder_output_cross_qk is not supported")
        self.t5 = False
        body = body_of(decoder)
        self._setup_encoder(body_of(encoder), ["encoder_input_ids", "decoder_input_ids"])
        self.decoder = Body(self, body)
        self._setup_decoder(body, ["input_ids"])
        if self.hidden:  # (measured: its values are not the encoder's, zeros or anything)
            raise self.fail("a decoder taking encoder_hidden_states is not supported: "
                            "onnxruntime hands it an unwritten buffer of that shape")

    def run(self, features, max_length, min_length, num_beams, num_return, length_penalty,
            penalty=None, vocab_mask=None, prefix_mask=None, attention_mask=None,
            decoder_input_ids=None, logits_processor=None, cross_qk_layer_head=None,
            extra_decoding_ids=None, temperature=None, *, decoder_start_token_id, **_):
        if self.n_outputs > 3:
            raise self.fail("the cross_qk and non_speech_probs outputs are not supported")
        if any(a is not None for a in (attention_mask, cross_qk_layer_head,
                                       extra_decoding_ids)):
            raise self.fail("attention_mask, cross_qk_layer_head and extra_decoding_ids are "
                            "not supported")
        if logits_processor is not None and self.scalar(logits_processor) > 0:
            raise self.fail("logits_processor (Whisper's timestamp rules) is not supported")
        if features.dtype != np.float32:  # (onnxruntime's CPU kernel: float32 only)
            raise self.fail(f"input_features of {features.dtype} are not supported")
        if features.ndim != 3:
            raise self.fail(f"input_features must be [batch, n_mels, frames], not "
                            f"{list(features.shape)}")
        b = features.shape[0]
        if decoder_input_ids is None:
            if decoder_start_token_id < 0:
                raise self.fail("without decoder_input_ids, decoder_start_token_id is needed")
            starts = np.full((b, 1), decoder_start_token_id, np.int32)
        elif decoder_input_ids.ndim != 2 or len(decoder_input_ids) != b:
            raise self.fail(f"decoder_input_ids must be [{b}, length], not "
                            f"{list(decoder_input_ids.shape)}")
        else:
            starts = decoder_input_ids.astype(np.int32)
        v = self._values(starts.shape[1], max_length, min_length, num_beams, num_return,
                         length_penalty, penalty, logits_processor)
        temp = 1.0 if temperature is None else float(np.asarray(temperature).reshape(-1)[0])
        return self._encoded(starts, v, vocab_mask, prefix_mask, (features, starts), [], temp)
