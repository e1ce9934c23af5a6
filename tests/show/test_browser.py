"""The HTML of a 1,000-node graph in a real headless browser (Debian's `chromium`): it
renders within 5 s by the page's own clock, the shapes are in the page, the screenshot
is a drawing. Skipped where chromium is not installed."""
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from shape_logic.show import draw
from shape_logic.solver import solve

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                "(apt-get install chromium)")


def chromium(*args, timeout=120):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--window-size=1400,900", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    sys.path.insert(0, str(ROOT))
    from bench.synthetic import transformer

    sol = solve(transformer(1000))
    assert len(sol.graph.nodes) == 1000
    path = tmp_path_factory.mktemp("show") / "t1000.html"
    path.write_text(draw(sol, "html"))
    return sol, path


def test_html_renders_quickly_and_shows_shapes(page):
    sol, path = page
    # the page opens with node 2 found and selected, as if searched for and clicked
    dom = chromium("--dump-dom", path.as_uri() + "#find=l0_q_split").stdout
    ready = re.search(r'data-ready-ms="(\d+)"', dom)
    assert ready, "the page's script did not run"
    frame = re.search(r'data-frame-ms="(\d+)"', dom)
    ms = int((frame or ready).group(1))
    print(f"chromium: page ready after {ready.group(1)} ms, first frame after "
          f"{frame.group(1) if frame else '?'} ms")
    assert ms < 5000
    # every edge's shape is in the page (the shape of a layer's projection, the scores)
    assert dom.count(">[b, s, 64]<") > 100
    assert ">[b, 4, s, s]<" in dom and sol.shape("l0_scores") == "[b, 4, s, s]"
    # the details panel shows the clicked node: op, rule file, input and output shapes
    details = re.search(r'<div id="details">(.*?)</div></div>', dom, re.S).group(1)
    assert sol.graph.nodes[2].op == "Reshape" and sol.graph.nodes[2].name == "l0_q_split"
    assert 'Reshape "l0_q_split"' in details.replace("&quot;", '"')
    assert "<code>rules/Reshape.lp</code>" in details
    assert "<td>l0_q</td><td>f32</td><td>[b, s, 64]</td>" in details
    assert "<td>l0_q_split</td><td>f32</td><td>[b, s, 4, 16]</td>" in details


def test_screenshot_is_a_drawing(page, tmp_path):
    _, path = page
    png = tmp_path / "shot.png"
    chromium(f"--screenshot={png}", path.as_uri())
    # the top 300 rows hold the title, the symbols and the first layers of boxes and edges
    img = read_png(png.read_bytes(), rows=300)[:, :, :3].astype(int)
    assert img.shape == (300, 1400, 3)
    white = (img == 255).all(axis=2).mean()
    dark = int((img.sum(axis=2) < 200).sum())  # text and lines
    colours = len(np.unique(img.reshape(-1, 3), axis=0))
    assert colours > 20  # box fills, edge colour, text anti-aliasing
    assert 0.02 < 1 - white < 0.9 and dark > 1000


def read_png(data: bytes, rows: int | None = None) -> np.ndarray:
    """The pixels (height, width, channels) of an 8-bit non-interlaced RGB(A) PNG, as
    chromium writes them; only the first `rows` rows when given (decoding is slow in
    Python, and a row needs only the rows above it)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0 and color in (2, 6)
    bpp = 3 if color == 2 else 4
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, width * bpp + 1)
    height = min(height, rows or height)
    out = np.zeros((height, width * bpp), np.uint8)
    prev = np.zeros(width * bpp, np.uint8)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:]
        if kind == 0:
            cur = line.copy()
        elif kind == 1:  # Sub: a running sum per channel
            cur = np.cumsum(line.reshape(width, bpp), axis=0, dtype=np.uint64)
            cur = (cur % 256).astype(np.uint8).reshape(-1)
        elif kind == 2:  # Up
            cur = line + prev
        else:  # Average, Paeth: byte by byte
            cur = bytearray(line)
            for i in range(len(cur)):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = int(prev[i]), int(prev[i - bpp]) if i >= bpp else 0
                if kind == 3:
                    cur[i] = (cur[i] + (a + b) // 2) & 255
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                    cur[i] = (cur[i] + pred) & 255
            cur = np.frombuffer(bytes(cur), np.uint8)
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)
