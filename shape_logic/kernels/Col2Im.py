"""Col2Im: the column blocks of x [n, c * prod(block), L] summed back into images
[n, c, *image_shape]: column (c, tap) at block position l adds to the pixel that tap of
the block at l covers (strides, dilations, pads as a convolution's). One scatter-add per
tap over every block position at once."""
import numpy as np

from .base import Kernel


class Col2Im(Kernel):
    attrs = {"dilations": None, "pads": None, "strides": None}
    n_inputs = (3, 3)

    def run(self, x, image_shape, block_shape, dilations, pads, strides):
        image, block = self.ints(image_shape), self.ints(block_shape)
        r = len(image)
        dil, st = dilations or [1] * r, strides or [1] * r
        pads = pads or [0] * (2 * r)
        if len(block) != r or x.ndim != 3 or min(block, default=1) <= 0:
            raise self.fail(f"image {image}, block {block} and x {list(x.shape)} do not fit")
        taps = int(np.prod(block))
        counts = [(image[i] + pads[i] + pads[i + r] - dil[i] * (block[i] - 1) - 1) // st[i] + 1
                  for i in range(r)]
        if x.shape[1] % taps or x.shape[2] != int(np.prod(counts)) or min(counts) < 1:
            raise self.fail(f"x {list(x.shape)} is not [n, c * {taps}, {int(np.prod(counts))}] "
                            f"for image {image}, block {block}")
        n, c = x.shape[0], x.shape[1] // taps
        cols = x.reshape((n, c, taps) + tuple(counts))
        y = np.zeros((n, c) + tuple(image), dtype=x.dtype)
        grids = np.meshgrid(*[np.arange(k) for k in counts], indexing="ij")
        for t, tap in enumerate(np.ndindex(*block)):
            pos = [g * st[i] - pads[i] + tap[i] * dil[i] for i, g in enumerate(grids)]
            inside = np.logical_and.reduce([(p >= 0) & (p < image[i]) for i, p in enumerate(pos)])
            where = tuple(p[inside] for p in pos)
            np.add.at(y, (slice(None), slice(None)) + where, cols[:, :, t][..., inside])
        return y
