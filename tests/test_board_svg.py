"""The SVG board and the fast image: what they show (the pending decision, the last
action, pieces) and that they follow the game."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from hon_env import Game
from hon_env import positions as P
from hon_env.views.raster import render_rgb
from hon_env.views.scene import static_layer
from hon_env.views.svg import render_svg, svg_layers

NS = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{NS}text")]


def test_svg_is_well_formed_and_names_the_decision_and_last_action(origin):
    g = Game(origin, seed=3)
    svg = render_svg(g, last_action="Majesty: keep hand")
    texts = _texts(svg)
    assert any(t.startswith("Decision: mulligan (majesty)") for t in texts)
    for a in g.legal_actions():  # every legal action listed in words with its index
        assert any(g.action_to_string(int(a)) in t for t in texts)
    assert "Last action: Majesty: keep hand" in texts
    hexes = [p for p in ET.fromstring(svg).iter(f"{NS}polygon")]
    assert len(hexes) >= len(origin.space_labels)


def test_svg_follows_the_game_and_escapes_names(origin):
    """Moving the hero changes the dynamic layer only; names are XML-escaped."""
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "C3")
    static, before = svg_layers(g)
    P.place_hero(g, 0, "F3")
    static2, after = svg_layers(g)
    assert static == static2 and before != after
    assert static_layer(origin) is static_layer(origin)  # drawn once per scenario
    ET.fromstring(render_svg(g, last_action="a <b> & 'c'"))  # parses: escaped


def test_image_shows_the_last_action_and_the_decision(origin):
    """The raster image changes with the last action text and with the position, at the
    documented size."""
    g = Game(origin, seed=3)
    a = render_rgb(g)
    b = render_rgb(g, last_action="Majesty: keep hand")
    assert a.shape == (750, 1300, 3) and a.dtype == np.uint8
    assert (a != b).any()
    g.apply(int(g.legal_actions()[0]))
    assert (render_rgb(g) != a).any()
    assert render_rgb(g, dpi=40).shape == (300, 520, 3)
