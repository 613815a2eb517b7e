"""The ``fame`` rule: switches the Fame variant on (``core/fame.py`` keeps the score,
``docs/variants.md`` explains it), and the headline cards it deals.

``rules={"fame": True}`` takes ``FAME_DEFAULTS``; a mapping overrides them key by key
(``table`` key by key too); ``False`` (the default) keeps the rulebook's cooperative game.
With the rule off the per-hero counters and a fame score with the default table are still
kept (``info["fame"]``), but the observation's fame sections stay zero, no headline is dealt
and every hero gets the team reward.

Headline cards live in ``configs/content/headlines/<id>.yaml`` (``kind: headlines``): a
list of ``{name, counter, at_least, values}``, where ``counter`` is one of
``HERO_COUNTER_NAMES`` (``spec/tables.py``) and ``values`` the fame of the first, second
and third hero to reach ``at_least`` (best first).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from hon_env.content.errors import (
    Where,
    as_list,
    as_mapping,
    check_int,
    check_keys,
    one_of,
    rule_settings,
    type_name,
)
from hon_env.spec.tables import (
    EV_ENEMIES_DEFEATED,
    EV_HERO_DEFEATS,
    EV_PROBLEMS_SOLVED,
    EV_RESCUES,
    EV_SCHEMES_SOLVED,
    FM_DMG_PER,
    FM_HEADLINES,
    FM_MODE,
    FM_MOST_DAMAGE,
    FM_MOST_ENEMIES,
    FM_MOST_RESCUES,
    FM_ON,
    FM_POOL,
    FM_W,
    HEADLINE_POOL,
    HEADLINE_VALUES,
    HERO_COUNTER_COLS,
    HERO_COUNTER_NAMES,
    HL_AT_LEAST,
    HL_COUNTER,
    HL_NCOLS,
    HL_VALUE,
    HV_FINAL_BLOWS,
    HV_MINIONS,
    HV_REVEALS,
    MAX_HEADLINES,
    N_FAME,
    N_HEV,
)

REWARD_MODES = ("team", "fame", "rank")
# Fame for each deed (001 §Damage (DMG), the scenarios' scoring panels; docs/variants.md).
FAME_TABLE_DEFAULTS: dict[str, int] = {
    "minion": 1,  # a minion defeated (normal or special)
    "enemy": 2,  # a lackey, issue enemy or nemesis defeated
    "rescue": 1,  # a bystander rescued (an ally's rescue counts for its hero)
    "problem": 1,  # a peril, issue problem, flipped Scheme problem or crisis card solved
    "scheme": 2,  # a Scheme card (or a nemesis's Scheme side) solved
    "reveal": 2,  # the Villain card solved (revealed)
    "final_blow": 3,  # the damage that defeats the villain
    "defeat": -2,  # each time the hero is defeated (001 §Injuries)
    "villain_damage_per": 2,  # end: 1 fame per this much villain damage (0: none)
    "most_villain_damage": 2,  # end: the most villain damage (ties: every tied hero)
    "most_enemies": 1,  # end: the most enemies and minions defeated
    "most_rescues": 1,  # end: the most rescues
}
TABLE_RANGE = (-10, 10)
FAME_DEFAULTS: dict[str, Any] = {
    # "team": every hero gets the team reward (fame is only reported); "fame": each hero's
    # fame as it comes, plus the team result; "rank": winner takes all (docs/variants.md)
    "reward": "team",
    "team_weight": 1.0,  # weight of the team's +1 win / -1 loss in the fame and rank modes
    # share of the fame reward kept when the city falls: 0 a loss cancels it (nobody is
    # recruited when the city falls), 1 it is kept
    "loss_keep": 0.0,
    "scale": 10.0,  # fame per unit of reward in the fame mode
    "headlines": MAX_HEADLINES,  # headlines dealt per game (0 to 4)
    "headline_cards": "core",  # configs/content/headlines/<id>.yaml
    "table": dict(FAME_TABLE_DEFAULTS),
}
HEADLINES_DIR = "headlines"


class Headline(NamedTuple):
    """One headline card: a public goal on a per-hero counter."""

    name: str
    counter: str  # one of HERO_COUNTER_NAMES
    at_least: int
    values: tuple[int, ...]  # fame for the first, second, third finisher


def _number(value: object, at: Where, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise at.error(f"expected a number, got {type_name(value)}")
    if not math.isfinite(float(value)) or not lo <= float(value) <= hi:
        raise at.error(f"expected a number in [{lo}, {hi}], got {value!r}")
    return float(value)


def check_fame(raw: object, where: Where) -> dict[str, Any] | bool:
    """The resolved rule: False (off) or a full settings dict; errors name the key."""
    if isinstance(raw, bool):
        return _defaults() if raw else False
    out = _defaults()
    for key, value, at in rule_settings(raw, where, "fame", FAME_DEFAULTS):
        if key == "reward":
            out[key] = one_of(value, at, REWARD_MODES)
        elif key == "team_weight":
            out[key] = _number(value, at, 0.0, 100.0)
        elif key == "loss_keep":
            out[key] = _number(value, at, 0.0, 1.0)
        elif key == "scale":
            out[key] = _number(value, at, 0.001, 1000.0)
        elif key == "headlines":
            out[key] = check_int(value, at, 0, MAX_HEADLINES)
        elif key == "headline_cards":
            if not isinstance(value, str) or not value:
                raise at.error(f"expected a headline file id, got {type_name(value)}")
            out[key] = value
        else:
            for name, v in as_mapping(value, at).items():
                if name not in FAME_TABLE_DEFAULTS:
                    raise at.key(name).error(f"unknown fame table entry (known: "
                                             f"{', '.join(FAME_TABLE_DEFAULTS)})")
                lo = 0 if name == "villain_damage_per" else TABLE_RANGE[0]
                out["table"][name] = check_int(v, at.key(name), lo, TABLE_RANGE[1])
    return out


def _defaults() -> dict[str, Any]:
    out = dict(FAME_DEFAULTS)
    out["table"] = dict(FAME_TABLE_DEFAULTS)
    return out


@dataclass(frozen=True)
class FameRule:
    """The Fame variant's settings, decoded once from the resolved rule (``check_fame``'s
    dict, what a scenario's ``rules["fame"]`` holds as plain data): what every consumer
    reads (``Scenario.fame_rule``) instead of string keys."""

    reward: str  # REWARD_MODES
    team_weight: float
    loss_keep: float
    scale: float
    headlines: int
    headline_cards: str
    table: Mapping[str, int]

    @classmethod
    def decode(cls, rule: Mapping[str, Any] | bool) -> FameRule | None:
        """The rule of a resolved ``rules["fame"]`` entry; None when it is off."""
        if not rule:
            return None
        assert isinstance(rule, Mapping)
        return cls(str(rule["reward"]), float(rule["team_weight"]), float(rule["loss_keep"]),
                   float(rule["scale"]), int(rule["headlines"]), str(rule["headline_cards"]),
                   MappingProxyType(dict(rule["table"])))


def fame_mode(rule: FameRule | None) -> str:
    """The reward mode of a decoded rule ("team" when the rule is off)."""
    return rule.reward if rule is not None else "team"


def fame_weights(table: Mapping[str, int]) -> np.ndarray:
    """int32 [N_HEV]: fame per unit of each per-hero counter (the columns of the state's
    ``hev`` field).

    The event counters overlap (a solved Scheme card also counts as a solved problem, a
    revealed villain too; the villain's defeat counts as an enemy defeated), so the
    overlapping columns carry the difference: fame = sum of weight x counter gives each
    deed its table value exactly once.
    """
    w = np.zeros(N_HEV, np.int32)
    w[HV_MINIONS] = table["minion"]
    w[EV_ENEMIES_DEFEATED] = table["enemy"]
    w[HV_FINAL_BLOWS] = table["final_blow"] - table["enemy"]
    w[EV_RESCUES] = table["rescue"]
    w[EV_PROBLEMS_SOLVED] = table["problem"]
    w[EV_SCHEMES_SOLVED] = table["scheme"] - table["problem"]
    w[HV_REVEALS] = table["reveal"] - table["problem"]
    w[EV_HERO_DEFEATS] = table["defeat"]
    return w


def fame_table(rule: FameRule | None, n_headlines: int) -> np.ndarray:
    """``Tables.fame`` (FM_*) of a decoded rule; the default table when the rule is off."""
    table = rule.table if rule is not None else FAME_TABLE_DEFAULTS
    out = np.zeros(N_FAME, np.int32)
    out[FM_ON] = int(rule is not None)
    out[FM_W:FM_W + N_HEV] = fame_weights(table)
    out[FM_DMG_PER] = table["villain_damage_per"]
    out[FM_MOST_DAMAGE] = table["most_villain_damage"]
    out[FM_MOST_ENEMIES] = table["most_enemies"]
    out[FM_MOST_RESCUES] = table["most_rescues"]
    out[FM_HEADLINES] = rule.headlines if rule is not None else 0
    out[FM_POOL] = n_headlines
    out[FM_MODE] = REWARD_MODES.index(fame_mode(rule))
    return out


def load_headlines(ident: str, content_root: Path, ref: Where) -> tuple[Headline, ...]:
    """Load and validate ``headlines/<ident>.yaml`` under ``content_root``."""
    from hon_env.content.loader import ID_RE, _header, display_path, read_yaml

    folder = content_root / HEADLINES_DIR
    path = folder / f"{ident}.yaml"
    if not ID_RE.match(ident) or not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
        raise ref.error(f"no headline cards {ident!r} in {display_path(folder)} (known: "
                        f"{', '.join(known) or 'none'})")
    data, where = read_yaml(path)
    _header(data, where, path, "headlines")
    check_keys(data, where, ("format_version", "id", "kind", "cards"), ("description",))
    cards = as_list(data["cards"], where.key("cards"))
    if not 1 <= len(cards) <= HEADLINE_POOL:
        raise where.key("cards").error(f"{len(cards)} headlines; a file holds 1 to "
                                       f"{HEADLINE_POOL}")
    out = []
    for i, raw in enumerate(cards):
        at = where.key("cards").index(i)
        card = as_mapping(raw, at)
        check_keys(card, at, ("name", "counter", "at_least", "values"))
        name = card["name"]
        if not isinstance(name, str) or not name.strip():
            raise at.key("name").error(f"expected a non-empty string, got {type_name(name)}")
        if name in (h.name for h in out):
            raise at.key("name").error(f"another headline is already named {name!r}")
        counter = card["counter"]
        if counter not in HERO_COUNTER_NAMES:
            raise at.key("counter").error(f"expected one of {', '.join(HERO_COUNTER_NAMES)}, "
                                          f"got {counter!r}")
        at_least = check_int(card["at_least"], at.key("at_least"), 1, 1000)
        values = as_list(card["values"], at.key("values"))
        if not 1 <= len(values) <= HEADLINE_VALUES:
            raise at.key("values").error(f"expected 1 to {HEADLINE_VALUES} values, got "
                                         f"{len(values)}")
        vals = tuple(check_int(v, at.key("values").index(k), 0, 20)
                     for k, v in enumerate(values))
        if list(vals) != sorted(vals, reverse=True):
            raise at.key("values").error(f"values must not rise (best first), got {list(vals)}")
        out.append(Headline(name, counter, at_least, vals))
    return tuple(out)


def headline_table(cards: tuple[Headline, ...]) -> np.ndarray:
    """``Tables.headline``: one HL_* row per card, zeros after."""
    out = np.zeros((HEADLINE_POOL, HL_NCOLS), np.int32)
    for r, card in enumerate(cards):
        out[r, HL_COUNTER] = HERO_COUNTER_COLS[HERO_COUNTER_NAMES.index(card.counter)]
        out[r, HL_AT_LEAST] = card.at_least
        out[r, HL_VALUE:HL_VALUE + len(card.values)] = card.values
    return out
