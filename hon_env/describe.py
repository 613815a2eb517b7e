"""Human-readable names: every action index, actions in context, decisions and targets,
and which card an action or target is (``action_card``, ``target_card``: a ``CardRef`` whose
rules text ``hon_env.content.card_text.card_text`` gives)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hon_env.content import Scenario, load_scenario
from hon_env.content.card_text import CardRef
from hon_env.content.villain_agent import VILLAIN_AGENT
from hon_env.spec import layout as L
from hon_env.spec.tables import (
    CFG_FOCUS_TO_FLIP,
    CFG_N_SPACES,
    CFG_TOUGHNESS,
    FORM_MECH,
    HS_FORM,
)

FEAT_KIND_NAMES = ("mobility", "strength", "deduction")


def hero_label(sc: Scenario, seat: int) -> str:
    """How a seat is named in action descriptions: the hero's name, or its agent name
    (``majesty_2``) when that name is shared by several seats."""
    if seat == L.VILLAIN_SEAT:
        return VILLAIN_AGENT
    if not 0 <= seat < len(sc.hero_names):
        return "?"
    name = sc.hero_names[seat]
    return sc.seat_names[seat] if sc.hero_names.count(name) > 1 else name


def target_name(sc: Scenario, t: int, row: np.ndarray | None = None) -> str:
    """Name of a target in the ``T_*`` numbering; with a state ``row`` ([STATE_LEN]) a
    nemesis slot is named by the card dealt to it, on its current side. A crisis slot is
    named by the crisis card added there (Crisis Cards rule). With two villains a villain
    card is followed by its villain's name."""
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        names = sc.villain_card_names
        name = (names[c] if c < len(names) else "") or f"villain card {c}"
        return f"{name} ({sc.villain_names[c // L.VDECK]})" if sc.two_fronts else name
    if t == L.T_VILLAIN2:
        return sc.villain_names[1] if sc.two_fronts else "second villain (none)"
    if t < L.T_VILLAIN:
        return sc.issue_card_names[t - L.T_I0] or f"issue card {t - L.T_I0}"
    if t == L.T_VILLAIN:
        return sc.villain_name
    if t < L.T_MINION:
        k = t - L.T_NEM0
        card = int(row[L.NEM_CARD + k]) if row is not None else -1
        if card < 0:
            return f"nemesis {k + 1}"
        return sc.nemesis_side_names[card][int(row[L.NEM_SIDE + k] > 0)]
    if t == L.T_MINION:
        return "minions"
    if t == L.T_CAPTURED:
        return "captured bystanders"
    if t >= L.T_CRISIS0:
        k = t - L.T_CRISIS0
        if k < len(sc.crisis_card_names):
            return sc.crisis_card_names[k]
        return f"crisis card {k + 1}"
    seat = t - L.T_ALLY0
    name = sc.ally_names[seat] if seat < len(sc.ally_names) else ""
    return f"{name} (ally)" if name else f"ally of seat {seat}"


def target_card(sc: Scenario, t: int, row: np.ndarray | None = None) -> CardRef | None:
    """The card a target in the ``T_*`` numbering is, or None for a token (minions,
    captured bystanders) or an empty slot; a nemesis slot needs the state ``row``
    ([STATE_LEN]) to know the card dealt to it."""
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        return CardRef("villain_card", c) if c < len(sc.villain_card_names) else None
    if t == L.T_VILLAIN2:
        return CardRef("villain", 1) if sc.two_fronts else None
    if t < L.T_VILLAIN:
        return CardRef("issue_card", t - L.T_I0) if sc.issue_card_names[t - L.T_I0] else None
    if t == L.T_VILLAIN:
        return CardRef("villain", 0)
    if t < L.T_MINION:
        card = int(row[L.NEM_CARD + t - L.T_NEM0]) if row is not None else -1
        return CardRef("nemesis", card) if card >= 0 else None
    if t in (L.T_MINION, L.T_CAPTURED):
        return None
    if t >= L.T_CRISIS0:
        k = t - L.T_CRISIS0
        return CardRef("crisis", k) if k < len(sc.crisis_card_names) else None
    seat = t - L.T_ALLY0
    return CardRef("ally", seat) if seat < len(sc.ally_names) and sc.ally_names[seat] else None


def action_card(sc: Scenario, row: np.ndarray, action: int) -> CardRef | None:
    """The card ``action`` names as an answer to the decision pending in ``row``
    ([STATE_LEN]): the hand card played, used, sent back or discarded, the clue used,
    the card targeted, the hero drafted; the Hero card for its ability or for becoming
    Focused. None for an action that names no card (a move, a pass...)."""
    seg, k = segment_of(action)
    h = int(row[L.DEC_HERO])
    hero = 0 <= h < sc.n_heroes
    if seg in ("play", "card", "feat") and hero:
        c = k // L.N_FEAT_KINDS if seg == "feat" else k
        return CardRef("hero_card", c, h) if c < len(sc.hero_card_names[h]) else None
    if seg == "use" and hero:
        if k == L.USE_HERO_CARD:
            return CardRef("hero", h)
        if k == L.USE_ALLY_CARD:
            return CardRef("ally", h) if sc.ally_names[h] else None
        return CardRef("hero_card", k, h)
    if seg == "focus" and hero:
        return CardRef("hero", h)
    if seg == "clue":
        return CardRef("clue", k) if k < len(sc.clue_names) else None
    if seg in ("target", "target2"):
        return target_card(sc, k if seg == "target" else L.T_W0 + k, row)
    if seg == "draft":
        pool = sc.draft_heroes
        return CardRef("draft", k) if k < len(pool) else None
    return None


def space_name(sc: Scenario, sp: int) -> str:
    """A space's label, with the panel name for a scheme space."""
    if sp < 0 or sp >= len(sc.space_labels):
        return f"space {sp}"
    label = sc.space_labels[sp]
    t = sc.tables
    if t.space_kind[sp] == 5:
        return f"{label} ({sc.panel_names[t.space_arg[sp]]} panel)"
    return label


def action_meanings(sc: Scenario | str) -> list[str]:
    """A name for every index of the flat action space (context-free), on the board of
    ``sc``: a compiled ``Scenario`` or a scenario id."""
    if isinstance(sc, str):
        sc = load_scenario(sc)
    elif not isinstance(sc, Scenario):
        raise TypeError(f"action_meanings takes a Scenario or a scenario id, got {sc!r} "
                        f"({type(sc).__name__})")
    n_spaces = int(sc.tables.cfg[CFG_N_SPACES])

    def at(seg: str, k: int) -> str:
        return f"{seg} {space_name(sc, k) if k < n_spaces else f'space {k} (unused)'}"

    # the name of index k of each segment
    namers: dict[str, Callable[[int], str]] = {
        "pass": lambda k: "pass",
        "draw": lambda k: "draw",
        "space": lambda k: at("space", k),
        "attack": lambda k: at("attack", k),
        "solve": lambda k: at("solve", k),
        "play": lambda k: f"play card {k}",
        "card": lambda k: f"card card {k}",
        "use": lambda k: ("use hero card ability" if k == L.USE_HERO_CARD
                          else "use ally card ability" if k == L.USE_ALLY_CARD
                          else f"use card {k}"),
        "feat": lambda k: f"feat {FEAT_KIND_NAMES[k % 3]} discarding card {k // 3}",
        "clue": lambda k: f"clue {sc.clue_names[k]}",
        "focus": lambda k: "become focused",
        "option": lambda k: f"option {k}",
        "target": lambda k: f"target {target_name(sc, k)}",
        "target2": lambda k: f"target {target_name(sc, L.T_W0 + k)}",
        "turn": lambda k: "turn around to face the other villain",
        "hero": lambda k: "hero: yourself" if k == 0 else f"hero: {k} seats on",
        "draft": lambda k: f"take {draft_hero(sc, k)}",
    }
    names = [namers[seg](k) for seg, _start, size in L.SEGMENTS for k in range(size)]
    assert len(names) == L.N_ACTIONS
    return names


def draft_hero(sc: Scenario, k: int) -> str:
    """The id of hero ``k`` of the draft pool (the Draft variant), or ``pool hero k``."""
    pool = sc.draft_heroes
    return pool[k] if k < len(pool) else f"pool hero {k} (unused)"


def segment_of(action: int) -> tuple[str, int]:
    """(segment name, index inside the segment) of a flat action."""
    for seg, start, size in L.SEGMENTS:
        if start <= action < start + size:
            return seg, action - start
    raise ValueError(f"action {action} is outside [0, {L.N_ACTIONS})")


def _pass_text(row, kind: int, hero: str, h: int) -> str:
    """The pass action as the answer to decision ``kind``."""
    return {
        L.D_MAIN: f"{hero}: yield the initiative" if row[L.HACTIONS + h] > 0
        else f"{hero}: end actions, begin threat phase",
        L.D_MULLIGAN: f"{hero}: keep hand",
        L.D_MOVE: f"{hero}: stop moving",
        L.D_CLUE_DICE: f"{hero}: roll",
        L.D_DAMAGE: f"{hero}: suffer {int(row[L.DEC_A])} damage",
        L.D_DISCARD_OR_DAMAGE: f"{hero}: suffer {int(row[L.DEC_A])} damage",
    }.get(kind, f"{hero}: pass")


def _space_text(sc: Scenario, row, kind: int, hero: str, ally: str, k: int) -> str:
    """Space ``k`` as the answer to decision ``kind`` (``ally``: the ally figure moves)."""
    if kind in (L.D_ENEMY_TARGET, L.D_ENEMY_STEP):
        mover = target_name(sc, int(row[L.DEC_A]), row)
        if kind == L.D_ENEMY_TARGET:
            return f"{hero}: {mover} moves toward the target on {space_name(sc, k)}"
        return f"{hero}: {mover} steps to {space_name(sc, k)}"
    if ally:
        return f"{ally}: move to {space_name(sc, k)}"
    verb = {L.D_MAIN: "move to", L.D_MOVE: "step to", L.D_PLACE: "place figure in",
            L.D_RESCUE: "rescue at"}.get(kind, "choose")
    return f"{hero}: {verb} {space_name(sc, k)}"


def _option_text(sc: Scenario, kind: int, hero: str, k: int) -> str:
    """Option ``k`` of decision ``kind``."""
    if kind == L.D_CUNNING:
        return f"{hero}: cunning: the villain " + ("schemes" if k == 0 else "inflicts you")
    if kind == L.D_FOCUS_SPEND:
        return f"{hero}: spend {k} focus for {k} more successes"
    if kind == L.D_FACE and k < len(sc.villain_names):
        return f"{hero}: face {sc.villain_names[k]} (villain {k + 1})"
    return f"{hero}: option {k}"


def action_to_string(sc: Scenario, row, action: int) -> str:
    """Describe ``action`` as an answer to the decision pending in state ``row`` ([STATE_LEN])."""
    seg, k = segment_of(action)
    kind = int(row[L.DEC_KIND])
    h = int(row[L.DEC_HERO])
    if seg == "draft":
        seat = sc.seat_names[h] if 0 <= h < sc.n_heroes else f"seat {h}"
        return f"{seat}: take {draft_hero(sc, k)} (draft)"
    hero = hero_label(sc, h)
    cards = sc.hero_card_names[h] if 0 <= h < len(sc.hero_card_names) else ()
    card = cards[k] if seg in ("play", "card") and k < len(cards) else ""
    if seg == "pass":
        return _pass_text(row, kind, hero, h)
    if seg == "draw":
        return f"{hero}: draw 1 card (action)"
    ally = ""
    if int(row[L.DEC_B]) == 1 and kind in (L.D_PLACE, L.D_ATTACK_SPACE, L.D_SOLVE_SPACE):
        ally = sc.ally_names[h] if 0 <= h < len(sc.ally_names) else ""
        ally = f"{ally or 'ally'} ({hero}'s ally)"
    if seg == "space":
        return _space_text(sc, row, kind, hero, ally, k)
    if seg == "attack":
        return f"{ally or hero}: attack {space_name(sc, k)}"
    if seg == "solve":
        return f"{ally or hero}: solve at {space_name(sc, k)}"
    if seg == "play":
        return f"{hero}: play {card}"
    if seg == "use":
        what = ("Hero card" if k == L.USE_HERO_CARD
                else f"Ally card {sc.ally_names[h]}" if k == L.USE_ALLY_CARD else cards[k])
        return f"{hero}: use ability of {what}"
    if seg == "feat":
        return f"{hero}: discard {cards[k // 3]} for a {FEAT_KIND_NAMES[k % 3]} feat"
    if seg == "clue":
        verb = "add the dice of" if kind == L.D_CLUE_DICE else "use"
        return f"{hero}: {verb} clue {sc.clue_names[k]}"
    if seg == "focus":
        cost = int(sc.tables.cfg[CFG_FOCUS_TO_FLIP])
        if 0 <= h < len(sc.hero_names) and sc.tables.hero_stat[h, 1, HS_FORM] == FORM_MECH:
            return f"{hero}: discard {cost} focus to board the mech (flip to the mech side)"
        return f"{hero}: discard {cost} focus to become Focused"
    if seg == "option":
        return _option_text(sc, kind, hero, k)
    if seg in ("target", "target2"):
        verb = {L.D_ASSIGN: "put the next success on"}.get(kind, "target")
        if kind == L.D_PICK_HERO:
            verb = "the inflict goes to"
        t = k if seg == "target" else L.T_W0 + k
        return f"{hero}: {verb} {target_name(sc, t, row)}"
    if seg == "turn":
        names = sc.villain_names
        other = 1 - int(row[L.HFACE + h]) if 0 <= h < L.MAX_HEROES else 0
        return (f"{hero}: turn around to face {names[other]} (villain {other + 1}; an action)"
                if other < len(names) else f"{hero}: turn around")
    if seg == "hero":
        n = len(sc.hero_names)
        other = hero_label(sc, (h + k) % n) if k < n else "?"
        return f"{hero}: choose {other}"
    verb = {L.D_MULLIGAN: "send back", L.D_DISCARD_OR_DAMAGE: "discard",
            L.D_DAMAGE: f"discard for toughness (-{int(sc.tables.cfg[CFG_TOUGHNESS])})"}
    return f"{hero}: {verb.get(kind, 'choose')} {card}"

