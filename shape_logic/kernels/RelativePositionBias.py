"""RelativePositionBias (com.microsoft, T5's binned relative position bias; onnxruntime runs it
on CUDA only): y[0, h, i, j] = table[bucket(j - i), h] for query positions i and key
positions j. The bucket of a distance d: with is_bidirectional, half the buckets for d > 0
and |d| counted in the other half; else max(-d, 0); below half the buckets n, exact; from
there logarithmic up to max_distance, min(n - 1, n/2 + trunc(log(d / (n/2)) /
log(max_distance / (n/2)) * (n - n/2))) in float32, as onnxruntime's kernel. The table's
data is head-major: its shape says [buckets, heads], its elements run [heads, buckets]
(the transformer optimizer stores T5's embedding transposed; onnxruntime's "COL-major")."""
import numpy as np

from .base import REQUIRED, Kernel


class RelativePositionBias(Kernel):
    domains = ("com.microsoft",)
    attrs = {"max_distance": REQUIRED, "is_bidirectional": 0}
    n_inputs = (3, 3)

    def run(self, table, query_length, key_length, *, max_distance, is_bidirectional):
        if table.ndim != 2:
            raise self.fail(f"bias_table must be 2-D, got {list(table.shape)}")
        q, k = (int(np.asarray(v).reshape(-1)[0]) for v in (query_length, key_length))
        if q != k:
            raise self.fail(f"takes a query length equal to the key length, not {q} and {k}")
        if q < 0:
            raise self.fail(f"a length must not be negative: {q}")
        buckets, heads = table.shape
        rel = np.arange(k)[None, :] - np.arange(q)[:, None]  # key position - query position
        n, bucket = buckets, np.zeros((q, k), np.int64)
        if is_bidirectional:
            n //= 2
            bucket += np.where(rel > 0, n, 0)
            rel = np.abs(rel)
        else:
            rel = np.where(rel > 0, 0, -rel)
        exact = n // 2
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = np.log(rel.astype(np.float32) / np.float32(exact)) / \
                np.log(np.float32(max_distance) / np.float32(exact))
            steps = ratio * np.float32(n - exact)
        # (rel < exact takes the exact bucket, where the log is -inf; a max_distance no
        # larger than n/2 divides by log(1) = 0 or less: the last bucket)
        steps = np.clip(np.nan_to_num(steps, nan=n, posinf=n, neginf=0), 0, n)
        far = exact + steps.astype(np.int64)
        bucket += np.where(rel < exact, rel, np.minimum(far, n - 1))
        flat = table.reshape(-1)  # (head-major: element h * buckets + b)
        y = flat[np.arange(heads)[:, None, None] * buckets + bucket[None]]
        return y[None].astype(table.dtype)
