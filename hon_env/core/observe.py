"""Observation encoder: one hero's view of a game as a flat float32 vector.

Egocentric: the observing seat is "self", other heroes follow in seat order after it.
Hidden information is filtered here and nowhere else: other heroes' hands are only
sizes, and no deck order is visible. Sections, in order (sizes in floats)::

    GLOBAL     64  round, turn, villain (side, hidden tokens, justice, damage, panel),
                   supplies, counters, deck sizes, own actions, nemeses left, deck cards
                   with the Crisis trait in the issue play area, the roll in
                   progress, the pending decision (kind one-hot, context), own seat one-hot
    SPACES   1152  64 spaces x 18 features: kind, self/other heroes, bystander, peril
                   token, lackeys, villain, issue cards, minions, captives, distance,
                   nemesis figures, crisis tokens
    SELF      116  own hero: status numbers (form: pilot token / mech one-hot, the pilot's
                   set-aside damage), then 20-card multi-hots for hand, play area,
                   exhausted, discard, and the clue cards held (per clue list entry: 2
                   when both copies of an extra-clue deck are held)
    OTHERS     75  5 other seats x 15: status, hand size, clues, threats, distance, form
    VCARDS    232  29 villain cards x 8: where (own / other threat area, discard,
                   pending, attached or in the issue play area), damage and justice
                   fractions, exhausted, distance
    ICARDS    112  14 issue cards x 8: where, flipped, damage and justice fractions,
                   exhausted, distance
    NEMESES    20  2 nemesis slots x 10: where (own / other threat area), enemy side,
                   damage and justice fractions, exhausted, defeated, distance, what is
                   left to overcome (danger or health), inflict
    SPECIAL_MINIONS 32  2 special Minion cards x 16: present, health, inflict, figures in
                   the supply, then per panel 1..6 its figures there and the damage kept on
                   the wounded one (fraction of health); the SPACES minion feature counts
                   normal and special minions alike
    ALLIES    112  6 seats x 8, self first then in seat order: Ally card in the game,
                   figure on the map, damage fraction, health, attack, solve, card
                   exhausted, distance from self; then a 64-space plane marking ally figures
    CRISES     32  4 crisis card slots x 8 (Crisis Cards rule, in the order added): present,
                   has a danger value, solved, danger, justice fraction, justice still
                   needed, distance to its crisis token, solvable from where self stands;
                   the token's space is SPACES feature 17
    SPECIAL_BYSTANDERS 156  2 special Bystander cards x 78: present; whether the card has a
                   rescued, a captured and a defeated effect; its 4 figures in the supply,
                   on the map, captured and defeated (each / 4); per panel 1..6 its
                   captives there (/ 4); then a 64-space plane, 1 where one of its figures
                   stands. The SPACES bystander and captive features count normal and
                   special bystanders alike, so the planes say which of them are special

The global state for centralized critics (``encode_state``) is seat 0's observation
followed by every seat's hand multi-hot (6 x 20).
"""

from __future__ import annotations

from numba import njit

from hon_env.content.tables import (
    AL_ATTACK,
    AL_HEALTH,
    AL_PRESENT,
    AL_SOLVE,
    CFG_LOSS_AT_LEAST,
    CFG_MAX_ROUNDS,
    CFG_MAX_YIELDS,
    CFG_N_HEROES,
    CFG_N_SPACES,
    CLUE_DECK,
    CLUE_LIST,
    CR_DANGER,
    CR_PRESENT,
    FORM_MECH,
    FORM_PILOT,
    HERO_DECK,
    HS_HEALTH,
    MAX_CRISES,
    MAX_HEROES,
    MAX_PANELS,
    MAX_SPACES,
    NEMESES,
    SB_CAPTURED_PROG,
    SB_DEFEATED_PROG,
    SB_PRESENT,
    SB_RESCUED_PROG,
    SM_HEALTH,
    SM_INFLICT,
    SM_PRESENT,
    SP_BYSTANDER,
    SP_NONE,
    SP_PERIL,
    SP_SCHEME,
    SP_START,
    SPECIAL_BYSTANDER_TOKENS,
    SPECIAL_BYSTANDERS,
    SPECIAL_MINIONS,
    VC_TYPE,
    VT_LACKEY,
    VT_PERIL,
)
from hon_env.core import layout as L
from hon_env.core.geometry import panel_of_space
from hon_env.core.queries import (
    armor,
    attack_dice,
    enemy_health,
    enemy_inflict,
    hero_form,
    is_problem_card,
    move_bonus,
    nem_in_play,
    nemeses_in_play,
    problem_danger,
    solve_dice,
    villain_panel,
)
from hon_env.core.zones import hand_size, threat_count

N_GLOBAL = 64
SPACE_FEATS = 18
N_SPACES_OBS = MAX_SPACES * SPACE_FEATS
N_SELF = 16 + 4 * HERO_DECK + CLUE_LIST
OTHER_FEATS = 15
N_OTHERS = (MAX_HEROES - 1) * OTHER_FEATS
CARD_FEATS = 8
N_VCARDS = L.VDECK * CARD_FEATS
N_ICARDS = L.IDECK * CARD_FEATS
NEM_FEATS = 10
N_NEMESES = NEMESES * NEM_FEATS
SMIN_FEATS = 4 + 2 * MAX_PANELS
N_SMIN = SPECIAL_MINIONS * SMIN_FEATS
ALLY_FEATS = 8
N_ALLIES = MAX_HEROES * ALLY_FEATS + MAX_SPACES
CRISIS_FEATS = 8
N_CRISES = MAX_CRISES * CRISIS_FEATS
SBY_FEATS = 8 + MAX_PANELS + MAX_SPACES
N_SBY = SPECIAL_BYSTANDERS * SBY_FEATS

OFF_GLOBAL = 0
OFF_SPACES = OFF_GLOBAL + N_GLOBAL
OFF_SELF = OFF_SPACES + N_SPACES_OBS
OFF_OTHERS = OFF_SELF + N_SELF
OFF_VCARDS = OFF_OTHERS + N_OTHERS
OFF_ICARDS = OFF_VCARDS + N_VCARDS
OFF_NEMESES = OFF_ICARDS + N_ICARDS
OFF_SMIN = OFF_NEMESES + N_NEMESES
OFF_ALLIES = OFF_SMIN + N_SMIN
OFF_CRISES = OFF_ALLIES + N_ALLIES
OFF_SBY = OFF_CRISES + N_CRISES
OBS_DIM = OFF_SBY + N_SBY
STATE_DIM = OBS_DIM + MAX_HEROES * HERO_DECK

OBS_SECTIONS = (
    ("global", OFF_GLOBAL, N_GLOBAL), ("spaces", OFF_SPACES, N_SPACES_OBS),
    ("self", OFF_SELF, N_SELF), ("others", OFF_OTHERS, N_OTHERS),
    ("villain_cards", OFF_VCARDS, N_VCARDS), ("issue_cards", OFF_ICARDS, N_ICARDS),
    ("nemeses", OFF_NEMESES, N_NEMESES), ("special_minions", OFF_SMIN, N_SMIN),
    ("allies", OFF_ALLIES, N_ALLIES),
    ("crises", OFF_CRISES, N_CRISES),
    ("special_bystanders", OFF_SBY, N_SBY),
)


@njit(cache=True, inline="always")
def _frac(a, b):
    return a / b if b > 0 else 0.0


@njit(cache=True, inline="always")
def _dist(T, a, b):
    if a < 0 or b < 0:
        return 0.0
    return T.dist[a, b] / 10.0


@njit(cache=True)
def encode_obs(s, b, T, seat, out):
    """Write seat ``seat``'s observation of game ``b`` into ``out`` (float32 [OBS_DIM]).

    Reads row ``b`` of the state and the tables; writes only ``out``.
    """
    out[:] = 0.0
    nh = T.cfg[CFG_N_HEROES]
    here = s[b, L.HLOC + seat]
    g = OFF_GLOBAL
    out[g] = s[b, L.ROUND] / max(1, T.cfg[CFG_MAX_ROUNDS])
    out[g + 1 + min(s[b, L.TURN], 4)] = 1.0
    out[g + 6] = nh / MAX_HEROES
    out[g + 7] = s[b, L.VIL_SIDE]
    out[g + 8] = s[b, L.VIL_HIDDEN] / MAX_HEROES
    out[g + 9] = _frac(s[b, L.VIL_JUSTICE], s[b, L.VIL_DANGER])
    out[g + 10] = _frac(s[b, L.VIL_DAMAGE], s[b, L.VIL_HEALTH])
    out[g + 11] = s[b, L.VIL_IN_PANEL]
    out[g + 11 + min(villain_panel(s, b, T), 6)] = 1.0  # 12..17
    out[g + 19] = s[b, L.MINION_SUPPLY] / 10.0
    out[g + 20] = s[b, L.BYSTANDER_SUPPLY] / 8.0
    out[g + 21] = s[b, L.BYSTANDERS_DEFEATED] / 8.0
    for k in range(4):
        out[g + 22 + k] = s[b, L.COUNTERS + k] / max(1, T.cfg[CFG_LOSS_AT_LEAST])
    out[g + 26] = s[b, L.IDECK_N] / L.IDECK
    out[g + 27] = s[b, L.VDECK_N] / L.VDECK
    out[g + 28] = s[b, L.CLUE_N] / CLUE_LIST
    out[g + 29] = s[b, L.HACTIONS + seat] / 2.0
    out[g + 30] = _frac(s[b, L.HYIELDS + seat], T.cfg[CFG_MAX_YIELDS])
    out[g + 31] = 1.0 if s[b, L.DEC_HERO] == seat and s[b, L.OUTCOME] == 0 else 0.0
    out[g + 32] = nemeses_in_play(s, b) / NEMESES  # the villain cannot fall while > 0
    out[g + 33] = s[b, L.CRISIS_AREA_N] / 4.0  # deck cards with the Crisis trait in play
    kind = s[b, L.ROLL_KIND]
    if kind > 0:
        out[g + 34 + kind] = 1.0  # 35 attack, 36 solve
        out[g + 37] = s[b, L.ROLL_SUCC] / 10.0
        out[g + 38] = s[b, L.ROLL_FOCUS] / 10.0
        out[g + 39] = s[b, L.ROLL_DICE] / 10.0
    out[g + 40] = s[b, L.DEC_A] / 10.0
    out[g + 41] = s[b, L.DEC_B] / 10.0
    out[g + 42 + min(s[b, L.DEC_KIND], 15)] = 1.0  # 42..57
    out[g + 58 + seat] = 1.0  # 58..63

    # board: one row of SPACE_FEATS per space
    for sp in range(T.cfg[CFG_N_SPACES]):
        k = T.space_kind[sp]
        if k == SP_NONE:
            continue
        o = OFF_SPACES + sp * SPACE_FEATS
        out[o] = 1.0
        out[o + 1] = 1.0 if k == SP_START else 0.0
        out[o + 2] = 1.0 if k == SP_PERIL else 0.0
        out[o + 3] = 1.0 if k == SP_BYSTANDER else 0.0
        out[o + 4] = 1.0 if k == SP_SCHEME else 0.0
        out[o + 7] = s[b, L.BYSTANDER_ON + sp]
        p = panel_of_space(T, sp)
        if p > 0:
            out[o + 13] = s[b, L.MINIONS + p] / 5.0
            out[o + 14] = s[b, L.CAPTURED + p] / 4.0
        out[o + 15] = _dist(T, here, sp)
    for h in range(nh):
        loc = s[b, L.HLOC + h]
        if loc >= 0:
            out[OFF_SPACES + loc * SPACE_FEATS + (5 if h == seat else 6)] += 1.0
    if s[b, L.VIL_LOC] >= 0:
        out[OFF_SPACES + s[b, L.VIL_LOC] * SPACE_FEATS + 11] = 1.0
    for i in range(L.VDECK):
        pos = s[b, L.VPOS + i]
        if s[b, L.VLOC + i] != L.L_THREAT or pos < 0:
            continue
        o = OFF_SPACES + pos * SPACE_FEATS
        if T.vcard[i, VC_TYPE] == VT_PERIL:
            out[o + 8] = 1.0
        elif T.vcard[i, VC_TYPE] == VT_LACKEY:
            out[o + 9] += 1.0
            out[o + 10] = max(out[o + 10], _frac(s[b, L.VDMG + i], enemy_health(s, b, T, i, nh)))
    for i in range(L.IDECK):
        pos = s[b, L.IPOS + i]
        if pos < 0:
            continue
        if s[b, L.ILOC + i] == L.L_THREAT:
            out[OFF_SPACES + pos * SPACE_FEATS + 12] += 1.0
        elif s[b, L.ILOC + i] == L.L_BOARD:  # a bystander character's token
            if T.space_kind[pos] == SP_SCHEME:
                out[OFF_SPACES + pos * SPACE_FEATS + 14] += 0.25
            else:
                out[OFF_SPACES + pos * SPACE_FEATS + 7] = 1.0

    # self
    o = OFF_SELF
    side = s[b, L.HSIDE + seat]
    health = T.hero_stat[seat, side, HS_HEALTH]
    out[o] = 1.0 if here >= 0 else 0.0
    out[o + 1] = _frac(s[b, L.HDMG + seat], health)
    out[o + 2] = health / 20.0
    out[o + 3] = s[b, L.HFOCUS + seat] / 5.0
    out[o + 4] = side
    out[o + 5] = attack_dice(s, b, T, seat) / 6.0
    out[o + 6] = solve_dice(s, b, T, seat) / 6.0
    out[o + 7] = s[b, L.HDECK_N + seat] / HERO_DECK
    out[o + 8] = s[b, L.HEXH + seat]
    out[o + 9] = threat_count(s, b, seat) / 6.0
    out[o + 10] = armor(s, b, T, seat) / 3.0
    out[o + 11] = move_bonus(s, b, T, seat) / 3.0
    out[o + 12] = 1.0 if s[b, L.HTHREAT_DONE + seat] > 0 else 0.0
    form = hero_form(s, b, T, seat)
    out[o + 13] = 1.0 if form == FORM_PILOT else 0.0  # on the map as the pilot token
    out[o + 14] = 1.0 if form == FORM_MECH else 0.0  # in the mech
    out[o + 15] = _frac(s[b, L.HPILOT_DMG + seat], T.hero_stat[seat, 0, HS_HEALTH])
    for c in range(HERO_DECK):
        z = s[b, L.HCLOC + seat * HERO_DECK + c]
        if z == L.L_HAND or z == L.L_MULLIGAN:
            out[o + 16 + c] = 1.0
        elif z == L.L_PLAY:
            out[o + 36 + c] = 1.0
            out[o + 56 + c] = s[b, L.HCEXH + seat * HERO_DECK + c]
        elif z == L.L_DISCARD:
            out[o + 76 + c] = 1.0
    for i in range(CLUE_DECK):
        if s[b, L.CLUE_LOC + i] == seat:
            out[o + 96 + i % CLUE_LIST] += 1.0

    # other heroes, in seat order after self
    for k in range(1, nh):
        h = (seat + k) % nh
        o = OFF_OTHERS + (k - 1) * OTHER_FEATS
        loc = s[b, L.HLOC + h]
        out[o] = 1.0
        out[o + 1] = 1.0 if loc >= 0 else 0.0
        out[o + 2] = _frac(s[b, L.HDMG + h], T.hero_stat[h, s[b, L.HSIDE + h], HS_HEALTH])
        out[o + 3] = s[b, L.HFOCUS + h] / 5.0
        out[o + 4] = s[b, L.HSIDE + h]
        out[o + 5] = s[b, L.HACTIONS + h] / 2.0
        out[o + 6] = hand_size(s, b, h) / 10.0
        n_clues = 0
        for i in range(CLUE_DECK):
            if s[b, L.CLUE_LOC + i] == h:
                n_clues += 1
        out[o + 7] = n_clues / 5.0
        out[o + 8] = threat_count(s, b, h) / 6.0
        out[o + 9] = 1.0 if s[b, L.HTHREAT_DONE + h] > 0 else 0.0
        out[o + 10] = _dist(T, here, loc)
        out[o + 11] = 1.0 if s[b, L.DEC_HERO] == h else 0.0
        form = hero_form(s, b, T, h)
        out[o + 12] = 1.0 if form == FORM_PILOT else 0.0
        out[o + 13] = 1.0 if form == FORM_MECH else 0.0
        out[o + 14] = _frac(s[b, L.HPILOT_DMG + h], T.hero_stat[h, 0, HS_HEALTH])

    # villain and issue cards
    for i in range(L.VDECK):
        o = OFF_VCARDS + i * CARD_FEATS
        z = s[b, L.VLOC + i]
        if z == L.L_THREAT:
            out[o + (0 if s[b, L.VOWNER + i] == seat else 1)] = 1.0
            out[o + 3] = _frac(s[b, L.VDMG + i], enemy_health(s, b, T, i, nh))
            out[o + 4] = _frac(s[b, L.VJUST + i], problem_danger(s, b, T, i, nh))
            out[o + 5] = s[b, L.VEXH + i]
            out[o + 7] = _dist(T, here, s[b, L.VPOS + i])
        elif z == L.L_DISCARD:
            out[o + 2] = 1.0
        elif z == L.L_PENDING or z == L.L_ATTACHED or z == L.L_ISSUE_AREA:
            out[o + 6] = 1.0
    for i in range(L.IDECK):
        o = OFF_ICARDS + i * CARD_FEATS
        z = s[b, L.ILOC + i]
        if z == L.L_THREAT:
            t = L.T_I0 + i
            out[o + (0 if s[b, L.IOWNER + i] == seat else 1)] = 1.0
            out[o + 2] = s[b, L.ISIDE + i]
            out[o + 3] = s[b, L.IDMG + i] / 5.0
            out[o + 4] = _frac(s[b, L.IJUST + i], problem_danger(s, b, T, t, nh))
            out[o + 5] = s[b, L.IEXH + i]
            out[o + 7] = _dist(T, here, s[b, L.IPOS + i])
        elif z == L.L_REMOVED:
            out[o + 6] = 1.0

    # nemeses: figures on the board planes (feature 16), cards in their own section
    for k in range(NEMESES):
        if s[b, L.NEM_CARD + k] < 0:
            continue
        o = OFF_NEMESES + k * NEM_FEATS
        if not nem_in_play(s, b, k):
            out[o + 6] = 1.0  # defeated: removed from the game
            continue
        t = L.T_NEM0 + k
        pos = s[b, L.NEM_POS + k]
        if pos >= 0:
            out[OFF_SPACES + pos * SPACE_FEATS + 16] += 1.0
        out[o + (0 if s[b, L.NEM_OWNER + k] == seat else 1)] = 1.0
        enemy = s[b, L.NEM_SIDE + k] == 1
        out[o + 5] = s[b, L.NEM_EXH + k]
        out[o + 7] = _dist(T, here, pos)
        if enemy:
            health = enemy_health(s, b, T, t, nh)
            out[o + 2] = 1.0
            out[o + 3] = _frac(s[b, L.NEM_DMG + k], health)
            out[o + 8] = max(0, health - s[b, L.NEM_DMG + k]) / 10.0
            out[o + 9] = enemy_inflict(s, b, T, t) / 5.0
        else:
            danger = problem_danger(s, b, T, t, nh)
            out[o + 4] = _frac(s[b, L.NEM_JUST + k], danger)
            out[o + 8] = max(0, danger - s[b, L.NEM_JUST + k]) / 10.0

    # special Minion cards (public reference cards and figures)
    for j in range(SPECIAL_MINIONS):
        if T.smin[j, SM_PRESENT] == 0:
            continue
        o = OFF_SMIN + j * SMIN_FEATS
        health = T.smin[j, SM_HEALTH]
        out[o] = 1.0
        out[o + 1] = health / 5.0
        out[o + 2] = T.smin[j, SM_INFLICT] / 5.0
        out[o + 3] = s[b, L.SMIN_SUPPLY + j] / 5.0
        for p in range(1, MAX_PANELS + 1):
            col = p * SPECIAL_MINIONS + j
            out[o + 3 + p] = s[b, L.SMIN + col] / 5.0
            out[o + 3 + MAX_PANELS + p] = _frac(s[b, L.SMIN_DMG + col], health)

    # Ally cards and figures (optional rule: Allies), self first
    for k in range(nh):
        h = (seat + k) % nh
        if T.ally[h, AL_PRESENT] == 0:
            continue
        o = OFF_ALLIES + k * ALLY_FEATS
        loc = s[b, L.ALLY_LOC + h]
        out[o] = 1.0
        out[o + 1] = 1.0 if loc >= 0 else 0.0
        out[o + 2] = _frac(s[b, L.ALLY_DMG + h], T.ally[h, AL_HEALTH])
        out[o + 3] = T.ally[h, AL_HEALTH] / 10.0
        out[o + 4] = T.ally[h, AL_ATTACK] / 5.0
        out[o + 5] = T.ally[h, AL_SOLVE] / 5.0
        out[o + 6] = s[b, L.ALLY_EXH + h]
        out[o + 7] = _dist(T, here, loc)
        if loc >= 0:
            out[OFF_ALLIES + MAX_HEROES * ALLY_FEATS + loc] = 1.0
    # crisis cards (public, in the issue play area); a token on the board planes (17)
    for k in range(MAX_CRISES):
        if T.crisis[k, CR_PRESENT] == 0:
            continue
        o = OFF_CRISES + k * CRISIS_FEATS
        t = L.T_CRISIS0 + k
        out[o] = 1.0
        if T.crisis[k, CR_DANGER] == 0:
            continue
        out[o + 1] = 1.0
        danger = problem_danger(s, b, T, t, nh)
        out[o + 3] = danger / 10.0
        if s[b, L.CRISIS_OUT + k] == 1:
            out[o + 2] = 1.0
            continue
        pos = s[b, L.CRISIS_POS + k]
        just = s[b, L.CRISIS_JUST + k]
        out[o + 4] = _frac(just, danger)
        out[o + 5] = max(0, danger - just) / 10.0
        out[o + 6] = _dist(T, here, pos)
        if pos >= 0:
            out[OFF_SPACES + pos * SPACE_FEATS + 17] += 1.0
            if here >= 0 and T.dist[here, pos] <= 1 and is_problem_card(s, b, T, t, seat):
                out[o + 7] = 1.0

    # special Bystander cards (public reference cards and figures)
    figs = float(SPECIAL_BYSTANDER_TOKENS)
    for j in range(SPECIAL_BYSTANDERS):
        if T.sby[j, SB_PRESENT] == 0:
            continue
        o = OFF_SBY + j * SBY_FEATS
        out[o] = 1.0
        out[o + 1] = 1.0 if T.sby[j, SB_RESCUED_PROG] >= 0 else 0.0
        out[o + 2] = 1.0 if T.sby[j, SB_CAPTURED_PROG] >= 0 else 0.0
        out[o + 3] = 1.0 if T.sby[j, SB_DEFEATED_PROG] >= 0 else 0.0
        out[o + 4] = s[b, L.SBY_SUPPLY + j] / figs
        out[o + 7] = s[b, L.SBY_DEFEATED + j] / figs
        for p in range(1, MAX_PANELS + 1):
            k = s[b, L.SBY_CAPT + p * SPECIAL_BYSTANDERS + j]
            out[o + 6] += k / figs
            out[o + 7 + p] = k / figs
        for sp in range(T.cfg[CFG_N_SPACES]):
            if s[b, L.SBY_ON + sp] == j:
                out[o + 5] += 1.0 / figs
                out[o + 8 + MAX_PANELS + sp] = 1.0


@njit(cache=True)
def encode_state(s, b, T, out):
    """Global state of game ``b`` for centralized critics (float32 [STATE_DIM])."""
    encode_obs(s, b, T, 0, out[:OBS_DIM])
    out[OBS_DIM:] = 0.0
    for h in range(T.cfg[CFG_N_HEROES]):
        for c in range(HERO_DECK):
            z = s[b, L.HCLOC + h * HERO_DECK + c]
            if z == L.L_HAND or z == L.L_MULLIGAN:
                out[OBS_DIM + h * HERO_DECK + c] = 1.0
