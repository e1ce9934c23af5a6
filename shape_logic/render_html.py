"""A Picture as ONE self-contained HTML file: the SVG inline, the node details as JSON, a
little JS for pan (drag), zoom (wheel, +/-, 0 to reset) and a panel showing what a
clicked box is (op, attributes, rule file, input and output shapes); `#select=ID` in
the address selects a box on load, `#find=TEXT` finds one. No network."""
from __future__ import annotations

import json
from html import escape

from .picture import Picture, diagnostic_lines, info_lines
from .render_svg import STYLE, render_svg

PAGE_STYLE = """
html, body { margin: 0; height: 100%; font: 13px sans-serif; }
#view { position: absolute; left: 0; top: 0; right: 360px; bottom: 0; overflow: hidden;
        background: #fff; cursor: grab; }
#view.dragging { cursor: grabbing; }
#panel { position: absolute; right: 0; top: 0; width: 344px; bottom: 0; overflow: auto;
         border-left: 1px solid #ccc; padding: 8px; background: #fbfbfb; }
#panel h2 { font-size: 14px; margin: 6px 0; }
#panel pre { white-space: pre-wrap; font: 12px monospace; margin: 4px 0; }
#panel .err { color: #8b1a1a; }
#panel table { border-collapse: collapse; font: 12px monospace; }
#panel td { border-top: 1px solid #e4e4e4; padding: 2px 6px 2px 0; vertical-align: top; }
"""

# pan/zoom by a transform on the SVG's scene; click -> details from the JSON blob
SCRIPT = r"""
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var view = document.getElementById('view'), svg = document.getElementById('graph');
  var scale = 1, tx = 0, ty = 0, drag = null, selected = null;
  function apply() {
    svg.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + scale + ')';
  }
  svg.style.transformOrigin = '0 0';
  view.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var r = view.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
    var f = ev.deltaY < 0 ? 1.15 : 1 / 1.15;
    tx = mx - (mx - tx) * f; ty = my - (my - ty) * f; scale *= f; apply();
  }, {passive: false});
  view.addEventListener('mousedown', function (ev) {
    drag = {x: ev.clientX, y: ev.clientY, tx: tx, ty: ty, moved: false};
    view.classList.add('dragging');
  });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    tx = drag.tx + dx; ty = drag.ty + dy; apply();
  });
  window.addEventListener('mouseup', function () {
    view.classList.remove('dragging');
    setTimeout(function () { drag = null; }, 0);  // after the click that ends a drag
  });
  window.addEventListener('keydown', function (ev) {
    if (ev.target.id === 'find') return;
    if (ev.key === '+' || ev.key === '=') scale *= 1.2;
    else if (ev.key === '-') scale /= 1.2;
    else if (ev.key === '0') { scale = 1; tx = 0; ty = 0; }
    else return;
    apply();
  });
  var ENTITIES = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return ENTITIES[c]; }); }
  function row(cells) { return '<tr><td>' + cells.map(esc).join('</td><td>') + '</td></tr>'; }
  function shapes(list) {
    return '<table>' + list.map(function (t) {
      return row([t.tensor, t.dtype, t.shape]);
    }).join('') + '</table>';
  }
  function show(id) {
    var d = data.boxes[id], html = '';
    if (d.kind === 'node') {
      html += '<h2>' + esc(d.op) + ' "' + esc(d.name) + '"</h2>';
      html += '<div>rule file: <code>' + esc(d.rule_file || 'none') + '</code></div>';
      var attrs = Object.keys(d.attributes);
      html += '<h2>attributes</h2>' + (attrs.length ? '<table>' + attrs.map(function (k) {
        return row([k, d.attributes[k]]); }).join('') + '</table>' : 'none');
      html += '<h2>inputs</h2>' + shapes(d.inputs) + '<h2>outputs</h2>' + shapes(d.outputs);
    } else {
      html += '<h2>' + esc(d.kind) + ' ' + esc(d.tensor) + '</h2>' + shapes([d]);
    }
    document.getElementById('details').innerHTML = html;
  }
  function select(g) {
    if (selected) selected.classList.remove('selected');
    selected = g; g.classList.add('selected');
    show(g.getAttribute('data-id'));
  }
  svg.addEventListener('click', function (ev) {
    if (drag && drag.moved) return;
    var g = ev.target.closest('.box');
    if (g) select(g);
  });
  // find: the next box whose op, name or tensor contains the text; centred and selected
  var found = -1;
  document.getElementById('find').addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') find(this.value);
  });
  function find(value) {
    var text = value.toLowerCase(), boxes = svg.querySelectorAll('.box');
    for (var k = 1; k <= boxes.length; k++) {
      var g = boxes[(found + k) % boxes.length];
      if (g.textContent.toLowerCase().indexOf(text) >= 0) {
        found = (found + k) % boxes.length;
        var r = g.querySelector('rect'), v = view.getBoundingClientRect();
        var x = +r.getAttribute('x') + r.getAttribute('width') / 2;
        var y = +r.getAttribute('y') + svg.querySelector('#scene').transform.baseVal[0].matrix.f;
        tx = v.width / 2 - x * scale; ty = v.height / 3 - y * scale; apply();
        select(g);
        return;
      }
    }
  }
  apply();
  // page.html#select=node:3 opens with that box selected, page.html#find=TEXT with the
  // first box containing TEXT centred and selected (links, and the browser test)
  var hash = decodeURIComponent(location.hash);
  if (hash.indexOf('#select=') === 0) {
    var want = svg.querySelector('.box[data-id="' + CSS.escape(hash.slice(8)) + '"]');
    if (want) select(want);
  } else if (hash.indexOf('#find=') === 0) {
    find(hash.slice(6));
  }
  // the page's own timing: parse + script + layout, then the first painted frame
  svg.getBoundingClientRect();
  document.body.setAttribute('data-ready-ms', performance.now().toFixed(0));
  requestAnimationFrame(function () { setTimeout(function () {
    document.body.setAttribute('data-frame-ms', performance.now().toFixed(0));
  }, 0); });
})();
"""


def render_html(pic: Picture) -> str:
    svg = render_svg(pic, standalone=False)
    data = {"boxes": {b.id: b.details for b in pic.boxes}}
    # "</" cannot end the JSON's <script> element early
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    summary = "".join(f"<pre>{escape(line)}</pre>" for line in info_lines(pic))
    diags = "".join("<pre class=\"err\">" + escape("\n".join(diagnostic_lines(d))) + "</pre>"
                    for d, _ in pic.diagnostics)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>shape-logic: {escape(pic.name)}</title>
<style>{PAGE_STYLE}{STYLE}</style></head>
<body>
<div id="view">{svg}</div>
<div id="panel"><input id="find" placeholder="find a node or tensor (Enter: next)"
 style="width: 95%">{summary}{diags}
<h2>details</h2><div id="details">click a box to see its op, attributes, rule file and shapes;
drag to pan, wheel to zoom (0 resets)</div></div>
<script type="application/json" id="data">{blob}</script>
<script>{SCRIPT}</script>
</body></html>
"""
