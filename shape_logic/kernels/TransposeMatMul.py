"""TransposeMatMul (com.microsoft): onnxruntime's older name for FusedMatMul without
transBatchA and transBatchB: alpha * matmul(A', B'), transA and transB swapping the last two
axes of their operand (a vector is as it is)."""
from .FusedMatMul import FusedMatMul


class TransposeMatMul(FusedMatMul):
    attrs = {"alpha": 1.0, "transA": 0, "transB": 0}

    def run(self, a, b, *, alpha, transA, transB):
        return super().run(a, b, alpha=alpha, transA=transA, transB=transB, transBatchA=0,
                           transBatchB=0)
