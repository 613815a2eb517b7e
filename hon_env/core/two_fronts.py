"""The Two Fronts variant: two villains on one board, each hero facing one of them.

Switched on by two villains in a scenario (``content/two_fronts.py`` sets
``CFG_N_VILLAINS`` to 2); with one villain nothing here runs and the game is the
rulebook's. ``docs/variants.md`` (Two Fronts) gives the rules and the plan.

The second villain's state mirrors the first's: its Villain-card fields sit at
``VIL_STRIDE`` from the first's (``vil_col``), its deck order at ``DECK_STRIDE``, and its
deck cards are villain card slots ``[VDECK, VCARDS)``. The interpreter reaches this module
through ``F_FACE`` (the facing choice at setup); what facing changes during the game is in
``core/facing.py``.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.facing import facing_count, hero_count_for, two_villains, vil_col
from hon_env.core.queries import scaled
from hon_env.core.rng import shuffle_slice
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def set_villain_values(s, b, T, v):
    """Write villain ``v``'s Showdown health and Scheming danger for its hero count."""
    n = hero_count_for(s, b, T, v)
    s[b, vil_col(L.VIL_HEALTH, v)] = scaled(T.vil_stat[v, TB.VS_HEALTH],
                                            T.vil_stat[v, TB.VS_HEALTH_PH], n)
    s[b, vil_col(L.VIL_DANGER, v)] = scaled(T.vil_stat[v, TB.VS_DANGER],
                                            T.vil_stat[v, TB.VS_DANGER_PH], n)


@njit(cache=True)
def setup_second_villain(s, b, T):
    """Setup step 3 for the second villain: its deck (scaling cards removed by the whole
    team's size, as the first's), its figure Scheming in panel 2.

    Writes villain card slots ``[VDECK, VCARDS)``, VDECK2_* and the VIL2_* fields; its
    hidden tokens and per-hero values follow the facing choice (``open_fronts``). With one
    villain its slots are only marked removed and its owner cleared, so the rulebook's game
    draws nothing from the random stream here.
    """
    s[b, L.VIL2_OWNER] = -1
    for i in range(TB.VDECK, TB.VCARDS):
        s[b, L.VLOC + i] = L.L_REMOVED
        s[b, L.VOWNER + i] = -1
        s[b, L.VPOS + i] = -1
        s[b, L.VATTACH + i] = -1
    if not two_villains(T):
        return
    nh = T.cfg[TB.CFG_N_HEROES]
    n = 0
    for i in range(TB.VDECK, TB.VCARDS):
        scaling = T.vcard[i, TB.VC_SCALING]
        removed = T.vcard[i, TB.VC_PRESENT] == 0 or (scaling == 1 and nh == 1) or (
            scaling == 5 and nh >= 5)
        if not removed:
            s[b, L.VLOC + i] = L.L_DECK
            s[b, L.VDECK2_ORDER + n] = i - TB.VDECK
            n += 1
    s[b, L.VDECK2_N] = n
    shuffle_slice(s, b, L.VDECK2_ORDER, n)
    s[b, L.VIL2_LOC] = T.scheme_space[2]
    s[b, L.VIL2_IN_PANEL] = 1


@njit(cache=True)
def face_mask(s, b, T, h, out):
    """Legal answers of D_FACE for hero ``h``: OPTION v faces villain v. The last hero to
    choose must face a villain nobody faces yet (003 §GAME SETUP: each villain is faced
    by one hero at least). Writes ``out`` (already zeroed); returns (count, last legal)."""
    nh = T.cfg[TB.CFG_N_HEROES]
    n = 0
    last = -1
    for v in range(TB.VILLAINS):
        # seats after h have not chosen yet: only the choices of seats [0, h) count
        forced_other = h == nh - 1 and facing_count(s, b, 1 - v, h) == 0
        if not forced_other:
            last = L.A_OPTION + v
            out[last] = 1
            n += 1
    return n, last


@njit(cache=True)
def open_fronts(s, b, T):
    """After the facing choice: deal the hidden tokens and set both villains' values.

    Each hero's Scheme card (or nemesis) puts its hidden token on the villain that hero
    faces, so the tokens are the rulebook's count split between the villains. Reads HFACE,
    the Scheme cards and nemeses dealt; writes VIL_HIDDEN, VIL2_HIDDEN and both villains'
    health and danger.
    """
    nh = T.cfg[TB.CFG_N_HEROES]
    n_schemes = T.cfg[TB.CFG_N_SCHEMES]
    for v in range(TB.VILLAINS):
        s[b, vil_col(L.VIL_HIDDEN, v)] = 0
    for h in range(nh):
        tokens = 1 if h < n_schemes else 0
        for k in range(TB.NEMESES):
            if s[b, L.NEM_CARD + k] >= 0 and s[b, L.NEM_OWNER + k] == h:
                tokens += 1
        s[b, vil_col(L.VIL_HIDDEN, s[b, L.HFACE + h])] += tokens
    for v in range(TB.VILLAINS):
        set_villain_values(s, b, T, v)


@njit(cache=True)
def face_villain(s, b, T, h, v):
    """Hero ``h`` now faces villain ``v`` (turning around, or its villain defeated): the
    per-hero values of both Villain cards follow the new hero counts. A change of count
    never defeats or solves a Villain card by itself: damage and justice already placed
    stay below the new health and danger (engine.md #50)."""
    s[b, L.HFACE + h] = v
    for w in range(TB.VILLAINS):
        set_villain_values(s, b, T, w)
        for placed, value in ((L.VIL_DAMAGE, L.VIL_HEALTH), (L.VIL_JUSTICE, L.VIL_DANGER)):
            cap = s[b, vil_col(value, w)]
            if cap != TB.DASH:
                col = vil_col(placed, w)
                s[b, col] = max(0, min(s[b, col], cap - 1))


@njit(cache=True)
def take_hidden_token(s, b, T, h):
    """A Scheme side was solved by hero ``h``: one hidden token leaves a Villain card.

    With one villain, its card (never below 0). With two, the villain ``h`` faces, or the
    other one when that villain has none left, so the tokens on both cards always equal
    the unsolved Scheme sides (docs/variants.md, Two Fronts).
    """
    v = 0
    if two_villains(T) and h >= 0:
        v = s[b, L.HFACE + h]
        if s[b, vil_col(L.VIL_HIDDEN, v)] == 0:
            v = 1 - v
    col = vil_col(L.VIL_HIDDEN, v)
    s[b, col] = max(0, s[b, col] - 1)
