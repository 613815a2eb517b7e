"""Decks and card zones: drawing, reshuffling, clue cards, threat areas.

Each deck is an order array plus a count; the top card is ``order[n - 1]``. Every card
also records its zone (``L_*``) so the zones never need to be searched by order.
"""

from __future__ import annotations

from numba import njit

from hon_env.content.tables import (
    CFG_N_HEROES,
    CL_PRESENT,
    CLUE_DECK,
    CLUE_LIST,
    HERO_DECK,
    NEMESES,
)
from hon_env.core.layout import (
    CLUE_LOC,
    CLUE_N,
    CLUE_ORDER,
    EV_CLUES,
    EVENTS,
    HCLOC,
    HDECK_N,
    HDECK_ORDER,
    HLOC,
    IDECK,
    IDECK_N,
    IDECK_ORDER,
    ILOC,
    IOWNER,
    L_DECK,
    L_DISCARD,
    L_HAND,
    L_PENDING,
    L_THREAT,
    NEM_CARD,
    NEM_OWNER,
    VDECK,
    VDECK_N,
    VDECK_ORDER,
    VIL_OWNER,
    VLOC,
    VOWNER,
)
from hon_env.core.rng import shuffle_slice


@njit(cache=True)
def reshuffle_hero_discard(s, b, h):
    """Shuffle hero ``h``'s discard pile into a new deck (its deck is empty)."""
    base = HCLOC + h * HERO_DECK
    order = HDECK_ORDER + h * HERO_DECK
    n = 0
    for c in range(HERO_DECK):
        if s[b, base + c] == L_DISCARD:
            s[b, base + c] = L_DECK
            s[b, order + n] = c
            n += 1
    s[b, HDECK_N + h] = n
    shuffle_slice(s, b, order, n)


@njit(cache=True)
def hero_draw(s, b, h):
    """Hero ``h`` draws one card into hand; returns it, or -1 if deck and discard are empty."""
    if s[b, HDECK_N + h] == 0:
        reshuffle_hero_discard(s, b, h)
        if s[b, HDECK_N + h] == 0:
            return -1
    n = s[b, HDECK_N + h] - 1
    c = s[b, HDECK_ORDER + h * HERO_DECK + n]
    s[b, HDECK_N + h] = n
    s[b, HCLOC + h * HERO_DECK + c] = L_HAND
    return c


@njit(cache=True)
def hand_size(s, b, h):
    n = 0
    for c in range(HERO_DECK):
        if s[b, HCLOC + h * HERO_DECK + c] == L_HAND:
            n += 1
    return n


@njit(cache=True)
def gain_clue(s, b, T, h):
    """Hero ``h`` gains the top clue card (the discard is reshuffled when the deck is out).

    A hero off the board is not affected by game effects and gains nothing.
    """
    if h < 0 or s[b, HLOC + h] < 0:
        return
    if s[b, CLUE_N] == 0:
        n = 0
        for i in range(CLUE_DECK):
            if T.clue[i, CL_PRESENT] == 1 and s[b, CLUE_LOC + i] == -2:
                s[b, CLUE_LOC + i] = -1
                s[b, CLUE_ORDER + n] = i
                n += 1
        s[b, CLUE_N] = n
        shuffle_slice(s, b, CLUE_ORDER, n)
        if n == 0:
            return
    n = s[b, CLUE_N] - 1
    s[b, CLUE_N] = n
    s[b, CLUE_LOC + s[b, CLUE_ORDER + n]] = h
    s[b, EVENTS + EV_CLUES] += 1


@njit(cache=True)
def held_clue(s, b, h, k):
    """The clue card of list entry ``k`` that hero ``h`` holds, or -1.

    With the extra clue cards the deck holds two identical copies of each entry (cards
    ``k`` and ``k + CLUE_LIST``); one CLUE action stands for both, and uses the first held.
    """
    for c in range(k, CLUE_DECK, CLUE_LIST):
        if s[b, CLUE_LOC + c] == h:
            return c
    return -1


@njit(cache=True)
def villain_draw(s, b):
    """Draw the top villain card (reshuffling the discard when empty) into L_PENDING.

    Returns the card index, or -1 when no villain card is left anywhere.
    """
    if s[b, VDECK_N] == 0:
        n = 0
        for i in range(VDECK):
            if s[b, VLOC + i] == L_DISCARD:
                s[b, VLOC + i] = L_DECK
                s[b, VDECK_ORDER + n] = i
                n += 1
        s[b, VDECK_N] = n
        shuffle_slice(s, b, VDECK_ORDER, n)
        if n == 0:
            return -1
    n = s[b, VDECK_N] - 1
    s[b, VDECK_N] = n
    c = s[b, VDECK_ORDER + n]
    s[b, VLOC + c] = L_PENDING
    return c


@njit(cache=True)
def issue_draw(s, b):
    """Draw the top issue card into L_PENDING; -1 when the issue deck is empty (no reshuffle)."""
    if s[b, IDECK_N] == 0:
        return -1
    n = s[b, IDECK_N] - 1
    s[b, IDECK_N] = n
    c = s[b, IDECK_ORDER + n]
    s[b, ILOC + c] = L_PENDING
    return c


@njit(cache=True)
def threat_count(s, b, h):
    """Cards in hero ``h``'s threat area, nemesis cards included (attached cards are not
    counted)."""
    n = 0
    for k in range(NEMESES):
        if s[b, NEM_CARD + k] >= 0 and s[b, NEM_OWNER + k] == h:
            n += 1
    for i in range(VDECK):
        if s[b, VLOC + i] == L_THREAT and s[b, VOWNER + i] == h:
            n += 1
    for i in range(IDECK):
        if s[b, ILOC + i] == L_THREAT and s[b, IOWNER + i] == h:
            n += 1
    if s[b, VIL_OWNER] == h:
        n += 1
    return n


@njit(cache=True)
def fewest_threats(s, b, T):
    """Seat with the fewest threat-area cards (lowest seat on ties)."""
    best = 0
    best_n = 1 << 30
    for h in range(T.cfg[CFG_N_HEROES]):
        n = threat_count(s, b, h)
        if n < best_n:
            best, best_n = h, n
    return best
