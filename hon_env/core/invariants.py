"""State invariants, checked over a whole batch with numpy (tests and debugging).

``violations(state, tables, masks)`` returns human-readable problems, empty when the
batch is consistent: every card in exactly one zone and every deck's order matching its
zone, supplies conserved and never negative, focus within its cap, damage below health
(a pilot's set-aside damage too, and only while in the mech), nemeses dealt as configured
and standing where their side says, one hidden token per unsolved Scheme side, no win
while a nemesis remains, special minion and special bystander figures conserved card by
card, a non-empty mask owned by a seated hero in every running game, and the Fame
variant's bookkeeping (each attributable event counter equals the sum of the heroes' own
counters; headlines dealt once, finished in order, as the rule says).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hon_env.core.draft_checks import draft_problems
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


def _reporter(out: list[str]) -> Callable[[np.ndarray, str], None]:
    """``bad(cond, what)``: append ``what`` and the first games where ``cond`` holds."""
    def bad(cond: np.ndarray, what: str) -> None:
        idx = np.flatnonzero(cond)
        if idx.size:
            out.append(f"{what}: games {idx[:8].tolist()}")
    return bad


def _deck_matches(order: np.ndarray, n: np.ndarray, zone: np.ndarray, in_deck: int) -> np.ndarray:
    """Per game: the first n entries of order are exactly the cards whose zone is in_deck.

    Vectorised over the batch (the soak and the debug mode run it after every step): each
    card's count among the listed entries must be 1 where its zone is the deck, else 0.
    """
    B, cap = zone.shape
    width = order.shape[1]
    listed = np.arange(width)[None, :] < n[:, None]
    valid = (order >= 0) & (order < cap)
    ok = (n >= 0) & (n <= width) & ~(listed & ~valid).any(axis=1)
    keys = (np.arange(B)[:, None] * cap + order)[listed & valid]
    counts = np.bincount(keys, minlength=B * cap).reshape(B, cap)
    return ok & (counts == (zone == in_deck)).all(axis=1)


def violations(state: np.ndarray, T: TB.Tables, masks: np.ndarray | None = None) -> list[str]:
    """Check every game of a ``[B, STATE_LEN]`` batch; return a list of violations."""
    drafting = state[:, L.DRAFTING] != 0
    draft_out = [f"game {i}: {p}" for i in range(state.shape[0])
                 for p in draft_problems(state[i], T, None if masks is None or not drafting[i]
                                         else masks[i])]
    if drafting.any():  # a game still drafting has no game set up: only its draft is checked
        rest = np.flatnonzero(~drafting)
        draft_out = [p for p in draft_out if drafting[int(p.split()[1].rstrip(":"))]]
        if rest.size == 0:
            return draft_out
        return draft_out + violations(state[rest], T, None if masks is None else masks[rest])
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    nh = int(T.cfg[TB.CFG_N_HEROES])

    bad = _reporter(out)

    for h in range(nh):
        bad(~_deck_matches(f("hdeck_order")[:, h], f("hdeck_n")[:, h], f("hcloc")[:, h],
                           L.L_DECK), f"hero {h} deck order != cards in deck")
        side = f("hside")[:, h]
        health = T.hero_stat[h, side, TB.HS_HEALTH]
        bad(f("hdmg")[:, h] >= health, f"hero {h} damage >= health")
        bad(f("hdmg")[:, h] < 0, f"hero {h} negative damage")
        aside = f("hpilot_dmg")[:, h]
        in_mech = T.hero_stat[h, side, TB.HS_FORM] == TB.FORM_MECH
        bad((aside != 0) & ~in_mech, f"hero {h} has pilot damage set aside outside a mech")
        bad((aside < 0) | (aside >= T.hero_stat[h, 0, TB.HS_HEALTH]),
            f"hero {h} set-aside pilot damage outside [0, pilot health)")
        bad((f("hfocus")[:, h] < 0) | (f("hfocus")[:, h] > T.cfg[TB.CFG_FOCUS_CAP]),
            f"hero {h} focus outside [0, cap]")
    # each villain's deck order lists its own card slots (Two Fronts: slots from VDECK are
    # the second villain's, all removed with one villain)
    vloc = f("vloc")
    bad(~_deck_matches(f("vdeck_order"), f("vdeck_n"), vloc[:, :TB.VDECK], L.L_DECK),
        "villain deck order != cards in deck")
    bad(~_deck_matches(f("vdeck2_order"), f("vdeck2_n"), vloc[:, TB.VDECK:], L.L_DECK),
        "second villain deck order != its cards in deck")
    bad(~_deck_matches(f("ideck_order"), f("ideck_n"), f("iloc"), L.L_DECK),
        "issue deck order != cards in deck")
    clue_zone = np.where(f("clue_loc") == -1, 0, 1)
    present = T.clue[:, TB.CL_PRESENT] == 1
    clue_zone[:, ~present] = 2
    bad(~_deck_matches(f("clue_order"), f("clue_n"), clue_zone, 0),
        "clue deck order != cards in deck")

    minions = f("minion_supply") + f("minions").sum(axis=1)
    bad(minions != T.cfg[TB.CFG_MINIONS], "minions not conserved")
    bad(f("minion_supply") < 0, "negative minion supply")
    bystanders = (f("bystander_supply") + f("bystander_on").sum(axis=1)
                  + f("captured").sum(axis=1) + f("bystanders_defeated"))
    bad(bystanders != T.cfg[TB.CFG_BYSTANDERS], "bystanders not conserved")
    bad(f("bystander_supply") < 0, "negative bystander supply")
    bad((f("vil_damage") > f("vil_health")) & (f("outcome") == L.OUT_ONGOING),
        "villain damage above health in a running game")
    running = f("outcome") == L.OUT_ONGOING
    if T.cfg[TB.CFG_N_VILLAINS] >= 2:
        out += _two_fronts_violations(state, T, running)
    out += _nemesis_violations(state, T, running)
    out += _special_minion_violations(state, T)
    out += _ally_violations(state, T)
    out += _crisis_violations(state, T)
    out += _special_bystander_violations(state, T, running)
    out += _fame_violations(state, T)
    if masks is not None:
        bad(running & (masks.sum(axis=1) == 0), "running game with an empty mask")
        bad(~running & (masks.sum(axis=1) != 0), "finished game with a non-empty mask")
    villain = (f("dec_hero") == L.VILLAIN_SEAT) & (T.cfg[TB.CFG_VHAND] > 0)  # Mastermind
    bad(running & ~villain & ((f("dec_hero") < 0) | (f("dec_hero") >= nh)),
        "decider outside the seats")
    held = (f("vloc") == L.L_HAND).sum(axis=1)
    bad(held > T.cfg[TB.CFG_VHAND], "villain holds more cards than its hand allows")
    bad(running & (f("dec_kind") == L.D_NONE), "running game without a pending decision")
    return out + draft_out


def _nemesis_violations(state: np.ndarray, T: TB.Tables, running: np.ndarray) -> list[str]:
    """Nemeses (rulebook: Playing with 5-6 Players, Nemeses) and the hidden tokens."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    nh = int(T.cfg[TB.CFG_N_HEROES])

    bad = _reporter(out)

    card, owner, side = f("nem_card"), f("nem_owner"), f("nem_side")
    pos, dmg, just = f("nem_pos"), f("nem_dmg"), f("nem_just")
    bad((card >= 0).sum(axis=1) != T.cfg[TB.CFG_N_NEMESES], "nemeses dealt != CFG_N_NEMESES")
    bad(((card < -1) | (card >= T.cfg[TB.CFG_NEMESIS_POOL])).any(axis=1),
        "nemesis card outside the pool")
    placed = f("turn") != L.TURN_SETUP  # figures are placed at the end of setup
    for k in range(TB.NEMESES):
        c = np.maximum(card[:, k], 0)
        alive = (card[:, k] >= 0) & (owner[:, k] >= 0)
        gone = (card[:, k] >= 0) & (owner[:, k] < 0)
        bad(alive & (owner[:, k] >= nh), f"nemesis {k} owner outside the seats")
        bad(gone & (pos[:, k] != -1), f"defeated nemesis {k} still on the board")
        sp = np.maximum(pos[:, k], 0)
        kind = T.space_kind[sp]
        bad(alive & placed & ((pos[:, k] < 0) | (kind == TB.SP_NONE)),
            f"nemesis {k} figure not on a space")
        bad(alive & placed & (side[:, k] == 0) & (kind != TB.SP_SCHEME),
            f"scheming nemesis {k} not in a scheme panel")
        n_h = np.where(T.nemesis[c, TB.NM_HEALTH_PH] == 1, nh, 1) * T.nemesis[c, TB.NM_HEALTH]
        n_d = np.where(T.nemesis[c, TB.NM_DANGER_PH] == 1, nh, 1) * T.nemesis[c, TB.NM_DANGER]
        bad(alive & (side[:, k] == 1) & (T.nemesis[c, TB.NM_HEALTH] != TB.DASH)
            & (dmg[:, k] >= n_h),
            f"nemesis {k} damage >= health")
        bad(alive & (side[:, k] == 0) & (T.nemesis[c, TB.NM_DANGER] != TB.DASH)
            & (just[:, k] >= n_d),
            f"nemesis {k} justice >= danger")
        for j in range(k + 1, TB.NEMESES):
            both = alive & (card[:, j] >= 0) & (owner[:, j] >= 0) & (side[:, k] == 1)
            bad(both & (side[:, j] == 1) & (pos[:, k] == pos[:, j]),
                f"nemeses {k} and {j} share a space")
    alive_all = (card >= 0) & (owner >= 0)
    bad((f("outcome") == L.OUT_WIN) & alive_all.any(axis=1), "a win while a nemesis remains")
    # one hidden token per Scheme side not yet solved: Scheme cards and nemesis Schemes
    schemes = T.icard[:, TB.IC_TYPE] == TB.IT_SCHEME
    unsolved = ((f("iloc") == L.L_THREAT) & (f("iside") == 0) & schemes).sum(axis=1)
    unsolved += (alive_all & (side == 0)).sum(axis=1)
    # (Two Fronts: split between the two Villain cards; vil2_hidden is 0 with one villain)
    bad(f("vil_hidden") + f("vil2_hidden") != unsolved, "hidden tokens != unsolved Scheme sides")
    bad(running & (f("vil_side") == 1) & alive_all.any(axis=1)
        & (f("vil_damage") >= f("vil_health")), "villain at 0 health while a nemesis remains")
    return out


def _two_fronts_violations(state: np.ndarray, T: TB.Tables, running: np.ndarray) -> list[str]:
    """Two Fronts: each hero faces an undefeated villain, both undefeated villains are faced
    by a hero at least, a defeated villain has no card in play, the second Villain card's
    damage stays below its health, and only a game with both villains defeated is won."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    bad = _reporter(out)
    nh = int(T.cfg[TB.CFG_N_HEROES])
    face = f("hface")[:, :nh]
    vil_out = f("vil_out")
    bad(((face < 0) | (face > 1)).any(axis=1), "a hero faces no villain")
    faced_out = np.take_along_axis(vil_out, np.clip(face, 0, 1), axis=1) == 1
    bad(running & faced_out.any(axis=1), "a hero faces a defeated villain")
    both = (vil_out == 0).all(axis=1)
    setup_done = f("turn") != 0  # the facing choice is made during setup
    for v in range(TB.VILLAINS):
        bad(running & both & setup_done & ~(face == v).any(axis=1),
            f"villain {v + 1} is faced by no hero")
        in_play = np.isin(f("vloc")[:, v * TB.VDECK:(v + 1) * TB.VDECK], (L.L_THREAT, L.L_ATTACHED))
        bad((vil_out[:, v] == 1) & in_play.any(axis=1),
            f"defeated villain {v + 1} has cards in play")
    bad((f("vil2_damage") > f("vil2_health")) & running,
        "second villain damage above health in a running game")
    bad((f("outcome") == L.OUT_WIN) & ~(vil_out == 1).all(axis=1),
        "a win with a villain undefeated")
    return out


def _special_minion_violations(state: np.ndarray, T: TB.Tables) -> list[str]:
    """Special minions (rulebook: Special Minions, Minion Cards): each card's 5 figures are
    conserved, they are a part of the minion counts, and kept damage stays below health."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    bad = _reporter(out)

    supply, panels, dmg = f("smin_supply"), f("smin"), f("smin_dmg")
    for j in range(TB.SPECIAL_MINIONS):
        present = T.smin[j, TB.SM_PRESENT] == 1
        total = supply[:, j] + panels[:, :, j].sum(axis=1)
        bad(total != (TB.SPECIAL_MINION_TOKENS if present else 0),
            f"special minions {j} not conserved")
        bad(supply[:, j] < 0, f"negative special minion {j} supply")
        bad((panels[:, :, j] < 0).any(axis=1), f"negative special minions {j} in a panel")
        bad(((dmg[:, :, j] > 0) & (panels[:, :, j] == 0)).any(axis=1),
            f"damage kept on special minions {j} in a panel without any")
        bad(((dmg[:, :, j] < 0) | (dmg[:, :, j] >= max(1, T.smin[j, TB.SM_HEALTH]))).any(axis=1),
            f"special minion {j} damage outside [0, health)")
    bad(supply.sum(axis=1) > f("minion_supply"), "more special minions than minions in supply")
    bad((panels.sum(axis=2) > f("minions")).any(axis=1),
        "more special minions than minions in a panel")
    return out


def _special_bystander_violations(state: np.ndarray, T: TB.Tables,
                                  running: np.ndarray) -> list[str]:
    """Special bystanders (rulebook: Special Bystanders): each card's 4 figures are
    conserved (supply + map + captured + defeated; a rescued one is back in the supply),
    they are a part of the bystander counts, and no card effect is left queued while a
    decision is pending."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    bad = _reporter(out)

    supply, on, capt, dead = f("sby_supply"), f("sby_on"), f("sby_capt"), f("sby_defeated")
    for j in range(TB.SPECIAL_BYSTANDERS):
        present = T.sby[j, TB.SB_PRESENT] == 1
        total = supply[:, j] + (on == j).sum(axis=1) + capt[:, :, j].sum(axis=1) + dead[:, j]
        bad(total != (TB.SPECIAL_BYSTANDER_TOKENS if present else 0),
            f"special bystanders {j} not conserved")
        bad((supply[:, j] < 0) | (dead[:, j] < 0) | (capt[:, :, j] < 0).any(axis=1),
            f"negative special bystanders {j}")
    bad(((on < -1) | (on >= TB.SPECIAL_BYSTANDERS)).any(axis=1), "special bystander card unknown")
    bad(((on >= 0) & (f("bystander_on") != 1)).any(axis=1),
        "special bystander on a space without a bystander")
    bad(supply.sum(axis=1) > f("bystander_supply"),
        "more special bystanders than bystanders in supply")
    bad((capt.sum(axis=2) > f("captured")).any(axis=1),
        "more special bystanders than captives in a panel")
    bad(dead.sum(axis=1) > f("bystanders_defeated"),
        "more special bystanders defeated than bystanders")
    bad(running & (f("sby_qn") != 0), "special bystander effects left queued")
    return out


def _ally_violations(state: np.ndarray, T: TB.Tables) -> list[str]:
    """Allies (rulebook: Ally Cards and Figures): a figure only for a hero with an Ally
    card, on a map space outside the scheme panels, alone there, with damage below its
    health; a defeated ally (figure gone) stays gone."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    bad = _reporter(out)
    nh = int(T.cfg[TB.CFG_N_HEROES])
    loc, dmg = f("ally_loc"), f("ally_dmg")
    placed = f("turn") != L.TURN_SETUP
    heroes = f("hloc")[:, :nh]
    for h in range(L.MAX_HEROES):
        present = h < nh and T.ally[h, TB.AL_PRESENT] == 1
        on = loc[:, h] >= 0
        if not present:
            bad(on, f"ally figure {h} without an Ally card")
            continue
        kind = T.space_kind[np.maximum(loc[:, h], 0)]
        bad(on & ((kind == TB.SP_NONE) | (kind == TB.SP_SCHEME)), f"ally {h} not on a map space")
        bad(on & (dmg[:, h] >= T.ally[h, TB.AL_HEALTH]), f"ally {h} damage >= health")
        bad(~on & placed & (dmg[:, h] != T.ally[h, TB.AL_HEALTH]),
            f"ally {h} off the map without being defeated")
        bad(on & (heroes == loc[:, h:h + 1]).any(axis=1), f"ally {h} shares a hero's space")
        for o in range(h + 1, nh):
            bad(on & (loc[:, o] == loc[:, h]), f"allies {h} and {o} share a space")
    return out


def _crisis_violations(state: np.ndarray, T: TB.Tables) -> list[str]:
    """Crisis cards (rulebook: Crisis Cards, Problem Cards): a crisis card with a danger
    value has its crisis token on its printed space until it is solved, then neither token
    nor justice; one without a danger value never has either and never leaves play."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    bad = _reporter(out)
    nh = int(T.cfg[TB.CFG_N_HEROES])

    pos, just, gone = f("crisis_pos"), f("crisis_just"), f("crisis_out")
    for k in range(TB.MAX_CRISES):
        problem = T.crisis[k, TB.CR_PRESENT] == 1 and T.crisis[k, TB.CR_DANGER] > 0
        danger = T.crisis[k, TB.CR_DANGER] * (nh if T.crisis[k, TB.CR_DANGER_PH] else 1)
        bad((gone[:, k] != 0) & (gone[:, k] != 1), f"crisis {k} solved flag not 0/1")
        if not problem:
            bad((pos[:, k] != -1) | (just[:, k] != 0) | (gone[:, k] != 0),
                f"crisis {k} without a danger value has a token, justice or left play")
            continue
        in_play = gone[:, k] == 0
        bad(in_play & (pos[:, k] != T.crisis[k, TB.CR_TOKEN]),
            f"crisis {k} token not on its printed space while in play")
        bad(~in_play & ((pos[:, k] != -1) | (just[:, k] != 0)),
            f"solved crisis {k} still has its token or justice")
        bad((just[:, k] < 0) | (just[:, k] >= danger), f"crisis {k} justice outside [0, danger)")
    return out


def _fame_violations(state: np.ndarray, T: TB.Tables) -> list[str]:
    """The Fame variant's fields (core/fame.py): attribution conserved, headlines sane."""
    f = lambda name: L.field_view(state, name)  # noqa: E731
    out: list[str] = []
    bad = _reporter(out)
    hev, events = f("hev"), f("events")
    for e in L.HERO_EVENTS:
        bad(hev[:, :, e].sum(axis=1) != events[:, e],
            f"heroes' own {L.EVENT_NAMES[e]} do not add up to the team counter")
    for e in set(range(L.N_EVENTS)) - set(L.HERO_EVENTS):
        name = L.EVENT_NAMES[e] if e < len(L.EVENT_NAMES) else f"event {e}"
        bad(hev[:, :, e].any(axis=1), f"a hero counts {name}, a team-only event")
    rows = f("headline")
    dealt = (rows >= 0).sum(axis=1)
    bad(dealt != min(int(T.fame[TB.FM_HEADLINES]), int(T.fame[TB.FM_POOL]), TB.MAX_HEADLINES),
        "headlines dealt differ from the rule's count")
    for k in range(TB.MAX_HEADLINES):
        for j in range(k + 1, TB.MAX_HEADLINES):
            bad((rows[:, k] >= 0) & (rows[:, k] == rows[:, j]), "a headline dealt twice")
    rank, done = f("headline_rank"), f("headline_done")
    bad(((rank > 0).sum(axis=2) != done).any(axis=1), "headline finishers != ranks given")
    ranks_ok = np.sort(rank, axis=2)[:, :, ::-1]
    expect = np.maximum(done[:, :, None] - np.arange(TB.MAX_HEROES)[None, None, :], 0)
    bad((ranks_ok != expect).any(axis=(1, 2)), "headline ranks are not 1..finishers")
    return out
