"""Image kernels: resampling vs onnxruntime, where onnx's reference is not the runtime's:
Resize before opset 11 and Upsample (onnxruntime's nearest neighbours truncate or round
up i / scale), MaxRoiPool (the reference has none); ImageDecoder vs onnx's reference
(onnxruntime has no ImageDecoder kernel: NOT_IMPLEMENTED in 1.32) on images encoded here."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ops.test_ImageDecoder import FORMATS, PIXEL_FORMATS, encode, needs_pillow
from tests.ops.test_MaxRoiPool import random_rois
from tests.ops.test_Upsample import upsample_scales

from .reference import check, rand, seeds

FAST = settings(max_examples=12, deadline=None)
small = st.integers(1, 4)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=3, max_size=4), data=st.data())
def test_resize_before_opset_11(seed, shape, data):
    """Opset 10's (X, scales), against onnxruntime: its nearest neighbours truncate i / s
    when upsampling and round it up when downsampling (onnx's reference rounds it)."""
    scales = np.array([data.draw(st.sampled_from([1.0, 0.3, 0.6, 1.5, 2.0, 2.5, 3.0]))
                       for _ in shape], np.float32)
    x = rand(np.random.default_rng(seed), shape)
    if 0 in np.floor(np.array(shape) * scales):
        return  # an empty output: onnxruntime refuses it
    check("Resize", [x, scales], {"mode": data.draw(st.sampled_from(["nearest", "linear"]))},
          opset=10, ort=True)


@FAST
@given(seed=seeds, shape=st.lists(small, min_size=2, max_size=4), data=st.data(),
       opset=st.sampled_from([7, 9]), mode=st.sampled_from(["nearest", "linear"]))
def test_upsample(seed, shape, data, opset, mode):
    scales = upsample_scales(data, shape, mode)
    x = rand(np.random.default_rng(seed), shape)
    if opset < 9:
        check("Upsample", [x], {"mode": mode, "scales": scales}, opset=opset, ort=True)
    else:
        check("Upsample", [x, np.array(scales, np.float32)], {"mode": mode}, opset=opset,
              const=(1,), ort=True)


@FAST
@given(seed=seeds, n=st.integers(1, 2), c=small, h=st.integers(3, 9), w=st.integers(3, 9),
       k=small, pooled=st.lists(st.integers(1, 3), min_size=2, max_size=2),
       scale=st.sampled_from([1.0, 0.5, 2.0]))
def test_max_roi_pool(seed, n, c, h, w, k, pooled, scale):
    """Against onnxruntime (onnx's reference has no MaxRoiPool)."""
    rng = np.random.default_rng(seed)
    check("MaxRoiPool", [rand(rng, [n, c, h, w]), random_rois(rng, n, k, h, w)],
          {"pooled_shape": pooled, "spatial_scale": scale}, opset=21, ort=True)



@needs_pillow
@FAST
@given(seed=seeds, h=st.integers(1, 9), w=st.integers(1, 9), fmt=st.sampled_from(FORMATS),
       pixel_format=st.sampled_from(PIXEL_FORMATS))
def test_image_decoder(seed, h, w, fmt, pixel_format):
    """RGB images in every format Pillow writes of ONNX's list (JPEG's and JPEG 2000's lossy
    pixels too: both decode with Pillow), in each pixel format."""
    pixels = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    got = check("ImageDecoder", [encode(pixels, fmt)], {"pixel_format": pixel_format},
                opset=20)
    assert got is not None  # (compared: the reference decodes these)
    if fmt in ("PNG", "BMP", "TIFF", "WEBP", "PPM") and pixel_format != "Grayscale":
        want = pixels[:, :, ::-1] if pixel_format == "BGR" else pixels
        assert np.array_equal(got[0], want)  # lossless: the pixels written


@needs_pillow
@FAST
@given(seed=seeds, h=st.integers(1, 6), w=st.integers(1, 6),
       mode=st.sampled_from(["L", "P", "RGBA", "LA", "1"]),
       pixel_format=st.sampled_from(PIXEL_FORMATS))
def test_image_decoder_converts_to_the_pixel_format(seed, h, w, mode, pixel_format):
    """A PNG that is not RGB (grayscale, palette, with alpha, bilevel) decodes to the pixel
    format's channels, as ONNX's spec says; onnx's reference returns its own channels for RGB
    and BGR (a grayscale or palette PNG as [H, W]), so only Grayscale is compared with it."""
    pixels = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    from PIL import Image

    from shape_logic.kernels import load_kernel

    x = encode(pixels, "PNG", mode)
    (got,) = load_kernel("ImageDecoder")({"pixel_format": pixel_format}, opset=20)(x)
    img = Image.fromarray(pixels).convert(mode)
    if pixel_format == "Grayscale":
        check("ImageDecoder", [x], {"pixel_format": pixel_format}, opset=20)
        assert np.array_equal(got[:, :, 0], np.asarray(img.convert("L")))
    else:
        rgb = np.asarray(img.convert("RGB"))
        assert np.array_equal(got, rgb[:, :, ::-1] if pixel_format == "BGR" else rgb)
