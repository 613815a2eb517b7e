"""The observation's ``draft``, ``draft_pool`` and ``draft_pass`` sections (the Draft
variant; zeros without it). Only what the observing seat may know: in modes deal and pass
its own offer (pass: its player's, both seats), and the other seats' picks once the game
is set up."""

from __future__ import annotations

from numba import njit

from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec import tables as TB


@njit(cache=True)
def encode_draft(s, b, T, view, out):
    """Write the draft sections of seat ``view``'s observation of game ``b`` into ``out``
    (left as they are, zero, without the draft rule). Reads the state's draft fields and
    ``T.cfg``/``T.draft_roster``."""
    mode = T.cfg[TB.CFG_DRAFT_MODE]
    if mode == TB.DRAFT_OFF:
        return
    nh = T.cfg[TB.CFG_N_HEROES]
    drafting = s[b, L.DRAFTING] != 0
    passing = mode == TB.DRAFT_PASS
    # a seat's player: mode pass seats two heroes per player, the others one
    per = TB.SEATS_PER_PLAYER if passing else 1
    me = view // per
    o = F.OFF_DRAFT
    out[o + F.DR_ON] = 1.0
    if not passing:  # the mode one-hot predates mode pass, which has its own section
        out[o + F.DR_MODE + mode - TB.DRAFT_RANDOM] = 1.0
    if drafting:
        out[o + F.DR_DRAFTING] = 1.0
        if s[b, L.DEC_HERO] == view:
            out[o + F.DR_DECIDING] = 1.0
    out[o + F.DR_PICKED] = s[b, L.DRAFT_STEP] / 6.0
    out[o + F.DR_SEAT + view] = 1.0
    dealt = mode == TB.DRAFT_DEAL or passing
    hidden = drafting and dealt
    players = nh // per
    passed = passing and s[b, L.DRAFT_STEP] >= players
    if passing:
        q = F.OFF_DRAFT_PASS
        out[q + F.DS_ON] = 1.0
        out[q + F.DS_PLAYER + me] = 1.0
        out[q + F.DS_SECOND] = view % per
        if passed:
            out[q + F.DS_PASSED] = 1.0
    for i in range(T.cfg[TB.CFG_DRAFT_POOL]):
        r = F.OFF_DRAFT_POOL + i * F.DRAFT_POOL_FEATS
        out[r + F.DP_PRESENT] = 1.0
        hero = T.draft_roster[i]
        if hero >= 0:
            out[r + F.DP_HERO + hero] = 1.0
        owner = s[b, L.DRAFT_OWNER + i] - 1
        holder = s[b, L.DRAFT_OFFER + i] - 1
        # mode pass: what is held by the next player's second seat came from self's player
        if passed and holder >= 0 and holder % per == 1 and (holder // per - 1) % players == me:
            out[F.OFF_DRAFT_PASS + F.DS_PASSED_ON + i] = 1.0
        if owner >= 0 and (owner // per == me or not hidden):
            out[r + F.DP_TAKEN_BY + (owner - view) % nh] = 1.0
        elif owner < 0 and dealt and drafting and holder >= 0 and holder // per == me:
            out[r + F.DP_WHERE] = 1.0
        elif owner < 0 and mode == TB.DRAFT_PICK and drafting:
            out[r + F.DP_WHERE + 1] = 1.0
        else:
            out[r + F.DP_WHERE + 2] = 1.0
