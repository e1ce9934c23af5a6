"""CastLike: x converted to the element type of the second input (as Cast does)."""
from .base import Kernel
from .Cast import cast


class CastLike(Kernel):
    attrs = {"saturate": 1, "round_mode": "up"}
    n_inputs = (2, 2)
    widens_small_floats = False  # it converts them itself

    def run(self, x, like, saturate, round_mode, **_):
        return cast(self, x, like.dtype, saturate, round_mode)
