"""DynamicTimeWarping (com.microsoft): the least-cost path through a cost matrix [M, N]
(float32, or [1, M, N]) as onnxruntime's CPU kernel finds it: float32 sums, ties resolved
as its strict comparisons do (diagonal, then up, else left), and a trace-back from
(M - 1, N - 1) that stops at the matrix's edge (with finite costs: at (0, 0)). The path
[2, L] (int32): its rows, then its columns, from the start."""
import numpy as np

from .base import Kernel


class DynamicTimeWarping(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (1, 1)

    def run(self, x):
        if x.dtype != np.float32:
            raise self.fail(f"takes float32 costs, not {x.dtype}")
        if not (x.ndim == 2 or (x.ndim == 3 and x.shape[0] == 1)):
            raise self.fail(f"takes a matrix or [1, M, N], not shape {list(x.shape)}")
        costs = x.reshape(x.shape[-2:])
        rows, cols = costs.shape
        inf = np.float32(np.inf)
        cost = np.full((rows + 1, cols + 1), inf, np.float32)
        trace = np.full((rows + 1, cols + 1), -1, np.int8)
        cost[0, 0] = 0
        for j in range(1, cols + 1):
            for i in range(1, rows + 1):
                c0, c1, c2 = cost[i - 1, j - 1], cost[i - 1, j], cost[i, j - 1]
                if c0 < c1 and c0 < c2:
                    cost[i, j], trace[i, j] = c0, 0
                elif c1 < c0 and c1 < c2:
                    cost[i, j], trace[i, j] = c1, 1
                else:
                    cost[i, j], trace[i, j] = c2, 2
                cost[i, j] = np.float32(cost[i, j] + costs[i - 1, j - 1])
        path = []
        i, j = rows, cols
        while i > 0 and j > 0:
            path.append((i - 1, j - 1))
            step = trace[i, j]
            i, j = (i - 1, j - 1) if step == 0 else (i - 1, j) if step == 1 else (i, j - 1)
        return np.array(path[::-1], np.int32).reshape(-1, 2).T.copy()
