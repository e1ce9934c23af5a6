"""`shape-logic show GRAPH -o PICTURE.html|.svg|.dot`: the solved graph as a picture."""
from __future__ import annotations

from pathlib import Path

from .errors import InputError

FORMATS = {".html": "html", ".htm": "html", ".svg": "svg", ".dot": "dot", ".gv": "dot"}


def add_show_parser(sub) -> None:
    s = sub.add_parser("show", help="draw the graph with the shape on every edge "
                                    "(.html to browse, .svg, .dot)")
    s.add_argument("graph")
    s.add_argument("-o", "--output", required=True, metavar="PICTURE.html|.svg|.dot")
    s.add_argument("--rules", action="append", default=[], metavar="DIR")


def cmd_show(args) -> int:
    """Exit 0 drawn; 1 drawn, and the graph has a shape error (the core is highlighted)."""
    fmt = FORMATS.get(Path(args.output).suffix.lower())
    if fmt is None:
        raise InputError("the picture must be a .html, .svg or .dot file", args.output)
    from .solver import solve

    sol = solve(args.graph, rules=args.rules)
    text = draw(sol, fmt, args.rules)
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write the picture: {e.strerror or e}", args.output)
    status = "ok" if sol.status == "ok" else f"{len(sol.diagnostics)} shape error(s) highlighted"
    print(f"wrote {args.output} ({len(sol.graph.nodes)} nodes, {status})")
    return 0 if sol.status == "ok" else 1


def draw(sol, fmt: str, rules=()) -> str:
    """The picture of a solution as "html", "svg" or "dot" text."""
    from .picture import picture
    from .progress import phase

    with phase("layout"):
        pic = picture(sol, rules)
        pic.lay_out()
    with phase("draw"):
        if fmt == "html":
            from .render_html import render_html

            return render_html(pic)
        if fmt == "svg":
            from .render_svg import render_svg

            return render_svg(pic)
        from .render_dot import render_dot

        return render_dot(pic)
