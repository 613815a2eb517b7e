"""The Mastermind variant: the villain as an agent with a hidden hand of villain cards.

Switched on by the rule ``villain_agent`` (``content/compile.py``), which fills the
``CFG_V*`` columns of the scenario's cfg; with ``CFG_VHAND == 0`` nothing here runs and
the game is the rulebook's. The interpreter reaches this module through three hooks:

- ``interp.next_villain_card``: wherever the rulebook draws a villain card *against* a
  hero (the villain turn, and dice step 5's Showdown when ``CFG_VSHOWDOWN``), the villain
  first fills its hand up to ``CFG_VHAND`` from the deck (drawing and reshuffling as the
  rulebook draws), then picks one card (``D_VPLAY``, owned by ``VILLAIN_SEAT``). The hand
  is filled when a card is needed, not after a play, so with a hand of 1 every draw
  happens at the moment the rulebook's does and the single card is answered
  automatically: the game is exactly Hour of Need.
- ``cunning_decider`` / ``inflict_decider``: who answers the cunning icon's scheme-or-
  inflict choice and who picks the hero that suffers an inflict.
- ``hero_origin``: HERO actions count seats from the decider; the villain has no seat
  among the heroes, so it counts from seat 0.

Villain cards in the villain's hand have zone ``L_HAND`` (villain cards never use that
zone otherwise); the observation hides them from the heroes (``core/observe.py``).
"""

from __future__ import annotations

from numba import njit

from hon_env.core.zones import villain_draw
from hon_env.spec import layout as L
from hon_env.spec.tables import CFG_VCUNNING, CFG_VHAND, CFG_VINFLICT, VDECK

NO_CARD = -1  # next_villain_card: no villain card left anywhere
PARKED = -2  # next_villain_card: the villain must pick a card first


@njit(cache=True)
def hand_count(s, b):
    """Villain cards in the villain's hand (reads VLOC)."""
    n = 0
    for c in range(VDECK):
        if s[b, L.VLOC + c] == L.L_HAND:
            n += 1
    return n


@njit(cache=True)
def fill_hand(s, b, T):
    """Draw villain cards into the villain's hand up to ``CFG_VHAND`` (reshuffling the
    discard as the rulebook's draw does); returns the hand size. Writes VLOC and the
    villain deck."""
    n = hand_count(s, b)
    while n < T.cfg[CFG_VHAND]:
        c = villain_draw(s, b, 0)
        if c < 0:
            break
        s[b, L.VLOC + c] = L.L_HAND
        n += 1
    return n


@njit(cache=True)
def vplay_mask(s, b, out):
    """Legal answers of D_VPLAY: one TARGET per card in the villain's hand. Writes ``out``
    (already zeroed); returns (count, last legal action)."""
    n = 0
    last = -1
    for c in range(VDECK):
        if s[b, L.VLOC + c] == L.L_HAND:
            last = L.A_TARGET + L.T_V0 + c
            out[last] = 1
            n += 1
    return n, last


@njit(cache=True)
def cunning_decider(T, h):
    """Seat that answers a cunning icon resolving against hero ``h``."""
    return L.VILLAIN_SEAT if T.cfg[CFG_VCUNNING] != 0 else h


@njit(cache=True)
def inflict_decider(T, h):
    """Seat that picks who suffers an inflict that hero ``h`` would pick otherwise."""
    return L.VILLAIN_SEAT if T.cfg[CFG_VINFLICT] != 0 else h


@njit(cache=True)
def hero_origin(h):
    """Seat that HERO action 0 names for decider ``h`` (the decider itself; seat 0 for
    the villain)."""
    return 0 if h >= L.VILLAIN_SEAT else h
