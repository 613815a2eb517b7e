"""The board as SVG text: ``render_svg(game, last_action)`` (pure string building).

The picture is that of ``hon_env.views.raster.render_rgb`` (both draw ``views.scene``):
the hex map with figures and tokens, the spaces the pending decision can pick outlined in
gold, the scheme panels, the villain, issue, heroes, the pending decision and the last
action. ``svg_layers`` splits it into the part that never changes during a game and the
part that does, so a replay viewer stores the first once.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from hon_env.views.scene import HEIGHT, WIDTH, Prim, dynamic_layer, static_layer

if TYPE_CHECKING:
    from hon_env.game import Game

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    out = f' fill="{fill}"' if fill else ' fill="none"'
    if stroke and width:
        out += f' stroke="{stroke}" stroke-width="{width:g}"'
    return out


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def primitives_to_svg(prims: list[Prim]) -> str:
    """SVG elements (no ``<svg>`` wrapper) for scene primitives."""
    parts = []
    for p in prims:
        kind = p[0]
        if kind == "poly":
            pts = p[1]
            coords = " ".join(f"{_n(pts[i])},{_n(pts[i + 1])}" for i in range(0, len(pts), 2))
            parts.append(f'<polygon points="{coords}"{_paint(p[2], p[3], p[4])}/>')
        elif kind == "circle":
            parts.append(f'<circle cx="{_n(p[1])}" cy="{_n(p[2])}" r="{_n(p[3])}"'
                         f'{_paint(p[4], p[5], p[6])}/>')
        elif kind == "rect":
            parts.append(f'<rect x="{_n(p[1])}" y="{_n(p[2])}" width="{_n(p[3])}" '
                         f'height="{_n(p[4])}"{_paint(p[5], p[6], p[7])}/>')
        elif kind == "text":
            _, x, y, text, size, fill, bold, anchor = p
            weight = ' font-weight="bold"' if bold else ""
            parts.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" fill="{fill}"'
                         f'{weight} text-anchor="{anchor}" dominant-baseline="central">'
                         f"{escape(text, quote=False)}</text>")
        else:
            raise ValueError(f"unknown scene primitive {kind!r}")
    return "".join(parts)


def svg_layers(game: Game, last_action: str | None = None) -> tuple[str, str]:
    """``(static, dynamic)`` SVG fragments of ``game`` (see the module documentation)."""
    return (primitives_to_svg(static_layer(game.scenario)),
            primitives_to_svg(dynamic_layer(game, last_action)))


def wrap_svg(body: str) -> str:
    """A standalone ``<svg>`` document around SVG elements of the board's canvas."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}" font-family="{FONT}">{body}</svg>')


def render_svg(game: Game, last_action: str | None = None) -> str:
    """The board of ``game`` as a standalone SVG document (a string)."""
    static, dynamic = svg_layers(game, last_action)
    return wrap_svg(static + dynamic)
