"""DFT: numpy.fft along one axis of a signal whose last axis holds real (1) or complex (2)
numbers: fft (two-sided), fft cut to floor(n/2) + 1 points (onesided: RFFT), ifft (inverse),
irfft (inverse, onesided: a real signal). The length n is dft_length (zero-padding or
cutting the signal), or the axis' length (2*(length - 1) for irfft)."""
import numpy as np

from .base import Kernel


class DFT(Kernel):
    attrs = {"inverse": 0, "onesided": 0, "axis": 1}
    n_inputs = (1, 3)

    def run(self, x, dft_length=None, axis_input=None, *, inverse, onesided, axis):
        if self.opset >= 20:
            axis = -2 if axis_input is None else int(np.asarray(axis_input).reshape(()))
        r = x.ndim
        if r < 2 or x.shape[-1] not in (1, 2):
            raise self.fail(f"input {list(x.shape)}: the last axis must hold 1 (real) or 2 "
                            "(complex) numbers")
        ax = self.axis(axis, r)
        if ax == r - 1:
            raise self.fail(f"axis {axis} is the complex axis")
        signal = x[..., 0] if x.shape[-1] == 1 else x[..., 0] + 1j * x[..., 1]
        if dft_length is None:
            n = 2 * (x.shape[ax] - 1) if inverse and onesided else x.shape[ax]
        else:
            n = int(np.asarray(dft_length).reshape(()))
        if n < 1:
            raise self.fail(f"dft_length {n} is not positive")
        if inverse and onesided:
            return np.fft.irfft(signal, n=n, axis=ax)[..., None].astype(x.dtype)
        out = (np.fft.ifft if inverse else np.fft.fft)(signal, n=n, axis=ax)
        if onesided:
            out = np.take(out, np.arange(n // 2 + 1), axis=ax)
        return np.stack([out.real, out.imag], axis=-1).astype(x.dtype)
