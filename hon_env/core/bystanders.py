"""Which bystander is which: special figures of the Special Bystanders optional rule.

``BYSTANDER_SUPPLY``, ``BYSTANDER_ON``, ``CAPTURED`` and ``BYSTANDERS_DEFEATED`` count every
bystander, special figures included, so rules that only ask "how many bystanders" need no
change. The ``SBY_*`` fields say which of them belong to special Bystander card ``j``
(``Tables.sby`` row ``j``); every rule that moves a bystander goes through these helpers,
which keep both in step.

When a special figure is rescued, captured or defeated (or a bystander character is
rescued or captured), its card's effect for that event is queued with the hero it
resolves for (``SBY_QUEUE``). These helpers run inside other ops, some of which are still
on the interpreter stack, so they never push; ``interp.run`` pushes the queue before it
executes the next op (engine.md #41).
"""

from __future__ import annotations

from numba import njit

from hon_env.core.failure import fail
from hon_env.core.rng import randint
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def take_from_supply(s, b):
    """Take one bystander from the supply (which must not be empty).

    Returns the special card ``j`` of the figure taken, or -1 for a normal token. The supply
    is one mixed pile, so with special figures in it the bystander is drawn at random,
    weighted by how many of each kind are left (engine.md #40); without them no random
    number is drawn, so games without the rule keep their trajectories.
    """
    supply = s[b, L.BYSTANDER_SUPPLY]
    s[b, L.BYSTANDER_SUPPLY] = supply - 1
    special = 0
    for j in range(TB.SPECIAL_BYSTANDERS):
        special += s[b, L.SBY_SUPPLY + j]
    if special == 0:
        return -1
    r = randint(s, b, supply) - (supply - special)  # < 0: a normal token
    for j in range(TB.SPECIAL_BYSTANDERS):
        if r < 0:
            return -1
        if r < s[b, L.SBY_SUPPLY + j]:
            s[b, L.SBY_SUPPLY + j] -= 1
            return j
        r -= s[b, L.SBY_SUPPLY + j]
    return -1


@njit(cache=True)
def return_to_supply(s, b, j):
    """A bystander (special card ``j``, or -1 normal) goes back to the supply."""
    s[b, L.BYSTANDER_SUPPLY] += 1
    if j >= 0:
        s[b, L.SBY_SUPPLY + j] += 1


@njit(cache=True)
def special_captives(s, b, p):
    """Special figures (of any card) among the captives counted in panel ``p``."""
    n = 0
    for j in range(TB.SPECIAL_BYSTANDERS):
        n += s[b, L.SBY_CAPT + p * TB.SPECIAL_BYSTANDERS + j]
    return n


@njit(cache=True)
def release_captive(s, b, p, special_first):
    """Take one counted captive out of panel ``p`` (which holds one); returns its card or -1.

    ``special_first``: special figures (card order) before normal tokens (rescues), else
    normal tokens first (defeats and replacements).
    """
    s[b, L.CAPTURED + p] -= 1
    normal = s[b, L.CAPTURED + p] + 1 - special_captives(s, b, p)
    if normal > 0 and not special_first:
        return -1
    for j in range(TB.SPECIAL_BYSTANDERS):
        col = L.SBY_CAPT + p * TB.SPECIAL_BYSTANDERS + j
        if s[b, col] > 0:
            s[b, col] -= 1
            return j
    return -1


@njit(cache=True)
def special_event(s, b, T, j, ev, h):
    """Special card ``j``'s figure was rescued, captured or defeated (``ev``: SBE_*).

    Counts it in SBY_EVENTS and queues the card's effect for the event, to resolve for hero
    ``h`` (the active hero when ``h`` < 0). Overflowing the queue is an engine bug.
    """
    s[b, L.SBY_EVENTS + j * TB.N_SBE + ev] += 1
    queue_effect(s, b, T.sby[j, TB.SB_RESCUED_PROG + ev], h)


@njit(cache=True)
def character_event(s, b, T, i, captured, h):
    """Bystander character ``i`` (an issue card) was rescued by hero ``h`` (``captured``
    False) or captured (True, for the hero of the capturing effect): queue its card's
    effect for that event, if it has one (rulebook: Bystander Characters)."""
    queue_effect(s, b, T.icard[i, TB.IC_CAPTURED_PROG if captured else TB.IC_RESCUED_PROG], h)


@njit(cache=True)
def queue_effect(s, b, pid, h):
    """Queue program ``pid`` (nothing for -1) to resolve for hero ``h`` (the active hero
    when ``h`` < 0) once the current op is done. Overflowing the queue is an engine bug
    (the game stops with ERR_BYSTANDER_QUEUE_FULL)."""
    if pid < 0:
        return
    n = s[b, L.SBY_QN]
    if n >= L.SBY_QUEUE_CAP:
        fail(s, b, L.ERR_BYSTANDER_QUEUE_FULL)
        return
    s[b, L.SBY_QUEUE + 2 * n] = pid
    s[b, L.SBY_QUEUE + 2 * n + 1] = h if h >= 0 else s[b, L.ACTIVE]
    s[b, L.SBY_QN] = n + 1


@njit(cache=True)
def capture_into(s, b, T, p, j, h):
    """A bystander (special card ``j``, or -1 normal) is captured into panel ``p``; ``h`` is
    the hero of the effect that captured it."""
    s[b, L.CAPTURED + p] += 1
    s[b, L.EVENTS + L.EV_CAPTURES] += 1
    if j >= 0:
        s[b, L.SBY_CAPT + p * TB.SPECIAL_BYSTANDERS + j] += 1
        special_event(s, b, T, j, TB.SBE_CAPTURED, h)
