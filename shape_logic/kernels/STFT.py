"""STFT: frames of the signal [batch, length, 1 | 2] (a strided view: frame f starts at
f * frame_step), each multiplied by the window (ones by default) and transformed with
numpy.fft along the frame; onesided keeps frame_length//2 + 1 bins."""
import numpy as np

from .base import Kernel


class STFT(Kernel):
    attrs = {"onesided": 1}
    n_inputs = (2, 4)

    def run(self, x, frame_step, window=None, frame_length=None, *, onesided):
        if x.ndim != 3 or x.shape[2] not in (1, 2):
            raise self.fail(f"signal {list(x.shape)} is not [batch, length, 1 or 2]")
        step = int(np.asarray(frame_step).reshape(()))
        if frame_length is not None:
            n = int(np.asarray(frame_length).reshape(()))
        else:
            n = x.shape[1] if window is None else window.shape[0]
        if window is not None and window.shape != (n,):
            raise self.fail(f"window {list(window.shape)} does not have {n} points")
        if step < 1 or n < 1 or n > x.shape[1]:
            raise self.fail(f"frames of {n} points every {step} do not fit a signal of "
                            f"{x.shape[1]}")
        signal = x[..., 0] if x.shape[2] == 1 else x[..., 0] + 1j * x[..., 1]
        frames = np.lib.stride_tricks.sliding_window_view(signal, n, axis=1)[:, ::step]
        if window is not None:
            frames = frames * window
        out = np.fft.fft(frames, n=n, axis=-1)
        if onesided:
            out = out[..., :n // 2 + 1]
        return np.stack([out.real, out.imag], axis=-1).astype(x.dtype)
