"""MaxRoiPool, as onnxruntime computes it (Fast R-CNN's ROI pooling): a region's corners are
rounded after scaling by spatial_scale, it is at least 1 x 1, its pooled_shape bins span
floor(i * size / bins) to ceil((i + 1) * size / bins) from its start, clipped to the image;
each bin takes the maximum of its pixels (0 for an empty bin). Per region, the maximum over
rows and then over columns of each bin (a maximum over a rectangle is separable)."""
import numpy as np

from .base import Kernel


class MaxRoiPool(Kernel):
    attrs = {"pooled_shape": None, "spatial_scale": 1.0}
    n_inputs = (2, 2)

    def run(self, x, rois, *, pooled_shape, spatial_scale):
        if pooled_shape is None or len(pooled_shape) != 2 or min(pooled_shape) < 1:
            raise self.fail(f"pooled_shape {pooled_shape} must be two positive sizes")
        if x.ndim != 4 or rois.ndim != 2 or rois.shape[1] != 5:
            raise self.fail(f"input {list(x.shape)} and rois {list(rois.shape)} are not "
                            "[N, C, H, W] and [num_rois, 5]")
        ph, pw = pooled_shape
        n, c, h, w = x.shape
        out = np.zeros((rois.shape[0], c, ph, pw), x.dtype)
        for r, (b, x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
            if not 0 <= int(b) < n:
                raise self.fail(f"region {r}: batch index {int(b)} is not in 0..{n - 1}")
            ys = _bins(np.round(y1 * spatial_scale), np.round(y2 * spatial_scale), ph, h)
            xs = _bins(np.round(x1 * spatial_scale), np.round(x2 * spatial_scale), pw, w)
            out[r] = _pool(x[int(b)], ys, xs)
        return out


def _bins(start, end, bins, size):
    """[bins, size] masks: which pixels of an axis of `size` each bin holds."""
    length = max(end - start + 1, 1)
    i = np.arange(bins)
    lo = np.clip(np.floor(i * length / bins) + start, 0, size)
    hi = np.clip(np.ceil((i + 1) * length / bins) + start, 0, size)
    at = np.arange(size)
    return (at >= lo[:, None]) & (at < hi[:, None])


def _pool(image, rows, cols):
    """[C, ph, pw]: the maximum of each bin's pixels of image [C, H, W], 0 where empty."""
    low = np.finfo(image.dtype).min if image.dtype.kind == "f" else np.iinfo(image.dtype).min
    by_col = np.where(cols[None, None], image[:, :, None, :], low).max(axis=3)  # [C, H, pw]
    both = np.where(rows[None, :, :, None], by_col[:, None, :, :], low).max(axis=2)
    empty = ~(rows.any(axis=1)[:, None] & cols.any(axis=1)[None, :])
    return np.where(empty[None], 0, both)
