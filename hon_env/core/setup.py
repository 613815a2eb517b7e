"""Game setup (rulebook: Setup), written into one state row, then run to the first decision.

Fixed choices where the rulebook lets the players choose: hero figures stand on the start
space and then the empty spaces nearest it, in seat order; the Scheme cards are dealt in
seat order from a shuffled pile; nemeses go to the heroes without a Scheme card in seat
order, then (Nemesis rule) to the hero with the fewest threat-area cards.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.effects import initial_bystanders
from hon_env.core.facing import two_villains
from hon_env.core.fame import deal_headlines
from hon_env.core.geometry import nearest_empty, nearest_empty_map
from hon_env.core.interp import run
from hon_env.core.queries import scaled
from hon_env.core.rng import randint, seed_rng, shuffle_slice
from hon_env.core.stack import F_FACE, F_MULLIGAN, F_NEMESIS_SETUP, F_ROUND, push, push_prog
from hon_env.core.two_fronts import setup_second_villain
from hon_env.core.zones import fewest_threats, hero_draw
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def deal_nemeses(s, b, T):
    """5-6 players step 1 and the Nemesis rule: ``CFG_N_NEMESES`` nemesis cards, Scheme side
    up, into threat areas (their figures are placed later, by F_NEMESIS_SETUP).

    Reads the Scheme cards already dealt; writes NEM_CARD and NEM_OWNER. The cards are drawn
    at random from the pool when it holds more than needed, else taken in pool order (so a
    chosen list of nemeses is dealt as listed). Heroes without a Scheme card get one each,
    in seat order; a nemesis added by the Nemesis rule goes to the hero with the fewest
    threat-area cards (lowest seat on ties).
    """
    n_nem = T.cfg[TB.CFG_N_NEMESES]
    pool = T.cfg[TB.CFG_NEMESIS_POOL]
    for k in range(n_nem):
        c = k
        if pool > n_nem:
            r = randint(s, b, pool - k)  # the r-th card of the pool not dealt yet
            for j in range(pool):
                taken = False
                for m in range(k):
                    taken = taken or s[b, L.NEM_CARD + m] == j
                if not taken:
                    if r == 0:
                        c = j
                        break
                    r -= 1
        s[b, L.NEM_CARD + k] = c
        # heroes without a Scheme card hold 0 cards, so they come first, in seat order
        s[b, L.NEM_OWNER + k] = fewest_threats(s, b, T)


# the per-seat, per-card and per-nemesis fields whose "none" is -1 (no space, no owner, no
# card), as (first column, length): a fresh game starts them empty
_NONE_AT_START = (
    (L.HLOC, L.MAX_HEROES), (L.ALLY_LOC, L.MAX_HEROES),
    (L.VOWNER, L.VDECK), (L.VPOS, L.VDECK), (L.VATTACH, L.VDECK),
    (L.IOWNER, L.IDECK), (L.IPOS, L.IDECK),
    (L.NEM_CARD, TB.NEMESES), (L.NEM_OWNER, TB.NEMESES), (L.NEM_POS, TB.NEMESES),
)


@njit(cache=True, inline="always")
def init_game(s, b, T, seed, mask):
    """Write a fresh game into row ``b`` from ``seed`` and run it to the first decision.

    Reads the scenario tables ``T``; writes row ``b`` of ``s`` and the legal ``mask``.
    Inlined where it is called, like the other links between an entry kernel and the
    interpreter (``interp.run``, ``draft.start_episode``...): a jitted function of its own
    would have numba optimise and generate the whole interpreter's code once more.
    """
    deal_game(s, b, T, seed)
    run(s, b, T, mask)


@njit(cache=True)
def deal_game(s, b, T, seed):
    """Write a fresh game into row ``b`` from ``seed``: the board, decks and supplies, and
    the setup decisions and effects on the stack, up to the first round (``init_game``
    then runs it). Reads the scenario tables ``T``; writes row ``b`` of ``s``.
    """
    for k in range(L.STATE_LEN):
        s[b, k] = 0
    seed_rng(s, b, seed)
    deal_headlines(s, b, T, seed)  # the Fame variant's own stream: the game's is untouched
    nh = T.cfg[TB.CFG_N_HEROES]
    s[b, L.TURN] = L.TURN_SETUP
    s[b, L.CHOICE] = -1
    s[b, L.DEC_KIND] = L.D_NONE
    s[b, L.ROLL_SHOWDOWN] = -1
    s[b, L.VIL_OWNER] = -1
    s[b, L.VIL2_OWNER] = -1  # before anything counts threat-area cards (deal_nemeses)
    for first, n in _NONE_AT_START:
        s[b, first:first + n] = -1

    # 2a. board: bystanders on their spaces (special figures mixed in), heroes at and around
    # the start space
    initial_bystanders(s, b, T)
    for h in range(nh):
        s[b, L.HLOC + h] = nearest_empty(s, b, T, T.cfg[TB.CFG_START_SPACE], False, -1)
    # the Allies rule: each ally figure next to its hero (the nearest empty map space,
    # lowest index on ties: the rulebook leaves the players to choose among adjacent spaces)
    for h in range(nh):
        if T.ally[h, TB.AL_PRESENT] == 1:
            s[b, L.ALLY_LOC + h] = nearest_empty_map(s, b, T, s[b, L.HLOC + h])

    # 1b/1d. hero decks shuffled, opening hands drawn (the mulligan is a decision below)
    for h in range(nh):
        for c in range(TB.HERO_DECK):
            s[b, L.HCLOC + h * TB.HERO_DECK + c] = L.L_DECK
            s[b, L.HDECK_ORDER + h * TB.HERO_DECK + c] = c
        s[b, L.HDECK_N + h] = TB.HERO_DECK
        shuffle_slice(s, b, L.HDECK_ORDER + h * TB.HERO_DECK, TB.HERO_DECK)
        for _ in range(T.cfg[TB.CFG_HAND_SIZE]):
            hero_draw(s, b, h)

    # 2c. one Scheme card per hero, at random; the others leave the game
    n_schemes = T.cfg[TB.CFG_N_SCHEMES]
    pile = L.IDECK_ORDER  # borrow the issue deck order columns as a shuffle buffer
    for i in range(n_schemes):
        s[b, pile + i] = i
    shuffle_slice(s, b, pile, n_schemes)
    for k in range(n_schemes):
        i = s[b, pile + k]
        if k < nh:
            s[b, L.ILOC + i] = L.L_THREAT
            s[b, L.IOWNER + i] = k
            s[b, L.IPOS + i] = T.scheme_space[T.icard[i, TB.IC_PANEL]]
        else:
            s[b, L.ILOC + i] = L.L_REMOVED
    # 2d. the issue deck: the other issue cards, shuffled
    n = 0
    for i in range(L.IDECK):
        if T.icard[i, TB.IC_PRESENT] == 1 and T.icard[i, TB.IC_TYPE] == TB.IT_ISSUE:
            s[b, L.ILOC + i] = L.L_DECK
            s[b, L.IDECK_ORDER + n] = i
            n += 1
        elif T.icard[i, TB.IC_PRESENT] == 0:
            s[b, L.ILOC + i] = L.L_REMOVED
    s[b, L.IDECK_N] = n
    shuffle_slice(s, b, L.IDECK_ORDER, n)
    deal_nemeses(s, b, T)

    # 3. villain: scaling removal, Scheming side in panel 1, hidden tokens, shuffled deck
    n = 0
    for i in range(L.VDECK):
        scaling = T.vcard[i, TB.VC_SCALING]
        removed = T.vcard[i, TB.VC_PRESENT] == 0 or (scaling == 1 and nh == 1) or (
            scaling == 5 and nh >= 5)
        if removed:
            s[b, L.VLOC + i] = L.L_REMOVED
        else:
            s[b, L.VLOC + i] = L.L_DECK
            s[b, L.VDECK_ORDER + n] = i
            n += 1
    s[b, L.VDECK_N] = n
    shuffle_slice(s, b, L.VDECK_ORDER, n)
    s[b, L.VIL_LOC] = T.scheme_space[1]
    s[b, L.VIL_IN_PANEL] = 1
    # one hidden token per hero: each hero holds a Scheme card (or, with 5-6 heroes, a
    # nemesis), and solving each one removes a token, so count what was dealt
    s[b, L.VIL_HIDDEN] = min(nh, n_schemes) + T.cfg[TB.CFG_N_NEMESES]
    vs = T.vil_stat[0]
    s[b, L.VIL_HEALTH] = scaled(vs[TB.VS_HEALTH], vs[TB.VS_HEALTH_PH], nh)
    s[b, L.VIL_DANGER] = scaled(vs[TB.VS_DANGER], vs[TB.VS_DANGER_PH], nh)
    # Two Fronts: the second villain in panel 2 (its tokens and values follow the facing)
    setup_second_villain(s, b, T)

    # Crisis Cards rule: a crisis card with a danger value puts its crisis token on the map
    # (tokens are not figures: the space may hold anything); the others have no token
    for k in range(TB.MAX_CRISES):
        present = T.crisis[k, TB.CR_PRESENT] == 1 and T.crisis[k, TB.CR_DANGER] > 0
        s[b, L.CRISIS_POS + k] = T.crisis[k, TB.CR_TOKEN] if present else -1

    # 4. supplies and the clue deck
    s[b, L.MINION_SUPPLY] = T.cfg[TB.CFG_MINIONS]
    for j in range(TB.SPECIAL_MINIONS):  # each special Minion card swaps in its 5 figures
        s[b, L.SMIN_SUPPLY + j] = TB.SPECIAL_MINION_TOKENS if T.smin[j, TB.SM_PRESENT] == 1 else 0
    n = 0
    for i in range(TB.CLUE_DECK):
        if T.clue[i, TB.CL_PRESENT] == 1:
            s[b, L.CLUE_LOC + i] = -1
            s[b, L.CLUE_ORDER + n] = i
            n += 1
        else:
            s[b, L.CLUE_LOC + i] = -3
    s[b, L.CLUE_N] = n
    shuffle_slice(s, b, L.CLUE_ORDER, n)

    # the decisions and effects of setup, then the first round; the nemesis figures come
    # last, after the rest of setup (5-6 players step 1); with two villains each hero
    # chooses the villain it faces after the mulligans, in seat order (003 §GAME SETUP)
    s[b, L.ACTIVE] = 0
    push(s, b, F_ROUND, 0, 0, 0, -1, -1)
    if T.cfg[TB.CFG_N_NEMESES] > 0:
        push(s, b, F_NEMESIS_SETUP, 0, 0, 0, -1, -1)
    if two_villains(T):
        for h in range(nh - 1, -1, -1):
            push(s, b, F_FACE, 0, 0, 0, h, -1)
    for h in range(nh - 1, -1, -1):
        push(s, b, F_MULLIGAN, 0, 0, 0, h, -1)
    # after the issue's Setup effect come the special Minion cards', the special Bystander
    # cards', then the crisis cards' (added to the issue play area after the issue is set
    # up); pushed in reverse
    for k in range(TB.MAX_CRISES - 1, -1, -1):
        if T.crisis[k, TB.CR_PRESENT] == 1:
            push_prog(s, b, T, T.crisis[k, TB.CR_SETUP_PROG], 0, -1)
    for j in range(TB.SPECIAL_BYSTANDERS - 1, -1, -1):
        if T.sby[j, TB.SB_PRESENT] == 1:
            push_prog(s, b, T, T.sby[j, TB.SB_SETUP_PROG], 0, -1)
    for j in range(TB.SPECIAL_MINIONS - 1, -1, -1):
        if T.smin[j, TB.SM_PRESENT] == 1:
            push_prog(s, b, T, T.smin[j, TB.SM_SETUP_PROG], 0, -1)
    push_prog(s, b, T, T.cfg[TB.CFG_SETUP_PROG], 0, -1)
