"""Observation encoder: one hero's view of a game as a flat float32 vector.

Egocentric: the observing seat is "self", other heroes follow in seat order after it.
Hidden information is filtered here and nowhere else: other heroes' hands are only
sizes, and no deck order is visible. The vector is a table of named features declared
once in ``hon_env.spec.obs_features`` (sections: global, spaces, self, others,
villain_cards, issue_cards, nemeses, special_minions, allies, ally_figures, crises,
special_bystanders, hero_identity, villain_agent, fame, fame_seats, fame_headlines,
enemy_ties; every feature with its scale and meaning in
``docs/observation.md``).
Each section has its own writer below, indexing by feature name.

The global state for centralized critics (``encode_state``) is seat 0's observation
followed by every seat's hand multi-hot (the ``hands`` section of ``state_spec()``).
"""

from __future__ import annotations

from numba import njit

from hon_env.core.card_features import encode_own_cards
from hon_env.core.draft_obs import encode_draft
from hon_env.core.enemy_ties import pending_move
from hon_env.core.facing import can_turn, hero_count_for, two_villains, villain_active
from hon_env.core.fame import encode_fame
from hon_env.core.geometry import panel_of_space
from hon_env.core.mastermind import hand_count
from hon_env.core.queries import (
    enemy_health,
    enemy_inflict,
    hero_form,
    hero_numbers,
    is_problem_card,
    nem_in_play,
    nemeses_in_play,
    problem_danger,
    villain_panel,
)
from hon_env.core.zones import hand_size, threat_count
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec.obs_features import (
    ALLY_FEATS,
    CARD_FEATS,
    CRISIS_FEATS,
    HERO_ID_FEATS,
    NEM_FEATS,
    OBS_DIM,
    OFF_ALLIES,
    OFF_ALLY_PLANE,
    OFF_CRISES,
    OFF_ET,
    OFF_GLOBAL,
    OFF_HANDS,
    OFF_HERO_ID,
    OFF_ICARDS,
    OFF_NEMESES,
    OFF_OTHERS,
    OFF_SBY,
    OFF_SELF,
    OFF_SMIN,
    OFF_SPACES,
    OFF_STATE_VHAND,
    OFF_VA,
    OFF_VCARDS,
    OTHER_FEATS,
    SBY_FEATS,
    SMIN_FEATS,
    SPACE_FEATS,
    STATE_DIM,  # noqa: F401  (re-exported: the front ends size their spaces with it)
    STATE_TAIL,
)
from hon_env.spec.tables import (
    AL_ATTACK,
    AL_HEALTH,
    AL_PRESENT,
    AL_SOLVE,
    CFG_LOSS_AT_LEAST,
    CFG_MAX_ROUNDS,
    CFG_MAX_YIELDS,
    CFG_N_HEROES,
    CFG_N_SPACES,
    CFG_VHAND,
    CFG_VTIES,
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
    VILLAINS,
    VT_LACKEY,
    VT_PERIL,
)

# Section bases, row widths and sizes (the feature table is in ``obs_features``).
N_SPACES_OBS = MAX_SPACES * SPACE_FEATS
N_OTHERS = (MAX_HEROES - 1) * OTHER_FEATS
N_VCARDS = L.VDECK * CARD_FEATS
N_ICARDS = L.IDECK * CARD_FEATS
N_NEMESES = NEMESES * NEM_FEATS
N_SMIN = SPECIAL_MINIONS * SMIN_FEATS
N_ALLIES = MAX_HEROES * ALLY_FEATS + MAX_SPACES
N_CRISES = MAX_CRISES * CRISIS_FEATS
N_SBY = SPECIAL_BYSTANDERS * SBY_FEATS


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

    Reads row ``b`` of the state and the tables; writes only ``out``. Each section has its
    own writer below; the feature names are those of ``obs_features``.
    """
    out[:] = 0.0
    # the villain agent (seat VILLAIN_SEAT) sees seat 0's public view plus its own section
    view = 0 if seat >= L.VILLAIN_SEAT else seat
    encode_draft(s, b, T, view, out)
    if s[b, L.DRAFTING] != 0:  # no game set up yet: the team's tables do not apply
        return
    here = s[b, L.HLOC + view]
    _global(s, b, T, view, out)
    _board(s, b, T, view, here, out)
    _self(s, b, T, view, here, out)
    _others(s, b, T, view, here, out)
    _deck_cards(s, b, T, view, here, out)
    _nemeses(s, b, T, view, here, out)
    _special_minions(s, b, T, out)
    _allies(s, b, T, view, here, out)
    _crises(s, b, T, view, here, out)
    _special_bystanders(s, b, T, out)
    _hero_identity(T, view, out)
    _villain_agent(s, b, T, seat, out)
    encode_fame(s, b, T, view, out)
    _enemy_ties(s, b, T, out)
    encode_own_cards(T, view, out)
    _two_fronts(s, b, T, view, here, out)
    if seat >= L.VILLAIN_SEAT:
        _villain_view(s, b, out)


@njit(cache=True)
def _villain_agent(s, b, T, seat, out):
    """The ``villain_agent`` section (Mastermind variant; zeros when it is off). Heroes see
    the hand's size; the villain's own view (``seat == VILLAIN_SEAT``) also its cards."""
    cap = T.cfg[CFG_VHAND]
    if cap == 0:
        return
    nh = T.cfg[CFG_N_HEROES]
    villain = seat >= L.VILLAIN_SEAT
    o = OFF_VA
    out[o + F.VA_ON] = 1.0
    out[o + F.VA_HAND_SIZE] = hand_count(s, b) / 10.0
    out[o + F.VA_HAND_CAP] = cap / 10.0
    kind = s[b, L.DEC_KIND]
    if s[b, L.DEC_HERO] == L.VILLAIN_SEAT and kind != L.D_NONE:
        out[o + F.VA_DECIDING] = 1.0
        if kind == L.D_VPLAY:
            out[o + F.VA_PLAY] = 1.0
            out[o + F.VA_SHOWDOWN] = 1.0 if s[b, L.DEC_B] == 1 else 0.0
        target = s[b, L.DEC_A]
        if (kind == L.D_VPLAY or kind == L.D_CUNNING) and 0 <= target < nh:
            out[o + F.VA_CARD_FOR + (target if villain else (target - seat) % nh)] = 1.0
    if villain:
        out[o + F.VA_OBSERVER] = 1.0
        for c in range(L.VDECK):
            if s[b, L.VLOC + c] == L.L_HAND:
                out[o + F.VA_HAND + c] = 1.0
        for h in range(nh):
            out[o + F.VA_HERO_HANDS + h] = hand_size(s, b, h) / 10.0


@njit(cache=True)
def _enemy_ties(s, b, T, out):
    """The ``enemy_ties`` section: the option, and the enemy move whose tie the villain
    breaks now (core/enemy_ties.py; zeros when the option is off)."""
    if T.cfg[CFG_VTIES] == 0:
        return
    o = OFF_ET
    out[o + F.ET_ON] = 1.0
    kind = s[b, L.DEC_KIND]
    if kind != L.D_ENEMY_TARGET and kind != L.D_ENEMY_STEP:
        return
    t, left, _, target, cur = pending_move(s, b)
    out[o + (F.ET_TARGET if kind == L.D_ENEMY_TARGET else F.ET_STEP)] = 1.0
    out[o + F.ET_VILLAIN] = 1.0 if t == L.T_VILLAIN else 0.0
    out[o + F.ET_STEPS] = left / 10.0
    out[o + F.ET_MOVER + cur] = 1.0
    if target >= 0:
        out[o + F.ET_DEST + target] = 1.0


@njit(cache=True)
def _villain_view(s, b, out):
    """Turn seat 0's view into the villain's: seat 0's hand and clues are private to that
    hero, the seat one-hot names no hero, and "deciding" means the villain decides."""
    for c in range(HERO_DECK):
        out[OFF_SELF + F.SELF_HAND + c] = 0.0
    for k in range(CLUE_LIST):
        out[OFF_SELF + F.SELF_CLUES + k] = 0.0
    for k in range(MAX_HEROES):
        out[OFF_GLOBAL + F.G_SEAT + k] = 0.0
    deciding = s[b, L.DEC_HERO] == L.VILLAIN_SEAT and s[b, L.OUTCOME] == 0
    out[OFF_GLOBAL + F.G_DECIDING] = 1.0 if deciding else 0.0


@njit(cache=True)
def _global(s, b, T, seat, out):
    """The ``global`` section: round, villain, supplies, counters, roll, decision."""
    g = OFF_GLOBAL
    out[g + F.G_ROUND] = s[b, L.ROUND] / max(1, T.cfg[CFG_MAX_ROUNDS])
    out[g + F.G_TURN + min(s[b, L.TURN], 4)] = 1.0
    out[g + F.G_N_HEROES] = T.cfg[CFG_N_HEROES] / MAX_HEROES
    out[g + F.G_VILLAIN_SIDE] = s[b, L.VIL_SIDE]
    out[g + F.G_VILLAIN_HIDDEN] = s[b, L.VIL_HIDDEN] / MAX_HEROES
    out[g + F.G_VILLAIN_JUSTICE] = _frac(s[b, L.VIL_JUSTICE], s[b, L.VIL_DANGER])
    out[g + F.G_VILLAIN_DAMAGE] = _frac(s[b, L.VIL_DAMAGE], s[b, L.VIL_HEALTH])
    out[g + F.G_VILLAIN_IN_PANEL] = s[b, L.VIL_IN_PANEL]
    # panels 1..6; a figure off the map (-1) schemes in no panel: the one-hot stays empty
    panel = villain_panel(s, b, T, 0) if s[b, L.VIL_LOC] >= 0 else 0
    if panel > 0:
        out[g + F.G_VILLAIN_PANEL - 1 + min(panel, 6)] = 1.0
    out[g + F.G_MINION_SUPPLY] = s[b, L.MINION_SUPPLY] / 10.0
    out[g + F.G_BYSTANDER_SUPPLY] = s[b, L.BYSTANDER_SUPPLY] / 8.0
    out[g + F.G_BYSTANDERS_DEFEATED] = s[b, L.BYSTANDERS_DEFEATED] / 8.0
    for k in range(4):
        out[g + F.G_COUNTERS + k] = s[b, L.COUNTERS + k] / max(1, T.cfg[CFG_LOSS_AT_LEAST])
    out[g + F.G_ISSUE_DECK] = s[b, L.IDECK_N] / L.IDECK
    out[g + F.G_VILLAIN_DECK] = s[b, L.VDECK_N] / L.VDECK
    out[g + F.G_CLUE_DECK] = s[b, L.CLUE_N] / CLUE_LIST
    out[g + F.G_OWN_ACTIONS] = s[b, L.HACTIONS + seat] / 2.0
    out[g + F.G_OWN_YIELDS] = _frac(s[b, L.HYIELDS + seat], T.cfg[CFG_MAX_YIELDS])
    deciding = s[b, L.DEC_HERO] == seat and s[b, L.OUTCOME] == 0
    out[g + F.G_DECIDING] = 1.0 if deciding else 0.0
    out[g + F.G_NEMESES] = nemeses_in_play(s, b) / NEMESES
    out[g + F.G_CRISIS_AREA] = s[b, L.CRISIS_AREA_N] / 4.0
    kind = s[b, L.ROLL_KIND]
    if kind > 0:
        out[g + F.G_ROLL_KIND + kind - 1] = 1.0
        out[g + F.G_ROLL_SUCCESSES] = s[b, L.ROLL_SUCC] / 10.0
        out[g + F.G_ROLL_FOCUS] = s[b, L.ROLL_FOCUS] / 10.0
        out[g + F.G_ROLL_DICE] = s[b, L.ROLL_DICE] / 10.0
    out[g + F.G_DECISION_A] = s[b, L.DEC_A] / 10.0
    out[g + F.G_DECISION_B] = s[b, L.DEC_B] / 10.0
    if s[b, L.DEC_KIND] < 16:  # the villain's own decision kinds: villain_agent section
        out[g + F.G_DECISION_KIND + s[b, L.DEC_KIND]] = 1.0
    out[g + F.G_SEAT + seat] = 1.0


@njit(cache=True)
def _board(s, b, T, seat, here, out):
    """The ``spaces`` section: one row per board space (what stands and lies there)."""
    for sp in range(T.cfg[CFG_N_SPACES]):
        k = T.space_kind[sp]
        if k == SP_NONE:
            continue
        o = OFF_SPACES + sp * SPACE_FEATS
        out[o + F.SPACE_ON_MAP] = 1.0
        out[o + F.SPACE_START] = 1.0 if k == SP_START else 0.0
        out[o + F.SPACE_PERIL_SPACE] = 1.0 if k == SP_PERIL else 0.0
        out[o + F.SPACE_BYSTANDER_SPACE] = 1.0 if k == SP_BYSTANDER else 0.0
        out[o + F.SPACE_SCHEME_SPACE] = 1.0 if k == SP_SCHEME else 0.0
        out[o + F.SPACE_BYSTANDER] = s[b, L.BYSTANDER_ON + sp]
        p = panel_of_space(T, sp)
        if p > 0:
            out[o + F.SPACE_MINIONS] = s[b, L.MINIONS + p] / 5.0
            out[o + F.SPACE_CAPTIVES] = s[b, L.CAPTURED + p] / 4.0
        out[o + F.SPACE_DISTANCE] = _dist(T, here, sp)
    for h in range(T.cfg[CFG_N_HEROES]):
        loc = s[b, L.HLOC + h]
        if loc >= 0:
            f = F.SPACE_SELF_HERO if h == seat else F.SPACE_OTHER_HEROES
            out[OFF_SPACES + loc * SPACE_FEATS + f] += 1.0
    if s[b, L.VIL_LOC] >= 0 and s[b, L.VIL_OUT] == 0:
        out[OFF_SPACES + s[b, L.VIL_LOC] * SPACE_FEATS + F.SPACE_VILLAIN] = 1.0
    nh = T.cfg[CFG_N_HEROES]
    for i in range(L.VDECK):
        pos = s[b, L.VPOS + i]
        if s[b, L.VLOC + i] != L.L_THREAT or pos < 0:
            continue
        o = OFF_SPACES + pos * SPACE_FEATS
        if T.vcard[i, VC_TYPE] == VT_PERIL:
            out[o + F.SPACE_PERIL] = 1.0
        elif T.vcard[i, VC_TYPE] == VT_LACKEY:
            out[o + F.SPACE_LACKEYS] += 1.0
            hurt = _frac(s[b, L.VDMG + i], enemy_health(s, b, T, i, nh))
            out[o + F.SPACE_LACKEY_DAMAGE] = max(out[o + F.SPACE_LACKEY_DAMAGE], hurt)
    for i in range(L.IDECK):
        pos = s[b, L.IPOS + i]
        if pos < 0:
            continue
        o = OFF_SPACES + pos * SPACE_FEATS
        if s[b, L.ILOC + i] == L.L_THREAT:
            out[o + F.SPACE_ISSUE_CARDS] += 1.0
        elif s[b, L.ILOC + i] == L.L_BOARD:  # a bystander character's token
            if T.space_kind[pos] == SP_SCHEME:
                out[o + F.SPACE_CAPTIVES] += 0.25
            else:
                out[o + F.SPACE_BYSTANDER] = 1.0


@njit(cache=True)
def _self(s, b, T, seat, here, out):
    """The ``self`` section: the observing hero's numbers, cards and clues."""
    o = OFF_SELF
    side = s[b, L.HSIDE + seat]
    health = T.hero_stat[seat, side, HS_HEALTH]
    out[o + F.SELF_ON_BOARD] = 1.0 if here >= 0 else 0.0
    out[o + F.SELF_DAMAGE] = _frac(s[b, L.HDMG + seat], health)
    out[o + F.SELF_HEALTH] = health / 20.0
    out[o + F.SELF_FOCUS] = s[b, L.HFOCUS + seat] / 5.0
    out[o + F.SELF_SIDE] = side
    attack, solve, move, arm = hero_numbers(s, b, T, seat)
    out[o + F.SELF_ATTACK_DICE] = attack / 6.0
    out[o + F.SELF_SOLVE_DICE] = solve / 6.0
    out[o + F.SELF_DECK] = s[b, L.HDECK_N + seat] / HERO_DECK
    out[o + F.SELF_EXHAUSTED] = s[b, L.HEXH + seat]
    out[o + F.SELF_THREATS] = threat_count(s, b, seat) / 6.0
    out[o + F.SELF_ARMOR] = arm / 3.0
    out[o + F.SELF_MOVE_BONUS] = move / 3.0
    out[o + F.SELF_THREAT_DONE] = 1.0 if s[b, L.HTHREAT_DONE + seat] > 0 else 0.0
    form = hero_form(s, b, T, seat)
    out[o + F.SELF_PILOT] = 1.0 if form == FORM_PILOT else 0.0
    out[o + F.SELF_MECH] = 1.0 if form == FORM_MECH else 0.0
    out[o + F.SELF_PILOT_DAMAGE] = _frac(s[b, L.HPILOT_DMG + seat],
                                         T.hero_stat[seat, 0, HS_HEALTH])
    # every float of these rows written, from selects rather than branches: a card's zone
    # and a clue's holder vary from game to game, so branches on them mispredict
    for c in range(HERO_DECK):
        z = s[b, L.HCLOC + seat * HERO_DECK + c]
        play = z == L.L_PLAY
        out[o + F.SELF_HAND + c] = 1.0 if z == L.L_HAND or z == L.L_MULLIGAN else 0.0
        out[o + F.SELF_PLAY + c] = 1.0 if play else 0.0
        out[o + F.SELF_PLAY_EXHAUSTED + c] = s[b, L.HCEXH + seat * HERO_DECK + c] if play else 0
        out[o + F.SELF_DISCARD + c] = 1.0 if z == L.L_DISCARD else 0.0
    for i in range(CLUE_DECK):
        out[o + F.SELF_CLUES + i % CLUE_LIST] += 1.0 if s[b, L.CLUE_LOC + i] == seat else 0.0


@njit(cache=True)
def _others(s, b, T, seat, here, out):
    """The ``others`` section: the other heroes' public state, in seat order after self."""
    nh = T.cfg[CFG_N_HEROES]
    for k in range(1, nh):
        h = (seat + k) % nh
        o = OFF_OTHERS + (k - 1) * OTHER_FEATS
        loc = s[b, L.HLOC + h]
        out[o + F.OTHER_PRESENT] = 1.0
        out[o + F.OTHER_ON_BOARD] = 1.0 if loc >= 0 else 0.0
        out[o + F.OTHER_DAMAGE] = _frac(s[b, L.HDMG + h],
                                        T.hero_stat[h, s[b, L.HSIDE + h], HS_HEALTH])
        out[o + F.OTHER_FOCUS] = s[b, L.HFOCUS + h] / 5.0
        out[o + F.OTHER_SIDE] = s[b, L.HSIDE + h]
        out[o + F.OTHER_ACTIONS] = s[b, L.HACTIONS + h] / 2.0
        out[o + F.OTHER_HAND_SIZE] = hand_size(s, b, h) / 10.0
        n_clues = 0
        for i in range(CLUE_DECK):
            if s[b, L.CLUE_LOC + i] == h:
                n_clues += 1
        out[o + F.OTHER_CLUES] = n_clues / 5.0
        out[o + F.OTHER_THREATS] = threat_count(s, b, h) / 6.0
        out[o + F.OTHER_THREAT_DONE] = 1.0 if s[b, L.HTHREAT_DONE + h] > 0 else 0.0
        out[o + F.OTHER_DISTANCE] = _dist(T, here, loc)
        out[o + F.OTHER_DECIDING] = 1.0 if s[b, L.DEC_HERO] == h else 0.0
        form = hero_form(s, b, T, h)
        out[o + F.OTHER_PILOT] = 1.0 if form == FORM_PILOT else 0.0
        out[o + F.OTHER_MECH] = 1.0 if form == FORM_MECH else 0.0
        out[o + F.OTHER_PILOT_DAMAGE] = _frac(s[b, L.HPILOT_DMG + h],
                                              T.hero_stat[h, 0, HS_HEALTH])


@njit(cache=True)
def _vcard_rows(s, b, T, seat, here, first, o, out):
    """The ``villain_cards`` (or ``villain2_cards``) rows from ``o`` on: villain card slots
    ``first`` to ``first + VDECK``. The rows of cards in threat areas (one or two a game)
    are a call; the loop over the slots is written out here, since with each row an
    inlined function (``inline="always"``) the loop cost four times as much."""
    for i in range(L.VDECK):
        c = first + i
        r = o + i * CARD_FEATS
        z = s[b, L.VLOC + c]
        # the zone flags as selects, not branches: which zone a card is in varies by game
        out[r + F.VCARD_DISCARD] = 1.0 if z == L.L_DISCARD else 0.0
        aside = (z == L.L_PENDING) | (z == L.L_ATTACHED) | (z == L.L_ISSUE_AREA)
        out[r + F.VCARD_ASIDE] = 1.0 if aside else 0.0
        if z == L.L_THREAT:
            _vcard_threat(s, b, T, seat, here, c, r, out)


@njit(cache=True)
def _vcard_threat(s, b, T, seat, here, c, o, out):
    """The threat-area floats of villain card slot ``c``'s row at ``o`` (``_vcard_rows``)."""
    nh = T.cfg[CFG_N_HEROES]
    t = L.vcard_target(c)
    own = s[b, L.VOWNER + c] == seat
    out[o + (F.VCARD_OWN_THREAT if own else F.VCARD_OTHER_THREAT)] = 1.0
    out[o + F.VCARD_DAMAGE] = _frac(s[b, L.VDMG + c], enemy_health(s, b, T, t, nh))
    out[o + F.VCARD_JUSTICE] = _frac(s[b, L.VJUST + c], problem_danger(s, b, T, t, nh))
    out[o + F.VCARD_EXHAUSTED] = s[b, L.VEXH + c]
    out[o + F.VCARD_DISTANCE] = _dist(T, here, s[b, L.VPOS + c])


@njit(cache=True)
def _two_fronts(s, b, T, seat, here, out):
    """The ``two_fronts``, ``two_fronts_seats``, ``two_fronts_spaces`` and ``villain2_cards``
    sections (zeros with one villain; ``out`` is already zeroed)."""
    if not two_villains(T):
        return
    nh = T.cfg[CFG_N_HEROES]
    g = F.OFF_TWO_FRONTS
    out[g + F.TF_ON] = 1.0
    out[g + F.TF_SIDE] = s[b, L.VIL2_SIDE]
    out[g + F.TF_HIDDEN] = s[b, L.VIL2_HIDDEN] / MAX_HEROES
    out[g + F.TF_JUSTICE] = _frac(s[b, L.VIL2_JUSTICE], s[b, L.VIL2_DANGER])
    out[g + F.TF_DAMAGE] = _frac(s[b, L.VIL2_DAMAGE], s[b, L.VIL2_HEALTH])
    out[g + F.TF_IN_PANEL] = s[b, L.VIL2_IN_PANEL]
    active = villain_active(s, b, T, 1)
    if active and s[b, L.VIL2_LOC] >= 0:
        out[g + F.TF_PANEL - 1 + min(villain_panel(s, b, T, 1), 6)] = 1.0
        o = F.OFF_TF_SPACES + s[b, L.VIL2_LOC] * F.TF_SPACE_FEATS
        out[o + F.TP_VILLAIN2] = 1.0
    out[g + F.TF_DECK] = s[b, L.VDECK2_N] / L.VDECK
    for v in range(VILLAINS):
        out[g + F.TF_DEFEATED + v] = s[b, L.VIL_OUT + v]
        out[g + F.TF_HERO_COUNT + v] = hero_count_for(s, b, T, v) / MAX_HEROES
    out[g + F.TF_MAY_TURN] = 1.0 if seat < nh and can_turn(s, b, T, seat) else 0.0
    for k in range(nh):
        h = (seat + k) % nh
        out[F.OFF_TF_SEATS + k * F.TF_SEAT_FEATS + F.TS_FACES + s[b, L.HFACE + h]] = 1.0
    _vcard_rows(s, b, T, seat, here, L.VDECK, F.OFF_VCARDS2, out)
    for i in range(L.VDECK):
        c = L.VDECK + i
        pos = s[b, L.VPOS + c]
        if s[b, L.VLOC + c] != L.L_THREAT or pos < 0:
            continue
        o = F.OFF_TF_SPACES + pos * F.TF_SPACE_FEATS
        if T.vcard[c, VC_TYPE] == VT_PERIL:
            out[o + F.TP_PERIL2] = 1.0
        elif T.vcard[c, VC_TYPE] == VT_LACKEY:
            out[o + F.TP_LACKEYS2] += 1.0
            hurt = _frac(s[b, L.VDMG + c], enemy_health(s, b, T, L.vcard_target(c), nh))
            out[o + F.TP_LACKEY2_DAMAGE] = max(out[o + F.TP_LACKEY2_DAMAGE], hurt)


@njit(cache=True)
def _deck_cards(s, b, T, seat, here, out):
    """The ``villain_cards`` and ``issue_cards`` sections: where each deck card is."""
    nh = T.cfg[CFG_N_HEROES]
    _vcard_rows(s, b, T, seat, here, 0, OFF_VCARDS, out)
    for i in range(L.IDECK):
        o = OFF_ICARDS + i * CARD_FEATS
        z = s[b, L.ILOC + i]
        out[o + F.ICARD_REMOVED] = 1.0 if z == L.L_REMOVED else 0.0
        if z == L.L_THREAT:
            t = L.T_I0 + i
            own = s[b, L.IOWNER + i] == seat
            out[o + (F.ICARD_OWN_THREAT if own else F.ICARD_OTHER_THREAT)] = 1.0
            out[o + F.ICARD_FLIPPED] = s[b, L.ISIDE + i]
            out[o + F.ICARD_DAMAGE] = s[b, L.IDMG + i] / 5.0
            out[o + F.ICARD_JUSTICE] = _frac(s[b, L.IJUST + i], problem_danger(s, b, T, t, nh))
            out[o + F.ICARD_EXHAUSTED] = s[b, L.IEXH + i]
            out[o + F.ICARD_DISTANCE] = _dist(T, here, s[b, L.IPOS + i])


@njit(cache=True)
def _nemeses(s, b, T, seat, here, out):
    """The ``nemeses`` section; nemesis figures also count on the board planes."""
    nh = T.cfg[CFG_N_HEROES]
    for k in range(NEMESES):
        if s[b, L.NEM_CARD + k] < 0:
            continue
        o = OFF_NEMESES + k * NEM_FEATS
        if not nem_in_play(s, b, k):
            out[o + F.NEM_DEFEATED] = 1.0  # defeated: removed from the game
            continue
        t = L.T_NEM0 + k
        pos = s[b, L.NEM_POS + k]
        if pos >= 0:
            out[OFF_SPACES + pos * SPACE_FEATS + F.SPACE_NEMESES] += 1.0
        own = s[b, L.NEM_OWNER + k] == seat
        out[o + (F.NEM_OWN_THREAT if own else F.NEM_OTHER_THREAT)] = 1.0
        out[o + F.NEM_EXHAUSTED] = s[b, L.NEM_EXH + k]
        out[o + F.NEM_DISTANCE] = _dist(T, here, pos)
        if s[b, L.NEM_SIDE + k] == 1:
            health = enemy_health(s, b, T, t, nh)
            out[o + F.NEM_ENEMY] = 1.0
            out[o + F.NEM_DAMAGE] = _frac(s[b, L.NEM_DMG + k], health)
            out[o + F.NEM_LEFT] = max(0, health - s[b, L.NEM_DMG + k]) / 10.0
            out[o + F.NEM_INFLICT] = enemy_inflict(s, b, T, t) / 5.0
        else:
            danger = problem_danger(s, b, T, t, nh)
            out[o + F.NEM_JUSTICE] = _frac(s[b, L.NEM_JUST + k], danger)
            out[o + F.NEM_LEFT] = max(0, danger - s[b, L.NEM_JUST + k]) / 10.0


@njit(cache=True)
def _special_minions(s, b, T, out):
    """The ``special_minions`` section: public reference cards and their figures."""
    for j in range(SPECIAL_MINIONS):
        if T.smin[j, SM_PRESENT] == 0:
            continue
        o = OFF_SMIN + j * SMIN_FEATS
        health = T.smin[j, SM_HEALTH]
        out[o + F.SMIN_PRESENT] = 1.0
        out[o + F.SMIN_HEALTH] = health / 5.0
        out[o + F.SMIN_INFLICT] = T.smin[j, SM_INFLICT] / 5.0
        out[o + F.SMIN_SUPPLY] = s[b, L.SMIN_SUPPLY + j] / 5.0
        for p in range(1, MAX_PANELS + 1):
            col = p * SPECIAL_MINIONS + j
            out[o + F.SMIN_PANEL_FIGURES + p - 1] = s[b, L.SMIN + col] / 5.0
            out[o + F.SMIN_PANEL_DAMAGE + p - 1] = _frac(s[b, L.SMIN_DMG + col], health)


@njit(cache=True)
def _allies(s, b, T, seat, here, out):
    """The ``allies`` rows (self first) and the ``ally_figures`` plane (Allies rule)."""
    nh = T.cfg[CFG_N_HEROES]
    for k in range(nh):
        h = (seat + k) % nh
        if T.ally[h, AL_PRESENT] == 0:
            continue
        o = OFF_ALLIES + k * ALLY_FEATS
        loc = s[b, L.ALLY_LOC + h]
        out[o + F.ALLY_PRESENT] = 1.0
        out[o + F.ALLY_ON_MAP] = 1.0 if loc >= 0 else 0.0
        out[o + F.ALLY_DAMAGE] = _frac(s[b, L.ALLY_DMG + h], T.ally[h, AL_HEALTH])
        out[o + F.ALLY_HEALTH] = T.ally[h, AL_HEALTH] / 10.0
        out[o + F.ALLY_ATTACK] = T.ally[h, AL_ATTACK] / 5.0
        out[o + F.ALLY_SOLVE] = T.ally[h, AL_SOLVE] / 5.0
        out[o + F.ALLY_EXHAUSTED] = s[b, L.ALLY_EXH + h]
        out[o + F.ALLY_DISTANCE] = _dist(T, here, loc)
        if loc >= 0:
            out[OFF_ALLY_PLANE + F.ALLY_PLANE + loc] = 1.0


@njit(cache=True)
def _crises(s, b, T, seat, here, out):
    """The ``crises`` section (public cards in the issue play area); tokens on the board."""
    nh = T.cfg[CFG_N_HEROES]
    for k in range(MAX_CRISES):
        if T.crisis[k, CR_PRESENT] == 0:
            continue
        o = OFF_CRISES + k * CRISIS_FEATS
        t = L.T_CRISIS0 + k
        out[o + F.CRISIS_PRESENT] = 1.0
        if T.crisis[k, CR_DANGER] == 0:
            continue
        out[o + F.CRISIS_HAS_DANGER] = 1.0
        danger = problem_danger(s, b, T, t, nh)
        out[o + F.CRISIS_DANGER] = danger / 10.0
        if s[b, L.CRISIS_OUT + k] == 1:
            out[o + F.CRISIS_SOLVED] = 1.0
            continue
        pos = s[b, L.CRISIS_POS + k]
        just = s[b, L.CRISIS_JUST + k]
        out[o + F.CRISIS_JUSTICE] = _frac(just, danger)
        out[o + F.CRISIS_NEEDED] = max(0, danger - just) / 10.0
        out[o + F.CRISIS_DISTANCE] = _dist(T, here, pos)
        if pos >= 0:
            out[OFF_SPACES + pos * SPACE_FEATS + F.SPACE_CRISIS_TOKENS] += 1.0
            if here >= 0 and T.dist[here, pos] <= 1 and is_problem_card(s, b, T, t, seat):
                out[o + F.CRISIS_SOLVABLE] = 1.0


@njit(cache=True)
def _special_bystanders(s, b, T, out):
    """The ``special_bystanders`` section: public reference cards and their figures."""
    figs = float(SPECIAL_BYSTANDER_TOKENS)
    for j in range(SPECIAL_BYSTANDERS):
        if T.sby[j, SB_PRESENT] == 0:
            continue
        o = OFF_SBY + j * SBY_FEATS
        out[o + F.SBY_PRESENT] = 1.0
        out[o + F.SBY_HAS_RESCUED] = 1.0 if T.sby[j, SB_RESCUED_PROG] >= 0 else 0.0
        out[o + F.SBY_HAS_CAPTURED] = 1.0 if T.sby[j, SB_CAPTURED_PROG] >= 0 else 0.0
        out[o + F.SBY_HAS_DEFEATED] = 1.0 if T.sby[j, SB_DEFEATED_PROG] >= 0 else 0.0
        out[o + F.SBY_SUPPLY] = s[b, L.SBY_SUPPLY + j] / figs
        out[o + F.SBY_DEFEATED] = s[b, L.SBY_DEFEATED + j] / figs
        for p in range(1, MAX_PANELS + 1):
            k = s[b, L.SBY_CAPT + p * SPECIAL_BYSTANDERS + j]
            out[o + F.SBY_CAPTURED] += k / figs
            out[o + F.SBY_PANEL_CAPTIVES + p - 1] = k / figs
        for sp in range(T.cfg[CFG_N_SPACES]):
            if s[b, L.SBY_ON + sp] == j:
                out[o + F.SBY_ON_MAP] += 1.0 / figs
                out[o + F.SBY_PLANE + sp] = 1.0


@njit(cache=True)
def _hero_identity(T, seat, out):
    """The ``hero_identity`` rows: each seat's hero as a roster one-hot, self first."""
    nh = T.cfg[CFG_N_HEROES]
    for k in range(nh):
        r = T.hero_roster[(seat + k) % nh]
        if r >= 0:
            out[OFF_HERO_ID + k * HERO_ID_FEATS + F.HERO_ID + r] = 1.0


@njit(cache=True)
def encode_state(s, b, T, out):
    """Global state of game ``b`` for centralized critics (float32 [STATE_DIM]): seat 0's
    observation, then the ``hands`` section (every seat's hand multi-hot) and the villain
    agent's hand (``villain_hand``). A shorter ``out`` is the compact state
    (``hon_env/spec/compact.py``): the observation part is then its first
    ``len(out) - STATE_TAIL`` floats, which must cover the game's live sections."""
    encode_obs(s, b, T, 0, out[:out.shape[0] - STATE_TAIL])
    encode_state_tail(s, b, T, out)


@njit(cache=True)
def encode_state_tail(s, b, T, out):
    """The part of ``encode_state`` past seat 0's observation: writes the last
    ``STATE_TAIL`` floats of ``out`` only (``out[OBS_DIM:]`` of the full state; a caller
    holding seat 0's observation copies it into the floats before them)."""
    t = out.shape[0] - STATE_TAIL
    out[t:] = 0.0
    shift = t - OBS_DIM  # 0 in the full state; the compact state moves the tail forward
    for h in range(T.cfg[CFG_N_HEROES]):
        for c in range(HERO_DECK):
            z = s[b, L.HCLOC + h * HERO_DECK + c]
            if z == L.L_HAND or z == L.L_MULLIGAN:
                out[shift + OFF_HANDS + h * HERO_DECK + F.STATE_HAND + c] = 1.0
    for c in range(L.VDECK):
        if s[b, L.VLOC + c] == L.L_HAND:
            out[shift + OFF_STATE_VHAND + F.STATE_VHAND + c] = 1.0
