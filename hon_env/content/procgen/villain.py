"""A generated villain: its Villain card and a 29-card deck of lackeys, perils and ploys.

The structure follows the hand-made villains (and the rulebook's villain deck): four
lackeys and four perils, one per colour, and ploys carrying one to three ploy icons; four
ploys leave a solo game and two or three leave a 5-6 hero game (scaling), a few attach.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hon_env.content.procgen import names
from hon_env.content.procgen.issue import N_PANELS
from hon_env.content.procgen.knobs import Knobs
from hon_env.content.procgen.threats import ANYWHERE, Slot, draw_effect
from hon_env.spec.tables import COLOR_NAMES, VDECK

VILLAIN_STREAM = 2
ICONS = (*(f"minion_{k}" for k in range(1, N_PANELS + 1)), "cunning", "bystander", "special")
DISTINCT_PLOYS = 16  # the rest of the deck repeats some of them (``count: 2``)


def generate_villain(seed: int, ident: str, knobs: Knobs) -> dict[str, Any]:
    """The data of a villain file (``kind: villain``) drawn from ``seed`` and ``knobs``."""
    rng = np.random.default_rng([seed, VILLAIN_STREAM])
    d = float(knobs.difficulty)
    scale = (0.7 + 0.6 * d) * knobs.budget_scale
    slot = Slot(ANYWHERE, N_PANELS)
    minion = names.pick(rng, names.MINION_WORDS)
    cards = [_lackey(rng, color, minion, scale, slot) for color in COLOR_NAMES]
    cards += [_peril(rng, color, scale, slot) for color in COLOR_NAMES]
    cards += _ploys(rng, VDECK - len(cards), scale, slot)
    showdown_moves = [{"op": "villain_move", "n": int(rng.integers(1, 3)), "toward": "hero"},
                      {"op": "inflict"}]
    if rng.random() < 0.5:
        showdown_moves.insert(0, {"op": "place_minions", "n": 1, "panel": "villain"})
    name = f"{names.pick(rng, names.TITLES)} {names.pick(rng, names.SURNAMES)}"
    danger, danger_per_hero = knobs.per_hero(int(rng.integers(2, 4)) + (d > 0.7))
    scheming = {"danger": danger, "danger_per_hero": danger_per_hero,
                "inflict": int(rng.integers(1, 3))}
    health, health_per_hero = knobs.per_hero(5 + round(2 * d) + int(rng.integers(0, 2)))
    return {
        "format_version": 1,
        "id": ident,
        "kind": "villain",
        "name": name,
        "villain_card": {
            "scheming": scheming,
            "showdown": {"health": health, "health_per_hero": health_per_hero,
                         "defense": int(rng.integers(0, 2)),
                         "inflict": int(rng.integers(1, 3)), "activate": showdown_moves},
        },
        "lackey_colors": list(COLOR_NAMES),
        "cards": cards,
    }


def _lackey(rng: np.random.Generator, color: str, minion: str, scale: float, slot: Slot
            ) -> dict[str, Any]:
    style = int(rng.integers(3))
    if style == 0:
        activate = [{"op": "enemy_move", "n": int(rng.integers(1, 4)),
                     "toward": str(rng.choice(["any", "hero", "bystander"]))},
                    {"op": "inflict", "bonus": int(rng.random() < 0.3)}]
    elif style == 1:
        activate = [{"op": "inflict_owner"}]
    else:
        activate = [{"op": "place_minions", "n": 1, "panel": "villain"}, {"op": "inflict"}]
    card: dict[str, Any] = {
        "name": f"{names.pick(rng, names.ADJECTIVES)} {minion} ({color})", "type": "lackey",
        "color": color, "health": int(rng.integers(3, 6)),
        "defense": int(rng.integers(0, 2)), "inflict": int(rng.integers(1, 3)),
        "activate": activate}
    if rng.random() < 0.5:
        card["ploys"] = [str(rng.choice(ICONS[:-1]))]
    if rng.random() < 0.5:
        card["showdown"] = draw_effect(rng, 1.0 * scale, slot, max_ops=1)
    return card


def _peril(rng: np.random.Generator, color: str, scale: float, slot: Slot) -> dict[str, Any]:
    card: dict[str, Any] = {"name": f"{names.deed(rng)} ({color})", "type": "peril",
                            "color": color, "danger": int(rng.integers(2, 4)),
                            "activate": draw_effect(rng, 1.5 * scale, slot, max_ops=2)}
    if rng.random() < 0.4:
        card["ploys"] = [str(rng.choice(ICONS[:-1]))]
    return card


def _ploys(rng: np.random.Generator, total: int, scale: float, slot: Slot
           ) -> list[dict[str, Any]]:
    """``total`` ploy cards (counted with ``count``) of ``DISTINCT_PLOYS`` names."""
    counts = [1] * DISTINCT_PLOYS
    for i in rng.choice(DISTINCT_PLOYS, size=total - DISTINCT_PLOYS, replace=False):
        counts[int(i)] += 1
    titles = names.unique_names(rng, DISTINCT_PLOYS, names.ploy)
    scaling = ["one"] * 4 + ["five_six"] * int(rng.integers(2, 4))
    scaling += ["none"] * (DISTINCT_PLOYS - len(scaling))
    order = rng.permutation(DISTINCT_PLOYS)
    attach_at = set(int(i) for i in rng.choice(DISTINCT_PLOYS, size=2, replace=False))
    cards = []
    for i in range(DISTINCT_PLOYS):
        icons = [str(x) for x in rng.choice(ICONS, size=int(rng.integers(1, 4)))]
        while icons.count("special") > 1:  # one special effect, triggered once
            icons.remove("special")
        card: dict[str, Any] = {"name": titles[i], "type": "ploy", "ploys": icons}
        if counts[i] > 1:
            card["count"] = counts[i]
        if "special" in icons:
            card["special"] = draw_effect(rng, 1.5 * scale, slot, max_ops=2)
        if rng.random() < 0.6:
            card["showdown"] = draw_effect(rng, 1.0 * scale, slot, max_ops=1)
        if scaling[order[i]] != "none":
            card["scaling"] = scaling[order[i]]
        if i in attach_at:
            card["attach"] = {"to": str(rng.choice(["lackey", "villain"])), "defense": 1}
        cards.append(card)
    return cards
