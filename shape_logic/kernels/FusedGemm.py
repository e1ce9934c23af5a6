"""FusedGemm (com.microsoft, onnxruntime's fusion of a Gemm and the activation after it):
activation(alpha * A' B' + beta * C), Gemm's product with the activation of
fused_activation.py (its parameters as activation_alpha, activation_beta,
activation_gamma)."""
from .Gemm import Gemm
from .base import Kernel
from .fused_activation import gemm_activation

ACTIVATION_ATTRS = {"activation": "", "activation_alpha": None, "activation_beta": None,
                    "activation_gamma": None}


class FusedGemm(Kernel):
    domains = ("com.microsoft",)
    attrs = {**Gemm.attrs, **ACTIVATION_ATTRS}
    n_inputs = (2, 3)

    def setup(self, **attrs):
        self.gemm = Gemm({k: attrs[k] for k in Gemm.attrs}, opset=self.opset)
        self.activation = gemm_activation(self.op, attrs["activation"], attrs)

    def run(self, a, b, c=None, **attrs):
        (y,) = self.gemm(a, b, c)
        return self.activation(y)
