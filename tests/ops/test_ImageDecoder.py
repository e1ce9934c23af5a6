"""ImageDecoder: rules/ImageDecoder.lp on data cases, and the rule against the kernel on images
encoded here with Pillow (tests/kernels/test_image_ops.py compares the kernel with onnx's
reference). H and W are the file's: fresh names, without a range."""
import io
import json
import sys
from importlib.util import find_spec

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shape_logic import run, solve
from shape_logic.cli import main
from shape_logic.kernels import load_kernel
from shape_logic.testing import infer, node_graph
from tests.ops.cases import case_test

# the tests that decode need Pillow (the `test` extra has it); the rule's need nothing
needs_pillow = pytest.mark.skipif(find_spec("PIL") is None, reason="needs Pillow")
OPSET = 20
BYTES = ("u8", "[n]")
# a PNG's signature and header chunk, 5 x 7 pixels of 8-bit RGB (no CRC, no pixels follow)
PNG_HEADER = np.frombuffer(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x05"
                           b"\x00\x00\x00\x07\x08\x02\x00\x00\x00", np.uint8).copy()
CASES = {
    "RGB by default": ({"inputs": [BYTES]}, {"y0": "[_1, _2, 3]", "dtypes": {"y0": "u8"}}),
    "RGB": ({"inputs": [BYTES], "attrs": {"pixel_format": "RGB"}}, {"y0": "[_1, _2, 3]"}),
    "BGR": ({"inputs": [BYTES], "attrs": {"pixel_format": "BGR"}}, {"y0": "[_1, _2, 3]"}),
    "Grayscale": ({"inputs": [BYTES], "attrs": {"pixel_format": "Grayscale"}},
                  {"y0": "[_1, _2, 1]", "dtypes": {"y0": "u8"}}),
    "a stream of known length": ({"inputs": [("u8", "[1058]")]}, {"y0": "[_1, _2, 3]"}),
    # a constant's header is not read either (rules parse no file formats)
    "a constant stream": ({"inputs": [PNG_HEADER]}, {"y0": "[_1, _2, 3]"}),
    "backward: the stream is a vector of bytes": ({"inputs": [(None, "X")]},
                                                  {"x0": "[_1]", "y0": "[_2, _3, 3]",
                                                   "dtypes": {"x0": "u8"}}),
    # an annotation is the user's: it names H and W, and says nothing of the stream
    "an annotated image": ({"inputs": [BYTES], "outputs": {"y0": {"shape": "[h, w, c]"}}},
                           {"y0": "[h, w, 3]", "x0": "[n]", "bindings": {"c": 3}}),
    "channels other than the pixel format's": (
        {"inputs": [BYTES], "attrs": {"pixel_format": "Grayscale"},
         "outputs": {"y0": {"shape": "[h, w, 3]"}}}, "error"),
    "an image of rank 2": ({"inputs": [BYTES], "outputs": {"y0": {"shape": "[h, w]"}}},
                           "error"),
    "a pixel format ONNX does not name": ({"inputs": [BYTES],
                                           "attrs": {"pixel_format": "RGBA"}}, "error"),
    "pixel formats are case-sensitive": ({"inputs": [BYTES], "attrs": {"pixel_format": "rgb"}},
                                         "error"),
    "int64 bytes": ({"inputs": [("i64", "[n]")]}, "error"),
    "float bytes": ({"inputs": [("f32", "[n]")]}, "error"),
    "a matrix of bytes": ({"inputs": [("u8", "[n, m]")]}, "error"),
    "a scalar": ({"inputs": [("u8", "[]")]}, "error"),
    "two streams": ({"inputs": [BYTES, BYTES]}, "error"),
    "two outputs": ({"inputs": [BYTES], "n_outputs": 2}, "error"),
}

test_case = case_test("ImageDecoder", CASES, OPSET)


def encode(pixels: np.ndarray, fmt: str, mode: str | None = None) -> np.ndarray:
    """An image file's bytes as a uint8 vector (pixels [H, W, 3], converted to `mode`);
    WebP lossless."""
    from PIL import Image

    img = Image.fromarray(pixels)
    if mode is not None:
        img = img.convert(mode)
    buf = io.BytesIO()
    img.save(buf, fmt, **({"lossless": True} if fmt == "WEBP" else {}))
    return np.frombuffer(buf.getvalue(), np.uint8).copy()


FORMATS = ["PNG", "BMP", "TIFF", "WEBP", "PPM", "JPEG", "JPEG2000"]
PIXEL_FORMATS = ["RGB", "BGR", "Grayscale"]


def test_bad_attribute_type_is_unreadable(tmp_path):
    """A pixel_format that is no string is unreadable input (exit 2), as for any attribute."""
    g = tmp_path / "g.json"
    g.write_text(json.dumps(node_graph(
        "ImageDecoder", [BYTES], {"pixel_format": 3}, opset=OPSET)))
    assert main(["solve", str(g)]) == 2


def test_height_and_width_are_open():
    """Two fresh names, not one, without a range: no bound holds for what a header says."""
    sol = infer("ImageDecoder", [BYTES], opset=OPSET)
    h, w, c = sol.dims("y0")
    assert c == 3 and not h.is_int and not w.is_int and h != w
    assert "ranges" not in sol.to_json() and sol.bindings == {}


def test_one_stream_decodes_to_one_size():
    """Two decoders of one stream share H and W (not C); of another stream, they do not."""
    g = node_graph("ImageDecoder", [BYTES, BYTES], opset=OPSET)
    g["nodes"] = [
        {"name": "a", "op": "ImageDecoder", "inputs": ["x0"], "outputs": ["rgb"]},
        {"name": "b", "op": "ImageDecoder", "inputs": ["x0"], "outputs": ["gray"],
         "attrs": {"pixel_format": "Grayscale"}},
        {"name": "c", "op": "ImageDecoder", "inputs": ["x1"], "outputs": ["other"]}]
    sol = solve(g)
    assert sol.shape("rgb") == "[_1, _2, 3]" and sol.shape("gray") == "[_1, _2, 1]"
    assert sol.shape("other") == "[_3, _4, 3]"


@needs_pillow
@settings(max_examples=12, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.sampled_from(FORMATS),
       st.sampled_from(PIXEL_FORMATS), st.integers(0, 2**32 - 1))
def test_rule_and_kernel_agree(h, w, fmt, pixel_format, seed):
    """The kernel's image fits the rule's shape (C and dtype exact, H and W open); a run of
    the graph binds the open names to the decoded size, as data-dependent symbols."""
    pixels = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    x = encode(pixels, fmt)
    attrs = {"pixel_format": pixel_format}
    (y,) = load_kernel("ImageDecoder")(attrs, opset=OPSET)(x)
    c = 1 if pixel_format == "Grayscale" else 3
    assert y.shape == (h, w, c) and y.dtype == np.uint8
    sol = infer("ImageDecoder", [("u8", [x.size])], attrs, opset=OPSET)
    assert sol.shape("y0") == f"[_1, _2, {c}]" and sol.dtype("y0") == "u8"
    out = run(node_graph("ImageDecoder", [BYTES], attrs, opset=OPSET), {"x0": x})
    assert np.array_equal(out["y0"], y) and out.data_dependent == {"_1": h, "_2": w}


@needs_pillow
def test_a_stream_that_does_not_decode_is_an_empty_image():
    """The spec: "If it can't decode for any reason ... it will return an empty matrix":
    [0, 0, C], which the rule's open H and W allow (onnx's reference raises instead)."""
    g = node_graph("ImageDecoder", [BYTES], {"pixel_format": "Grayscale"}, opset=OPSET)
    for junk in (np.arange(40, dtype=np.uint8), np.zeros(0, np.uint8),
                 encode(np.zeros((4, 4, 3), np.uint8), "PNG")[:30]):
        out = run(g, {"x0": junk})
        assert out["y0"].shape == (0, 0, 1) and out.data_dependent == {"_1": 0, "_2": 0}


def test_without_pillow_a_run_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    """Pillow is imported when an ImageDecoder node is made: without it, `run` stops before
    anything runs with exit 2 and one line naming the node (solving needs no Pillow)."""
    g = tmp_path / "g.json"
    g.write_text(json.dumps(node_graph("ImageDecoder", [BYTES], opset=OPSET)))
    np.save(tmp_path / "x.npy", np.arange(8, dtype=np.uint8))
    monkeypatch.setitem(sys.modules, "PIL.Image", None)  # (import PIL.Image now fails)
    assert main(["solve", str(g)]) == 0
    capsys.readouterr()
    assert main(["run", str(g), "--input", f"x0={tmp_path / 'x.npy'}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert 'nodes[0] "n"' in err and "needs Pillow" in err and "pip install pillow" in err
