"""The ``villain_agent`` rule: switches the Mastermind variant on and says how strong the
villain agent is (``core/mastermind.py`` runs it, ``docs/mastermind.md`` explains it).

``rules={"villain_agent": True}`` takes ``VILLAIN_AGENT_DEFAULTS``; a mapping overrides
them key by key; ``False`` (the default) is the rulebook's game with a villain deck.
"""

from __future__ import annotations

from typing import Any

from hon_env.content.errors import Where, check_int, one_of, rule_settings, type_name
from hon_env.spec.tables import (
    CFG_VCUNNING,
    CFG_VHAND,
    CFG_VINFLICT,
    CFG_VSHOWDOWN,
    CFG_VTIES,
)

VILLAIN_AGENT_DEFAULTS: dict[str, Any] = {
    # Villain cards the villain holds, hidden from the heroes; filled from the villain deck
    # when a card is needed. 1 is the rulebook's game (the one card is played for it).
    "hand": 3,
    # The villain picks, from its hand, the card whose Showdown effect answers an attack on
    # its revealed space (dice step 5); False: the top card of the deck, as in the rulebook.
    "showdown": True,
    # Who chooses scheme or inflict at a cunning icon: "villain" or "heroes" (the active
    # hero, as in the rulebook).
    "cunning": "villain",
    # Who picks the hero that suffers an inflict among several nearby: "heroes" (rulebook)
    # or "villain".
    "inflict_victim": "heroes",
    # Who breaks enemy movement ties (several nearest targets, several shortest paths):
    # "fixed" (the engine's fixed tie-break, docs/engine.md #6) or "villain" (the villain
    # agent chooses; the rulebook leaves these choices to the players).
    "enemy_ties": "fixed",
}
HAND_RANGE = (1, 10)
VILLAIN_AGENT = "villain"  # the villain agent's name in every front end
_CHOOSERS = ("villain", "heroes")
_TIE_BREAKERS = ("fixed", "villain")


def check_villain_agent(raw: object, where: Where) -> dict[str, Any] | bool:
    """The resolved rule: False (off) or a full settings dict; errors name the key."""
    if isinstance(raw, bool):
        return dict(VILLAIN_AGENT_DEFAULTS) if raw else False
    out = dict(VILLAIN_AGENT_DEFAULTS)
    for key, value, at in rule_settings(raw, where, "villain_agent", VILLAIN_AGENT_DEFAULTS):
        if key == "hand":
            out[key] = check_int(value, at, *HAND_RANGE)
        elif key == "showdown":
            if not isinstance(value, bool):
                raise at.error(f"expected true or false, got {type_name(value)}")
            out[key] = value
        elif key == "enemy_ties":
            out[key] = one_of(value, at, _TIE_BREAKERS)
        else:
            out[key] = one_of(value, at, _CHOOSERS)
    return out


def villain_agent_cfg(rule: dict[str, Any] | bool) -> dict[int, int]:
    """The cfg columns (``spec/tables.py`` CFG_V*) of a resolved rule; all 0 when off."""
    if not rule:
        return {CFG_VHAND: 0, CFG_VSHOWDOWN: 0, CFG_VCUNNING: 0, CFG_VINFLICT: 0,
                CFG_VTIES: 0}
    assert isinstance(rule, dict)
    return {CFG_VHAND: rule["hand"], CFG_VSHOWDOWN: int(rule["showdown"]),
            CFG_VCUNNING: int(rule["cunning"] == "villain"),
            CFG_VINFLICT: int(rule["inflict_victim"] == "villain"),
            CFG_VTIES: int(rule["enemy_ties"] == "villain")}
