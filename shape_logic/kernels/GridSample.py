"""GridSample: X [n, c, d1..dr] sampled at the positions of grid [n, o1..or, r] (normalized
to [-1, 1], the last axis's coordinates in reverse order: x, y, ...), giving [n, c, o1..or].
mode: nearest (rounding half to even), linear (bilinear) or cubic (bicubic, Keys' a =
-0.75), over 2^r or 4^r taps; padding_mode for positions and taps outside: zeros, border
(clamped) or reflection (mirrored at the borders); align_corners: -1 and 1 are the
corner pixels' centres rather than the image's edges. As onnx's reference and torch.
onnxruntime's com.microsoft GridSample is opset 16's: X 4-D, modes bilinear (default),
nearest and bicubic, padding each tap alone (a position outside is not moved inside)."""
import numpy as np

from .base import Kernel

MODES = {"bilinear": "linear", "linear": "linear", "nearest": "nearest",
         "bicubic": "cubic", "cubic": "cubic"}
CUBIC_A = -0.75


class GridSample(Kernel):
    attrs = {"align_corners": 0, "mode": None, "padding_mode": "zeros"}
    n_inputs = (2, 2)
    domains = ("", "com.microsoft")

    def run(self, x, grid, align_corners, mode, padding_mode):
        if self.domain and (mode in ("linear", "cubic") or x.ndim != 4):
            raise self.fail(f"com.microsoft's takes 4-D inputs and modes bilinear, nearest "
                            f"and bicubic, not {list(x.shape)} in mode {mode!r}")
        mode = MODES.get(mode or ("bilinear" if self.opset < 20 else "linear"))
        if mode is None or padding_mode not in ("zeros", "border", "reflection"):
            raise self.fail(f"unknown mode {self.kw['mode']!r} or padding_mode {padding_mode!r}")
        r = x.ndim - 2
        if r < 1 or grid.ndim != x.ndim or grid.shape[0] != x.shape[0] or grid.shape[-1] != r:
            raise self.fail(f"grid {list(grid.shape)} does not sample {list(x.shape)}")
        n, c, dims = x.shape[0], x.shape[1], x.shape[2:]
        out = grid.shape[1:-1]
        pts = grid.reshape(n, -1, r)[..., ::-1].astype(np.float32)  # [n, P, r], axis order
        lo = np.array([0.0 if align_corners else -0.5] * r, np.float32)
        hi = np.array([d - 1.0 if align_corners else d - 0.5 for d in dims], np.float32)
        size = np.array(dims, np.float32)
        pos = ((pts + 1) / 2 * (size - 1) if align_corners else ((pts + 1) * size - 1) / 2)
        pos = pos.astype(np.float32)
        if mode == "nearest":
            pos = np.rint(pos)
        # a position outside is moved inside (onnx's reference); onnxruntime's kernel, the
        # only one of com.microsoft's, leaves it and clamps or mirrors each tap alone
        # (fetch): the two differ for linear and cubic taps near the borders
        outside = (pos < lo) | (pos > hi)
        if padding_mode == "border" and not self.domain:
            pos = np.where(outside, np.clip(pos, 0, size - 1), pos)
        elif padding_mode == "reflection" and not self.domain:
            pos = np.where(outside, reflect(pos, lo, hi), pos)
        xf = x.astype(np.float64)
        if mode == "nearest":
            y = self.fetch(xf, pos.astype(np.int64), padding_mode, lo, hi)
        else:
            base = np.floor(pos).astype(np.int64)
            frac = (pos - base).astype(np.float64)
            offsets = (0, 1) if mode == "linear" else (-1, 0, 1, 2)
            weights = linear_weights(frac) if mode == "linear" else cubic_weights(frac)
            y = np.zeros((n, c, pos.shape[1]))
            for taps in np.ndindex(*(len(offsets),) * r):
                idx = base + np.array([offsets[t] for t in taps])
                w = np.prod([weights[t][..., i] for i, t in enumerate(taps)], axis=0)  # [n, P]
                y += w[:, None, :] * self.fetch(xf, idx, padding_mode, lo, hi)
        return y.reshape((n, c) + out).astype(x.dtype)

    @staticmethod
    def fetch(x: np.ndarray, idx: np.ndarray, padding_mode: str, lo, hi) -> np.ndarray:
        """x [n, c, d1..dr] at integer positions idx [n, P, r] -> [n, c, P]: zero where an
        index is outside (zeros), clamped (border), or mirrored (reflection)."""
        dims = np.array(x.shape[2:])
        valid = np.all((idx >= 0) & (idx < dims), axis=-1)
        if padding_mode == "reflection":
            idx = reflect(idx.astype(np.float64), lo, hi).astype(np.int64)
        idx = np.clip(idx, 0, dims - 1)
        batch = np.arange(x.shape[0])[:, None]
        vals = x[(batch, slice(None)) + tuple(idx[..., i] for i in range(idx.shape[-1]))]
        vals = np.moveaxis(vals, -1, 1)  # [n, P, c] -> [n, c, P]
        if padding_mode == "zeros":
            vals = vals * valid[:, None, :]
        return vals


def reflect(v: np.ndarray, lo, hi) -> np.ndarray:
    """v mirrored at lo and hi (as often as it takes) until within [lo, hi]."""
    span = hi - lo
    with np.errstate(divide="ignore", invalid="ignore"):
        d_lo, d_hi = lo - v, v - hi
        k_lo, k_hi = np.trunc(d_lo / span), np.trunc(d_hi / span)
        r_lo, r_hi = d_lo - k_lo * span, d_hi - k_hi * span
        below = np.where(k_lo % 2 == 0, lo + r_lo, hi - r_lo)
        above = np.where(k_hi % 2 == 0, hi - r_hi, lo + r_hi)
    out = np.where(v < lo, below, np.where(v > hi, above, v))
    return np.where(span == 0, lo, out)


def linear_weights(t: np.ndarray) -> list:
    return [1 - t, t]


def cubic_weights(t: np.ndarray) -> list:
    """Keys' cubic convolution weights of the taps at -1, 0, 1, 2 from the floor."""
    a = CUBIC_A

    def near(s):  # |s| <= 1
        return ((a + 2) * s - (a + 3)) * s * s + 1

    def far(s):  # 1 < |s| < 2
        return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]
