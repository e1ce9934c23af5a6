"""The activations onnxruntime fuses into a convolution or a product (FusedConv, FusedGemm),
applied to the fused operator's result: each is the ONNX operator of that name (its kernel
here, so that both compute alike) with the attributes the node gives it.

FusedConv names them in `activation` and gives their parameters as one list,
`activation_params` (onnxruntime's GetFusedActivationAttr: LeakyRelu's alpha, Clip's
min and max, HardSigmoid's alpha and beta); FusedGemm gives each parameter as an
attribute of its own, `activation_alpha`, `activation_beta`, `activation_gamma`, for the
activations of onnxruntime's ElementWiseRangedTransform, which all require theirs."""
from __future__ import annotations

import numpy as np

from .Sigmoid import sigmoid
from .base import KernelError

# FusedConv: activation -> the names of its parameters, in activation_params' order
CONV_PARAMS = {"Relu": (), "Tanh": (), "Sigmoid": (), "Silu": (), "LeakyRelu": ("alpha",),
               "Clip": ("min", "max"), "HardSigmoid": ("alpha", "beta")}
# FusedGemm: activation -> the parameters it requires (activation_<name>)
GEMM_PARAMS = {"Relu": (), "Tanh": (), "Sigmoid": (), "Softplus": (), "Softsign": (),
               "Elu": ("alpha",), "LeakyRelu": ("alpha",), "ThresholdedRelu": ("alpha",),
               "HardSigmoid": ("alpha", "beta"), "Selu": ("alpha", "gamma"),
               "ParametricSoftplus": ("alpha", "beta"), "ScaledTanh": ("alpha", "beta")}


def _onnx(op: str, **attrs):
    from . import load_kernel  # (the package imports its modules lazily)

    kernel = load_kernel(op)(attrs)
    return lambda y: kernel(y)[0]


def _make(name: str, p: dict):
    """y -> activation(y), the parameters by name."""
    if name == "Silu":
        return lambda y: y * sigmoid(y)
    if name == "Clip":
        return lambda y: np.clip(y, y.dtype.type(p["min"]), y.dtype.type(p["max"]))
    if name == "ParametricSoftplus":  # alpha * ln(1 + e^(beta * y))
        return lambda y: (p["alpha"] * np.logaddexp(0, p["beta"] * y)).astype(y.dtype)
    if name == "ScaledTanh":  # alpha * tanh(beta * y)
        return lambda y: (p["alpha"] * np.tanh(p["beta"] * y)).astype(y.dtype)
    return _onnx(name, **p)


def conv_activation(op: str, name: str, params) -> callable:
    """FusedConv's activation: `name` ("" for none) with `activation_params`."""
    if not name:
        return lambda y: y
    if name not in CONV_PARAMS:
        raise KernelError(f"{op}: unknown activation {name!r} (known: "
                          f"{', '.join(sorted(CONV_PARAMS))})")
    names = CONV_PARAMS[name]
    given = list(params or [])
    if len(given) < len(names):  # (more are ignored, as onnxruntime does)
        raise KernelError(f"{op}: activation {name} takes {len(names)} activation_params, "
                          f"got {len(given)}")
    return _make(name, dict(zip(names, given)))


def gemm_activation(op: str, name: str, attrs: dict) -> callable:
    """FusedGemm's activation: `name` (required: onnxruntime has no FusedGemm without one)
    with its activation_<param> attributes."""
    if not name:
        raise KernelError(f"{op}: the attribute activation is required")
    if name not in GEMM_PARAMS:
        raise KernelError(f"{op}: unknown activation {name!r} (known: "
                          f"{', '.join(sorted(GEMM_PARAMS))})")
    p = {}
    for param in GEMM_PARAMS[name]:
        if attrs.get(f"activation_{param}") is None:
            raise KernelError(f"{op}: activation {name} requires activation_{param}")
        p[param] = attrs[f"activation_{param}"]
    return _make(name, p)
