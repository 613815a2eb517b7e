"""Game setup (rulebook: Setup), written into one state row, then run to the first decision.

Fixed choices where the rulebook lets the players choose: hero figures stand on the start
space and then the empty spaces nearest it, in seat order; the Scheme cards are dealt in
seat order from a shuffled pile; nemeses go to the heroes without a Scheme card in seat
order, then (Nemesis rule) to the hero with the fewest threat-area cards.
"""

from __future__ import annotations

from numba import njit

from hon_env.content.tables import (
    AL_PRESENT,
    CFG_HAND_SIZE,
    CFG_MINIONS,
    CFG_N_HEROES,
    CFG_N_NEMESES,
    CFG_N_SCHEMES,
    CFG_NEMESIS_POOL,
    CFG_SETUP_PROG,
    CFG_START_SPACE,
    CL_PRESENT,
    CLUE_DECK,
    CR_DANGER,
    CR_PRESENT,
    CR_SETUP_PROG,
    CR_TOKEN,
    HERO_DECK,
    IC_PANEL,
    IC_PRESENT,
    IC_TYPE,
    IT_ISSUE,
    MAX_CRISES,
    NEMESES,
    SB_PRESENT,
    SB_SETUP_PROG,
    SM_PRESENT,
    SM_SETUP_PROG,
    SPECIAL_BYSTANDERS,
    SPECIAL_MINION_TOKENS,
    SPECIAL_MINIONS,
    VC_PRESENT,
    VC_SCALING,
    VS_DANGER,
    VS_DANGER_PH,
    VS_HEALTH,
    VS_HEALTH_PH,
)
from hon_env.core.effects import initial_bystanders
from hon_env.core.geometry import nearest_empty, nearest_empty_map
from hon_env.core.interp import F_MULLIGAN, F_NEMESIS_SETUP, F_ROUND, push, push_prog, run
from hon_env.core.layout import (
    ACTIVE,
    ALLY_LOC,
    CHOICE,
    CLUE_LOC,
    CLUE_N,
    CLUE_ORDER,
    CRISIS_POS,
    D_NONE,
    DEC_KIND,
    HCLOC,
    HDECK_N,
    HDECK_ORDER,
    HLOC,
    IDECK,
    IDECK_N,
    IDECK_ORDER,
    ILOC,
    IOWNER,
    IPOS,
    L_DECK,
    L_REMOVED,
    L_THREAT,
    MAX_HEROES,
    MINION_SUPPLY,
    NEM_CARD,
    NEM_OWNER,
    NEM_POS,
    ROLL_SHOWDOWN,
    SMIN_SUPPLY,
    STATE_LEN,
    TURN,
    TURN_SETUP,
    VATTACH,
    VDECK,
    VDECK_N,
    VDECK_ORDER,
    VIL_DANGER,
    VIL_HEALTH,
    VIL_HIDDEN,
    VIL_IN_PANEL,
    VIL_LOC,
    VIL_OWNER,
    VLOC,
    VOWNER,
    VPOS,
)
from hon_env.core.queries import scaled
from hon_env.core.rng import randint, seed_rng, shuffle_slice
from hon_env.core.zones import fewest_threats, hero_draw


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
    n_nem = T.cfg[CFG_N_NEMESES]
    pool = T.cfg[CFG_NEMESIS_POOL]
    for k in range(n_nem):
        c = k
        if pool > n_nem:
            r = randint(s, b, pool - k)  # the r-th card of the pool not dealt yet
            for j in range(pool):
                taken = False
                for m in range(k):
                    taken = taken or s[b, NEM_CARD + m] == j
                if not taken:
                    if r == 0:
                        c = j
                        break
                    r -= 1
        s[b, NEM_CARD + k] = c
        # heroes without a Scheme card hold 0 cards, so they come first, in seat order
        s[b, NEM_OWNER + k] = fewest_threats(s, b, T)


@njit(cache=True)
def init_game(s, b, T, seed, mask):
    """Write a fresh game into row ``b`` from ``seed`` and run it to the first decision.

    Reads the scenario tables ``T``; writes row ``b`` of ``s`` and the legal ``mask``.
    """
    for k in range(STATE_LEN):
        s[b, k] = 0
    seed_rng(s, b, seed)
    nh = T.cfg[CFG_N_HEROES]
    s[b, TURN] = TURN_SETUP
    s[b, CHOICE] = -1
    s[b, DEC_KIND] = D_NONE
    s[b, ROLL_SHOWDOWN] = -1
    s[b, VIL_OWNER] = -1
    for h in range(MAX_HEROES):
        s[b, HLOC + h] = -1
        s[b, ALLY_LOC + h] = -1
    for i in range(VDECK):
        s[b, VOWNER + i] = -1
        s[b, VPOS + i] = -1
        s[b, VATTACH + i] = -1
    for i in range(IDECK):
        s[b, IOWNER + i] = -1
        s[b, IPOS + i] = -1
    for k in range(NEMESES):
        s[b, NEM_CARD + k] = -1
        s[b, NEM_OWNER + k] = -1
        s[b, NEM_POS + k] = -1

    # 2a. board: bystanders on their spaces (special figures mixed in), heroes at and around
    # the start space
    initial_bystanders(s, b, T)
    for h in range(nh):
        s[b, HLOC + h] = nearest_empty(s, b, T, T.cfg[CFG_START_SPACE], False, -1)
    # the Allies rule: each ally figure next to its hero (the nearest empty map space,
    # lowest index on ties: the rulebook leaves the players to choose among adjacent spaces)
    for h in range(nh):
        if T.ally[h, AL_PRESENT] == 1:
            s[b, ALLY_LOC + h] = nearest_empty_map(s, b, T, s[b, HLOC + h])

    # 1b/1d. hero decks shuffled, opening hands drawn (the mulligan is a decision below)
    for h in range(nh):
        for c in range(HERO_DECK):
            s[b, HCLOC + h * HERO_DECK + c] = L_DECK
            s[b, HDECK_ORDER + h * HERO_DECK + c] = c
        s[b, HDECK_N + h] = HERO_DECK
        shuffle_slice(s, b, HDECK_ORDER + h * HERO_DECK, HERO_DECK)
        for _ in range(T.cfg[CFG_HAND_SIZE]):
            hero_draw(s, b, h)

    # 2c. one Scheme card per hero, at random; the others leave the game
    n_schemes = T.cfg[CFG_N_SCHEMES]
    pile = IDECK_ORDER  # borrow the issue deck order columns as a shuffle buffer
    for i in range(n_schemes):
        s[b, pile + i] = i
    shuffle_slice(s, b, pile, n_schemes)
    for k in range(n_schemes):
        i = s[b, pile + k]
        if k < nh:
            s[b, ILOC + i] = L_THREAT
            s[b, IOWNER + i] = k
            s[b, IPOS + i] = T.scheme_space[T.icard[i, IC_PANEL]]
        else:
            s[b, ILOC + i] = L_REMOVED
    # 2d. the issue deck: the other issue cards, shuffled
    n = 0
    for i in range(IDECK):
        if T.icard[i, IC_PRESENT] == 1 and T.icard[i, IC_TYPE] == IT_ISSUE:
            s[b, ILOC + i] = L_DECK
            s[b, IDECK_ORDER + n] = i
            n += 1
        elif T.icard[i, IC_PRESENT] == 0:
            s[b, ILOC + i] = L_REMOVED
    s[b, IDECK_N] = n
    shuffle_slice(s, b, IDECK_ORDER, n)
    deal_nemeses(s, b, T)

    # 3. villain: scaling removal, Scheming side in panel 1, hidden tokens, shuffled deck
    n = 0
    for i in range(VDECK):
        scaling = T.vcard[i, VC_SCALING]
        removed = T.vcard[i, VC_PRESENT] == 0 or (scaling == 1 and nh == 1) or (
            scaling == 5 and nh >= 5)
        if removed:
            s[b, VLOC + i] = L_REMOVED
        else:
            s[b, VLOC + i] = L_DECK
            s[b, VDECK_ORDER + n] = i
            n += 1
    s[b, VDECK_N] = n
    shuffle_slice(s, b, VDECK_ORDER, n)
    s[b, VIL_LOC] = T.scheme_space[1]
    s[b, VIL_IN_PANEL] = 1
    # one hidden token per hero: each hero holds a Scheme card (or, with 5-6 heroes, a
    # nemesis), and solving each one removes a token, so count what was dealt
    s[b, VIL_HIDDEN] = min(nh, n_schemes) + T.cfg[CFG_N_NEMESES]
    s[b, VIL_HEALTH] = scaled(T.vil_stat[VS_HEALTH], T.vil_stat[VS_HEALTH_PH], nh)
    s[b, VIL_DANGER] = scaled(T.vil_stat[VS_DANGER], T.vil_stat[VS_DANGER_PH], nh)

    # Crisis Cards rule: a crisis card with a danger value puts its crisis token on the map
    # (tokens are not figures: the space may hold anything); the others have no token
    for k in range(MAX_CRISES):
        present = T.crisis[k, CR_PRESENT] == 1 and T.crisis[k, CR_DANGER] > 0
        s[b, CRISIS_POS + k] = T.crisis[k, CR_TOKEN] if present else -1

    # 4. supplies and the clue deck
    s[b, MINION_SUPPLY] = T.cfg[CFG_MINIONS]
    for j in range(SPECIAL_MINIONS):  # each special Minion card swaps in its 5 figures
        s[b, SMIN_SUPPLY + j] = SPECIAL_MINION_TOKENS if T.smin[j, SM_PRESENT] == 1 else 0
    n = 0
    for i in range(CLUE_DECK):
        if T.clue[i, CL_PRESENT] == 1:
            s[b, CLUE_LOC + i] = -1
            s[b, CLUE_ORDER + n] = i
            n += 1
        else:
            s[b, CLUE_LOC + i] = -3
    s[b, CLUE_N] = n
    shuffle_slice(s, b, CLUE_ORDER, n)

    # the decisions and effects of setup, then the first round; the nemesis figures come
    # last, after the rest of setup (5-6 players step 1)
    s[b, ACTIVE] = 0
    push(s, b, F_ROUND, 0, 0, 0, -1, -1)
    if T.cfg[CFG_N_NEMESES] > 0:
        push(s, b, F_NEMESIS_SETUP, 0, 0, 0, -1, -1)
    for h in range(nh - 1, -1, -1):
        push(s, b, F_MULLIGAN, 0, 0, 0, h, -1)
    # after the issue's Setup effect come the special Minion cards', the special Bystander
    # cards', then the crisis cards' (added to the issue play area after the issue is set
    # up); pushed in reverse
    for k in range(MAX_CRISES - 1, -1, -1):
        if T.crisis[k, CR_PRESENT] == 1:
            push_prog(s, b, T, T.crisis[k, CR_SETUP_PROG], 0, -1)
    for j in range(SPECIAL_BYSTANDERS - 1, -1, -1):
        if T.sby[j, SB_PRESENT] == 1:
            push_prog(s, b, T, T.sby[j, SB_SETUP_PROG], 0, -1)
    for j in range(SPECIAL_MINIONS - 1, -1, -1):
        if T.smin[j, SM_PRESENT] == 1:
            push_prog(s, b, T, T.smin[j, SM_SETUP_PROG], 0, -1)
    push_prog(s, b, T, T.cfg[CFG_SETUP_PROG], 0, -1)
    run(s, b, T, mask)
