"""TensorScatter (opset 24): a KV-cache update. A copy of past_cache with each batch entry's
update written along `axis` from its write index (0 without write_indices), wrapping
around the cache in "circular" mode.

The positions [B, sequence_length] are worked out at once and the update is written with
one fancy-indexed assignment through a view that brings `axis` next to the batch axis.
A negative write index counts as the spec's pseudocode (Python indexing) and onnx's
reference count it: from the end in linear mode, modulo max_sequence_length in circular
mode; onnxruntime rejects negative write indices.
"""
import numpy as np

from .base import Kernel


class TensorScatter(Kernel):
    attrs = {"axis": -2, "mode": "linear"}
    n_inputs = (2, 3)
    widens_small_floats = False  # a copy and a write: bfloat16, float8... as they are

    def run(self, past, update, write_indices=None, *, axis=-2, mode="linear"):
        if mode not in ("linear", "circular"):
            raise self.fail(f"mode must be 'linear' or 'circular', got {mode!r}")
        if past.ndim != update.ndim:
            raise self.fail(f"update {list(update.shape)} and past_cache {list(past.shape)} "
                            "differ in rank")
        axis = self.axis(axis, past.ndim)
        if axis == 0:
            raise self.fail("axis cannot be 0, the batch axis")
        other = [i for i in range(past.ndim) if i != axis]
        if any(past.shape[i] != update.shape[i] for i in other) \
                or update.shape[axis] > past.shape[axis]:
            raise self.fail(f"update {list(update.shape)} does not fit past_cache "
                            f"{list(past.shape)} along axis {axis}")
        batch, longest, length = past.shape[0], past.shape[axis], update.shape[axis]
        if write_indices is None:
            start = np.zeros(batch, np.int64)
        else:
            start = np.asarray(write_indices).astype(np.int64)
            if start.shape != (batch,):
                raise self.fail(f"write_indices {list(start.shape)} must be [{batch}], one "
                                "per batch entry")
        # linear mode: the spec requires write index + sequence_length <= max_sequence_length
        # (onnx's reference checks it only by writing: not for an empty update)
        if mode == "linear" and batch and (start.max() + length > longest
                                           or start.min() < -longest):
            raise self.fail(f"write_indices {start.tolist()} + sequence_length {length} run "
                            f"past max_sequence_length {longest} (linear mode)")
        present = past.copy()
        if length == 0 or batch == 0:
            return present
        positions = (start[:, None] + np.arange(length)) % longest  # [B, sequence_length]
        # [B, max_sequence_length, the other axes] <- [B, sequence_length, the other axes]
        np.moveaxis(present, axis, 1)[np.arange(batch)[:, None], positions] = \
            np.moveaxis(update, axis, 1)
        return present
