"""A generated issue: board, panels, Scheme cards and issue deck, as issue-file data.

The structure follows the hand-made issues (and the rulebook's issue deck): four scheme
panels of four colours, the villain climbing from panel 1 toward the last panel, whose
Scheme effect adds to the issue's loss counter; earlier panels advance the villain once
enough minions gather there. Four Scheme cards (one per panel) with a none, problem or
enemy back, and ten more issue cards, two of which stay as problems.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hon_env.content.board import PERIL_CELLS
from hon_env.content.procgen import names
from hon_env.content.procgen.board import generate_map
from hon_env.content.procgen.knobs import Knobs
from hon_env.content.procgen.threats import ANYWHERE, NESTED, Slot, conditional, draw_effect
from hon_env.spec.tables import COLOR_NAMES, IDECK

N_PANELS = 4  # one per colour: panels need distinct colours, and lackeys need their panel
STAYING_CARDS = 2
ISSUE_STREAM = 1  # the issue's random stream (the villain's is 2)


def generate_issue(seed: int, ident: str, knobs: Knobs) -> dict[str, Any]:
    """The data of an issue file (``kind: issue``) drawn from ``seed`` and ``knobs``."""
    rng = np.random.default_rng([seed, ISSUE_STREAM])
    d = float(knobs.difficulty)
    scale = (0.7 + 0.6 * d) * knobs.budget_scale
    counter = names.pick(rng, names.COUNTERS)
    board_map = generate_map(rng, knobs.size, N_PANELS, int(rng.integers(5, 8)))
    nested = Slot(NESTED, N_PANELS, counter)
    anywhere = Slot(ANYWHERE, N_PANELS, counter)
    place = names.pick(rng, names.PLACES)
    colors = rng.permutation(len(COLOR_NAMES))
    panel_names = names.unique_names(
        rng, N_PANELS, lambda r: f"{names.pick(r, names.ADJECTIVES)} {place}")
    panels = {}
    for k in range(1, N_PANELS + 1):
        if k == N_PANELS:
            scheme = [{"op": "counter_add", "counter": counter, "n": 1}]
        else:
            scheme = draw_effect(rng, 1.2 * scale, nested, max_ops=2)
            scheme.append({"op": "if", "count": "minions_in_villain_panel",
                           "at_least": int(rng.integers(2, 4)) if d < 0.5 else 2,
                           "at_least_per_hero": True, "then": [{"op": "advance"}]})
        panels[k] = {"name": panel_names[k - 1], "color": COLOR_NAMES[colors[k - 1]],
                     "scheme": scheme}
    titles = names.unique_names(rng, IDECK + N_PANELS, names.deed)
    schemes = [_scheme_card(rng, k, titles[k - 1], titles[IDECK + k - 1], scale, anywhere,
                            knobs) for k in range(1, N_PANELS + 1)]
    cards = _issue_cards(rng, titles[N_PANELS:IDECK], scale, anywhere, counter)
    setup_panels = rng.choice(np.arange(1, N_PANELS + 1), size=2, replace=False)
    return {
        "format_version": 1,
        "id": ident,
        "kind": "issue",
        "name": f"The {names.pick(rng, names.ADJECTIVES)} {place} "
                f"{names.pick(rng, names.PLOTS)}",
        "counters": [counter],
        "loss": {"counter": counter, "at_least": max(2, round(4 - 2 * d)),
                 "at_least_per_hero": True},
        "overview": {
            "setup": [{"op": "place_minions", "n": 1, "panel": int(p)} for p in setup_panels],
            "crisis": [*draw_effect(rng, 1.5 * scale, nested, max_ops=2), {"op": "scheme"}],
        },
        "board": {"map": board_map, "panels": panels},
        "schemes": schemes,
        "cards": cards,
    }


def _scheme_card(rng: np.random.Generator, panel: int, name: str, back_name: str,
                 scale: float, slot: Slot, knobs: Knobs) -> dict[str, Any]:
    """A Scheme card on ``panel`` with a none, problem or enemy back."""
    per_hero = bool(rng.random() < 0.5)
    card: dict[str, Any] = {"name": name, "panel": panel}
    if per_hero:
        card["danger"], scales = knobs.per_hero(2)
        if scales:
            card["danger_per_hero"] = True
    else:
        card["danger"] = int(rng.integers(2, 4))
    kind = ("none", "problem", "enemy")[int(rng.integers(3))]
    if kind == "none":
        card["back"] = {"name": back_name, "type": "none"}
    elif kind == "problem":
        card["back"] = {"name": back_name, "type": "problem",
                        "danger": int(rng.integers(2, 4)), "location": f"panel_{panel}",
                        "activate": draw_effect(rng, 1.0 * scale, slot, max_ops=2)}
    else:
        card["back"] = {"name": f"{names.pick(rng, names.ADJECTIVES)} "
                                f"{names.pick(rng, names.MINION_WORDS)}",
                        "type": "enemy", "health": int(rng.integers(3, 6)),
                        "defense": int(rng.integers(0, 2)), "inflict": int(rng.integers(1, 3)),
                        "activate": [{"op": "enemy_move", "n": int(rng.integers(1, 3)),
                                      "toward": "hero"}, {"op": "inflict"}]}
    return card


def _issue_cards(rng: np.random.Generator, titles: list[str], scale: float, slot: Slot,
                 counter: str) -> list[dict[str, Any]]:
    """The issue deck's other cards (``IDECK - N_PANELS`` of them)."""
    cards: list[dict[str, Any]] = []
    if rng.random() < 0.5:
        cards.append({"name": f"{names.pick(rng, names.TITLES)} "
                              f"{names.pick(rng, names.SURNAMES)}, Witness",
                      "bystander": True})
    # the counter rises off the last panel too, but only while the villain stands there
    cards.append({"name": titles[len(cards)], "effect": [
        {"op": "if", "count": "villain_panel", "at_least": N_PANELS,
         "then": [{"op": "counter_add", "counter": counter, "n": 1}]},
        *draw_effect(rng, 1.0 * scale, slot, max_ops=1)]})
    locations = ["start", *(f"panel_{k}" for k in range(1, N_PANELS + 1)),
                 *(f"peril_{c}" for c in COLOR_NAMES[:len(PERIL_CELLS)])]
    for i in range(len(cards), len(titles)):
        card: dict[str, Any] = {"name": titles[i],
                                "effect": draw_effect(rng, 1.8 * scale, slot)}
        if i >= len(titles) - STAYING_CARDS:
            card["stays"] = {"danger": int(rng.integers(2, 4)),
                             "location": locations[int(rng.integers(len(locations)))],
                             "activate": draw_effect(rng, 1.0 * scale, slot, max_ops=1)}
        elif rng.random() < 0.15:
            card["effect"] = [conditional(rng, card["effect"])]
        cards.append(card)
    return cards
