"""MelWeightMatrix: num_mel_bins triangles over the dft_length//2 + 1 bins of a one-sided
spectrum. The num_mel_bins + 2 band edges are spaced evenly on the mel scale (2595 log10(1
+ f / 700)) from lower_edge_hertz, mapped back to hertz and to bins (floor of (dft_length
+ 1) f / sample_rate); band i rises from edge i to edge i + 1 and falls to edge i + 2 (a
band whose rising edges coincide is 1 at its center)."""
import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype


class MelWeightMatrix(Kernel):
    attrs = {"output_datatype": 1}
    n_inputs = (5, 5)

    def run(self, num_mel_bins, dft_length, sample_rate, lower, upper, *, output_datatype):
        m, n, rate = (int(np.asarray(v).reshape(())) for v in (num_mel_bins, dft_length,
                                                               sample_rate))
        if m < 1 or n < 1 or rate < 1:
            raise self.fail(f"num_mel_bins {m}, dft_length {n} and sample_rate {rate} must "
                            "be positive")
        try:
            dtype = numpy_dtype(output_datatype, self.op)
        except ValueError as e:
            raise self.fail(str(e)) from None
        bins = n // 2 + 1
        low_mel, high_mel = (2595 * np.log1p(float(np.asarray(v).reshape(())) / 700) / np.log(10)
                             for v in (lower, upper))
        edges = np.arange(m + 2) * ((high_mel - low_mel) / (m + 2)) + low_mel
        hertz = 700 * np.expm1(edges / 2595 * np.log(10))
        edges = (((n + 1) * hertz) // rate).astype(int)
        left, center, right = edges[:-2], edges[1:-1], edges[2:]
        # (a band's weights at a center, or before a falling right edge, past the last bin)
        if np.any(center >= bins) or np.any((right > center) & (right > bins)):
            raise self.fail(f"the bands reach bin {edges.max()}, past the {bins} bins of a "
                            f"DFT of {n} points")
        j = np.arange(bins)[:, None].astype(np.float64)
        rise = np.where(center > left, (j - left) / np.maximum(center - left, 1), j == center)
        fall = (right - j) / np.maximum(right - center, 1)
        out = np.where((j >= left) & (j <= center), rise, 0.0)
        out = np.where((right > center) & (j >= center) & (j < right), fall, out)
        return out.astype(dtype)
