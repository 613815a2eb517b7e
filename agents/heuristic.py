"""The per-hero scripted team's rules: hand-written priorities over the public game state,
every hero on its own (``heuristic_solo``). The pieces every scripted style shares live
here (the steps of the menu, the decisions every style answers alike, the per-hero goal);
the weights are ``agents.target_weights``'s, and ``agents.scripted`` runs the one menu
for the per-hero, coordinated (``agents.coordinated``) and glory-seeking (``agents.glory``)
styles.

The strategy, decision by decision (every hero runs the same rules):

- **Targets and weights.** Each enemy and problem on the board gets a weight: the villain
  when it can be solved or attacked (10), Scheme cards on their Scheme side (6; the
  heroes' way to the villain), staying issue problems (4), crisis cards with a danger
  value at their crisis token (4: their Crisis effect hits at every crisis until solved),
  lackeys and issue enemies (3 + their inflict), nemeses on either side (6), perils and
  flipped Scheme problems (3), captured bystanders (2 each), minions (1 each), bystander
  tokens on the map (2: moving through a bystander's space rescues it). Cards in the
  deciding hero's own threat area weigh 2 more: they activate against that hero.
- **Goal.** A hero's goal is the target with the best weight per action needed to reach
  it (a Move covers ``move`` spaces); Scheme cards, the Scheming villain, captives and
  problems printed in a panel need the hero inside the panel, the rest need them near.
  The goals are the list every style shares (``agents.goals``): in a Two Fronts game both
  villains' cards, of which a hero weighs only those of the villain it faces.
- **Main menu.** Free things first: flip to the Focused side, play cards without the
  action icon, use Exhaust abilities, use clue cards that carry an effect rather than
  dice. Then, with actions left: act on the best target in reach (an action card that
  attacks or solves when one is in hand, else the basic Attack/Solve); otherwise play a
  Constant or support card; otherwise move toward the goal (a mobility feat teleports
  there when the goal is two or more Moves away and the hand can spare a card);
  otherwise draw. A strength or deduction feat buys an extra free roll on a target
  worth 6 or more. A hero never yields the initiative and ends its actions with PASS.
- **Inside a roll.** Bonus-dice clues go to rolls against the villain or a Scheme card;
  all focus tokens the roll allows are spent; each success goes to the heaviest target,
  preferring one it can finish.
- **Damage.** A hero who can become Focused does so first (as in its menu); prevent
  abilities are always used; a toughness feat or a discard is used
  when the damage would defeat the hero or is 3 or more (discards: when at half health).
  Cunning icons: the villain inflicts this hero unless that would defeat them.
  Inflicts are taken by the healthiest nearby hero; heals go to the most wounded one.

It reads only what the players see: positions, damage, justice, cards in play, threat
areas and the deciding hero's hand; never deck orders or the random generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.goals import G_IN, G_SP, MAX_GOALS, goal_weight, list_goals
from agents.target_weights import (
    BIG,
    KIND_ATTACK,
    KIND_SOLVE,
    SOLO,
    health_left,
)
from hon_env.core.facing import blindside, card_villain, facing_count
from hon_env.core.geometry import FAR, bystander_at, panel_of_space
from hon_env.core.queries import (
    enemy_inflict,
    hero_health,
    move_bonus,
    nem_in_play,
    target_space,
)
from hon_env.core.zones import hand_size
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB

FEAT_ROLL_MIN = 6  # weight that justifies discarding a card for an extra roll


# --- what a card does -----------------------------------------------------------------

@njit(cache=True)
def prog_kinds(T, pid):
    """Bitmask of a program: 1 attacks/damages, 2 solves/places justice/rescues, 4 moves."""
    bits = 0
    if pid < 0:
        return 0
    for k in range(TB.PROG_LEN):
        op = T.prog[pid, k, 0]
        if op == 0:
            break
        if op == ops.OP_ATTACK or op == ops.OP_DAMAGE_ENEMY:
            bits |= 1
        elif op == ops.OP_SOLVE or op == ops.OP_JUSTICE or op == ops.OP_RESCUE:
            bits |= 2
        elif op == ops.OP_MOVE or op == ops.OP_PLACE:
            bits |= 4
    return bits


# --- weights ----------------------------------------------------------------------------

# --- goals ------------------------------------------------------------------------------

@njit(cache=True)
def reach_cost(T, here, sp, inside, step):
    """Move actions hero at ``here`` needs to stand in (inside) or near ``sp``."""
    if here < 0 or sp < 0:
        return FAR
    d = T.dist[here, sp]
    need = d if inside else max(0, d - 1)
    return (need + step - 1) // step


@njit(cache=True)
def consider(best, T, here, step, sp, inside, w):
    """Keep (score, space, inside) of the better goal; score = weight / (1 + Moves)."""
    if sp < 0 or w <= 0:
        return best
    cost = reach_cost(T, here, sp, inside, step)
    if cost >= FAR:
        return best
    score = w * 1000 // (1 + cost)
    if score > best[0]:
        return (score, sp, inside)
    return best


@njit(cache=True)
def goal_of(s, b, T, h):
    """Hero ``h``'s goal: (space, 1 if they must stand inside its panel), or (-1, 0): the
    goal (``agents.goals``) with the best weight per Move needed."""
    here = s[b, L.HLOC + h]
    if here < 0:
        return -1, 0
    step = max(1, T.cfg[TB.CFG_MOVE] + move_bonus(s, b, T, h))
    g = np.empty((MAX_GOALS, 4), np.int64)
    n = list_goals(s, b, T, g)
    best = (0, -1, 0)
    for j in range(n):
        best = consider(best, T, here, step, g[j, G_SP], g[j, G_IN],
                        goal_weight(SOLO, s, b, T, g, j, h))
    return best[1], best[2]


# --- decisions --------------------------------------------------------------------------

@njit(cache=True)
def toward(s, b, T, h, mask, base, goal, inside, allow_stay):
    """Legal ``base + sp`` that brings hero ``h`` nearest its goal.

    Returns -1 when staying (``allow_stay``) is at least as good: no step gets closer.
    Bystander spaces win ties, since walking through one rescues it.
    """
    here = s[b, L.HLOC + h]
    want = 0 if inside else 1
    now = max(0, T.dist[here, goal] - want) if here >= 0 else FAR
    best_a, best_d = -1, now if allow_stay else FAR
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if not mask[base + sp]:
            continue
        d = max(0, T.dist[sp, goal] - want)
        if inside and panel_of_space(T, goal) > 0 and sp != goal and d == 0:
            d = 1  # next to a panel is not inside it
        if d < best_d or (d == best_d and best_a >= 0 and bystander_at(s, b, T, sp)
                          and not bystander_at(s, b, T, best_a - base)):
            best_a, best_d = base + sp, d
    return best_a


@njit(cache=True)
def in_reach(s, b, T, h, goal, inside):
    """Can hero ``h`` act on ``goal`` from where they stand (inside its panel / near it)?"""
    here = s[b, L.HLOC + h]
    if here < 0 or goal < 0:
        return False
    return here == goal if inside else T.dist[here, goal] <= 1


@njit(cache=True)
def free_action(s, b, T, mask):
    """A free thing worth doing first for the deciding hero, or -1: flip to the Focused
    side, play a card without the action icon, use an Exhaust ability, use a clue card
    that carries an effect rather than dice."""
    h = s[b, L.DEC_HERO]
    if mask[L.A_FOCUS]:
        return L.A_FOCUS
    for c in range(TB.HERO_DECK):
        if mask[L.A_PLAY + c] and T.hcard[h, c, TB.HC_ACTION] == 0:
            return L.A_PLAY + c
    for i in range(L.N_USE):
        if mask[L.A_USE + i]:
            if i == L.USE_HERO_CARD:
                kind = T.hero_stat[h, s[b, L.HSIDE + h], TB.HS_ABILITY]
            elif i == L.USE_ALLY_CARD:
                kind = T.ally[h, TB.AL_ABILITY]
            else:
                kind = T.hcard[h, i, TB.HC_ABILITY]
            if kind == TB.ABIL_EXHAUST:
                return L.A_USE + i
    for i in range(TB.CLUE_LIST):
        no_dice = T.clue[i, TB.CL_ATTACK_DICE] == 0 and T.clue[i, TB.CL_SOLVE_DICE] == 0
        if mask[L.A_CLUE + i] and no_dice:
            return L.A_CLUE + i
    return -1


@njit(cache=True)
def roll_action(s, b, T, h, mask, atk_a, atk_v, slv_a, slv_v):
    """Given the best attack and solve spaces in reach (actions and their weights): a feat
    roll, an action card or basic action that rolls there, or -1 when none is worth it."""
    acts = s[b, L.HACTIONS + h]
    roll_a, roll_v, roll_kind = atk_a, atk_v, KIND_ATTACK
    if slv_v > atk_v:
        roll_a, roll_v, roll_kind = slv_a, slv_v, KIND_SOLVE
    hand = hand_size(s, b, h)
    # a feat is a free roll at the cost of a card: worth it on heavy targets
    if roll_v >= FEAT_ROLL_MIN and (hand >= 3 or acts == 0):
        bit = TB.FEAT_STRENGTH if roll_kind == KIND_ATTACK else TB.FEAT_DEDUCTION
        k = 1 if roll_kind == KIND_ATTACK else 2
        for c in range(TB.HERO_DECK):
            if mask[L.A_FEAT + 3 * c + k] and T.hcard[h, c, TB.HC_FEATS] & bit:
                return L.A_FEAT + 3 * c + k
    if acts == 0:
        return -1
    if roll_v >= 2 and roll_a >= 0:
        # an action card that rolls the same way usually beats the basic action
        want = 1 if roll_kind == KIND_ATTACK else 2
        for c in range(TB.HERO_DECK):
            if mask[L.A_PLAY + c] and prog_kinds(T, T.hcard[h, c, TB.HC_PLAY_PROG]) & want:
                return L.A_PLAY + c
        return roll_a
    return -1


@njit(cache=True)
def support_card(T, h, mask):
    """A Constant card or one that neither attacks, solves nor moves, or -1."""
    for c in range(TB.HERO_DECK):
        if mask[L.A_PLAY + c]:
            bits = prog_kinds(T, T.hcard[h, c, TB.HC_PLAY_PROG])
            if T.hcard[h, c, TB.HC_CONSTANT] == 1 or bits == 0:
                return L.A_PLAY + c
    return -1


@njit(cache=True)
def go_to(s, b, T, h, mask, goal, inside):
    """A step toward ``goal`` (a mobility feat when two or more Moves away and the hand
    can spare a card, a card that only moves, else a Move), or -1 when none helps."""
    if goal < 0 or in_reach(s, b, T, h, goal, inside):
        return -1
    here = s[b, L.HLOC + h]
    step = max(1, T.cfg[TB.CFG_MOVE] + move_bonus(s, b, T, h))
    far = reach_cost(T, here, goal, inside, step) >= 2
    if far and hand_size(s, b, h) >= 2:
        for c in range(TB.HERO_DECK):
            if mask[L.A_FEAT + 3 * c] and T.hcard[h, c, TB.HC_FEATS] & TB.FEAT_MOBILITY:
                return L.A_FEAT + 3 * c
    for c in range(TB.HERO_DECK):
        if mask[L.A_PLAY + c] and prog_kinds(T, T.hcard[h, c, TB.HC_PLAY_PROG]) == 4:
            return L.A_PLAY + c
    return toward(s, b, T, h, mask, L.A_SPACE, goal, inside, True)


@njit(cache=True)
def first_legal(mask):
    """Lowest legal action of ``mask``, or -1 when none is legal."""
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit(cache=True)
def decide_ally_place(s, b, T, h, mask):
    """The ally figure moves to the legal space nearest its hero's goal (staying put on
    ties, lowest space next)."""
    goal, _ = goal_of(s, b, T, h)
    here = s[b, L.ALLY_LOC + h]
    if goal < 0 or here < 0:
        return first_legal(mask)
    best_a, best_d = L.A_SPACE + here, T.dist[here, goal]
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if mask[L.A_SPACE + sp] and T.dist[sp, goal] < best_d:
            best_a, best_d = L.A_SPACE + sp, T.dist[sp, goal]
    return best_a if mask[best_a] else first_legal(mask)


@njit(cache=True)
def decide_pick_hero(s, b, T, h, mask):
    """Heals go to the most wounded hero, inflicts to the hero or ally figure with most
    health left (an ally on ties: losing one costs less than a hero's defeat)."""
    top = s[b, L.SP] - 1
    healing = top >= 0 and s[b, L.STACK + top * L.STACK_W] == ops.OP_HEAL
    n = T.cfg[TB.CFG_N_HEROES]
    best_a, best_v = -1, -BIG
    for k in range(TB.MAX_HEROES):
        if not mask[L.A_HERO + k]:
            continue
        o = (h + k) % n
        v = s[b, L.HDMG + o] if healing else health_left(s, b, T, o)
        if v > best_v:
            best_a, best_v = L.A_HERO + k, v
    for o in range(n):
        if mask[L.A_TARGET + L.T_ALLY0 + o]:
            v = T.ally[o, TB.AL_HEALTH] - s[b, L.ALLY_DMG + o]
            if v >= best_v:
                best_a, best_v = L.A_TARGET + L.T_ALLY0 + o, v
    return best_a


@njit(cache=True)
def roll_is_heavy(s, b, T, h):
    """Is the roll in progress against the villain or a Scheme card on its Scheme side?"""
    sp = s[b, L.ROLL_SPACE]
    for k in range(TB.NEMESES):
        if nem_in_play(s, b, k) and s[b, L.NEM_POS + k] == sp:
            return True
    for t in range(L.T_I0, L.T_VILLAIN + 1):
        if t == L.T_VILLAIN:
            if s[b, L.VIL_LOC] == sp and (s[b, L.VIL_SIDE] == 1 or s[b, L.VIL_HIDDEN] == 0):
                return True
        elif target_space(s, b, T, t) == sp and s[b, L.ILOC + t - L.T_I0] == L.L_THREAT:
            i = t - L.T_I0
            if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME and s[b, L.ISIDE + i] == 0:
                return True
    return False


@njit(cache=True)
def shared_answer(s, b, T, h, mask):
    """Hero ``h``'s answer to a decision every style answers alike: where the ally figure
    goes, who takes a heal or an inflict, focus tokens, clue dice, Cunning, damage, which
    villain to face, and anything else (the first legal answer)."""
    kind = s[b, L.DEC_KIND]
    if kind == L.D_PLACE and s[b, L.DEC_B] == 1:
        return decide_ally_place(s, b, T, h, mask)
    if kind == L.D_PICK_HERO:
        return decide_pick_hero(s, b, T, h, mask)
    if kind == L.D_FOCUS_SPEND:
        for k in range(L.N_OPTIONS - 1, -1, -1):
            if mask[L.A_OPTION + k]:
                return L.A_OPTION + k
    if kind == L.D_CLUE_DICE:
        if roll_is_heavy(s, b, T, h):
            for i in range(TB.CLUE_LIST):
                if mask[L.A_CLUE + i]:
                    return L.A_CLUE + i
        return L.A_PASS
    if kind == L.D_CUNNING:
        # the ploy waiting on this answer is the stack's top entry (a: its villain card):
        # with two villains it is that card's villain who inflicts, blindside included
        top = L.STACK + (s[b, L.SP] - 1) * L.STACK_W
        vt = L.villain_target(card_villain(s[b, top + 1]))
        inflict = enemy_inflict(s, b, T, vt) + blindside(s, b, T, h, vt)
        return L.A_OPTION + (1 if health_left(s, b, T, h) > inflict else 0)
    if kind == L.D_DAMAGE:
        if mask[L.A_FOCUS]:  # the Focused side is never worse, as in the main menu
            return L.A_FOCUS
        for i in range(L.N_USE):
            if mask[L.A_USE + i]:
                return L.A_USE + i
        dmg = s[b, L.DEC_A]
        if dmg >= health_left(s, b, T, h) or dmg >= 3:
            for c in range(TB.HERO_DECK):
                if mask[L.A_CARD + c]:
                    return L.A_CARD + c
        return L.A_PASS
    if kind == L.D_DISCARD_OR_DAMAGE:
        left = health_left(s, b, T, h)
        if s[b, L.DEC_A] >= left or 2 * left <= hero_health(s, b, T, h):
            for c in range(TB.HERO_DECK):
                if mask[L.A_CARD + c]:
                    return L.A_CARD + c
        return L.A_PASS
    if kind == L.D_FACE:
        # Two Fronts: focus. The first hero to choose after one faces the first villain
        # holds the second alone (the seed needs one hero on each); every other hero faces
        # the first, so that villain falls fast while the lone hero's villain counts one
        # hero in its per-hero values (docs/baselines.md, docs/two_fronts_balance.md).
        alone = facing_count(s, b, 1, h) == 0 and facing_count(s, b, 0, h) > 0
        v = 1 if alone else 0
        return L.A_OPTION + v if mask[L.A_OPTION + v] else first_legal(mask)
    # mulligan (keep), rescue and anything else: the first legal answer
    if mask[L.A_PASS]:
        return L.A_PASS
    return first_legal(mask)
