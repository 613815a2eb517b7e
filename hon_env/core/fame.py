"""The Fame variant: who did what, and each hero's fame (from seed 001, *Heroes Wanted*).

Every game keeps per-hero counters (``HEV``): each attributable event counter
(``layout.HERO_EVENTS``) is raised through ``credit``, which adds the same amount to the
team counter (``EVENTS``) and to the counter of the hero who did it, so the sum over heroes
always equals the team counter. ``count`` raises a per-hero counter that has no team
counterpart (``HV_*``: minions defeated, villain damage, final blows, reveals).

Fame is a weighted sum of those counters (``Tables.fame[FM_W + column]``, compiled from the
rule's table by ``content/fame.py``), plus the headlines a hero finishes and the awards at
the end of the game (``final_awards``). It changes no rule of the game: the game's state
outside the fame fields, and its random stream, are the same with the rule on or off.

Headlines are public goals dealt at setup (``deal_headlines``) from a stream of their own,
derived from the game's seed, so the game's generator is untouched. The first hero whose
counter reaches a headline's threshold earns its first value, the next hero the second...

Rewards by mode (``fame_rewards``, called by ``core/episode.py``) and the rank leader
(``leader``) live here too.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.rng import _fmix32
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec import tables as TB

MODE_TEAM, MODE_FAME, MODE_RANK = 0, 1, 2
MODE_NAMES = ("team", "fame", "rank")
_HEADLINE_SALT = 0x46414D45  # "FAME": the headline stream differs from the game's
_COUNTER_COLS = L.HERO_COUNTER_COLS  # HEV column of each reported counter


@njit(cache=True)
def count(s, b, T, col, h, n):
    """Add ``n`` to hero ``h``'s counter ``col`` (HEV) and the fame it is worth; check the
    headlines that watch it. Heroes outside the seats (-1: no hero) count nothing."""
    if n == 0 or h < 0 or h >= TB.MAX_HEROES:
        return
    s[b, L.HEV + h * TB.N_HEV + col] += n
    s[b, L.FAME + h] += T.fame[TB.FM_W + col] * n
    for k in range(TB.MAX_HEADLINES):
        r = s[b, L.HEADLINE + k]
        if r >= 0 and T.headline[r, TB.HL_COUNTER] == col:
            _check_headline(s, b, T, k, r, h)


@njit(cache=True)
def credit(s, b, T, ev, h, n):
    """Event counter ``ev`` rises by ``n`` because of hero ``h``: the team counter and the
    hero's (``count``)."""
    s[b, L.EVENTS + ev] += n
    count(s, b, T, ev, h, n)


@njit(cache=True)
def _check_headline(s, b, T, k, r, h):
    """Hero ``h`` finishes headline slot ``k`` (row ``r``) when its counter reaches the
    threshold, once; the value depends on how many finished it before."""
    at = L.HEADLINE_RANK + k * TB.MAX_HEROES + h
    if s[b, at] != 0:
        return
    if s[b, L.HEV + h * TB.N_HEV + T.headline[r, TB.HL_COUNTER]] < T.headline[r, TB.HL_AT_LEAST]:
        return
    done = s[b, L.HEADLINE_DONE + k]
    s[b, at] = done + 1
    s[b, L.HEADLINE_DONE + k] = done + 1
    if done < TB.HEADLINE_VALUES:
        s[b, L.FAME + h] += T.headline[r, TB.HL_VALUE + done]


@njit(cache=True)
def deal_headlines(s, b, T, seed):
    """Deal ``FM_HEADLINES`` distinct headline rows into HEADLINE (the rest -1), drawn from
    a stream derived from ``seed`` alone (the game's generator is not used)."""
    for k in range(TB.MAX_HEADLINES):
        s[b, L.HEADLINE + k] = -1
    pool = T.fame[TB.FM_POOL]
    n = min(T.fame[TB.FM_HEADLINES], pool, TB.MAX_HEADLINES)
    if T.fame[TB.FM_ON] == 0 or n <= 0:
        return
    order = [0] * TB.HEADLINE_POOL
    for i in range(pool):
        order[i] = i
    seed = int(seed)
    h = _fmix32(((seed & 0xFFFFFFFF) ^ _HEADLINE_SALT) & 0xFFFFFFFF)
    h = _fmix32((h ^ ((seed >> 32) & 0xFFFFFFFF)) & 0xFFFFFFFF)
    for k in range(n):  # partial Fisher-Yates: slot k takes a random row not yet dealt
        h = _fmix32((h + 0x9E3779B9) & 0xFFFFFFFF)
        j = k + (h * (pool - k)) // 0x100000000
        order[k], order[j] = order[j], order[k]
        s[b, L.HEADLINE + k] = order[k]


@njit(cache=True)
def final_awards(s, b, T):
    """The end of the game: fame for villain damage (1 per ``FM_DMG_PER``) and for the
    most villain damage, enemies defeated (minions included) and rescues; tied heroes all
    get an award, nobody gets one for a count of 0. A lone hero (001 §Solo and Campaign
    Mode) gets neither the most-villain-damage nor the most-enemies award: with nobody to
    outdo they would be free fame. Writes FAME."""
    nh = T.cfg[TB.CFG_N_HEROES]
    per = T.fame[TB.FM_DMG_PER]
    if per > 0:
        for h in range(nh):
            s[b, L.FAME + h] += _hev(s, b, h, L.HV_VILLAIN_DAMAGE) // per
    if nh > 1:
        _most(s, b, nh, L.HV_VILLAIN_DAMAGE, -1, T.fame[TB.FM_MOST_DAMAGE])
        _most(s, b, nh, L.EV_ENEMIES_DEFEATED, L.HV_MINIONS, T.fame[TB.FM_MOST_ENEMIES])
    _most(s, b, nh, L.EV_RESCUES, -1, T.fame[TB.FM_MOST_RESCUES])


@njit(cache=True, inline="always")
def _hev(s, b, h, col):
    return s[b, L.HEV + h * TB.N_HEV + col]


@njit(cache=True)
def _most(s, b, nh, col, col2, award):
    """``award`` fame to every hero with the highest counter ``col`` (+ ``col2``), if > 0."""
    if award == 0:
        return
    best = 0
    for h in range(nh):
        v = _hev(s, b, h, col) + (_hev(s, b, h, col2) if col2 >= 0 else 0)
        best = max(best, v)
    if best <= 0:
        return
    for h in range(nh):
        v = _hev(s, b, h, col) + (_hev(s, b, h, col2) if col2 >= 0 else 0)
        if v == best:
            s[b, L.FAME + h] += award


@njit(cache=True)
def leader(s, b, T):
    """The fame leader's seat: the most fame, then the most villain damage, then the
    highest seat (the seat furthest from the first hero, as the seed breaks ties)."""
    best = 0
    for h in range(1, T.cfg[TB.CFG_N_HEROES]):
        f, fb = s[b, L.FAME + h], s[b, L.FAME + best]
        if f > fb or (f == fb and _hev(s, b, h, L.HV_VILLAIN_DAMAGE)
                      >= _hev(s, b, best, L.HV_VILLAIN_DAMAGE)):
            best = h
    return best


@njit(cache=True)
def fame_rewards(s, i, T, mode, team_weight, loss_keep, scale, team, outcome_r, prev, out):
    """Each hero's reward in the ``fame`` and ``rank`` modes (``out[h]`` for the heroes).

    ``team`` is the team reward of the step (shaping plus ``outcome_r``, the +1/-1 of the
    result); the result part is weighted by ``team_weight``. ``fame``: each step pays the
    change of the hero's fame / ``scale``; a loss takes back ``1 - loss_keep`` of the fame
    paid over the episode. ``rank``: at a win the leader gets +1, at a loss ``loss_keep``.
    Reads FAME and ``prev`` (fame at the previous step, updated here).
    """
    nh = T.cfg[TB.CFG_N_HEROES]
    o = s[i, L.OUTCOME]
    base = team - outcome_r + team_weight * outcome_r
    top = leader(s, i, T) if mode == MODE_RANK else -1
    for h in range(nh):
        f = s[i, L.FAME + h]
        r = base
        if mode == MODE_FAME:
            r += (f - prev[h]) / scale
            if o == L.OUT_LOSS:
                r -= (1.0 - loss_keep) * f / scale
        elif h == top:
            if o == L.OUT_WIN:
                r += 1.0
            elif o == L.OUT_LOSS:
                r += loss_keep
        out[h] = r
        prev[h] = f


@njit(cache=True)
def encode_fame(s, b, T, seat, out):
    """Write the ``fame``, ``fame_seats`` and ``fame_headlines`` observation sections of
    ``seat``'s view (zeros while the rule is off; ``out`` is already zeroed). Reads the
    fame fields and the headline table."""
    if T.fame[TB.FM_ON] == 0:
        return
    nh = T.cfg[TB.CFG_N_HEROES]
    out[F.OFF_FAME + F.FA_ON] = 1.0
    out[F.OFF_FAME + F.FA_MODE + T.fame[TB.FM_MODE]] = 1.0
    dealt = 0
    for k in range(TB.MAX_HEADLINES):
        if s[b, L.HEADLINE + k] >= 0:
            dealt += 1
    out[F.OFF_FAME + F.FA_HEADLINES] = dealt / 4.0
    top = leader(s, b, T)
    for k in range(nh):
        h = (seat + k) % nh
        o = F.OFF_FAME_SEATS + k * F.FAME_SEAT_FEATS
        f = s[b, L.FAME + h]
        out[o + F.FS_FAME] = max(f, 0) / 10.0
        out[o + F.FS_FAME_BELOW] = max(-f, 0) / 10.0
        out[o + F.FS_LEADER] = 1.0 if h == top else 0.0
        for j in range(F.N_FAME_COUNTERS):
            out[o + F.FS_COUNTERS + j] = _hev(s, b, h, _COUNTER_COLS[j]) / 10.0
    for k in range(TB.MAX_HEADLINES):
        r = s[b, L.HEADLINE + k]
        if r < 0:
            continue
        o = F.OFF_FAME_HEADLINES + k * F.FAME_HEADLINE_FEATS
        col = T.headline[r, TB.HL_COUNTER]
        need = T.headline[r, TB.HL_AT_LEAST]
        done = s[b, L.HEADLINE_DONE + k]
        out[o + F.FH_PRESENT] = 1.0
        for j in range(F.N_FAME_COUNTERS):
            if _COUNTER_COLS[j] == col:
                out[o + F.FH_COUNTER + j] = 1.0
        out[o + F.FH_AT_LEAST] = need / 10.0
        if done < TB.HEADLINE_VALUES:
            out[o + F.FH_NEXT_VALUE] = T.headline[r, TB.HL_VALUE + done] / 3.0
        out[o + F.FH_FINISHERS] = done / 6.0
        out[o + F.FH_MINE] = 1.0 if s[b, L.HEADLINE_RANK + k * TB.MAX_HEROES + seat] else 0.0
        best = 0
        for h in range(nh):
            if h != seat:
                best = max(best, _hev(s, b, h, col))
        out[o + F.FH_OWN] = min(1.0, _hev(s, b, seat, col) / need)
        out[o + F.FH_BEST_OTHER] = min(1.0, best / need)
