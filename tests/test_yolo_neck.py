"""A YOLOv8-like neck (tests/onnx_graphs.yolo_neck): each upsampled size joined to its
skip's holds at some sizes only, 2*((h + 31)//32) = (h + 15)//16 and 2*((h + 15)//16) =
(h + 7)//8 (h%32 = 0 or past 24). Those equations are what the graph requires, and the
solve takes each pair of spellings as one from then on (asp/relating.py, `_rewrite`):
before, every product of the spellings met every other at the anchors' Concat - NudeNet's
YOLOv8 left 2,129 such equations in 3.6 s and hit arithmetic's budget, and this neck
printed 12 requirements where 4 say it all. Its floor, 25, is where both equations hold
together (asp/floors.least_root_from): each alone holds from 9 and 17 on."""
import numpy as np
import onnxruntime as ort
import pytest

import shape_logic
from tests.onnx_graphs import assert_every_dim_determined, assert_runtime_shapes, yolo_neck

NECK = [
    "2*((height + 15)//16) = (height + 7)//8", "2*((height + 31)//32) = (height + 15)//16",
    "2*((width + 15)//16) = (width + 7)//8", "2*((width + 31)//32) = (width + 15)//16"]


@pytest.fixture(scope="module")
def neck():
    model = yolo_neck()
    return model, shape_logic.solve(model)


def test_the_requirements_are_the_necks_equations_alone(neck):
    model, sol = neck
    assert sorted(sol.constraints) == NECK
    assert sol.floors == {"height": 25, "width": 25}
    assert not sol.warnings  # (no budget given up)
    assert_every_dim_determined(sol)
    out = model.graph.output[0].name
    assert str(sol.shape(out)) == "[batch, 21*((height + 31)//32)*((width + 31)//32), 6]"
    # each head's anchors in its level's own spelling (symbolic/respell.py), not as the
    # multiple of the coarsest that the solve computed them in
    heads = [n.output[0] for n in model.graph.node if n.op_type == "Reshape"]
    assert [str(sol.shape(t)) for t in heads] == [
        f"[batch, 6, ((height + {k})//{k + 1})*((width + {k})//{k + 1})]" for k in (7, 15, 31)]


@pytest.mark.parametrize("h, w", [(64, 64), (57, 32), (32, 96), (25, 25)])
def test_every_shape_is_onnxruntimes_where_it_runs(neck, h, w):
    model, sol = neck
    assert sol.unmet({"batch": 2, "height": h, "width": w}) == []
    assert_runtime_shapes(model, sol, {"images": np.zeros((2, 3, h, w), np.float32)})


def test_the_requirements_hold_exactly_where_onnxruntime_runs(neck):
    """At every height from 1 to 80 (width 32): onnxruntime runs the model where nothing
    the solve requires is broken, and fails where something is."""
    model, sol = neck
    so = ort.SessionOptions()
    so.log_severity_level = 4
    session = ort.InferenceSession(model.SerializeToString(), so,
                                   providers=["CPUExecutionProvider"])
    for h in range(1, 81):
        try:
            session.run(None, {"images": np.zeros((1, 3, h, 32), np.float32)})
            runs = True
        except Exception:  # (onnxruntime's own errors: a Concat's sizes differ)
            runs = False
        assert runs == (sol.unmet({"batch": 1, "height": h, "width": 32}) == []), h
