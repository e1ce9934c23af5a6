"""AffineGrid: the sampling grid of a batch of affine maps theta ([N, 2, 3] or [N, 3, 4])
over an image of `size` ([N, C, H, W] or [N, C, D, H, W]): each output position's
normalized coordinates (x, y[, z], 1) times theta's transpose, as GridSample reads them."""
import numpy as np

from .base import Kernel


class AffineGrid(Kernel):
    n_inputs = (2, 2)
    attrs = {"align_corners": 0}

    def run(self, theta, size, align_corners):
        size = [int(v) for v in np.asarray(size).reshape(-1)]
        if len(size) not in (4, 5):
            raise self.fail(f"size has {len(size)} values, not 4 or 5")
        spatial = size[2:]  # H, W or D, H, W
        k = len(spatial)
        if theta.ndim != 3 or theta.shape[1:] != (k, k + 1) or theta.shape[0] != size[0]:
            raise self.fail(f"theta {list(theta.shape)} does not fit size {size}")
        # the coordinates along each axis, in [-1, 1]: the pixels' centers, or (aligned)
        # the corner pixels' centers at -1 and 1
        axes = [_normalized(n, align_corners) for n in spatial]
        mesh = np.meshgrid(*axes, indexing="ij")  # D, H, W order
        # (x, y, z) is (W, H, D): the coordinates in reverse order, then 1
        base = np.stack([m.reshape(-1) for m in reversed(mesh)] +
                        [np.ones(int(np.prod(spatial)))], axis=-1)
        grid = np.einsum("pk,njk->npj", base, theta.astype(np.float64))
        return grid.reshape([size[0]] + spatial + [k]).astype(theta.dtype)


def _normalized(n: int, align_corners: int) -> np.ndarray:
    if align_corners:  # (one pixel: -1, as onnx's reference and torch.linspace give)
        return np.linspace(-1.0, 1.0, n)
    return (np.arange(n) * 2.0 + 1.0) / n - 1.0
