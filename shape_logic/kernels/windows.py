"""The spectral windows' plumbing (HannWindow, HammingWindow, BlackmanWindow): the points
n = 0..size - 1 over N = size (periodic) or size - 1 (symmetric), in float64, then cast
to output_datatype. Each window is a constant plus cosines of 2 pi k n / N."""
import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype


class Window(Kernel):
    attrs = {"output_datatype": 1, "periodic": 1}
    # the window's cosine terms: (coefficient of cos(2 pi k n / N)) for k = 0, 1, 2...
    terms: tuple[float, ...] = ()

    def run(self, size, output_datatype, periodic):
        size = np.asarray(size)
        if size.ndim != 0 or size.dtype.kind not in "iu":
            raise self.fail(f"size must be a scalar integer, got {size.dtype} "
                            f"{list(size.shape)}")
        n = int(size)
        if n < 0:
            raise self.fail(f"size {n} is negative")
        try:
            dtype = numpy_dtype(output_datatype, self.op)
        except ValueError as e:
            raise self.fail(str(e)) from None
        length = n if periodic else n - 1
        angle = 2 * np.pi * np.arange(n, dtype=np.float64) / length if length else \
            np.full(n, np.nan)  # (a symmetric window of one point divides by 0)
        # the cosines first and the constant last, as onnx's reference adds them (an
        # integer output type truncates: 0.92 + 0.08 is 1, 0.42 + 0.58 just below it)
        out = np.zeros(n)
        for k, c in enumerate(self.terms[1:], start=1):
            out = out + c * np.cos(k * angle)
        return (out + self.terms[0]).astype(dtype)
