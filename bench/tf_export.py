"""Models as tf2onnx converts them from TensorFlow and Keras, for bench/tf_models.py. Run by
an interpreter that has tensorflow and tf2onnx (not ours: they pin their own protobuf),

    python bench/tf_export.py [--opset N] OUTDIR [NAME ...]

writes OUTDIR/NAME.onnx and OUTDIR/NAME.json (the sizes to run it at: per feed, per input, its
shape and the range its integers are drawn from). Random weights, dynamic batch and sizes:
Keras applications without their top (any image size), Keras text and audio models (an LSTM
tagger, a bidirectional GRU, a transformer encoder with a padding mask, a 1-D convolutional
net, a U-Net of transposed convolutions) and tf.functions of the ops whose shapes are data or
arithmetic (resizing by a computed size, boolean masks, top-k by a fraction of the length,
unique, gather_nd, strided slices with ellipsis and new axes, einsum, cond, while_loop,
sequence masks, space_to_depth, reflect padding, cumsum, one_hot, frames, non-max
suppression, segment sums, causal convolutions, group normalization, batched gathers).
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
import tf2onnx  # noqa: E402
import keras  # noqa: E402

OPSET = 17
IMAGE = [{"image": [[1, 224, 224, 3]]}, {"image": [[2, 97, 131, 3]]}]


def spec(*shape, dtype=tf.float32, name):
    return tf.TensorSpec(list(shape), dtype, name=name)


def application(cls, **kw):
    """A Keras application without its top, average-pooled, for images of any size."""
    def build():
        keras.utils.set_random_seed(0)
        m = cls(weights=None, include_top=False, pooling="avg", input_shape=(None, None, 3),
                **kw)
        return (lambda x: m(x, training=False)), [spec(None, None, None, 3, name="image")]
    return build


def lstm_tagger():
    keras.utils.set_random_seed(0)
    tokens = keras.Input((None,), dtype="int32")
    x = keras.layers.Embedding(100, 16, mask_zero=True)(tokens)
    x = keras.layers.LSTM(24, return_sequences=True)(x)
    y = keras.layers.Dense(5)(x)
    m = keras.Model(tokens, y)
    return (lambda t: m(t)), [spec(None, None, dtype=tf.int32, name="tokens")]


def bigru_classifier():
    keras.utils.set_random_seed(0)
    feats = keras.Input((None, 12))
    x = keras.layers.Bidirectional(keras.layers.GRU(16, return_sequences=True))(feats)
    x = keras.layers.GlobalAveragePooling1D()(x)
    m = keras.Model(feats, keras.layers.Dense(3)(x))
    return (lambda f: m(f)), [spec(None, None, 12, name="features")]


def stacked_rnn():
    """RNNs in a row: each time loop reads the steps the one before stacked (their count
    is the next loop's trip count), one runs backwards, one is a SimpleRNN."""
    keras.utils.set_random_seed(0)
    feats = keras.Input((None, 8))
    x = keras.layers.LSTM(16, return_sequences=True)(feats)
    x = keras.layers.Bidirectional(keras.layers.LSTM(8, return_sequences=True))(x)
    x = keras.layers.SimpleRNN(12, return_sequences=True, go_backwards=True)(x)
    x = keras.layers.GRU(6, return_sequences=True)(x)
    m = keras.Model(feats, keras.layers.Dense(4)(x))
    return (lambda f: m(f)), [spec(None, None, 8, name="features")]


def transformer_encoder():
    keras.utils.set_random_seed(0)
    emb = keras.layers.Embedding(100, 32)
    pos = keras.layers.Embedding(64, 32)
    mha = keras.layers.MultiHeadAttention(num_heads=4, key_dim=8)
    ln1, ln2 = keras.layers.LayerNormalization(), keras.layers.LayerNormalization()
    ff1, ff2 = keras.layers.Dense(64, activation=lambda v: keras.activations.gelu(
        v, approximate=True)), keras.layers.Dense(32)

    def f(tokens):
        seq = tf.shape(tokens)[1]
        x = emb(tokens) + pos(tf.range(seq))[tf.newaxis]
        mask = tf.cast(tokens != 0, tf.bool)
        a = mha(x, x, attention_mask=mask[:, tf.newaxis, :] & mask[:, :, tf.newaxis])
        x = ln1(x + a)
        return ln2(x + ff2(ff1(x)))
    return f, [spec(None, None, dtype=tf.int32, name="tokens")]


def conv1d_audio():
    keras.utils.set_random_seed(0)
    wave = keras.Input((None, 1))
    x = keras.layers.Conv1D(16, 9, strides=4, activation="relu")(wave)
    x = keras.layers.MaxPooling1D(3)(x)
    x = keras.layers.Conv1D(32, 5, strides=2, padding="same", activation="relu")(x)
    x = keras.layers.GlobalMaxPooling1D()(x)
    m = keras.Model(wave, keras.layers.Dense(4)(x))
    return (lambda w: m(w)), [spec(None, None, 1, name="wave")]


def data_ops():
    """Sizes that values decide: a boolean mask, top-k of a fraction, unique, nonzero."""
    def f(x, k):
        masked = tf.boolean_mask(x, x[:, 0] > 0)
        n = tf.shape(x)[0]
        top = tf.math.top_k(x[:, 0], k=tf.maximum(n // 2, 1))
        uniq, idx = tf.unique(tf.reshape(k, [-1]))
        where = tf.where(x > 0)
        picked = tf.gather_nd(x, where)
        return masked * 2, top.values, top.indices, uniq, idx, where, picked
    return f, [spec(None, 6, name="x"), spec(None, dtype=tf.int32, name="k")]


def arithmetic_ops():
    """Sizes computed from sizes: a resize to twice the size, frames, space to depth."""
    def f(img, sig):
        s = tf.shape(img)
        up = tf.image.resize(img, [s[1] * 2, s[2] + 3], method="nearest")
        d2s = tf.nn.space_to_depth(img[:, : s[1] // 2 * 2, : s[2] // 2 * 2], 2)
        pad = tf.pad(img, [[0, 0], [2, 2], [1, 1], [0, 0]], mode="REFLECT")
        frames = tf.signal.frame(sig, 16, 8, axis=-1)
        sliced = img[..., 1:, tf.newaxis, ::2]
        ein = tf.einsum("bhwc,bhwd->bcd", img, img)
        cum = tf.cumsum(sig, axis=-1, reverse=True)
        tiled = tf.tile(sig[:, tf.newaxis], [1, 3, 1])
        return up, d2s, pad, frames, sliced, ein, cum, tiled
    return f, [spec(None, None, None, 3, name="img"), spec(None, None, name="signal")]


def control_ops():
    """Branches and loops: cond on a size, a while_loop halving the length, sequence masks,
    one_hot of labels."""
    def f(x, lengths):
        n = tf.shape(x)[1]
        y = tf.cond(n > 8, lambda: x[:, :8] * 2.0, lambda: tf.pad(x, [[0, 0], [0, 8 - n]]))

        def body(i, v):
            return i + 1, v[:, : tf.shape(v)[1] // 2 + 1] * 0.5
        _, halved = tf.while_loop(lambda i, v: i < 2, body, [0, x],
                                  shape_invariants=[tf.TensorShape([]),
                                                    tf.TensorShape([None, None])])
        mask = tf.sequence_mask(lengths, n)
        hot = tf.one_hot(lengths, 10)
        return y, halved, tf.where(mask, x, 0.0), hot
    return f, [spec(None, None, name="x"), spec(None, dtype=tf.int32, name="lengths")]


def unet():
    """A small U-Net: strided convolutions down, Conv2DTranspose up, skips joined by
    Concatenate (sizes that halve and double: multiples of 4 meet). (Keras 3's
    UpSampling2D takes no image of unknown size in a tf.function.)"""
    keras.utils.set_random_seed(0)
    img = keras.Input((None, None, 3))
    d1 = keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(img)
    d2 = keras.layers.Conv2D(16, 3, strides=2, padding="same", activation="relu")(d1)
    u1 = keras.layers.Conv2DTranspose(8, 3, strides=2, padding="same")(d2)
    u1 = keras.layers.Concatenate()([u1, d1])
    u2 = keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same")(u1)
    out = keras.layers.Conv2D(2, 1)(keras.layers.Concatenate()([u2, img]))
    m = keras.Model(img, out)
    return (lambda x: m(x)), [spec(None, None, None, 3, name="image")]


def detection_ops():
    """Post-processing as detectors write it: non-max suppression of scored boxes, a top-k
    of a fraction of them, gathers by the kept indices, a sort and segment sums."""
    def f(boxes, scores, seg):
        keep = tf.image.non_max_suppression(boxes, scores, max_output_size=10,
                                            iou_threshold=0.5)
        kept = tf.gather(boxes, keep)
        order = tf.argsort(scores, direction="DESCENDING")
        ranked = tf.gather(scores, order)
        sums = tf.math.unsorted_segment_sum(scores, seg, num_segments=4)
        rolled = tf.roll(boxes, shift=1, axis=0)
        band = tf.linalg.band_part(tf.tensordot(boxes, boxes, [[1], [1]]), 0, -1)
        return kept, ranked, sums, rolled, band
    return f, [spec(None, 4, name="boxes"), spec(None, name="scores"),
               spec(None, dtype=tf.int32, name="segments")]


def signal_ops():
    """Sequences: a dilated causal convolution, a gather with batch dims, a scatter update,
    a group normalization. (tf2onnx converts an STFT's or rfft's complex values only into
    the magnitudes of some patterns, and no searchsorted.)"""
    keras.utils.set_random_seed(0)
    causal = keras.layers.Conv1D(4, 3, padding="causal", dilation_rate=2)
    norm = keras.layers.GroupNormalization(groups=2)

    def f(wave, idx):
        conv = causal(wave[:, :, tf.newaxis])
        picked = tf.gather(wave, idx, axis=1, batch_dims=1)
        upd = tf.tensor_scatter_nd_update(wave, tf.constant([[0]]), tf.zeros_like(wave[:1]))
        grouped = norm(conv)
        return conv, picked, upd, grouped
    return f, [spec(None, None, name="wave"), spec(None, None, dtype=tf.int32, name="idx")]


def feeds(*sizes, **ranges):
    """Per feed, per input: [shape] or [shape, low, high] for integers."""
    return [{k: [list(v)] + ranges.get(k, []) for k, v in s.items()} for s in sizes]


MODELS = {
    "mobilenet_v2": (application(keras.applications.MobileNetV2), IMAGE),
    "mobilenet_v3_small": (application(keras.applications.MobileNetV3Small,
                                       include_preprocessing=False), IMAGE),
    "resnet50": (application(keras.applications.ResNet50), IMAGE),
    "densenet121": (application(keras.applications.DenseNet121), IMAGE),
    "inception_v3": (application(keras.applications.InceptionV3),
                     [{"image": [[1, 299, 299, 3]]}, {"image": [[2, 160, 181, 3]]}]),
    "xception": (application(keras.applications.Xception), IMAGE),
    "efficientnet_v2_b0": (application(keras.applications.EfficientNetV2B0,
                                       include_preprocessing=False), IMAGE),
    # (NASNet's two paths meet only at sizes that halve evenly five times)
    "nasnet_mobile": (application(keras.applications.NASNetMobile),
                      [{"image": [[1, 224, 224, 3]]}, {"image": [[2, 160, 192, 3]]}]),
    "lstm_tagger": (lstm_tagger, feeds({"tokens": (2, 7)}, {"tokens": (3, 12)},
                                       tokens=[1, 100])),
    "bigru_classifier": (bigru_classifier, feeds({"features": (2, 7, 12)},
                                                 {"features": (1, 20, 12)})),
    "stacked_rnn": (stacked_rnn, feeds({"features": (2, 7, 8)}, {"features": (3, 11, 8)})),
    "transformer_encoder": (transformer_encoder, feeds({"tokens": (2, 7)}, {"tokens": (3, 12)},
                                                       tokens=[0, 100])),
    "conv1d_audio": (conv1d_audio, feeds({"wave": (2, 400, 1)}, {"wave": (1, 1001, 1)})),
    "data_ops": (data_ops, feeds({"x": (5, 6), "k": (9,)}, {"x": (8, 6), "k": (4,)},
                                 k=[0, 4])),
    "arithmetic_ops": (arithmetic_ops, feeds({"img": (2, 10, 12, 3), "signal": (2, 100)},
                                             {"img": (1, 7, 9, 3), "signal": (3, 64)})),
    "unet": (unet, feeds({"image": (1, 64, 96, 3)}, {"image": (2, 32, 48, 3)})),
    "detection_ops": (detection_ops, feeds({"boxes": (9, 4), "scores": (9,), "segments": (9,)},
                                           {"boxes": (20, 4), "scores": (20,),
                                            "segments": (20,)}, segments=[0, 4])),
    "signal_ops": (signal_ops, feeds({"wave": (2, 200), "idx": (2, 5)},
                                     {"wave": (1, 333), "idx": (1, 7)}, idx=[0, 100])),
    "control_ops": (control_ops, feeds({"x": (2, 12), "lengths": (2,)},
                                       {"x": (3, 5), "lengths": (3,)}, lengths=[0, 5])),
}


def export(name: str, outdir: str, opset: int = OPSET) -> None:
    build, sizes = MODELS[name]
    fn, signature = build()
    function = tf.function(fn, input_signature=signature)
    tf2onnx.convert.from_function(function, input_signature=signature, opset=opset,
                                  output_path=os.path.join(outdir, name + ".onnx"))
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump(sizes, f)


def main(argv):
    opset = OPSET
    if argv[:1] == ["--opset"]:
        opset, argv = int(argv[1]), argv[2:]
    outdir, names = argv[0], argv[1:] or list(MODELS)
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        try:
            export(name, outdir, opset)
            print(name, "ok", flush=True)
        except Exception as e:  # noqa: BLE001 - one model tf2onnx cannot convert is a result
            print(name, "fails:", str(e).splitlines()[0][:200] if str(e) else type(e).__name__,
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
