"""ImageDecoder (opset 20): the bytes of an image file (a uint8 vector) decoded with Pillow
to uint8 [H, W, C]: RGB (the default) or BGR with C = 3, Grayscale with C = 1.

After onnx's reference (onnx/reference/ops/op_image_decoder.py), which also decodes with
Pillow, with two differences where the reference leaves ONNX's spec: every image is
converted to the pixel format (the reference returns a grayscale or palette PNG as
[H, W] and an RGBA one with 4 channels for "RGB"), and a stream that does not decode
gives an empty image [0, 0, C], as the spec says ("it will return an empty matrix"; the
reference raises). Pillow is imported when a node is made, not with the kernels: only
graphs that decode images need it (`pip install pillow`, or the `images` extra)."""
import io

import numpy as np

from .base import Kernel

CHANNELS = {"RGB": 3, "BGR": 3, "Grayscale": 1}


class ImageDecoder(Kernel):
    attrs = {"pixel_format": "RGB"}

    def setup(self, pixel_format):
        if pixel_format not in CHANNELS:
            raise self.fail(f"pixel_format must be 'RGB', 'BGR' or 'Grayscale', not "
                            f"{pixel_format!r}")
        try:
            import PIL.Image
        except ImportError:
            raise self.fail("decoding images needs Pillow, which is not installed "
                            "(pip install pillow)") from None
        self.image = PIL.Image

    def run(self, x, pixel_format):
        if x.ndim != 1 or x.dtype != np.uint8:
            raise self.fail(f"encoded_stream must be a uint8 vector, got {x.dtype} "
                            f"{list(x.shape)}")
        image = self.image
        try:
            with image.open(io.BytesIO(x.tobytes())) as img:
                img = img.convert("L" if pixel_format == "Grayscale" else "RGB")
        except image.DecompressionBombError as e:  # (Pillow's limit, not the data's fault)
            raise self.fail(str(e)) from None
        except Exception:  # noqa: BLE001  (whatever the decoder meets: "an empty matrix")
            return np.zeros((0, 0, CHANNELS[pixel_format]), np.uint8)
        pixels = np.array(img, dtype=np.uint8)  # (a copy of Pillow's bytes, writable)
        if pixel_format == "Grayscale":
            return pixels[:, :, None]
        if pixel_format == "BGR":
            return np.ascontiguousarray(pixels[:, :, ::-1])
        return pixels
