"""What the tests of ai.onnx.preview.training's optimizers (Adagrad, Adam, Momentum)
share: node specs for data cases, and the property test against onnx's reference."""
import numpy as np

from shape_logic.kernels import node_kernel
from shape_logic.testing import check_against_reference, random_array, reference_outputs

TRAINING = "ai.onnx.preview.training"
SCALARS = [("f32", "[]"), ("i64", "[]")]  # R and T as runtime scalars


def spec(groups, n_outputs, scalars=SCALARS, **attrs):
    """A node over R, T and the tensors of `groups` (a list per role: [X_1..X_n], [G_1..])."""
    inputs = list(scalars) + [t for role in groups for t in role]
    return {"inputs": inputs, "attrs": attrs, "n_outputs": n_outputs, "domain": TRAINING}


def check_step(op, n_roles, n_results, attrs, shapes, dtype, t, broken, rng):
    """The rule's shapes and types are the reference's (which must reject a G whose shape
    does not broadcast with X's, as the rule does), and our kernel's values are too."""
    n = len(shapes)
    groups = [[random_array(s, dtype, rng) for s in shapes] for _ in range(n_roles)]
    if broken:  # G_1 one longer on a last axis of at least 2: no broadcast
        s = list(shapes[0])
        if not s or s[-1] < 2:
            return
        groups[1][0] = random_array(s[:-1] + [s[-1] + 1], dtype, rng)
    # (the states, as H, a sum of squares, are not negative)
    groups[2:] = [[np.abs(a) for a in role] for role in groups[2:]]
    arrays = [np.array(0.1, dtype=np.dtype(groups[0][0].dtype)), np.array(t, np.int64)]
    arrays += [a for role in groups for a in role]
    check_against_reference(op, arrays, attrs, n_outputs=n_results * n, domain=TRAINING)
    if broken:
        return
    want = reference_outputs(op, arrays, attrs, n_outputs=n_results * n, domain=TRAINING)
    got = node_kernel(op, TRAINING, attrs, 18, n_results * n)(*arrays)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-5,
                                   atol=1e-6)
