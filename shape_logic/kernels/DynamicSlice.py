"""DynamicSlice: data[starts:ends] along `axes` (0, 1, .. by default), Slice-10 without
steps (onnx's dropped experimental operator, opsets 1 to 9). The checks are onnxruntime's,
measured: int32 or int64 vectors of one type and length, no scalar data, axes in range
and distinct; out-of-range starts and ends clamp as Python's slices do (step 1)."""
import numpy as np

from .base import Kernel

INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


class DynamicSlice(Kernel):
    n_inputs = (3, 4)

    def run(self, x, starts, ends, axes=None):
        if self.opset >= 10:
            raise self.fail(f"exists at opsets 1 to 9 only, not at opset {self.opset}")
        if x.ndim == 0:
            raise self.fail("cannot slice a scalar")
        lists = {"starts": starts, "ends": ends, "axes": axes}
        for name, a in lists.items():
            if a is None:
                continue
            if a.dtype not in INDEX_DTYPES or a.dtype != starts.dtype:
                raise self.fail(f"{name} is {a.dtype}, starts {starts.dtype}: they must be "
                                "int32 or int64, of one type")
            if a.ndim != 1 or a.shape != starts.shape:
                raise self.fail(f"{name} has shape {list(a.shape)}: starts, ends and axes "
                                f"must be vectors of one length ({list(starts.shape)})")
        axes = range(len(starts)) if axes is None else self.ints(axes)
        axes = [self.axis(a, x.ndim) for a in axes]
        if len(set(axes)) != len(axes):
            raise self.fail(f"axes {axes} has duplicates")
        index = [slice(None)] * x.ndim
        for a, b, e in zip(axes, self.ints(starts), self.ints(ends)):
            index[a] = slice(b, e)  # Python's clamping is ONNX's for step 1
        return x[tuple(index)]
