"""Scale: y = scale * x (onnx's dropped experimental operator)."""
from .families import UnaryFloat


class Scale(UnaryFloat):
    attrs = {"scale": 1.0}

    def run(self, x, scale):
        return x.dtype.type(scale) * x
