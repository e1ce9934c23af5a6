"""Imputer (ai.onnx.ml 1): the elements of X equal to the replaced value (NaN matches NaN)
become the imputed value: imputed_value_floats for a float X, imputed_value_int64s for
an integer one. Y has X's shape and type (rules/Imputer.lp). As onnxruntime: with one
value per feature (X's axis 1; axis 0 of a 1-D X), element i (row-major) takes value
i mod that count; with any other count, the first value."""
import numpy as np

from .base import Kernel
from .ml_scores import FEATURE_TYPES


class Imputer(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"imputed_value_floats": None, "imputed_value_int64s": None,
             "replaced_value_float": 0.0, "replaced_value_int64": 0}
    n_inputs = (1, 1)

    def setup(self, imputed_value_floats, imputed_value_int64s, **_):
        if bool(imputed_value_floats) == bool(imputed_value_int64s):
            raise self.fail("exactly one of imputed_value_floats and imputed_value_int64s "
                            "must be given")

    def run(self, x, imputed_value_floats, imputed_value_int64s, replaced_value_float,
            replaced_value_int64):
        if x.dtype not in FEATURE_TYPES or x.ndim == 0:
            raise self.fail(f"X must be float, double, int64 or int32 with an axis, not "
                            f"{x.dtype} {list(x.shape)}")
        floating = x.dtype.kind == "f"
        values = imputed_value_floats if floating else imputed_value_int64s
        if not values:
            raise self.fail(f"imputed_value_{'floats' if floating else 'int64s'} must be "
                            f"given for X of {x.dtype}")
        values = np.asarray(values, x.dtype)
        c = x.shape[1] if x.ndim > 1 else x.shape[0]
        flat = x.reshape(-1)
        fill = values[np.arange(flat.size) % c] if len(values) == c else values[0]
        if floating:
            r = np.float32(replaced_value_float)
            hit = np.isnan(flat) if np.isnan(r) else flat == r
        else:
            hit = flat == replaced_value_int64
        return np.where(hit, fill, flat).astype(x.dtype).reshape(x.shape)
