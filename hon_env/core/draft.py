"""The Draft variant: the seats choose their heroes inside the episode, then the game is set
up for the team they chose (``content/draft.py`` compiles the rule, ``docs/variants.md``
explains it).

A draft scenario's tables are stacked, one row per ORDERED team of different pool heroes
(lexicographic, ``content/draft.draft_teams``); every row carries the draft settings
(``CFG_DRAFT_*``) and the pool (``draft_roster``). A drafting game has ``drafting`` = 1 and
no game set up yet: its pending decision is ``D_DRAFT`` for seat ``draft_step``. When the
last seat has picked, ``init_game`` sets the game up on the row of the chosen team from
the episode seed, exactly as a game created with that team and seed, and the draft record
(``draft_*`` fields) is written back with ``team`` = that row.

``draft_step`` counts the picks made. In modes deal and pick seat ``k`` makes pick ``k``.
Mode pass (seed 002) seats two heroes per player, player ``p`` on seats ``2p`` and
``2p + 1``: picks ``0 .. P-1`` are the players' keeps (seat ``2p`` keeps one hero of the
``offer`` dealt to it), then every hero not kept passes to the next player's second seat,
and picks ``P .. 2P-1`` are the second heroes (seat ``2p + 1`` takes one of what it was
passed; the rest leave the game). ``draft_offer`` holds, for each pool hero, the seat
(plus one) whose offer it is in: in every mode a seat takes only from its own offer.
The seed passes one hero to the left and one to the right; here the heroes not kept go to
the next player, which is the same with two players (both neighbours are one player) and
needs no decision. Three players fit the row limit only with an offer of 2 (one hero to
pass), so no game here has two neighbours to choose between.

The draft's random draws (the deal, a random team) come from a stream of their own, a
salted hash of the episode seed: the game's generator is never touched.

``start_episode`` and ``step_episode`` are the entry points every front end uses, with or
without a draft.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.core.interp import apply_action
from hon_env.core.positions import refresh
from hon_env.core.rng import _fmix32
from hon_env.core.setup import init_game
from hon_env.core.teams import pick_team
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

_DRAFT_SALT = 0x0D2AF7ED  # separates the draft's stream from the game's, teams' and headlines'
_M32 = 0xFFFFFFFF


@njit(cache=True)
def _draw(seed, k):
    """The ``k``-th 32-bit word of the draft stream of episode ``seed``."""
    seed = int(seed)
    h = _fmix32(((seed & _M32) ^ _DRAFT_SALT) & _M32)
    h = _fmix32((h ^ ((seed >> 32) & _M32)) & _M32)
    return _fmix32((h + 0x9E3779B9 * (k + 1)) & _M32)


@njit(cache=True)
def _shuffled_pool(seed, m):
    """The pool indices ``0..m-1`` in an order drawn from the draft stream (Fisher-Yates)."""
    order = np.arange(m)
    for i in range(m - 1, 0, -1):
        j = (_draw(seed, i) * (i + 1)) >> 32
        order[i], order[j] = order[j], order[i]
    return order


@njit(cache=True)
def _perm(a, k):
    """Ordered choices of ``k`` of ``a`` items: a (a-1) ... (a-k+1)."""
    out = 1
    for j in range(k):
        out *= a - j
    return out


@njit(cache=True)
def team_rank(s, b, m, n):
    """Row of the ordered team in game ``b``'s ``draft_pick`` among every ordered team of
    ``n`` different heroes of a pool of ``m`` (lexicographic order); reads the state only."""
    rank = 0
    used = 0
    for j in range(n):
        p = s[b, L.DRAFT_PICK + j] - 1
        smaller = 0
        for q in range(p):
            if (used >> q) & 1 == 0:
                smaller += 1
        rank += smaller * _perm(m - j - 1, n - j - 1)
        used |= 1 << p
    return rank


@njit(cache=True)
def draft_seat(step, n_heroes, mode):
    """The seat that makes pick ``step`` of a draft with ``n_heroes`` seats (mode pass:
    the players' keeps on the even seats, then their second heroes on the odd seats)."""
    if mode != TB.DRAFT_PASS:
        return step
    per = TB.SEATS_PER_PLAYER
    players = n_heroes // per
    if step < players:
        return per * step
    return per * (step - players) + 1


@njit(cache=True)
def draft_mask(s, b, T, mask):
    """Write the legal mask of game ``b``'s pending draft decision: the heroes its seat may
    take (its own offer in modes deal and pass, every untaken pool hero in mode pick).
    Reads the state's draft fields and ``T.cfg``."""
    mask[:] = 0
    mode = T.cfg[TB.CFG_DRAFT_MODE]
    seat = draft_seat(s[b, L.DRAFT_STEP], T.cfg[TB.CFG_N_HEROES], mode)
    own_offer = mode == TB.DRAFT_DEAL or mode == TB.DRAFT_PASS
    for i in range(T.cfg[TB.CFG_DRAFT_POOL]):
        if s[b, L.DRAFT_OWNER + i] != 0:
            continue
        if own_offer and s[b, L.DRAFT_OFFER + i] != seat + 1:
            continue
        mask[L.A_DRAFT + i] = 1


@njit(cache=True)
def _decide(s, b, T, mask):
    """Pose the next draft decision (the seat of pick ``draft_step``) and write its mask."""
    s[b, L.DEC_KIND] = L.D_DRAFT
    s[b, L.DEC_HERO] = draft_seat(s[b, L.DRAFT_STEP], T.cfg[TB.CFG_N_HEROES],
                                  T.cfg[TB.CFG_DRAFT_MODE])
    s[b, L.DEC_A] = 0
    s[b, L.DEC_B] = 0
    draft_mask(s, b, T, mask)


@njit(cache=True)
def _take(s, b, seat, i):
    """Seat ``seat`` takes pool hero ``i`` (one more pick made)."""
    s[b, L.DRAFT_OWNER + i] = seat + 1
    s[b, L.DRAFT_PICK + seat] = i + 1
    s[b, L.DRAFT_STEP] += 1


@njit(cache=True)
def _pass_on(s, b, T):
    """Mode pass, after the last keep: every hero still in player ``p``'s offer (seat
    ``2p``) moves to the offer of the next player's second seat."""
    per = TB.SEATS_PER_PLAYER
    players = T.cfg[TB.CFG_N_HEROES] // per
    for i in range(T.cfg[TB.CFG_DRAFT_POOL]):
        holder = s[b, L.DRAFT_OFFER + i] - 1
        if s[b, L.DRAFT_OWNER + i] == 0 and holder >= 0:
            nxt = (holder // per + 1) % players
            s[b, L.DRAFT_OFFER + i] = (per * nxt + 1) + 1  # its second seat, stored + 1


@njit(cache=True, inline="always")
def _finish(s, b, tabs, mask):
    """Every seat has picked: set the game up on the chosen team's row from the episode
    seed (``init_game`` zeroes the row), then write the draft record back and ``team``."""
    T = tabs[0]
    n = T.cfg[TB.CFG_N_HEROES]
    row = team_rank(s, b, T.cfg[TB.CFG_DRAFT_POOL], n)
    keep = s[b, L.DRAFT_STEP:L.DRAFT_PICK + L.MAX_HEROES].copy()
    seed = (np.int64(s[b, L.DRAFT_SEED]) & _M32) | (
        (np.int64(s[b, L.DRAFT_SEED + 1]) & _M32) << 32)
    init_game(s, b, tabs[row], seed, mask)
    s[b, L.DRAFT_STEP:L.DRAFT_PICK + L.MAX_HEROES] = keep
    s[b, L.DRAFTING] = 0
    s[b, L.TEAM] = row


@njit(cache=True, inline="always")
def draft_start(s, b, tabs, seed, mask):
    """Start game ``b``'s episode with a draft: zero the row, keep the seed, deal the offers
    (mode deal) from the draft stream and pose seat 0's ``D_DRAFT`` decision. Mode random
    draws an ordered team at once and sets the game up (no decision). Writes row ``b`` and
    ``mask``; reads ``tabs[0]`` (every row has the same draft settings)."""
    T = tabs[0]
    for k in range(L.STATE_LEN):
        s[b, k] = 0
    seed = int(seed)
    s[b, L.DRAFTING] = 1
    s[b, L.CHOICE] = -1
    lo = seed & _M32
    hi = (seed >> 32) & _M32
    s[b, L.DRAFT_SEED] = lo - (1 << 32) if lo >= (1 << 31) else lo
    s[b, L.DRAFT_SEED + 1] = hi - (1 << 32) if hi >= (1 << 31) else hi
    n = T.cfg[TB.CFG_N_HEROES]
    order = _shuffled_pool(seed, T.cfg[TB.CFG_DRAFT_POOL])
    mode = T.cfg[TB.CFG_DRAFT_MODE]
    if mode == TB.DRAFT_RANDOM:
        for h in range(n):
            _take(s, b, h, order[h])
        _finish(s, b, tabs, mask)
        return
    k = T.cfg[TB.CFG_DRAFT_OFFER]
    if mode == TB.DRAFT_DEAL:
        for h in range(n):
            for j in range(k):
                s[b, L.DRAFT_OFFER + order[h * k + j]] = h + 1
    elif mode == TB.DRAFT_PASS:  # to each player's first seat
        for p in range(n // TB.SEATS_PER_PLAYER):
            for j in range(k):
                s[b, L.DRAFT_OFFER + order[p * k + j]] = TB.SEATS_PER_PLAYER * p + 1
    _decide(s, b, T, mask)


@njit(cache=True, inline="always")
def draft_apply(s, b, tabs, action, mask):
    """Answer game ``b``'s draft decision with ``action`` (take pool hero
    ``action - A_DRAFT``); in mode pass the last keep passes the rest on (``_pass_on``);
    the last pick sets the game up (``_finish``). Returns ``apply_action``'s codes: 0
    applied, 1 illegal (nothing changes), 3 engine error."""
    if s[b, L.ERROR] != 0:
        return 3
    if action < 0 or action >= L.N_ACTIONS or mask[action] == 0:
        return 1
    T = tabs[0]
    n = T.cfg[TB.CFG_N_HEROES]
    mode = T.cfg[TB.CFG_DRAFT_MODE]
    _take(s, b, draft_seat(s[b, L.DRAFT_STEP], n, mode), action - L.A_DRAFT)
    if mode == TB.DRAFT_PASS and s[b, L.DRAFT_STEP] == n // TB.SEATS_PER_PLAYER:
        _pass_on(s, b, T)
    if s[b, L.DRAFT_STEP] == n:
        _finish(s, b, tabs, mask)
    else:
        _decide(s, b, T, mask)
    return 0


@njit(cache=True, inline="always")
def start_episode(s, b, tabs, seed, mask):
    """Start game ``b``'s episode from ``seed``: a draft when the tables have the draft rule,
    else ``init_game`` on the row ``pick_team`` draws (row 0 for one scenario). Writes row
    ``b`` (``team`` included) and ``mask``; returns the row the game plays now."""
    if tabs[0].cfg[TB.CFG_DRAFT_MODE] != TB.DRAFT_OFF:
        draft_start(s, b, tabs, seed, mask)
        return s[b, L.TEAM]
    team = pick_team(seed, tabs.shape[0])
    init_game(s, b, tabs[team], seed, mask)
    s[b, L.TEAM] = team
    return team


@njit(cache=True, inline="always")
def step_episode(s, b, tabs, action, mask):
    """Answer game ``b``'s pending decision: a draft pick while it drafts, else
    ``apply_action`` on its team's row. Returns ``apply_action``'s codes."""
    if s[b, L.DRAFTING] != 0:
        return draft_apply(s, b, tabs, action, mask)
    return apply_action(s, b, tabs[s[b, L.TEAM]], action, mask)


@njit(cache=True, inline="always")
def refresh_episode(s, b, tabs, mask):
    """Recompute game ``b``'s legal mask from its state (a draft decision or the game's)."""
    if s[b, L.DRAFTING] != 0:
        draft_mask(s, b, tabs[0], mask)
    else:
        refresh(s, b, tabs[s[b, L.TEAM]], mask)
