"""ConvTransposeWithDynamicPads (com.microsoft, tf2onnx's Conv2DBackpropInput):
ConvTranspose whose pads are the values of the int64 input Pads (the begin pads, then the
end pads), as onnxruntime runs it: Pads required, 1-D, two per spatial axis, none
negative; NOTSET and VALID both cut the pads off, SAME ignores them (ConvTranspose's
kernel, which pads SAME as onnxruntime does)."""
import numpy as np

from .ConvTranspose import ConvTranspose
from .base import Kernel

ATTRS = {k: v for k, v in ConvTranspose.attrs.items() if k not in ("pads", "output_shape")}


class ConvTransposeWithDynamicPads(Kernel):
    domains = ("com.microsoft",)
    attrs = ATTRS
    n_inputs = (2, 4)

    def run(self, x, w, pads=None, b=None, **attrs):
        if x.dtype not in (np.float16, np.float32, np.float64) or w.dtype != x.dtype:
            raise self.fail(f"x and w must be of one float type, not {x.dtype}, {w.dtype}")
        if x.ndim < 3:
            raise self.fail(f"x of shape {list(x.shape)} has no spatial axes")
        if pads is None:
            raise self.fail("needs its input Pads")
        pads = np.asarray(pads)
        nd = x.ndim - 2
        if pads.ndim != 1 or pads.size != 2 * nd or (pads < 0).any():
            raise self.fail(f"Pads {pads.tolist()} must be {2 * nd} values, none negative")
        if attrs["auto_pad"] not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
            raise self.fail(f"unknown auto_pad {attrs['auto_pad']!r}")
        for key in ("strides", "dilations", "kernel_shape", "output_padding"):
            v = attrs[key]
            if v is not None and (len(v) != nd or min(v) < (key != "output_padding")):
                raise self.fail(f"{key} {list(v)} must be {nd} positive values (output_padding"
                                " not negative)")
        if attrs["kernel_shape"] is not None and list(attrs["kernel_shape"]) != list(w.shape[2:]):
            raise self.fail(f"kernel_shape {list(attrs['kernel_shape'])} is not w's "
                            f"{list(w.shape[2:])}")
        if attrs["group"] <= 0:
            raise self.fail(f"group {attrs['group']} must be positive")
        if b is not None and (b.ndim != 1 or b.shape[0] != w.shape[1] * attrs["group"]):
            raise self.fail(f"the bias of shape {list(b.shape)} is not one per output "
                            f"channel ({w.shape[1] * attrs['group']})")
        if attrs["auto_pad"] == "VALID":  # (onnxruntime cuts the pads off there too)
            attrs["auto_pad"] = "NOTSET"
        if attrs["auto_pad"] == "NOTSET":
            attrs["pads"] = [int(p) for p in pads]
        return ConvTranspose(attrs, opset=self.opset)(x, w, b)[0]
