"""FusedConv (com.microsoft, onnxruntime's fusion of a Conv, an Add and an activation):
activation(conv(X, W) + B + Z). Z, when given, has exactly the output's shape (onnxruntime:
"output and sum shape must match"); the activation is fused_activation.py's."""
from .Conv import Conv
from .base import Kernel
from .fused_activation import conv_activation


class FusedConv(Kernel):
    domains = ("com.microsoft",)
    attrs = {**Conv.attrs, "activation": "", "activation_params": None}
    n_inputs = (2, 4)

    def setup(self, activation, activation_params, **conv_attrs):
        self.conv = Conv(conv_attrs, opset=self.opset)
        self.activation = conv_activation(self.op, activation, activation_params)

    def run(self, x, w, b=None, z=None, **attrs):
        (y,) = self.conv(x, w, b)
        if z is not None:
            if z.shape != y.shape:
                raise self.fail(f"Z {list(z.shape)} is not the output's shape {list(y.shape)}")
            y = y + z
        return self.activation(y)
