"""What the optimizers of ai.onnx.preview.training (Adagrad, Adam, Momentum) share: the
inputs R (learning rate), T (update count), then n tensors for each of the op's roles
(X_1..X_n, G_1..G_n, then the op's states), and as outputs the new values role by role
(X_new_1..X_new_n, then the new states). Each tensor of a group has X's shape; all of
them share one float type (float or double, T3), R is a float or double scalar (or one
element), T an int64 one. `step` updates one group with onnx's reference formulas; its
results take X's type (the operator's T3: onnx's reference returns float64 for Adam's
float X when T > 0 and float32 for several double X)."""
import numpy as np

from .base import Kernel

_FLOATS = frozenset((np.dtype(np.float32), np.dtype(np.float64)))


class Optimizer(Kernel):
    domains = ("ai.onnx.preview.training",)
    widens_small_floats = False  # float16 is no T3 type: it must fail, not be widened
    roles: tuple[str, ...] = ()  # the tensors of a group: ("X", "G", ...)
    n_results = 1  # the tensors a group gives

    def run(self, r, t, *tensors, **attrs):
        k = len(self.roles)
        n, rest = divmod(len(tensors), k)
        if rest or n == 0:
            raise self.fail(f"takes R, T and {k} tensors ({', '.join(self.roles)}) for each "
                            f"optimized one, not {len(tensors)}")
        if self.n_outputs != self.n_results * n:
            raise self.fail(f"{n} optimized tensors give {self.n_results * n} outputs, "
                            f"not {self.n_outputs}")
        for name, s in (("R", r), ("T", t)):
            if s.size != 1 or s.ndim > 1:
                raise self.fail(f"{name} must be a scalar, not {list(s.shape)}")
        if r.dtype not in _FLOATS or t.dtype != np.int64:
            raise self.fail(f"R must be float or double ({r.dtype}), T int64 ({t.dtype})")
        x_type = tensors[0].dtype
        if x_type not in _FLOATS or any(a.dtype != x_type for a in tensors):
            raise self.fail("the tensors must all be float or all double, not "
                            + ", ".join(sorted({str(a.dtype) for a in tensors})))
        results = []
        for i in range(n):
            group = tensors[i::n]
            if any(a.shape != group[0].shape for a in group):
                raise self.fail(f"tensor {i}'s {', '.join(self.roles)} must have one shape, "
                                f"not {', '.join(str(list(a.shape)) for a in group)}")
            out = self.step(r.reshape(()), t.reshape(()), *group, **attrs)
            results.append([np.asarray(o).astype(x_type) for o in out])
        return tuple(res[j] for j in range(self.n_results) for res in results)

    def step(self, r, t, *group, **attrs):
        raise NotImplementedError
