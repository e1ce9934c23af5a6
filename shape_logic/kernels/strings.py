"""What the string kernels share: ONNX's strings as NumPy object arrays of Python str."""
import numpy as np


def strings(kernel, x, what="input"):
    """x as an object array of str; a KernelError for any other element type."""
    x = np.asarray(x)
    if x.dtype.kind not in "OUS":
        raise kernel.fail(f"{what} must hold strings, not {x.dtype}")
    return x.astype(object) if x.dtype.kind != "O" else x
