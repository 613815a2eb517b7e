"""Villain baselines for the Mastermind variant, and a hero team and a villain as one policy.

The villain agent (rules ``villain_agent``) decides at seat ``layout.VILLAIN_SEAT``: which
hand card resolves against a hero (``villain_play``), which card answers an attack on its
revealed space (the same decision, ``showdown``), scheme or inflict at a cunning icon, and
optionally who suffers an inflict. Three baselines:

- ``top_card``: the rulebook's villain deck. Not a policy but a setting: evaluation plays
  the scenario with ``villain_agent`` off (``TOP_CARD``).
- ``random``: uniform over the legal actions (``agents.random_agent.RandomPolicy``).
- ``scripted`` (``ScriptedVillain``), a greedy villain that reads the public state and its
  own hand:

  * **villain turn**: score each hand card and play the best. Every minion icon counts 1,
    plus 3 when the minion supply would run out (a shortage is a crisis); every bystander
    icon 1, plus 2 when the bystander supply is nearly empty; a cunning icon 2 (the villain
    chooses); a special icon 1.5; a Lackey or Peril card 2 plus half its inflict. Once the
    villain is revealed, a card with a Showdown effect loses 2.5: it is kept for the
    showdown.
  * **showdown**: answer with a card that has a Showdown effect, the one worth least on
    the villain turn; with none, the card worth least.
  * **cunning**: scheme (the villain's panel effect pushes its objective), unless the
    inflict would defeat the active hero (a defeat is also a crisis). Measured against
    the heroes of the scripted team, always scheming beat inflicting on every hero on the
    map and scheming only near the objective (docs/mastermind.md).
  * **who suffers an inflict**: the hero nearest to defeat (largest damage share).
  * **enemy movement ties** (``enemy_ties: "villain"``): among tied targets, the space of
    the hero nearest to defeat (largest damage share; a bystander alone counts 0.5, a sure
    capture); among tied next spaces, one with a bystander (captured at once), else the
    one nearest the most wounded hero on the map; lowest space on equal scores.

``VersusPolicy`` joins a hero policy and a villain policy into one ``Policy`` for the
vector env: rows where the villain decides go to the villain, the others to the heroes.
"""

from __future__ import annotations

import numpy as np

from agents.policy import Engine, Policy, check_engine
from hon_env.spec import layout as L
from hon_env.spec.tables import (
    CFG_N_HEROES,
    HS_HEALTH,
    MAX_PLOYS,
    PLOY_BYSTANDER,
    PLOY_CUNNING,
    PLOY_SPECIAL,
    VC_INFLICT,
    VC_NPLOYS,
    VC_PLOY0,
    VC_SHOWDOWN_PROG,
    VC_TYPE,
    VS_SCHEMING_INFLICT,
    VS_SHOWDOWN_INFLICT,
    VT_LACKEY,
    VT_PERIL,
)

TOP_CARD = "top_card"  # the rulebook's deck: evaluate with the villain agent switched off
VILLAIN_BUILTIN = (TOP_CARD, "random", "scripted")


def card_value(state: np.ndarray, T: np.record, c: int) -> float:
    """How much villain card ``c`` hurts the heroes when played on the villain turn now
    (the scripted villain's score; see the module documentation)."""
    value = 0.0
    minions = 0
    for k in range(min(int(T.vcard[c, VC_NPLOYS]), MAX_PLOYS)):
        icon = int(T.vcard[c, VC_PLOY0 + k])
        if icon == PLOY_CUNNING:
            value += 2.0
        elif icon == PLOY_BYSTANDER:
            value += 1.0 + (2.0 if state[L.BYSTANDER_SUPPLY] <= 1 else 0.0)
        elif icon == PLOY_SPECIAL:
            value += 1.5
        elif icon >= 1:
            minions += 1
    value += minions
    if minions and state[L.MINION_SUPPLY] <= minions:
        value += 3.0
    if int(T.vcard[c, VC_TYPE]) in (VT_LACKEY, VT_PERIL):
        value += 2.0 + 0.5 * float(T.vcard[c, VC_INFLICT])
    if state[L.VIL_SIDE] == 1 and T.vcard[c, VC_SHOWDOWN_PROG] >= 0:
        value -= 2.5
    return value


def _hand_cards(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask[L.A_TARGET + L.T_V0:L.A_TARGET + L.T_V0 + L.VDECK])


def _damage_share(row: np.ndarray, T: np.record, h: int) -> float:
    return float(row[L.HDMG + h]) / max(1, int(T.hero_stat[h, row[L.HSIDE + h], HS_HEALTH]))


def _tie_answer(row: np.ndarray, T: np.record, legal: np.ndarray, target: bool) -> int:
    """The scripted villain's answer to an enemy movement tie (module documentation)."""
    heroes = [h for h in range(int(T.cfg[CFG_N_HEROES])) if row[L.HLOC + h] >= 0]
    spaces = [int(a) - L.A_SPACE for a in legal]

    def score(sp: int) -> float:
        bystander = row[L.BYSTANDER_ON + sp] == 1
        if target:
            shares = [_damage_share(row, T, h) for h in heroes if row[L.HLOC + h] == sp]
            return max(shares) if shares else (0.5 if bystander else 0.0)
        if bystander:
            return 2.0
        if not heroes:
            return 0.0
        worst = max(heroes, key=lambda h: _damage_share(row, T, h))
        return -float(T.dist[sp, row[L.HLOC + worst]])

    return L.A_SPACE + max(spaces, key=lambda sp: (score(sp), -sp))


class ScriptedVillain:
    """The greedy villain of the module documentation, as a ``Policy`` for villain rows."""

    name = "scripted_villain"
    needs_engine = True

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        state, tabs = check_engine(engine, masks.shape[0], "ScriptedVillain")
        out = np.empty(masks.shape[0], np.int64)
        for i in range(masks.shape[0]):
            out[i] = self._one(state[i], tabs[state[i, L.TEAM]], masks[i])
        return out

    def _one(self, row: np.ndarray, T: np.record, mask: np.ndarray) -> int:
        kind = int(row[L.DEC_KIND])
        legal = np.flatnonzero(mask)
        if kind == L.D_VPLAY:
            cards = _hand_cards(mask)
            values = np.array([card_value(row, T, int(c)) for c in cards])
            if int(row[L.DEC_B]) == 1:  # showdown: spend the weakest card that answers
                showdown = np.array([T.vcard[c, VC_SHOWDOWN_PROG] >= 0 for c in cards])
                values = np.where(showdown, values - 100.0, values)
                return L.A_TARGET + L.T_V0 + int(cards[np.argmin(values)])
            return L.A_TARGET + L.T_V0 + int(cards[np.argmax(values)])
        if kind == L.D_CUNNING:  # scheme, unless the inflict defeats the active hero
            h = int(row[L.DEC_A])
            if 0 <= h < L.MAX_HEROES and row[L.HLOC + h] >= 0:
                revealed = row[L.VIL_SIDE] == 1
                col = VS_SHOWDOWN_INFLICT if revealed else VS_SCHEMING_INFLICT
                inflict = T.vil_stat[0, col]
                if row[L.HDMG + h] + inflict >= T.hero_stat[h, row[L.HSIDE + h], HS_HEALTH]:
                    return L.A_OPTION + 1
            return L.A_OPTION
        if kind in (L.D_ENEMY_TARGET, L.D_ENEMY_STEP):
            return _tie_answer(row, T, legal, kind == L.D_ENEMY_TARGET)
        if kind == L.D_PICK_HERO:
            nh = int(T.cfg[CFG_N_HEROES])
            heroes = [a for a in legal if L.A_HERO <= a < L.A_HERO + L.MAX_HEROES]
            if heroes:  # HERO k names seat k for the villain (core/mastermind.hero_origin)
                def share(a: int) -> float:
                    h = (a - L.A_HERO) % nh
                    health = T.hero_stat[h, row[L.HSIDE + h], HS_HEALTH]
                    return row[L.HDMG + h] / max(1, health)
                return int(max(heroes, key=share))
        return int(legal[0])


class VersusPolicy:
    """A hero policy and a villain policy as one ``Policy``: each row goes to the side
    whose seat decides (``seats == VILLAIN_SEAT``: the villain)."""

    def __init__(self, heroes: Policy, villain: Policy) -> None:
        self.heroes, self.villain = heroes, villain
        self.name = f"{heroes.name} vs {villain.name}"

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        out = np.empty(masks.shape[0], np.int64)
        villain_rows = np.asarray(seats) == L.VILLAIN_SEAT
        for policy, rows in ((self.heroes, ~villain_rows), (self.villain, villain_rows)):
            idx = np.flatnonzero(rows)
            if idx.size == 0:
                continue
            sub = None if engine is None else (engine[0][idx], engine[1])
            out[idx] = policy.act(observations[idx], masks[idx], seats[idx], engine=sub)
        return out


def load_villain(spec: str, seed: int = 0, device: str = "cpu",
                 greedy: bool = True) -> Policy | str:
    """The villain named by ``spec``: ``"top_card"`` (returned as that string: a setting,
    see ``TOP_CARD``), ``"random"``, ``"scripted"``, or a checkpoint path of a trained
    villain (``scripts/train_villain.py``, a MaskablePPO ``.zip``)."""
    if spec == TOP_CARD:
        return TOP_CARD
    if spec == "scripted":
        return ScriptedVillain()
    from agents.registry import load_policy

    if spec == "random" or spec.endswith((".zip", ".pt")):
        return load_policy(spec, seed=seed, device=device, greedy=greedy)
    raise ValueError(f"unknown villain {spec!r}: expected one of {VILLAIN_BUILTIN} or a "
                     "checkpoint path")
