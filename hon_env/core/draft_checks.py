"""Checks of the Draft variant's state fields (``core/draft.py``), for
``core/validate.py`` (a state from outside) and ``core/invariants.py`` (debug mode)."""

from __future__ import annotations

import math

import numpy as np

from hon_env.core.draft import draft_seat
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

# fields a drafting row may hold besides the draft's own: everything else is still zero
_DRAFTING_FIELDS = ("dec_kind", "dec_hero", "choice", "drafting", "draft_step", "draft_seed",
                    "draft_offer", "draft_owner", "draft_pick")


def draft_rows(T: np.record) -> int:
    """Rows of the stacked tables of a draft with these settings (1 without the rule)."""
    if T.cfg[TB.CFG_DRAFT_MODE] == TB.DRAFT_OFF:
        return 1
    return math.perm(int(T.cfg[TB.CFG_DRAFT_POOL]), int(T.cfg[TB.CFG_N_HEROES]))


def draft_problems(row: np.ndarray, T: np.record, mask: np.ndarray | None = None) -> list[str]:
    """What is wrong with the draft fields of state ``row`` (``[STATE_LEN]``), as phrases.

    A hero is taken by at most one seat and each seat's pick is the hero it owns; in modes
    deal and pass a seat takes only from its own offer, and the offers hold ``offer``
    heroes per seat (deal) or per player, the heroes not kept on the next player's second
    seat once every player has kept one (pass); the seats that picked are those of the
    first ``draft_step`` picks (``core/draft.draft_seat``); while drafting the rest of the
    row is a game not yet set up and the mask offers exactly the heroes the seat may take.
    """
    mode = int(T.cfg[TB.CFG_DRAFT_MODE])
    out: list[str] = []
    draft = row[L.DRAFTING:L.DRAFT_PICK + L.MAX_HEROES]
    if mode == TB.DRAFT_OFF:
        if draft.any():
            out.append("draft fields set in a game without the draft rule")
        return out
    nh, m = int(T.cfg[TB.CFG_N_HEROES]), int(T.cfg[TB.CFG_DRAFT_POOL])
    drafting = bool(row[L.DRAFTING])
    step = int(row[L.DRAFT_STEP])
    offer = row[L.DRAFT_OFFER:L.DRAFT_OFFER + L.MAX_DRAFT_POOL]
    owner = row[L.DRAFT_OWNER:L.DRAFT_OWNER + L.MAX_DRAFT_POOL]
    pick = row[L.DRAFT_PICK:L.DRAFT_PICK + L.MAX_HEROES]
    if not drafting and step != nh:
        out.append(f"draft over after {step} of {nh} picks")
    if step > nh:
        out.append(f"draft_step {step} above the {nh} seats")
    if offer[m:].any() or owner[m:].any():
        out.append("draft offer or owner set past the pool")
    if pick[nh:].any():
        out.append("draft pick set for a seat past the heroes")
    picked = {int(draft_seat(k, nh, mode)) for k in range(min(step, nh))}
    own_offer = mode in (TB.DRAFT_DEAL, TB.DRAFT_PASS)
    for h in range(nh):
        p = int(pick[h]) - 1
        if (h in picked) != (p >= 0):
            out.append(f"seat {h} pick {p} does not match draft_step {step}")
        elif p >= m:
            out.append(f"seat {h} picked hero {p} outside the pool of {m}")
        elif p >= 0 and owner[p] != h + 1:
            out.append(f"seat {h} picked hero {p}, owned by seat {int(owner[p]) - 1}")
        elif p >= 0 and own_offer and offer[p] != h + 1:
            out.append(f"seat {h} took hero {p} from outside its own offer")
    if int((owner > 0).sum()) != step:
        out.append(f"{int((owner > 0).sum())} pool heroes owned after {step} picks")
    if (owner > nh).any() or (offer > nh).any():
        out.append("draft offer or owner names a seat past the heroes")
    if mode == TB.DRAFT_DEAL:
        k = int(T.cfg[TB.CFG_DRAFT_OFFER])
        for h in range(nh):
            if int((offer == h + 1).sum()) != k:
                out.append(f"seat {h} was dealt {int((offer == h + 1).sum())} heroes, not {k}")
    elif mode == TB.DRAFT_PASS:
        out += _pass_offer_problems(offer, owner, nh, int(T.cfg[TB.CFG_DRAFT_OFFER]), step)
    elif offer.any():
        out.append(f"draft offers in mode {mode} (only deal and pass deal)")
    if drafting:
        if mode == TB.DRAFT_RANDOM:
            out.append("a random draft never waits for a decision")
        seat = int(draft_seat(step, nh, mode))
        if row[L.DEC_KIND] != L.D_DRAFT or row[L.DEC_HERO] != seat:
            out.append(f"drafting but the decision is {int(row[L.DEC_KIND])} of seat "
                       f"{int(row[L.DEC_HERO])}, not draft of seat {seat}")
        for name in L.FIELDS:
            if name not in _DRAFTING_FIELDS and L.field_view(row[None], name).any():
                out.append(f"field {name} set while drafting (no game is set up yet)")
                break
        if mask is not None and step < nh:
            legal = np.zeros(L.N_ACTIONS, bool)
            for i in range(m):
                if owner[i] == 0 and (not own_offer or offer[i] == seat + 1):
                    legal[L.A_DRAFT + i] = True
            if not np.array_equal(legal, mask.astype(bool)):
                out.append("the mask does not offer exactly the heroes the seat may take")
    return out


def _pass_offer_problems(offer: np.ndarray, owner: np.ndarray, nh: int, k: int,
                         step: int) -> list[str]:
    """Mode pass: before the players have all kept a hero, each player's first seat holds
    its ``k`` dealt heroes; after, it holds the one it kept and the next player's second
    seat holds the other ``k - 1``."""
    out = []
    per = TB.SEATS_PER_PLAYER
    if nh % per:
        out.append(f"a pass draft seats {per} heroes per player, not {nh}")
        return out
    passed = step >= nh // per
    for h in range(nh):
        held = int((offer == h + 1).sum())
        second = h % per == 1
        want = (0 if second else k) if not passed else (k - 1 if second else 1)
        if held != want:
            out.append(f"seat {h} holds {held} dealt heroes, not {want}")
    return out
