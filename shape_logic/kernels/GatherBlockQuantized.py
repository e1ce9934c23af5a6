"""GatherBlockQuantized (com.microsoft): Gather of a block-quantized table (an embedding),
dequantized: output = (q - zero_point) * scale, where each scale and zero point covers
block_size steps of quantize_axis (block_size 0: the whole axis, for float8/float4 data).

data is int4 or uint4 (zero points of its type, by default 0), uint8 (`bits` 2, 4 or 8 to a
byte along the last axis, low bits first; zero points packed alike, by default 2^(bits - 1);
gather_axis 0) or a float8/float4 type (no zero points; a scale axis other than
quantize_axis may be 1, broadcast). scales has data's rank and the output's type. An index
in [-s, s) picks a slice of the gather axis (negative ones from the end); one outside gives
zeros, as onnxruntime does. Only the gathered slices are dequantized."""
import numpy as np

from .base import Kernel
from .packed_bits import unpack_bits

FLOAT_DATA = {"float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
              "float4_e2m1fn"}


class GatherBlockQuantized(Kernel):
    domains = ("com.microsoft",)
    attrs = {"bits": 4, "block_size": 128, "quantize_axis": 1, "gather_axis": 0}
    n_inputs = (3, 4)
    small_float_from = 2  # float8/float4 data are read as float32; bfloat16 scales come back

    def run(self, data, indices, scales, zero_points=None, *, bits, block_size, quantize_axis,
            gather_axis):
        kind = self._kind(data, bits)
        r = data.ndim
        if r < 2:
            raise self.fail(f"data of rank {r}: it needs 2 axes or more")
        ga, qa = self.axis(gather_axis, r), self.axis(quantize_axis, r)
        if kind == "uint8" and (ga != 0 or (bits < 8 and ga == qa)):
            raise self.fail(f"uint8 data is gathered on axis 0 (not {ga}), not the quantized "
                            f"one ({qa}) when packed")
        if not (block_size >= 16 and block_size & (block_size - 1) == 0
                or block_size == 0 and kind == "float"):
            raise self.fail(f"block_size = {block_size} is not a power of two >= 16 (or 0, "
                            "for float8/float4 data)")
        if kind == "float" and zero_points is not None:
            raise self.fail("float8/float4 data take no zero points")
        shape = data.shape[:-1] + (data.shape[-1] * (8 // bits if kind == "uint8" else 1),)
        block = block_size or shape[qa]
        self._check_scales(scales, shape, qa, block, kind == "float")
        size = shape[ga]
        idx = np.asarray(indices).astype(np.int64)
        inside = (idx >= -size) & (idx < size)
        picked = np.where(inside, np.where(idx < 0, idx + size, idx), 0)
        q = self._values(np.take(data, picked, axis=ga), kind, bits, shape[-1])
        scale = self._spread(scales, picked, ga, qa, block, shape[qa])
        if zero_points is not None:
            zero = self._zeros(zero_points, scales.shape, kind, bits)
            zero = self._spread(zero, picked, ga, qa, block, shape[qa])
        else:
            zero = 2.0 ** (bits - 1) if kind == "uint8" else 0.0
        y = (q - zero) * scale.astype(np.float32)
        at = (1,) * ga + idx.shape + (1,) * (r - ga - 1)
        return np.where(inside.reshape(at), y, 0).astype(scales.dtype)

    def _kind(self, data, bits) -> str:
        name = data.dtype.name
        if name in ("int4", "uint4"):
            if bits != 4:
                raise self.fail(f"bits = {bits}: int4 and uint4 data are 4 bits")
            return "int4"
        if data.dtype == np.uint8:
            if bits not in (2, 4, 8):
                raise self.fail(f"bits = {bits}: uint8 data hold 2, 4 or 8 bits a value")
            return "uint8"
        if data.dtype == np.float32:  # float8/float4 data, widened by the base class
            return "float"
        raise self.fail(f"data of type {name} (int4, uint4, uint8, float8 or float4)")

    def _check_scales(self, scales, shape, qa, block, broadcast):
        want = tuple(-(-d // block) if i == qa else d for i, d in enumerate(shape))
        ok = scales.ndim == len(shape) and all(
            s == w or (broadcast and s == 1 and i != qa)
            for i, (s, w) in enumerate(zip(scales.shape, want)))
        if not ok:
            raise self.fail(f"scales of shape {list(scales.shape)} do not fit data unpacked to "
                            f"{list(shape)}: blocks of {block} on axis {qa} need {list(want)}")

    def _zeros(self, zero_points, scales_shape, kind, bits) -> np.ndarray:
        """The zero points unpacked, of the scales' shape."""
        if kind == "uint8":
            per_block = unpack_bits(zero_points, bits)
            cols = scales_shape[-1]
            if per_block.shape[:-1] != scales_shape[:-1] or per_block.shape[-1] < cols \
                    or zero_points.shape[-1] != -(-cols * bits // 8):
                raise self.fail(f"zero_points of shape {list(zero_points.shape)} are not the "
                                f"scales' {list(scales_shape)} packed {8 // bits} to a byte")
            return per_block[..., :cols].astype(np.float32)
        if zero_points.shape != scales_shape or zero_points.dtype.name not in ("int4", "uint4"):
            raise self.fail(f"zero_points ({zero_points.dtype.name} {list(zero_points.shape)}) "
                            f"are not of the data's type and the scales' shape")
        return zero_points.astype(np.float32)

    @staticmethod
    def _values(picked, kind, bits, last) -> np.ndarray:
        if kind == "uint8":
            return unpack_bits(picked, bits)[..., :last].astype(np.float32)
        return picked.astype(np.float32)

    @staticmethod
    def _spread(per_block, picked, ga, qa, block, length) -> np.ndarray:
        """A per-block tensor (scales, zero points) at the gathered positions: taken along the
        gather axis (by block when it is the quantized one; as it is where its size is 1),
        then each block repeated over its steps of the quantized axis."""
        if ga == qa:
            return np.take(per_block, picked // block, axis=ga)
        if per_block.shape[ga] != 1:
            per_block = np.take(per_block, picked, axis=ga)
        elif picked.ndim == 0:  # broadcast along the gather axis, which a scalar index drops
            per_block = np.squeeze(per_block, axis=ga)
        else:
            per_block = np.expand_dims(per_block, tuple(range(ga + 1, ga + picked.ndim)))
        axis = qa + picked.ndim - 1 if qa > ga else qa
        return np.repeat(per_block, block, axis=axis).take(np.arange(length), axis=axis)
