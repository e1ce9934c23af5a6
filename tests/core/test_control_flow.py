"""Scan with bodies as functions or graph objects (Axon §7.2, §7.3)."""
import json
from pathlib import Path

import numpy as np

import shape_logic

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_rnn_cell_scanned():
    # Axon §7.2: X [s, b, 8], state [b, 16]: hT [b, 16], Y [s, b, 16]
    sol = shape_logic.solve(str(EXAMPLES / "axon_rnn_scan.json"))
    assert (sol.shape("hT"), sol.shape("Y")) == ("[b, 16]", "[s, b, 16]")
    assert (sol.shape("rnn/x"), sol.shape("rnn/h")) == ("[b, 8]", "[b, 16]")


def test_rnn_scan_runs_as_the_recurrence():
    g = json.loads((EXAMPLES / "axon_rnn_scan.json").read_text())
    cell = g["functions"]["cell"]["initializers"]
    w, r = (np.array(cell[k]["data"], np.float32) for k in ("W", "R"))
    x = np.random.default_rng(0).random((4, 3, 8), dtype=np.float32)
    out = shape_logic.run(g, {"X": x, "h0": np.zeros((3, 16), np.float32)})
    h, ys = np.zeros((3, 16), np.float32), []
    for t in range(4):
        h = np.tanh(x[t] @ w + h @ r)
        ys.append(h)
    np.testing.assert_allclose(out["Y"], np.stack(ys), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["hT"], h, rtol=1e-5, atol=1e-6)


def test_bidirectional_and_residual_rnns():
    # Axon §7.3: Y = concat(forward, reversed backward) [s, b, 32]; residual layers keep X
    sol = shape_logic.solve(str(EXAMPLES / "axon_rnn_bidir_residual.json"))
    assert sol.shape("Y") == "[s, b, 32]"
    assert sol.shape("X1") == sol.shape("X2") == "[s, b, 8]"
    assert sol.shape("res2/loop/x") == "[b, 8]"


def test_scan_body_with_a_wrong_state_is_an_error():
    g = json.loads((EXAMPLES / "axon_rnn_scan.json").read_text())
    g["inputs"]["h0"]["shape"] = "[b, 15]"
    assert shape_logic.solve(g).status == "error"
