"""The ``draft`` rule: heroes chosen inside the episode (``core/draft.py`` runs it,
``docs/variants.md`` explains it).

``rules={"draft": {"mode": ..., "pool": ..., "offer": k}}``:

- ``mode``: ``"random"`` (an ordered team drawn when the episode starts, no decisions),
  ``"deal"`` (each seat is dealt ``offer`` heroes face down and keeps one, seats in order),
  ``"pick"`` (seats pick in order from the whole pool, in the open), ``"pass"`` (seed
  002: each player controls two heroes; it is dealt ``offer`` heroes face down, keeps one,
  passes the rest to the next player and takes its second hero from those passed to it).
- ``pool``: ``"all"`` (every hero of the content directory) or a list of different hero ids.
- ``offer``: heroes dealt to each seat in mode ``deal``, to each player in mode ``pass``
  (default 3, the seed's); it must stay 3 in modes ``random`` and ``pick``, which deal
  nothing.

``False`` (the default) keeps the scenario's heroes. A draft scenario compiles to one
tables row per ORDERED team of different pool heroes (``draft_teams``), at most
``MAX_DRAFT_ROWS``; the game's seats are named ``hero_0`` ... and are the agents, except in
mode pass, where agent ``player_p`` plays seats ``2p`` and ``2p + 1``
(``Scenario.agent_names``, ``Scenario.seat_names``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hon_env.content.errors import (
    Where,
    as_mapping,
    check_int,
    one_of,
    rule_settings,
    type_name,
)
from hon_env.spec.tables import (
    DRAFT_DEAL,
    DRAFT_OFF,
    DRAFT_PASS,
    DRAFT_PICK,
    DRAFT_RANDOM,
    MAX_DRAFT_POOL,
    MAX_DRAFT_ROWS,
    SEATS_PER_PLAYER,
)

DRAFT_MODES = ("random", "deal", "pick", "pass")  # CFG_DRAFT_MODE 1, 2, 3, 4
MODE_CODES = {"random": DRAFT_RANDOM, "deal": DRAFT_DEAL, "pick": DRAFT_PICK,
              "pass": DRAFT_PASS}
POOL_ALL = "all"
DRAFT_DEFAULTS: dict[str, Any] = {"mode": "pick", "pool": POOL_ALL, "offer": 3}
SEAT_AGENT = "hero_{}"  # name of seat k under the draft rule
PLAYER_AGENT = "player_{}"  # agent name of player p (seats 2p, 2p + 1) in mode pass


@dataclass(frozen=True)
class DraftRule:
    """The Draft variant's settings, decoded once from the resolved rule (its ``pool``
    the hero ids, in order): what every consumer reads (``Scenario.draft_rule``) instead
    of string keys."""

    mode: str  # DRAFT_MODES
    pool: tuple[str, ...]
    offer: int

    @classmethod
    def decode(cls, rule: Mapping[str, Any] | bool) -> DraftRule | None:
        """The rule of a resolved ``rules["draft"]`` entry; None when it is off."""
        if not rule:
            return None
        assert isinstance(rule, Mapping)
        pool = rule["pool"]
        if isinstance(pool, str):
            raise ValueError("the draft rule's pool is not resolved to hero ids yet "
                             "(resolve_draft)")
        return cls(str(rule["mode"]), tuple(pool), int(rule["offer"]))


def check_draft(raw: object, where: Where) -> dict[str, Any] | bool:
    """The rule as given, checked on its own: False (off) or a settings dict whose
    ``pool`` is ``"all"`` or a tuple of ids (``resolve_draft`` checks it against the
    content and the seats)."""
    if raw is False:
        return False
    if raw is True:
        raise where.error("expected a mapping with 'mode' (one of "
                          f"{', '.join(DRAFT_MODES)}) or False, got True")
    if "mode" not in as_mapping(dict(raw) if isinstance(raw, Mapping) else raw, where):
        raise where.error(f"the draft rule needs 'mode' (one of {', '.join(DRAFT_MODES)})")
    out = dict(DRAFT_DEFAULTS)
    for key, value, at in rule_settings(raw, where, "draft", DRAFT_DEFAULTS):
        if key == "mode":
            out[key] = one_of(value, at, DRAFT_MODES)
        elif key == "pool":
            out[key] = _check_pool(value, at)
        elif key == "offer":
            out[key] = check_int(value, at, 1, MAX_DRAFT_POOL)
    if out["mode"] in ("random", "pick") and out["offer"] != DRAFT_DEFAULTS["offer"]:
        raise where.key("offer").error(f"mode {out['mode']!r} deals no offers: 'offer' "
                                       "applies to modes deal and pass only")
    if out["mode"] == "pass" and out["offer"] < 2:
        raise where.key("offer").error(f"mode 'pass' keeps one hero and passes the rest: "
                                       f"'offer' must be at least 2, got {out['offer']}")
    return out


def _check_pool(value: object, at: Where) -> str | tuple[str, ...]:
    if value == POOL_ALL:
        return POOL_ALL
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise at.error(f"expected {POOL_ALL!r} or a list of hero ids, got {type_name(value)}")
    ids = tuple(value)
    for i, hero in enumerate(ids):
        if not isinstance(hero, str):
            raise at.index(i).error(f"expected a hero id, got {type_name(hero)}")
    dup = sorted({h for h in ids if ids.count(h) > 1})
    if dup:
        raise at.error(f"a draft pool names each hero once; repeated: {', '.join(dup)}")
    return ids


def resolve_draft(rule: dict[str, Any], roster: Sequence[str], n_heroes: int,
                  at: Where) -> tuple[str, ...]:
    """The pool's hero ids (``"all"``: the roster), checked against the content roster
    and the seats; raises naming the value and what is allowed."""
    pool = tuple(roster) if rule["pool"] == POOL_ALL else tuple(rule["pool"])
    unknown = [h for h in pool if h not in roster]
    if unknown:
        raise at.key("pool").error(f"unknown hero {unknown[0]!r} (the content's heroes: "
                                   f"{', '.join(roster)})")
    if len(pool) > MAX_DRAFT_POOL:
        raise at.key("pool").error(f"{len(pool)} heroes, a draft pool holds at most "
                                   f"{MAX_DRAFT_POOL} (MAX_DRAFT_POOL)")
    if len(pool) < n_heroes:
        raise at.key("pool").error(f"{len(pool)} heroes for {n_heroes} seats: the pool needs "
                                   "at least one hero per seat")
    if rule["mode"] == "pass" and n_heroes % SEATS_PER_PLAYER:
        raise at.key("mode").error(
            f"mode 'pass' seats two heroes per player: the scenario's {n_heroes} heroes "
            "must be an even number (2, 4 or 6)")
    dealt_to = n_heroes // SEATS_PER_PLAYER if rule["mode"] == "pass" else n_heroes
    if rule["mode"] in ("deal", "pass") and rule["offer"] * dealt_to > len(pool):
        whom = "players" if rule["mode"] == "pass" else "seats"
        raise at.key("offer").error(
            f"offer {rule['offer']} to each of {dealt_to} {whom} needs "
            f"{rule['offer'] * dealt_to} heroes, the pool has {len(pool)} (allowed: "
            f"{2 if rule['mode'] == 'pass' else 1}..{len(pool) // dealt_to})")
    rows = math.perm(len(pool), n_heroes)
    if rows > MAX_DRAFT_ROWS:
        raise at.key("pool").error(
            f"{len(pool)} heroes for {n_heroes} seats make {rows} ordered teams; a draft "
            f"compiles at most {MAX_DRAFT_ROWS} (MAX_DRAFT_ROWS): use a smaller pool")
    return pool


def draft_teams(pool: Sequence[str], n_heroes: int) -> list[tuple[int, ...]]:
    """Every ordered team of ``n_heroes`` different pool indices, in the order of the
    draft's tables rows (lexicographic: ``core/draft.team_rank`` computes the row)."""
    return list(itertools.permutations(range(len(pool)), n_heroes))


def draft_mode_code(rule: dict[str, Any] | bool) -> int:
    """CFG_DRAFT_MODE of a resolved rule."""
    return DRAFT_OFF if not rule else MODE_CODES[rule["mode"]]
