"""BitwiseXor: bitwise xor of two integer tensors (broadcasting)."""
import numpy as np

from .families import Binary


class BitwiseXor(Binary):
    fn = np.bitwise_xor

    def run(self, a, b):
        if a.dtype.kind not in "iu" or b.dtype != a.dtype:
            raise self.fail(f"needs two integer inputs of one type, got {a.dtype} and {b.dtype}")
        return super().run(a, b)
