"""CropAndResize (com.microsoft): each region [y1, x1, y2, x2] of rois (normalized: 0 is the
first pixel, 1 the last) on the image its batch index names, resized to crop_size's
[crop_height, crop_width] with the corners aligned: output pixel (i, j) samples the image at
(y1 + i * (y2 - y1) / (crop_height - 1)) * (h - 1) (a crop of 1 at the region's middle), and
likewise across. A sample outside the image is extrapolation_value; one inside is bilinear
or the nearest pixel (rounded half away from zero). Y is [k, c, crop_height, crop_width]. As
onnxruntime's CPU kernel: the positions in the input's float type, the interpolation in
float32."""
import numpy as np

from .base import Kernel


class CropAndResize(Kernel):
    domains = ("com.microsoft",)
    attrs = {"mode": "bilinear", "extrapolation_value": 0.0}
    n_inputs = (4, 4)

    def run(self, x, rois, batch_indices, crop_size, *, mode, extrapolation_value):
        if mode not in ("bilinear", "nearest"):
            raise self.fail(f"mode {mode!r} is neither bilinear nor nearest")
        if x.dtype not in (np.float16, np.float32, np.float64) or rois.dtype != x.dtype:
            raise self.fail(f"x ({x.dtype}) and rois ({rois.dtype}) must be of one float type")
        if batch_indices.dtype != np.int32 or crop_size.dtype != np.int32:
            raise self.fail(f"batch_indices ({batch_indices.dtype}) and crop_size "
                            f"({crop_size.dtype}) must be int32")
        if x.ndim != 4 or rois.ndim != 2 or rois.shape[1] != 4 or batch_indices.ndim != 1 \
                or batch_indices.shape[0] != rois.shape[0]:
            raise self.fail(f"x {list(x.shape)}, rois {list(rois.shape)} and batch_indices "
                            f"{list(batch_indices.shape)} are not [n, c, h, w], [k, 4], [k]")
        if crop_size.shape != (2,):
            raise self.fail(f"crop_size must be a vector of 2, not of shape "
                            f"{list(crop_size.shape)}")
        ch, cw = (int(v) for v in crop_size)
        if ch < 1 or cw < 1:
            raise self.fail(f"crop sizes must be positive: {[ch, cw]}")
        k, (n, c, h, w) = rois.shape[0], x.shape
        # positions in the input's type (float32 for float16); values interpolated in float32
        t = np.float64 if x.dtype == np.float64 else np.float32
        y = np.full((k, c, ch, cw), extrapolation_value, dtype=np.float32)
        for r in range(k):
            b = int(batch_indices[r])
            if not 0 <= b < n:
                raise self.fail(f"batch index {b} is outside the {n} images")
            y1, x1, y2, x2 = rois[r].astype(t)
            ys, xs = positions(y1, y2, h, ch, t), positions(x1, x2, w, cw, t)
            yok, xok = (ys >= 0) & (ys <= h - 1), (xs >= 0) & (xs <= w - 1)
            ys, xs = np.where(yok, ys, 0), np.where(xok, xs, 0)
            img = x[b].astype(np.float32)
            if mode == "bilinear":
                top, left = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
                bottom, right = np.ceil(ys).astype(np.int64), np.ceil(xs).astype(np.int64)
                ylerp = (ys - top).astype(np.float32)[:, None]
                xlerp = (xs - left).astype(np.float32)[None, :]
                tl, tr = img[:, top][:, :, left], img[:, top][:, :, right]
                bl, br = img[:, bottom][:, :, left], img[:, bottom][:, :, right]
                upper, lower = tl + (tr - tl) * xlerp, bl + (br - bl) * xlerp
                crop = upper + (lower - upper) * ylerp
            else:
                crop = img[:, nearest(ys)][:, :, nearest(xs)]
            ok = yok[:, None] & xok[None, :]
            y[r] = np.where(ok, crop, np.float32(extrapolation_value))
        return y.astype(x.dtype)


def positions(start, end, size, count, t):
    """Where the count output pixels along an axis of `size` sample the image (the first and
    the last exactly at the region's ends; one at its middle)."""
    if count == 1:  # (a double in onnxruntime, made the input's type)
        return np.array([t(0.5 * (float(start) + float(end)) * (size - 1))], dtype=t)
    step = (end - start) * t(size - 1) / t(count - 1)
    out = start * t(size - 1) + np.arange(count).astype(t) * step
    out[0], out[-1] = start * t(size - 1), end * t(size - 1)
    return out


def nearest(v):
    """roundf: the nearest integer, halves away from zero (v >= 0 here)."""
    low = np.floor(v)
    return (low + (v - low >= 0.5)).astype(np.int64)
