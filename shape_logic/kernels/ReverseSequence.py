"""ReverseSequence: for each batch entry b, the first lens[b] steps along time_axis are
reversed (batch_axis and time_axis are 0 and 1, in either order)."""
import numpy as np

from .base import Kernel


class ReverseSequence(Kernel):
    attrs = {"batch_axis": 1, "time_axis": 0}
    n_inputs = (2, 2)

    def run(self, x, lens, batch_axis, time_axis):
        if {batch_axis, time_axis} != {0, 1} or x.ndim < 2:
            raise self.fail(f"batch_axis {batch_axis} and time_axis {time_axis} must be 0 and 1 "
                            f"of an input of rank >= 2, got {list(x.shape)}")
        lens = np.asarray(lens).reshape(-1).astype(np.int64)
        b, t = x.shape[batch_axis], x.shape[time_axis]
        if lens.shape != (b,) or (lens.size and (lens.min() < 0 or lens.max() > t)):
            raise self.fail(f"sequence_lens {lens.tolist()} must give one length in 0..{t} for "
                            f"each of the {b} batch entries")
        # a gather along time: step s of entry i reads step lens[i] - 1 - s when s < lens[i]
        steps = np.arange(t)[None, :]
        src = np.where(steps < lens[:, None], lens[:, None] - 1 - steps, steps)  # [b, t]
        xb = np.moveaxis(x, (batch_axis, time_axis), (0, 1))  # [b, t, ...]
        y = xb[np.arange(b)[:, None], src]
        return np.ascontiguousarray(np.moveaxis(y, (0, 1), (batch_axis, time_axis)))
