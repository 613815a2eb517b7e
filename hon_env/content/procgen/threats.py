"""Villain-side effects drawn to a power budget, from the closed op vocabulary.

Every op a generated card may use has a cost in "threat points": roughly, how much worse
the heroes' position gets (one minion placed is 1 point; a Scheme, which runs a panel's
effect, 2; an advance toward the loss counter 3). A card's effect is drawn op by op until
its budget is spent, so a card is neither empty nor game-ending; a condition (``if``)
halves the cost of what it guards. Which ops a slot may use is part of the slot:
effects that run from inside a Scheme or a crisis never start another one, so resolving
any generated card terminates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Op = dict[str, Any]


@dataclass(frozen=True)
class Threat:
    """One op a generated effect may use: its name, cost of one use and a builder."""

    name: str
    cost: float
    build: Callable[[np.random.Generator, Slot], Op]


@dataclass(frozen=True)
class Slot:
    """Where an effect is printed: the ops allowed there and the board it refers to."""

    ops: tuple[str, ...]
    n_panels: int
    counter: str | None = None


def _panel(rng: np.random.Generator, slot: Slot) -> int | str:
    return "villain" if rng.random() < 0.5 else int(rng.integers(1, slot.n_panels + 1))


THREATS: dict[str, Threat] = {t.name: t for t in (
    Threat("place_minions", 1.0,
           lambda rng, s: {"op": "place_minions", "n": 1, "panel": _panel(rng, s)}),
    Threat("capture_bystanders", 1.5, lambda rng, s: {"op": "capture_bystanders", "n": 1}),
    Threat("place_bystanders", 0.4, lambda rng, s: {"op": "place_bystanders", "n": 1}),
    Threat("scheme", 2.0, lambda rng, s: {"op": "scheme"}),
    Threat("advance", 3.0, lambda rng, s: {"op": "advance"}),
    Threat("damage_hero", 1.0, lambda rng, s: {"op": "damage_hero", "n": 1}),
    Threat("damage_each", 2.0,
           lambda rng, s: {"op": "damage_hero", "n": 1, "who": "each"}),
    Threat("damage_near_villain", 1.5,
           lambda rng, s: {"op": "damage_hero", "n": 1, "who": "near_villain"}),
    Threat("discard_or_damage", 0.8, lambda rng, s: {"op": "discard_or_damage", "n": 1}),
    Threat("villain_move", 0.6,
           lambda rng, s: {"op": "villain_move", "n": int(rng.integers(1, 4)),
                           "toward": str(rng.choice(["any", "hero", "bystander"]))}),
    Threat("heal_villain", 1.0, lambda rng, s: {"op": "heal_villain", "n": 1}),
    Threat("fortify", 0.7,
           lambda rng, s: {"op": "fortify", "n": 1,
                           "target": str(rng.choice(["villain", "lackeys"]))}),
    Threat("move_away", 0.4,
           lambda rng, s: {"op": "move_away", "n": int(rng.integers(1, 3)),
                           "who": str(rng.choice(["active", "each"]))}),
    Threat("counter_add", 3.0,
           lambda rng, s: {"op": "counter_add", "counter": s.counter, "n": 1}),
    Threat("crisis", 2.5, lambda rng, s: {"op": "crisis"}),
)}

# conditions an ``if`` may test, with the thresholds that make it neither always nor never
CONDITIONS = (("minions_in_villain_panel", 2, 3), ("minions_total", 4, 7),
              ("captured_total", 2, 3), ("bystanders_on_map", 2, 4),
              ("active_hero_threats", 3, 5), ("active_hero_damage", 4, 7), ("round", 4, 9))

COMMON = ("place_minions", "capture_bystanders", "place_bystanders", "damage_hero",
          "damage_each", "damage_near_villain", "discard_or_damage", "villain_move",
          "heal_villain", "fortify", "move_away")
# slots that run inside a Scheme or a crisis: no ``scheme``, ``crisis`` or ``advance``
NESTED = COMMON
ANYWHERE = (*COMMON, "scheme", "crisis")  # cards drawn from a deck, activations


def draw_effect(rng: np.random.Generator, budget: float, slot: Slot, max_ops: int = 3
                ) -> list[Op]:
    """Ops whose costs add up to about ``budget`` (at least one op), drawn from ``slot``.

    With probability 0.3 the priciest op is put under a random condition and the budget
    it frees is spent again (a conditional threat costs half).
    """
    ops: list[Op] = []
    spent = 0.0
    names = [n for n in slot.ops if n != "counter_add" or slot.counter is not None]
    while len(ops) < max_ops and (not ops or spent < budget - 0.3):
        fitting = [n for n in names if THREATS[n].cost <= max(budget - spent, 0.4) + 0.2]
        pool = fitting or [min(names, key=lambda n: THREATS[n].cost)]
        threat = THREATS[pool[int(rng.integers(len(pool)))]]
        op = threat.build(rng, slot)
        cost = threat.cost
        if rng.random() < 0.3 and cost >= 1.0:
            op = conditional(rng, [op])
            cost /= 2
        ops.append(op)
        spent += cost
    return ops


def conditional(rng: np.random.Generator, then: list[Op]) -> Op:
    """``then`` guarded by a random count condition."""
    count, low, high = CONDITIONS[int(rng.integers(len(CONDITIONS)))]
    return {"op": "if", "count": count, "at_least": int(rng.integers(low, high + 1)),
            "then": then}


def cost_of(ops: list[Op]) -> float:
    """The threat points of an effect drawn by ``draw_effect`` (``if`` halves)."""
    total = 0.0
    for op in ops:
        if op["op"] == "if":
            total += cost_of(op["then"]) / 2
            continue
        name = op["op"]
        if name == "damage_hero":
            name = {"each": "damage_each", "near_villain": "damage_near_villain"}.get(
                op.get("who", "active"), "damage_hero")
        total += THREATS[name].cost
    return total
