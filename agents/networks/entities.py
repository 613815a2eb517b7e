"""The observation read as entities: which floats make up each row of each entity kind,
and which actions point at which row. Built once from the named observation spec
(``hon_env.spec.obs_features``) and the action layout (``hon_env.spec.layout``): no
hand-typed offsets, so a new feature of a section joins its entity by itself.

An entity kind (``Group``) has ``rows`` rows. Row ``r`` reads:

- row ``r`` of each of its ``sections`` (sections with ``rows`` rows, the same entity per
  row: board space ``r`` in ``spaces`` and ``two_fronts_spaces``);
- row ``r - 1`` of each ``shifted`` section (``others`` lists the seats after self, while
  the seat kind's row 0 is self);
- element ``r`` of each ``planes`` feature, in every row of that feature's section (a
  feature of ``rows`` floats spread over the entities: ``self.hand`` marks hero deck card
  ``r``, ``special_bystanders.plane`` marks board space ``r`` once per special bystander).
  A plane is read by its entity kind only, not by its own section's rows.

The actions of a kind point at its rows: action ``first + stride * r`` of each
``(first, stride)`` of ``actions`` chooses row ``r`` (move to space ``r``, play card
``r``, ...). Every other action is scored from the game-wide context. Every float of the
observation that no kind reads is a context feature (``context_columns``).

``set_like`` kinds are sets to the game: the rulebook gives no order among board spaces or
cards, so a network that reads them row by row with shared weights and pools them gives
the same answer whatever the row order (tested by permuting rows). Seats are not a set
(turn order runs through them): the seat kind adds a learned embedding per row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hon_env.spec import layout as L
from hon_env.spec import tables as TB
from hon_env.spec.obs_features import OBS_DIM, OBS_FEATURES, OBS_SECTIONS, Feature


@dataclass(frozen=True)
class Group:
    """One entity kind of the observation (see the module docstring)."""

    name: str
    rows: int
    sections: tuple[str, ...] = ()
    shifted: tuple[str, ...] = ()
    planes: tuple[str, ...] = ()
    actions: tuple[tuple[int, int], ...] = ()
    set_like: bool = True


GROUPS: tuple[Group, ...] = (
    Group("space", TB.MAX_SPACES, ("spaces", "two_fronts_spaces"),
          planes=("ally_figures.plane", "special_bystanders.plane", "enemy_ties.mover_space",
                  "enemy_ties.target_space"),
          actions=((L.A_SPACE, 1), (L.A_ATTACK, 1), (L.A_SOLVE, 1))),
    Group("seat", TB.MAX_HEROES, ("hero_identity", "allies", "fame_seats", "two_fronts_seats"),
          shifted=("others",),
          planes=("villain_agent.card_for", "villain_agent.hero_hand_sizes"),
          actions=((L.A_HERO, 1),), set_like=False),
    Group("card", TB.HERO_DECK, ("own_cards",),
          planes=("self.hand", "self.play_area", "self.play_area_exhausted", "self.discard"),
          actions=((L.A_PLAY, 1), (L.A_USE, 1), (L.A_FEAT, L.N_FEAT_KINDS),
                   (L.A_FEAT + 1, L.N_FEAT_KINDS), (L.A_FEAT + 2, L.N_FEAT_KINDS),
                   (L.A_CARD, 1))),
    Group("villain_card", TB.VDECK, ("villain_cards",), planes=("villain_agent.hand",),
          actions=((L.A_TARGET + L.T_V0, 1),)),
    Group("villain2_card", TB.VDECK, ("villain2_cards",), actions=((L.A_TARGET2, 1),)),
    Group("issue_card", TB.IDECK, ("issue_cards",), actions=((L.A_TARGET + L.T_I0, 1),)),
    Group("nemesis", TB.NEMESES, ("nemeses",), actions=((L.A_TARGET + L.T_NEM0, 1),)),
    Group("special_minion", TB.SPECIAL_MINIONS, ("special_minions",)),
    Group("crisis", TB.MAX_CRISES, ("crises",), actions=((L.A_TARGET + L.T_CRISIS0, 1),)),
    Group("special_bystander", TB.SPECIAL_BYSTANDERS, ("special_bystanders",)),
    Group("headline", TB.MAX_HEADLINES, ("fame_headlines",)),
    Group("draft_hero", TB.MAX_DRAFT_POOL, ("draft_pool",), planes=("draft_pass.passed_on",),
          actions=((L.A_DRAFT, 1),)),
)

_SECTION_ROWS = {name: rows for name, _, rows, _, _ in OBS_SECTIONS}


def _features(section: str) -> list[Feature]:
    return [f for f in OBS_FEATURES if f.section == section]


def _plane_keys() -> set[str]:
    return {key for g in GROUPS for key in g.planes}


def row_columns(group: Group) -> np.ndarray:
    """int64 [rows, width]: the observation index of each float of each row of ``group``
    (-1: a float that row does not have, read as 0; row 0 of a shifted section)."""
    planes = _plane_keys()
    cols: list[list[int]] = [[] for _ in range(group.rows)]
    for section in group.sections + group.shifted:
        shift = 1 if section in group.shifted else 0
        if _SECTION_ROWS[section] + shift != group.rows:
            raise ValueError(f"entity {group.name}: section {section} has "
                             f"{_SECTION_ROWS[section]} rows, the entity {group.rows}")
        for f in _features(section):
            if f.key in planes or f.name.startswith("reserved_"):
                continue
            for r in range(group.rows):
                src = r - shift
                cols[r].extend(f.index(src, e) if src >= 0 else -1 for e in range(f.size))
    for key in group.planes:
        fs = [f for f in OBS_FEATURES if f.key == key]
        if len(fs) != 1 or fs[0].size != group.rows:
            raise ValueError(f"entity {group.name}: plane {key} must be one feature of "
                             f"{group.rows} floats")
        f = fs[0]
        for src_row in range(f.rows):
            for r in range(group.rows):
                cols[r].append(f.index(src_row, r))
    return np.array(cols, np.int64)


def context_columns() -> np.ndarray:
    """int64: the observation indices that no entity kind reads, in order (the game-wide
    features: ``global``, the scalars of ``self``, of the variants' blocks...)."""
    used = np.zeros(OBS_DIM, bool)
    for g in GROUPS:
        c = row_columns(g)
        used[c[c >= 0]] = True
    reserved = np.zeros(OBS_DIM, bool)
    for f in OBS_FEATURES:
        if f.name.startswith("reserved_"):
            for r in range(f.rows):
                reserved[f.index(r):f.index(r) + f.size] = True
    return np.flatnonzero(~used & ~reserved)


def action_rows(group: Group) -> np.ndarray:
    """int64 [rows, kinds]: the action that points at row r with each of ``group``'s
    action kinds."""
    return np.array([[first + stride * r for first, stride in group.actions]
                     for r in range(group.rows)], np.int64).reshape(group.rows,
                                                                    len(group.actions))


def context_actions() -> np.ndarray:
    """int64: the actions no entity row points at (scored from the context), in order."""
    pointed = np.zeros(L.N_ACTIONS, bool)
    for g in GROUPS:
        pointed[action_rows(g).ravel()] = True
    return np.flatnonzero(~pointed)


def action_order() -> np.ndarray:
    """int64 [N_ACTIONS]: where each action's logit sits in the concatenation of every
    group's ``[B, rows * kinds]`` logits (group order, row-major) followed by the context
    actions' logits. Every action appears exactly once."""
    where = np.full(L.N_ACTIONS, -1, np.int64)
    pos = 0
    for g in GROUPS:
        acts = action_rows(g).ravel()
        if np.any(where[acts] >= 0):
            raise ValueError(f"entity {g.name}: an action is pointed at twice")
        where[acts] = pos + np.arange(acts.size)
        pos += acts.size
    ctx = context_actions()
    where[ctx] = pos + np.arange(ctx.size)
    assert (where >= 0).all()
    return where
