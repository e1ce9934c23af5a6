"""Lineage (`shape-logic why`): what a shape or one axis depends on, from the solve's
ground rules."""
import json
from pathlib import Path

import pytest

from shape_logic import solve
from shape_logic.analyses.lineage import lineage
from shape_logic.cli import main

AXON = "examples/axon_conv.json"
MLP = "examples/mlp.json"


def two_branches(p_shape="[a, 3]"):
    return {"inputs": {"p": {"dtype": "f32", "shape": p_shape},
                       "q": {"dtype": "f32", "shape": "[b, 5]"}},
            "nodes": [{"name": "ra", "op": "Relu", "inputs": ["p"], "outputs": ["pa"]},
                      {"name": "rb", "op": "Relu", "inputs": ["q"], "outputs": ["qb"]},
                      {"name": "ta", "op": "Transpose", "inputs": ["pa"], "outputs": ["pt"]}]}


def test_backward_inference_depends_on_the_annotation():
    lin = lineage(AXON, "x", 2)  # x's h is solved backward from y : [.., 1024, ..]
    assert lin.declarations == {"inputs.f": ["dims", "rank"], "inputs.x": ["dims", "rank"],
                                "outputs.y": ["dims", "rank"]}
    assert lin.nodes == [("conv", "Conv")]
    assert ("y", 2) in lin.axes and ("f", 2) in lin.axes
    assert ("x", 0) not in lin.axes and ("y", 3) not in lin.axes  # other axes: unrelated
    assert lin.bindings == ["h"]


def test_an_axis_depends_on_what_links_it_only():
    lin = lineage(MLP, "h1", 1)  # [batch, 256]: 256 is w1's second axis
    assert "dims" in lin.declarations["initializers.w1"]
    assert lin.declarations["inputs.x"] == ["rank"]  # x's dims play no part
    assert ("w1", 1) in lin.axes and ("x", 0) not in lin.axes
    # sound: changing what is not listed (x's dims) leaves the axis as it was
    d = json.load(open(MLP))
    d["inputs"]["x"]["shape"] = "[n, 784]"
    assert solve(d).dims("h1")[1].value == 256


def test_independent_branches_do_not_leak():
    lin = lineage(two_branches(), "pt")
    assert set(lin.declarations) == {"inputs.p"}
    assert [n for n, _ in lin.nodes] == ["ra", "ta"]
    assert {t for t, _ in lin.axes} == {"p", "pa", "pt"}
    lin = lineage(two_branches(), "pt", 0)  # Transpose: pt[0] is p's axis 1
    assert ("p", 1) in lin.axes and ("p", 0) not in lin.axes


def test_pydatalog_and_clingo_reach_the_same():
    for tensor, axis in (("y", 2), ("x", None)):
        assert lineage(AXON, tensor, axis) == lineage(AXON, tensor, axis, engine="pydatalog")


def test_cli_text_and_json(capsys):
    assert main(["why", AXON, "y", "-2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("y[2] (of y : [4, 8, 1024, 256]) depends on:")
    assert 'Conv "conv"' in text and "x[2]" in text
    assert main(["why", AXON, "y", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shape"] == "[4, 8, 1024, 256]" and out["axis"] is None
    assert sorted(out["bindings"]) == ["h", "n", "w"]


def test_cli_text_cuts_long_lists_and_all_gives_them_whole(capsys):
    block = str(Path(AXON).parent / "resnet_block.json")
    assert main(["why", block, "y", "--format", "json"]) == 0
    axes = json.loads(capsys.readouterr().out)["axes"]
    assert len(axes) > 20
    assert main(["why", block, "y"]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("  linked axes:"))
    assert line.endswith(f"{', '.join(axes[:20])} ... and {len(axes) - 20} more")
    assert "(--all or --format json lists every one)" in text
    assert main(["why", block, "y", "--all"]) == 0
    text = capsys.readouterr().out
    assert f"  linked axes:  {', '.join(axes)}\n" in text and "more" not in text


def test_cli_gives_up_a_lineage_that_runs_away(tmp_path, capsys):
    # with every source an assumption the arithmetic has no bindings to work with; on this
    # graph of a Loop and three Scans (a fuzz regression) it ran 250 s into 5.7 GB until
    # killed: now it stops at a multiple of the graph's own solve, with one line (exit 3)
    case = Path(__file__).parents[1] / "reliability" / "fuzz_regressions" / \
        "loop_supposition_counted_while_grounding.json"
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps(json.loads(case.read_text())["graph"]))
    assert main(["why", str(graph), "x0", "1"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "took more computation than solving the whole graph" in err[0]
    assert err[0].endswith("its shape stands: [1, s1, s2, 1]")


@pytest.mark.parametrize("argv, message", [
    (["why", AXON, "nope"], "no tensor 'nope'"),
    (["why", AXON, "y", "4"], "axis 4 is out of range"),
    (["why", AXON, "y", "one"], "axis 'one' is not an integer"),
])
def test_cli_bad_requests_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
