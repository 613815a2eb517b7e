"""The ``two_fronts`` rule: two villains on one board (``docs/variants.md``, Two Fronts).

Two villains switch the variant on: a scenario's ``villain: [first, second]`` (file or
``load_scenario(villain=[...])``), or ``rules={"two_fronts": {"second_villain": id}}``
next to one ``villain``. The rule's other settings tune it; ``False`` (the default) is
the rulebook's one-villain game. ``core/two_fronts.py`` runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hon_env.content.errors import Where, check_int, check_str, rule_settings, type_name
from hon_env.spec.tables import CFG_N_VILLAINS, CFG_TF_BLINDSIDE, CFG_TF_FLOOR, MAX_HEROES

TWO_FRONTS_DEFAULTS: dict[str, Any] = {
    # The second villain's id, when the scenario names one villain; None: the scenario's
    # ``villain`` list names both.
    "second_villain": None,
    # The least hero count a villain's per-hero values use. The seed's floor is 3, the
    # smallest Sentinels table; Hour of Need's per-hero icon counts from 1.
    "per_hero_floor": 1,
    # Damage added to each instance a hero suffers from the villain it does not face
    # (the seed's blindside bonus).
    "blindside": 1,
}
FLOOR_RANGE = (1, MAX_HEROES)
BLINDSIDE_RANGE = (0, 5)
MIN_HEROES = 2  # each villain is faced by at least one hero


def check_two_fronts(raw: object, where: Where) -> dict[str, Any] | bool:
    """The resolved rule: False (off) or a full settings dict; errors name the key.

    ``True`` takes the defaults (the scenario's ``villain`` list must then name both
    villains; ``load_scenario`` checks that).
    """
    if isinstance(raw, bool):
        return dict(TWO_FRONTS_DEFAULTS) if raw else False
    out = dict(TWO_FRONTS_DEFAULTS)
    for key, value, at in rule_settings(raw, where, "two_fronts", TWO_FRONTS_DEFAULTS):
        if key == "second_villain":
            out[key] = None if value is None else check_str(value, at)
        elif key == "per_hero_floor":
            out[key] = check_int(value, at, *FLOOR_RANGE)
        else:
            out[key] = check_int(value, at, *BLINDSIDE_RANGE)
    return out


def villain_ids(raw: object, where: Where) -> tuple[str, ...]:
    """A scenario's ``villain``: one id, or a list of two different ids (Two Fronts)."""
    if isinstance(raw, str):
        return (check_str(raw, where),)
    if not isinstance(raw, Sequence):
        raise where.error(f"expected a villain id or a list of two, got {type_name(raw)}")
    ids = tuple(check_str(v, where.index(i)) for i, v in enumerate(raw))
    if len(ids) not in (1, 2):
        raise where.error(f"{len(ids)} villains; a game has one villain, or two (the Two "
                          "Fronts variant)")
    if len(ids) == 2 and ids[0] == ids[1]:
        raise where.index(1).error(f"villain {ids[1]!r} is listed twice; Two Fronts needs "
                                   "two different villains")
    return ids


def resolve_villains(ids: tuple[str, ...], ids_where: Where, rule: dict[str, Any] | bool,
                     rule_where: Where, n_heroes: int, heroes_where: Where
                     ) -> tuple[tuple[str, ...], tuple[Where, ...]]:
    """The game's villain ids, one or two, from the ``villain`` list and the rule.

    Returns the ids and where each was named (for errors about their files).
    Refuses a second villain named twice, the rule with one villain, a second villain
    equal to the first and a Two Fronts game with fewer than ``MIN_HEROES`` heroes.
    """
    wheres = (ids_where.index(0), ids_where.index(1)) if len(ids) == 2 else (ids_where,)
    if rule and rule["second_villain"] is not None:
        second_where = rule_where.key("second_villain")
        wheres = (ids_where, second_where)
        if len(ids) == 2:
            raise second_where.error(
                f"the villain list already names two villains {list(ids)}; give the second "
                "one either there or here, not both")
        ids = ids + (rule["second_villain"],)
        if ids[0] == ids[1]:
            raise second_where.error(f"second villain {ids[1]!r} is the scenario's villain; "
                                     "Two Fronts needs two different villains")
    if len(ids) == 1 and rule:
        raise rule_where.error("the two_fronts rule needs a second villain: list two "
                               "villains (villain: [first, second]) or set second_villain")
    if len(ids) == 2 and n_heroes < MIN_HEROES:
        raise heroes_where.error(
            f"{n_heroes} hero against two villains; Two Fronts needs at least {MIN_HEROES} "
            "heroes (each villain is faced by one at least)")
    return ids, wheres


def two_fronts_cfg(rule: dict[str, Any] | bool, n_villains: int) -> dict[int, int]:
    """The cfg columns (``spec/tables.py`` CFG_N_VILLAINS, CFG_TF_*) of a game."""
    settings = rule if isinstance(rule, dict) else TWO_FRONTS_DEFAULTS
    if n_villains < 2:
        return {CFG_N_VILLAINS: 1, CFG_TF_FLOOR: 0, CFG_TF_BLINDSIDE: 0}
    return {CFG_N_VILLAINS: 2, CFG_TF_FLOOR: settings["per_hero_floor"],
            CFG_TF_BLINDSIDE: settings["blindside"]}
