"""BiasAdd (com.microsoft): y = x + bias + skip; x and skip [N, S, C], bias [C]. (onnxruntime
runs it on CUDA only.)"""
from .base import Kernel


class BiasAdd(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (3, 3)

    def run(self, x, bias, skip):
        if x.ndim != 3 or skip.shape != x.shape or bias.shape != x.shape[-1:]:
            raise self.fail(f"x {list(x.shape)} and skip {list(skip.shape)} must be one [N, S, "
                            f"C] shape, bias {list(bias.shape)} [C]")
        return (x + bias + skip).astype(x.dtype)
