"""`shape-logic show`: every edge carries its tensor's shape, the core of a broken graph is
highlighted with its diagnostic, the HTML is one file with nothing fetched."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


from shape_logic.layout import layered_layout
from shape_logic.picture import picture
from shape_logic.show import draw
from shape_logic.solver import solve

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
BROKEN = ROOT / "tests/diagnostics/cases/conv_chain_channels.json"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "shape_logic.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def drawn_edges(sol):
    """(tensor, consumer box) for every input of every node and every graph output."""
    g = sol.graph
    out = [(t, f"node:{n.index}") for n in g.nodes for t in n.inputs if t]
    return out + [(t, f"output:{t}") for t in g.outputs]


def test_svg_labels_every_edge_with_its_shape():
    sol = solve(ROOT / "examples/resnet_block.json")
    root = ET.fromstring(draw(sol, "svg"))
    labels = [t for t in root.iter(f"{SVG}text") if "shape" in t.get("class", "").split()]
    assert len(labels) == len(drawn_edges(sol)) > 8
    for t in labels:
        assert t.text == sol.shape(t.get("data-tensor"))
    assert "[n, 128, (h + 1)//2, (w + 1)//2]" in {t.text for t in labels}
    # symbols are listed
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "symbols: h, n, w" in texts


def test_dot_labels_every_edge_with_its_shape():
    sol = solve(ROOT / "examples/resnet_block.json")
    dot = draw(sol, "dot")
    edges = re.findall(r'^  "([^"]+)" -> "([^"]+)" \[label="([^"]*)", tooltip="([^"]*)"',
                       dot, re.M)
    assert sorted((t, dst) for _, dst, _, t in edges) == sorted(drawn_edges(sol))
    for _, _, label, t in edges:
        assert label == sol.shape(t)
    assert dot.startswith('digraph "resnet_block" {') and dot.rstrip().endswith("}")


def test_broken_graph_highlights_the_core_beside_its_diagnostic():
    sol = solve(BROKEN)
    assert sol.status == "error"
    core = {c["name"] for d in sol.diagnostics for c in d.core}
    root = ET.fromstring(draw(sol, "svg"))
    highlighted = set()
    for g in root.iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if "box" in classes and "core" in classes:
            highlighted.add(g.find(f"{SVG}text[@class='sub']").text
                            if "node" in classes else g.find(f"{SVG}text").text)
    assert core <= highlighted
    assert {"c1", "act", "c2", "w1", "w2"} <= highlighted and "x" not in highlighted
    red_edges = [p for p in root.iter(f"{SVG}path") if p.get("class") == "edge core"]
    assert red_edges
    diag = [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "diag"
            for t in g.iter(f"{SVG}text")]
    assert diag[0] == f"error[{sol.diagnostics[0].code}]: {sol.diagnostics[0].message}"
    dot = draw(sol, "dot")
    assert 'shape=note, color="#c62828"' in dot and dot.count('penwidth=2.5') >= len(core)


def test_html_is_one_offline_file_with_node_details(tmp_path):
    out = tmp_path / "g.html"
    r = cli("show", BROKEN, "-o", out)
    assert r.returncode == 1 and "highlighted" in r.stdout
    html = out.read_text()
    assert not re.search(r"""(src|href)\s*=|https?://(?!www\.w3\.org/2000/svg)|@import""", html)
    blob = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    data = json.loads(blob.group(1))
    c2 = next(d for d in data["boxes"].values() if d.get("name") == "c2")
    assert c2["op"] == "Conv" and c2["rule_file"] == "rules/Conv.lp"
    assert [i["tensor"] for i in c2["inputs"]] == ["a1", "w2"]
    assert c2["outputs"][0]["shape"] == solve(BROKEN).shape(c2["outputs"][0]["tensor"])


def test_show_exit_codes(tmp_path):
    assert cli("show", "examples/axon_conv.json", "-o", tmp_path / "a.svg").returncode == 0
    assert (tmp_path / "a.svg").read_text().startswith("<svg")
    r = cli("show", "examples/axon_conv.json", "-o", tmp_path / "a.png")
    assert r.returncode == 2 and "a.png" in r.stderr and "Traceback" not in r.stderr


def test_layout_layers_go_down_and_never_overlap():
    sol = solve(ROOT / "examples/resnet_block.json")
    pic = picture(sol)
    lay = pic.lay_out()
    for e in pic.edges:
        assert lay.pos[e.src][1] < lay.pos[e.dst][1]
    rows = {}
    for b in pic.boxes:
        rows.setdefault(lay.pos[b.id][1], []).append((lay.pos[b.id][0], b.size[0]))
    for row in rows.values():
        row.sort()
        for (x0, w0), (x1, w1) in zip(row, row[1:]):
            assert x0 + w0 / 2 < x1 - w1 / 2
    # a cycle does not hang the layout
    cyc = layered_layout(["a", "b"], {"a": (10, 10), "b": (10, 10)}, [("a", "b"), ("b", "a")])
    assert set(cyc.pos) == {"a", "b"}


def test_nodes_are_grouped_by_name_scope():
    g = {"name": "scoped", "inputs": {"x": {"dtype": "f32", "shape": "[b, 4]"}},
         "nodes": [{"name": "/enc/relu", "op": "Relu", "inputs": ["x"], "outputs": ["e"]},
                   {"name": "/enc/neg", "op": "Neg", "inputs": ["e"], "outputs": ["f"]},
                   {"name": "/dec/abs", "op": "Abs", "inputs": ["f"], "outputs": ["y"]}]}
    sol = solve(g)
    dot = draw(sol, "dot")
    clusters = re.findall(r'subgraph cluster_\d+ \{ label="([^"]+)";(.*?)\n  \}', dot, re.S)
    members = {label: sorted(re.findall(r'"node:(\d+)"', body)) for label, body in clusters}
    assert members == {"enc": ["0", "1"], "dec": ["2"]}
    root = ET.fromstring(draw(sol, "svg"))
    groups = [g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g") if g.get("class") == "group"]
    assert sorted(groups) == ["dec", "enc"]


def test_a_shared_constant_is_drawn_beside_each_user():
    sys.path.insert(0, str(ROOT))
    from bench.synthetic import transformer

    sol = solve(transformer(120))  # six layers: split_heads is used by 18 Reshapes
    pic = picture(sol)
    copies = [b.id for b in pic.boxes if b.kind == "initializer" and b.title == "split_heads"]
    assert len(copies) == 18
    for box_id in copies:
        assert [e.tensor for e in pic.edges if e.src == box_id] == ["split_heads"]
    # the graph input x stays one box, with all its users
    assert sum(b.title == "x" for b in pic.boxes) == 1
    # a graph input feeding many nodes (the mask, one Add per layer) is repeated, dashed
    masks = [b for b in pic.boxes if b.title == "mask"]
    assert len(masks) == 6 and [b.repeat for b in masks] == [False] + [True] * 5
    assert all(len([e for e in pic.edges if e.src == b.id]) == 1 for b in masks)
