"""Legal-action masks: what the pending decision allows, and nothing else.

The contract (tested in tests/test_conformance.py): in every non-terminal state the mask
of the deciding hero is non-empty, ``apply`` accepts exactly the actions it allows, and a
finished game has an all-zero mask. Each decision kind's mask is written in one branch
below; ``DEC_A``/``DEC_B`` carry the context named in layout.py.
"""

from __future__ import annotations

from numba import njit

from hon_env.core import queries
from hon_env.core.enemy_ties import tie_mask
from hon_env.core.facing import can_turn, may_affect, target_villain, vil_col
from hon_env.core.geometry import bystander_at, captives, is_empty, occupied_spaces
from hon_env.core.mastermind import hero_origin, vplay_mask
from hon_env.core.two_fronts import face_mask
from hon_env.core.zones import held_clue
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB


@njit(cache=True)
def near_space(T, here, k):
    """The k-th space near ``here``: neighbours for k < 6, ``here`` itself for k == 6.

    Returns -1 for a missing neighbour or when ``here`` is off the board.
    """
    if here < 0:
        return -1
    return here if k == 6 else T.adj[here, k]


@njit(cache=True)
def can_step(T, here, sp, occ):
    """May a hero standing at ``here`` step into adjacent space ``sp`` during a Move?
    ``occ``: the game's ``geometry.occupied_spaces``."""
    if here < 0 or sp == here or T.space_kind[sp] == TB.SP_NONE or T.dist[here, sp] != 1:
        return False
    return T.space_kind[sp] == TB.SP_SCHEME or not occ[sp]


@njit(cache=True)
def can_place(s, b, T, h, sp, rng):
    """May hero ``h`` be placed in ``sp`` (within ``rng`` spaces; 0 means anywhere)?"""
    here = s[b, L.HLOC + h]
    if T.space_kind[sp] == TB.SP_NONE:
        return False
    if sp == here:
        return True
    if rng > 0 and (here < 0 or T.dist[here, sp] > rng):
        return False
    return T.space_kind[sp] == TB.SP_SCHEME or is_empty(s, b, T, sp)


@njit(cache=True)
def strike_targets(s, b, T, h, attack, ally):
    """Where seat ``h`` may Attack (``attack``) or Solve, and from where: (the figure's
    space, the ``queries.enemy_spaces`` or ``problem_spaces`` map of the spaces with a
    target seat ``h`` may affect; Two Fronts: the villain it faces). With ``ally`` the
    figure is seat ``h``'s ally figure: it faces as its hero does (003 §BATTLE: hero cards
    face like their hero) and Solves as no hero does, so problems that need a hero in their
    panel are out of its reach; captives are not."""
    here = s[b, (L.ALLY_LOC if ally else L.HLOC) + h]
    if attack:
        return here, queries.enemy_spaces(s, b, T, h)
    return here, queries.problem_spaces(s, b, T, -1 if ally else h, h)


@njit(cache=True, inline="always")
def in_reach(T, here, sp, rng, targets):
    """Is ``sp`` marked in ``targets`` (``strike_targets``) and within ``rng`` spaces
    (1: nearby) of a figure at ``here``?"""
    return here >= 0 and T.dist[here, sp] <= rng and targets[sp]


@njit(cache=True)
def ally_can_place(s, b, T, h, sp, rng):
    """May seat ``h``'s ally figure move to ``sp``: an empty map space (or its own) within
    ``rng`` of it? Ally figures stay out of scheme panels."""
    here = s[b, L.ALLY_LOC + h]
    if here < 0 or T.space_kind[sp] == TB.SP_NONE or T.space_kind[sp] == TB.SP_SCHEME:
        return False
    if sp == here:
        return True
    return T.dist[here, sp] <= rng and is_empty(s, b, T, sp)


@njit(cache=True)
def is_prevent_prog(T, pid):
    return pid >= 0 and T.prog[pid, 0, 0] == ops.OP_PREVENT


@njit(cache=True)
def ability_usable(s, b, T, h, i, need_prevent, actions_left):
    """Can hero ``h`` use the ability of USE slot ``i`` (a card in play, USE_HERO_CARD, or
    USE_ALLY_CARD while the ally's figure is on the map) now?

    ``need_prevent`` selects damage-window use (only Exhaust ``prevent`` abilities);
    otherwise prevent abilities are excluded and Action abilities need an action token.
    """
    if i == L.USE_HERO_CARD:
        side = s[b, L.HSIDE + h]
        kind = T.hero_stat[h, side, TB.HS_ABILITY]
        pid = T.hero_stat[h, side, TB.HS_ABILITY_PROG]
        exhausted = s[b, L.HEXH + h]
    elif i == L.USE_ALLY_CARD:
        if s[b, L.ALLY_LOC + h] < 0:
            return False
        kind = T.ally[h, TB.AL_ABILITY]
        pid = T.ally[h, TB.AL_ABILITY_PROG]
        exhausted = s[b, L.ALLY_EXH + h]
    else:
        if s[b, L.HCLOC + h * TB.HERO_DECK + i] != L.L_PLAY:
            return False
        kind = T.hcard[h, i, TB.HC_ABILITY]
        pid = T.hcard[h, i, TB.HC_ABILITY_PROG]
        exhausted = s[b, L.HCEXH + h * TB.HERO_DECK + i]
    if pid < 0:
        return False
    if need_prevent:
        return kind == TB.ABIL_EXHAUST and exhausted == 0 and is_prevent_prog(T, pid)
    if kind == TB.ABIL_ACTION:
        return actions_left > 0
    if kind == TB.ABIL_EXHAUST:
        return exhausted == 0 and not is_prevent_prog(T, pid)
    return False


@njit(cache=True)
def yield_target(s, b, T, h):
    """Next seat after ``h`` that still has actions or a threat phase to take, or -1."""
    n = T.cfg[TB.CFG_N_HEROES]
    for k in range(1, n):
        o = (h + k) % n
        if s[b, L.HACTIONS + o] > 0 or s[b, L.HTHREAT_DONE + o] == 0:
            return o
    return -1


@njit(cache=True)
def pick_target_ok(s, b, T, h, t, kind, rng):
    """Target filter of D_PICK_TARGET: kind 0 enemy, 1 problem, 2 own ready threat card;
    never a card of the villain ``h`` does not face (003 §FACING A VILLAIN)."""
    if not may_affect(s, b, T, h, t):
        return False
    if kind == 2:
        if L.is_vcard_target(t):
            c = L.vcard_of(t)
            return (s[b, L.VLOC + c] == L.L_THREAT and s[b, L.VOWNER + c] == h
                    and s[b, L.VEXH + c] == 0)
        if L.is_villain_target(t):
            v = target_villain(t)
            return s[b, vil_col(L.VIL_OWNER, v)] == h and s[b, vil_col(L.VIL_EXH, v)] == 0
        if t < L.T_VILLAIN:
            i = t - L.T_I0
            return (s[b, L.ILOC + i] == L.L_THREAT and s[b, L.IOWNER + i] == h
                    and s[b, L.IEXH + i] == 0)
        if t < L.T_MINION:
            k = t - L.T_NEM0
            return (queries.nem_in_play(s, b, k) and s[b, L.NEM_OWNER + k] == h
                    and s[b, L.NEM_EXH + k] == 0)
        return False
    if t == L.T_MINION or t == L.T_CAPTURED:
        return False
    if kind == 0:
        ok = queries.is_enemy_card(s, b, T, t)
    else:
        ok = queries.is_problem_card(s, b, T, t, h)
    if not ok:
        return False
    sp = queries.target_space(s, b, T, t)
    here = s[b, L.HLOC + h]
    return sp >= 0 and here >= 0 and T.dist[here, sp] <= rng


@njit(cache=True)
def _set(out, a, count, last):
    out[a] = 1
    return count + 1, a


@njit(cache=True)
def legal_mask(state, game, tables, out):
    """Write the legal actions of ``game``'s pending decision into ``out`` (int8 [N]).

    Reads the decision fields and the state; writes only ``out``.
    Returns (number of legal actions, the last legal action or -1). One ``mask_*``
    function per decision kind; a new kind is one branch here and one function below.
    """
    out[:] = 0
    kind = state[game, L.DEC_KIND]
    hero = state[game, L.DEC_HERO]
    if kind == L.D_MULLIGAN:
        return mask_mulligan(state, game, tables, hero, out)
    if kind == L.D_MAIN:
        return mask_main(state, game, tables, hero, out)
    if kind == L.D_MOVE:
        return mask_move(state, game, tables, hero, out)
    if kind == L.D_PLACE:
        return mask_place(state, game, tables, hero, out)
    if kind == L.D_CUNNING:
        return mask_cunning(out)
    if kind == L.D_CLUE_DICE:
        return mask_clue_dice(state, game, tables, hero, out)
    if kind == L.D_FOCUS_SPEND:
        return mask_focus_spend(state, game, hero, out)
    if kind == L.D_ASSIGN:
        return mask_assign(state, game, tables, out)
    if kind == L.D_DAMAGE:
        return mask_damage(state, game, tables, hero, out)
    if kind == L.D_DISCARD_OR_DAMAGE:
        return mask_discard_or_damage(state, game, hero, out)
    if kind == L.D_PICK_HERO:
        return mask_pick_hero(state, game, tables, hero, out)
    if kind == L.D_PICK_TARGET:
        return mask_pick_target(state, game, tables, hero, out)
    if kind == L.D_ATTACK_SPACE or kind == L.D_SOLVE_SPACE:
        return mask_strike_space(state, game, tables, hero, kind == L.D_ATTACK_SPACE, out)
    if kind == L.D_RESCUE:
        return mask_rescue(state, game, tables, hero, out)
    if kind == L.D_VPLAY:
        return vplay_mask(state, game, out)
    if kind == L.D_ENEMY_TARGET or kind == L.D_ENEMY_STEP:
        return tie_mask(state, game, tables, out)
    if kind == L.D_FACE:
        return face_mask(state, game, tables, hero, out)
    return 0, -1


@njit(cache=True)
def mask_hand_cards(state, game, hero, out, n, last):
    """Allow ``A_CARD + c`` for every card in ``hero``'s hand."""
    for c in range(TB.HERO_DECK):
        if state[game, L.HCLOC + hero * TB.HERO_DECK + c] == L.L_HAND:
            n, last = _set(out, L.A_CARD + c, n, last)
    return n, last


@njit(cache=True)
def mask_mulligan(state, game, tables, hero, out):
    """D_MULLIGAN: keep the hand (pass) or put back one card of it."""
    n, last = _set(out, L.A_PASS, 0, -1)
    return mask_hand_cards(state, game, hero, out, n, last)


@njit(cache=True)
def mask_main(state, game, tables, hero, out):
    """D_MAIN: a hero's turn: pass (when out of actions or able to yield), draw, move,
    Attack or Solve nearby, play or feat a card, use an ability, play a clue, flip."""
    n = 0
    last = -1
    acts = state[game, L.HACTIONS + hero]
    if acts == 0:
        n, last = _set(out, L.A_PASS, n, last)
    elif (state[game, L.HYIELDS + hero] < tables.cfg[TB.CFG_MAX_YIELDS]
          and yield_target(state, game, tables, hero) >= 0):
        n, last = _set(out, L.A_PASS, n, last)
    can_atk = False
    can_slv = False
    if acts > 0:
        n, last = _set(out, L.A_DRAW, n, last)
    here = state[game, L.HLOC + hero]
    if here >= 0:  # off the map no space is near
        occ = occupied_spaces(state, game, tables)
        _, enemies = strike_targets(state, game, tables, hero, True, False)
        _, problems = strike_targets(state, game, tables, hero, False, False)
        for k in range(7):
            sp = near_space(tables, here, k)
            if sp < 0:
                continue
            if acts > 0 and can_step(tables, here, sp, occ):
                n, last = _set(out, L.A_SPACE + sp, n, last)
            if in_reach(tables, here, sp, 1, enemies):
                can_atk = True
                if acts > 0:
                    n, last = _set(out, L.A_ATTACK + sp, n, last)
            if in_reach(tables, here, sp, 1, problems):
                can_slv = True
                if acts > 0:
                    n, last = _set(out, L.A_SOLVE + sp, n, last)
    hbase = hero * TB.HERO_DECK
    for c in range(TB.HERO_DECK):
        if state[game, L.HCLOC + hbase + c] == L.L_HAND:
            if acts > 0 or tables.hcard[hero, c, TB.HC_ACTION] == 0:
                n, last = _set(out, L.A_PLAY + c, n, last)
            feats = tables.hcard[hero, c, TB.HC_FEATS]
            if feats & TB.FEAT_MOBILITY:
                n, last = _set(out, L.A_FEAT + 3 * c, n, last)
            if feats & TB.FEAT_STRENGTH and can_atk:
                n, last = _set(out, L.A_FEAT + 3 * c + 1, n, last)
            if feats & TB.FEAT_DEDUCTION and can_slv:
                n, last = _set(out, L.A_FEAT + 3 * c + 2, n, last)
    for i in range(L.N_USE):
        if ability_usable(state, game, tables, hero, i, False, acts):
            n, last = _set(out, L.A_USE + i, n, last)
    for k in range(TB.CLUE_LIST):
        i = held_clue(state, game, hero, k)
        if i >= 0 and tables.clue[i, TB.CL_PROG] >= 0:
            n, last = _set(out, L.A_CLUE + k, n, last)
    if (state[game, L.HFOCUS + hero] >= tables.cfg[TB.CFG_FOCUS_TO_FLIP]
            and state[game, L.HSIDE + hero] == 0):
        n, last = _set(out, L.A_FOCUS, n, last)
    if acts > 0 and can_turn(state, game, tables, hero):
        n, last = _set(out, L.A_TURN, n, last)
    return n, last


@njit(cache=True)
def mask_move(state, game, tables, hero, out):
    """D_MOVE: stop (pass) or step to an adjacent space."""
    n, last = _set(out, L.A_PASS, 0, -1)
    here = state[game, L.HLOC + hero]
    if here < 0:
        return n, last
    occ = occupied_spaces(state, game, tables)
    for k in range(6):
        sp = near_space(tables, here, k)
        if sp >= 0 and can_step(tables, here, sp, occ):
            n, last = _set(out, L.A_SPACE + sp, n, last)
    return n, last


@njit(cache=True)
def mask_place(state, game, tables, hero, out):
    """D_PLACE: a space within DEC_A for the hero (DEC_B 0) or their ally figure (1)."""
    n = 0
    last = -1
    ally = state[game, L.DEC_B] == 1
    for sp in range(tables.cfg[TB.CFG_N_SPACES]):
        if ally:
            ok = ally_can_place(state, game, tables, hero, sp, state[game, L.DEC_A])
        else:
            ok = can_place(state, game, tables, hero, sp, state[game, L.DEC_A])
        if ok:
            n, last = _set(out, L.A_SPACE + sp, n, last)
    return n, last


@njit(cache=True)
def mask_cunning(out):
    """D_CUNNING: one of the two options of a Cunning ploy."""
    n, last = _set(out, L.A_OPTION, 0, -1)
    return _set(out, L.A_OPTION + 1, n, last)


@njit(cache=True)
def mask_clue_dice(state, game, tables, hero, out):
    """D_CLUE_DICE: roll as is (pass) or add a held clue's dice of the roll's kind."""
    n, last = _set(out, L.A_PASS, 0, -1)
    col = TB.CL_ATTACK_DICE if state[game, L.ROLL_KIND] == 1 else TB.CL_SOLVE_DICE
    for k in range(TB.CLUE_LIST):
        i = held_clue(state, game, hero, k)
        if i >= 0 and tables.clue[i, col] > 0:
            n, last = _set(out, L.A_CLUE + k, n, last)
    return n, last


@njit(cache=True)
def mask_focus_spend(state, game, hero, out):
    """D_FOCUS_SPEND: how many focus tokens to spend on the roll (option k: k tokens)."""
    n = 0
    last = -1
    top = min(state[game, L.HFOCUS + hero], state[game, L.ROLL_FOCUS], L.N_OPTIONS - 1)
    for k in range(top + 1):
        n, last = _set(out, L.A_OPTION + k, n, last)
    return n, last


@njit(cache=True)
def mask_assign(state, game, tables, out):
    """D_ASSIGN: the enemy (Attack roll) or problem (Solve roll) in the rolled space that
    takes the next success."""
    n = 0
    last = -1
    for t in range(L.N_TARGETS):
        if can_take_success(state, game, tables, t):
            n, last = _set(out, L.target_action(t), n, last)
    return n, last


@njit(cache=True)
def can_take_success(state, game, tables, t):
    """Can target ``t`` take a success of the roll in progress: an enemy in the rolled
    space (Attack) or a problem there that the roll's solver may Solve (Solve), and not
    a card of the villain the rolling hero (or ally's hero) does not face?"""
    if not may_affect(state, game, tables, state[game, L.ROLL_HERO], t):
        return False
    sp = state[game, L.ROLL_SPACE]
    if state[game, L.ROLL_KIND] == 1:
        return queries.enemy_in_space(state, game, tables, t, sp)
    return queries.problem_in_space(state, game, tables, t, sp, queries.roll_solver(state, game))


@njit(cache=True)
def mask_damage(state, game, tables, hero, out):
    """D_DAMAGE: take the damage (pass), or prevent it with a Toughness card, a Prevent
    ability or by becoming Focused."""
    n, last = _set(out, L.A_PASS, 0, -1)
    hbase = hero * TB.HERO_DECK
    for c in range(TB.HERO_DECK):
        tough = tables.hcard[hero, c, TB.HC_FEATS] & TB.FEAT_TOUGHNESS
        if state[game, L.HCLOC + hbase + c] == L.L_HAND and tough:
            n, last = _set(out, L.A_CARD + c, n, last)
    for i in range(L.N_USE):
        if ability_usable(state, game, tables, hero, i, True, 0):
            n, last = _set(out, L.A_USE + i, n, last)
    # any hero may become Focused during the hero turn, initiative or not (#14)
    if (state[game, L.TURN] == L.TURN_HERO
            and state[game, L.HFOCUS + hero] >= tables.cfg[TB.CFG_FOCUS_TO_FLIP]
            and state[game, L.HSIDE + hero] == 0):
        n, last = _set(out, L.A_FOCUS, n, last)
    return n, last


@njit(cache=True)
def mask_discard_or_damage(state, game, hero, out):
    """D_DISCARD_OR_DAMAGE: take the damage (pass) or discard a card from hand."""
    n, last = _set(out, L.A_PASS, 0, -1)
    return mask_hand_cards(state, game, hero, out, n, last)


@njit(cache=True)
def mask_pick_hero(state, game, tables, hero, out):
    """D_PICK_HERO: a seat of the DEC_A bitmask (A_HERO + k: k seats after ``hero``; after
    seat 0 for the villain agent), or an ally figure of it (its ALLY_BIT bits)."""
    n = 0
    last = -1
    seats = state[game, L.DEC_A]
    nh = tables.cfg[TB.CFG_N_HEROES]
    origin = hero_origin(hero)
    for k in range(TB.MAX_HEROES):
        if k < nh and (seats >> ((origin + k) % nh)) & 1:
            n, last = _set(out, L.A_HERO + k, n, last)
    for o in range(nh):
        if (seats >> (L.ALLY_BIT + o)) & 1:
            n, last = _set(out, L.A_TARGET + L.T_ALLY0 + o, n, last)
    return n, last


@njit(cache=True)
def mask_pick_target(state, game, tables, hero, out):
    """D_PICK_TARGET: a target card that ``pick_target_ok`` accepts for DEC_A/DEC_B."""
    n = 0
    last = -1
    for t in range(L.N_TARGETS):
        if pick_target_ok(state, game, tables, hero, t, state[game, L.DEC_A], state[game, L.DEC_B]):
            n, last = _set(out, L.target_action(t), n, last)
    return n, last


@njit(cache=True)
def mask_strike_space(state, game, tables, hero, attack, out):
    """D_ATTACK_SPACE (``attack``) or D_SOLVE_SPACE: a space within DEC_A to Attack or
    Solve at, from the hero's space, or (DEC_B 1) from their ally figure's."""
    n = 0
    last = -1
    rng = state[game, L.DEC_A]
    first = L.A_ATTACK if attack else L.A_SOLVE
    ally = state[game, L.DEC_B] == 1
    here, targets = strike_targets(state, game, tables, hero, attack, ally)
    anywhere = ally or rng > 1  # the ally's reach is always looked up over the map
    for k in range(tables.cfg[TB.CFG_N_SPACES] if anywhere else 7):
        sp = k if anywhere else near_space(tables, here, k)
        if sp >= 0 and in_reach(tables, here, sp, rng, targets):
            n, last = _set(out, first + sp, n, last)
    return n, last


@njit(cache=True)
def mask_rescue(state, game, tables, hero, out):
    """D_RESCUE: a space within DEC_A with a bystander or captives to rescue."""
    n = 0
    last = -1
    here = state[game, L.HLOC + hero]
    for sp in range(tables.cfg[TB.CFG_N_SPACES]):
        in_range = here >= 0 and tables.dist[here, sp] <= state[game, L.DEC_A]
        if in_range and rescuable_at(state, game, tables, sp):
            n, last = _set(out, L.A_SPACE + sp, n, last)
    return n, last


@njit(cache=True)
def rescuable_at(s, b, T, sp):
    """A bystander token on ``sp``, or captured bystanders in the panel of ``sp``."""
    if bystander_at(s, b, T, sp):
        return True
    return T.space_kind[sp] == TB.SP_SCHEME and captives(s, b, T, T.space_arg[sp]) > 0
