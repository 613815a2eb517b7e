"""Decks and card zones: drawing, reshuffling, clue cards, threat areas.

Each deck is an order array plus a count; the top card is ``order[n - 1]``. Every card
also records its zone (``L_*``) so the zones never need to be searched by order.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.fame import credit
from hon_env.core.rng import shuffle_slice
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def reshuffle_hero_discard(s, b, h):
    """Shuffle hero ``h``'s discard pile into a new deck (its deck is empty)."""
    base = L.HCLOC + h * TB.HERO_DECK
    order = L.HDECK_ORDER + h * TB.HERO_DECK
    n = 0
    for c in range(TB.HERO_DECK):
        if s[b, base + c] == L.L_DISCARD:
            s[b, base + c] = L.L_DECK
            s[b, order + n] = c
            n += 1
    s[b, L.HDECK_N + h] = n
    shuffle_slice(s, b, order, n)


@njit(cache=True)
def hero_draw(s, b, h):
    """Hero ``h`` draws one card into hand; returns it, or -1 if deck and discard are empty."""
    if s[b, L.HDECK_N + h] == 0:
        reshuffle_hero_discard(s, b, h)
        if s[b, L.HDECK_N + h] == 0:
            return -1
    n = s[b, L.HDECK_N + h] - 1
    c = s[b, L.HDECK_ORDER + h * TB.HERO_DECK + n]
    s[b, L.HDECK_N + h] = n
    s[b, L.HCLOC + h * TB.HERO_DECK + c] = L.L_HAND
    return c


@njit(cache=True)
def hand_size(s, b, h):
    n = 0
    for c in range(TB.HERO_DECK):
        if s[b, L.HCLOC + h * TB.HERO_DECK + c] == L.L_HAND:
            n += 1
    return n


@njit(cache=True)
def gain_clue(s, b, T, h):
    """Hero ``h`` gains the top clue card (the discard is reshuffled when the deck is out).

    A hero off the board is not affected by game effects and gains nothing.
    """
    if h < 0 or s[b, L.HLOC + h] < 0:
        return
    if s[b, L.CLUE_N] == 0:
        n = 0
        for i in range(TB.CLUE_DECK):
            if T.clue[i, TB.CL_PRESENT] == 1 and s[b, L.CLUE_LOC + i] == -2:
                s[b, L.CLUE_LOC + i] = -1
                s[b, L.CLUE_ORDER + n] = i
                n += 1
        s[b, L.CLUE_N] = n
        shuffle_slice(s, b, L.CLUE_ORDER, n)
        if n == 0:
            return
    n = s[b, L.CLUE_N] - 1
    s[b, L.CLUE_N] = n
    s[b, L.CLUE_LOC + s[b, L.CLUE_ORDER + n]] = h
    credit(s, b, T, L.EV_CLUES, h, 1)


@njit(cache=True)
def held_clue(s, b, h, k):
    """The clue card of list entry ``k`` that hero ``h`` holds, or -1.

    With the extra clue cards the deck holds two identical copies of each entry (cards
    ``k`` and ``k + CLUE_LIST``); one CLUE action stands for both, and uses the first held.
    """
    for c in range(k, TB.CLUE_DECK, TB.CLUE_LIST):
        if s[b, L.CLUE_LOC + c] == h:
            return c
    return -1


@njit(cache=True)
def villain_draw(s, b, v):
    """Draw the top card of villain ``v``'s deck (reshuffling its discard when empty) into
    L_PENDING. Villain ``v``'s deck fields sit at ``v * DECK_STRIDE`` from the first's and
    hold card numbers relative to its first slot ``v * VDECK``.

    Returns the villain card slot, or -1 when none of its cards is left anywhere.
    """
    deck_n = L.VDECK_N + v * L.DECK_STRIDE
    order = L.VDECK_ORDER + v * L.DECK_STRIDE
    first = v * L.VDECK
    if s[b, deck_n] == 0:
        n = 0
        for i in range(L.VDECK):
            if s[b, L.VLOC + first + i] == L.L_DISCARD:
                s[b, L.VLOC + first + i] = L.L_DECK
                s[b, order + n] = i
                n += 1
        s[b, deck_n] = n
        shuffle_slice(s, b, order, n)
        if n == 0:
            return -1
    n = s[b, deck_n] - 1
    s[b, deck_n] = n
    c = first + s[b, order + n]
    s[b, L.VLOC + c] = L.L_PENDING
    return c


@njit(cache=True)
def issue_draw(s, b):
    """Draw the top issue card into L_PENDING; -1 when the issue deck is empty (no reshuffle)."""
    if s[b, L.IDECK_N] == 0:
        return -1
    n = s[b, L.IDECK_N] - 1
    s[b, L.IDECK_N] = n
    c = s[b, L.IDECK_ORDER + n]
    s[b, L.ILOC + c] = L.L_PENDING
    return c


@njit(cache=True)
def threat_count(s, b, h):
    """Cards in hero ``h``'s threat area, nemesis cards included (attached cards are not
    counted)."""
    n = 0
    for k in range(TB.NEMESES):
        if s[b, L.NEM_CARD + k] >= 0 and s[b, L.NEM_OWNER + k] == h:
            n += 1
    for i in range(TB.VCARDS):
        if s[b, L.VLOC + i] == L.L_THREAT and s[b, L.VOWNER + i] == h:
            n += 1
    for i in range(L.IDECK):
        if s[b, L.ILOC + i] == L.L_THREAT and s[b, L.IOWNER + i] == h:
            n += 1
    if s[b, L.VIL_OWNER] == h:
        n += 1
    if s[b, L.VIL2_OWNER] == h:
        n += 1
    return n


@njit(cache=True)
def fewest_threats(s, b, T):
    """Seat with the fewest threat-area cards (lowest seat on ties)."""
    best = 0
    best_n = 1 << 30
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        n = threat_count(s, b, h)
        if n < best_n:
            best, best_n = h, n
    return best
