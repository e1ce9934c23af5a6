"""RoiAlign: for each region [x1, y1, x2, y2] (scaled by spatial_scale; shifted by half a
pixel in half_pixel mode, else stretched to at least 1 x 1) on the image its batch index
names, each of the output_height x output_width bins averages (mode avg) or takes the
largest of (mode max) a grid of bilinear samples: sampling_ratio per bin and axis, or
ceil(bin size) when it is 0. A sample more than a pixel outside the image counts as 0.
As onnxruntime and onnx's reference (positions in the regions' type); per region, the
bins and samples at once."""
import numpy as np

from .base import Kernel


class RoiAlign(Kernel):
    attrs = {"coordinate_transformation_mode": None, "mode": "avg", "output_height": 1,
             "output_width": 1, "sampling_ratio": 0, "spatial_scale": 1.0}
    n_inputs = (3, 3)

    def run(self, x, rois, batch_indices, coordinate_transformation_mode, mode, output_height,
            output_width, sampling_ratio, spatial_scale):
        ctm = coordinate_transformation_mode or \
            ("half_pixel" if self.opset >= 16 else "output_half_pixel")
        if x.ndim != 4 or rois.ndim != 2 or rois.shape[1] != 4 or \
                batch_indices.reshape(-1).shape[0] != rois.shape[0]:
            raise self.fail(f"x {list(x.shape)}, rois {list(rois.shape)} and batch_indices "
                            f"{list(batch_indices.shape)} are not [n, c, h, w], [k, 4], [k]")
        if mode not in ("avg", "max") or ctm not in ("half_pixel", "output_half_pixel"):
            raise self.fail(f"unknown mode {mode!r} or coordinate_transformation_mode {ctm!r}")
        half = ctm == "half_pixel"
        k, (n, c, h, w) = rois.shape[0], x.shape
        oh, ow = output_height, output_width
        y = np.zeros((k, c, oh, ow), dtype=np.float64)
        t = rois.dtype.type
        for r in range(k):
            b = int(batch_indices.reshape(-1)[r])
            if not 0 <= b < n:
                raise self.fail(f"batch index {b} is outside the {n} images")
            x1, y1, x2, y2 = (v * t(spatial_scale) - t(0.5 if half else 0) for v in rois[r])
            rw, rh = x2 - x1, y2 - y1
            if not half:  # malformed regions become 1 x 1
                rw, rh = max(rw, t(1)), max(rh, t(1))
            bh, bw = rh / t(oh), rw / t(ow)
            gh = sampling_ratio if sampling_ratio > 0 else int(np.ceil(rh / t(oh)))
            gw = sampling_ratio if sampling_ratio > 0 else int(np.ceil(rw / t(ow)))
            count = max(gh * gw, 1)
            yy = axis_samples(y1, bh, oh, gh, h, t)  # [oh, gh] each
            xx = axis_samples(x1, bw, ow, gw, w, t)  # [ow, gw]
            img = x[b].astype(np.float64)
            corners = []  # (weight [oh, gh, ow, gw], values [c, oh, gh, ow, gw])
            for (ylow, ywt, yok) in ((yy[0], yy[2], yy[4]), (yy[1], yy[3], yy[4])):
                for (xlow, xwt, xok) in ((xx[0], xx[2], xx[4]), (xx[1], xx[3], xx[4])):
                    wt = ywt[:, :, None, None] * xwt[None, None, :, :]
                    ok = yok[:, :, None, None] & xok[None, None, :, :]
                    vals = img[:, ylow[:, :, None, None], xlow[None, None, :, :]]
                    corners.append(np.where(ok, wt, 0.0) * vals)
            if mode == "avg":
                y[r] = sum(corners).sum(axis=(2, 4)) / count
            else:
                y[r] = np.max(np.max(corners, axis=0), axis=(2, 4))
        return y.astype(x.dtype)


def axis_samples(start, bin_size, bins, grid, size, t):
    """Along one axis: for each bin and sample, the low and high pixel, their weights, and
    whether the sample lies within a pixel of the image."""
    p = (start + np.arange(bins)[:, None] * bin_size
         + (np.arange(grid)[None, :] + t(0.5)) * bin_size / t(grid)).astype(type(start))
    ok = (p >= -1.0) & (p <= size)
    p = np.maximum(p, 0)
    low = p.astype(np.int64)
    clamp = low >= size - 1
    low = np.where(clamp, size - 1, low)
    high = np.where(clamp, size - 1, low + 1)
    p = np.where(clamp, low, p)
    frac = (p - low).astype(np.float64)
    return low, high, 1.0 - frac, frac, ok
