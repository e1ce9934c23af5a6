"""LabelEncoder (ai.onnx.ml): each element of X looked up among the keys and replaced by
the value at the key's place, or the default (rules/LabelEncoder.lp). A repeated key
maps to its last value; a NaN key matches any NaN (as the operator's definition and
onnxruntime say: onnx's reference, a dict, matches none). The lookup is a binary search
over the sorted keys. In ai.onnx.ml 1, classes_strings maps strings to their positions
(default_int64 for the others) and int64 positions to strings (default_string)."""
import numpy as np

from ..graph import NUMPY_DTYPES
from .base import Kernel

_LISTS = {"strings": np.object_, "int64s": np.int64, "floats": np.float32}
_TYPES = frozenset(np.dtype(NUMPY_DTYPES[d]) for d in ("str", "i64", "f32", "i32", "i16", "f64"))


class LabelEncoder(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"default_float": -0.0, "default_int64": -1, "default_string": "_Unused",
             "default_tensor": None, "classes_strings": None,
             **{f"{p}_{s}": None for p in ("keys", "values") for s in (*_LISTS, "tensor")}}
    n_inputs = (1, 1)

    def setup(self, classes_strings, **attrs):
        if classes_strings is not None:  # ai.onnx.ml 1
            self.keys = None
            return
        keys, values = self._part("keys", attrs), self._part("values", attrs)
        if len(keys) != len(values):
            raise self.fail(f"{len(keys)} keys and {len(values)} values")
        self.key_type, self.out_type = keys.dtype, values.dtype
        if self.key_type not in _TYPES or self.out_type not in _TYPES:
            raise self.fail(f"keys of {keys.dtype} and values of {values.dtype}: the types are "
                            "string, int64, float, int32, int16, double")
        self.default = self._default(attrs)
        nan = np.array([k != k for k in keys], bool) if keys.dtype.kind == "f" else None
        self.nan_value = values[nan][-1] if nan is not None and nan.any() else None
        if nan is not None:
            keys, values = keys[~nan], values[~nan]
        # the last of repeated keys: unique over the reversed list keeps each one's last
        uniq, first = np.unique(keys[::-1], return_index=True)
        self.keys, self.values = uniq, values[::-1][first]

    def _part(self, prefix, attrs):
        given = [(s, attrs[f"{prefix}_{s}"]) for s in (*_LISTS, "tensor")
                 if attrs[f"{prefix}_{s}"] is not None]
        if len(given) != 1:
            raise self.fail(f"exactly one {prefix}_* attribute, not {len(given)}")
        kind, data = given[0]
        if kind == "tensor":
            if np.ndim(data) != 1:
                raise self.fail(f"{prefix}_tensor must be 1-D, not {list(np.shape(data))}")
            return np.asarray(data)
        return np.array(data, dtype=_LISTS[kind])

    def _default(self, attrs):
        out = self.out_type
        if attrs["default_tensor"] is not None and attrs["values_tensor"] is not None:
            d = np.asarray(attrs["default_tensor"])
            if d.size != 1 or d.dtype != out:
                raise self.fail(f"default_tensor must be one {out} element, not {d.dtype} "
                                f"{list(d.shape)}")
            return d.reshape(-1)[0]
        if out.kind == "O":
            return attrs["default_string"]
        if out.kind == "f":
            return out.type(attrs["default_float"])
        return out.type(attrs["default_int64"] if attrs["values_tensor"] is None else -1)

    def run(self, x, classes_strings, default_int64, default_string, **_):
        if self.keys is None:
            return self._v1(x, classes_strings, default_int64, default_string)
        if x.dtype != self.key_type:
            raise self.fail(f"X of {x.dtype}, keys of {self.key_type}: they must agree")
        flat = x.reshape(-1)
        if len(self.keys):
            pos = np.minimum(np.searchsorted(self.keys, flat), len(self.keys) - 1)
            found = self.keys[pos] == flat
            out = np.where(found, self.values[pos], self.default)
        else:
            out = np.full(flat.shape, self.default, dtype=self.out_type)
        if self.nan_value is not None:
            out = np.where(flat != flat, self.nan_value, out)
        return out.astype(self.out_type).reshape(x.shape)

    def _v1(self, x, classes, default_int64, default_string):
        classes = np.array(classes, dtype=object)
        if x.dtype.kind in "OUS":  # strings -> their positions
            out = np.full(x.shape, default_int64, np.int64)
            for k, c in enumerate(classes):
                out[x == c] = k
            return out
        if x.dtype != np.int64:
            raise self.fail(f"X must be strings or int64, not {x.dtype}")
        ok = (x >= 0) & (x < len(classes))
        return np.where(ok, classes[np.where(ok, x, 0)] if len(classes) else default_string,
                        default_string).astype(object)
