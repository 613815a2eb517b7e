"""The round as flow ops on the interpreter's stack: the villain turn and its cards, the
hero turns and threat phases, the issue turn, defeated heroes' return, the mulligan and
the Two Fronts facing choice (rulebook: Playing the Game)."""

from __future__ import annotations

from numba import njit

from hon_env.core import stack
from hon_env.core.effects import (
    end_game,
    move_hero_to,
    place_bystander,
    place_character,
    place_minions,
)
from hon_env.core.episode import past_round_cap
from hon_env.core.facing import (
    card_villain,
    def_bonus_col,
    source_villain,
    target_villain,
    vil_col,
    villain_active,
)
from hon_env.core.failure import fail
from hon_env.core.geometry import is_empty, nearest_empty
from hon_env.core.masks import yield_target
from hon_env.core.mastermind import NO_CARD, PARKED, cunning_decider, fill_hand
from hon_env.core.queries import attach_host, enemy_inflict, nem_in_play, villain_panel
from hon_env.core.rng import shuffle_slice
from hon_env.core.two_fronts import open_fronts
from hon_env.core.zones import fewest_threats, hero_draw, issue_draw, villain_draw
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

# --- the round ------------------------------------------------------------------------

@njit(cache=True)
def op_round(s, b, T):
    """Start a round: villain turn, hero turn, issue turn (rulebook: The Game Round)."""
    stack.pop(s, b)
    s[b, L.ROUND] += 1
    for v in range(TB.VILLAINS):
        s[b, def_bonus_col(v)] = 0
        s[b, def_bonus_col(v) + 1] = 0
    if past_round_cap(s, b, T):
        end_game(s, b, T, L.OUT_TRUNCATED, L.LOSS_CAP_ROUNDS)
        return
    stack.push(s, b, stack.F_ROUND, 0, 0, 0, -1, -1)
    stack.push(s, b, stack.F_RETURN, 0, 0, 0, -1, -1)
    stack.push(s, b, stack.F_ISSUE_TURN, 0, 0, 0, -1, -1)
    stack.push(s, b, stack.F_RETURN, 0, 0, 0, -1, -1)
    stack.push(s, b, stack.F_HERO_TURN, 0, 0, 0, -1, -1)
    stack.push(s, b, stack.F_RETURN, 0, 0, 0, -1, -1)
    # heroes draw villain cards in seat order (the rulebook lets the players pick the order)
    for h in range(T.cfg[TB.CFG_N_HEROES] - 1, -1, -1):
        stack.push(s, b, stack.F_VDRAW, h, 0, 0, h, -1)
    s[b, L.TURN] = L.TURN_VILLAIN


@njit(cache=True)
def place_figure_card(s, b, T, c, h):
    """A drawn Lackey or Peril card enters ``h``'s threat area with its figure or token."""
    typ = T.vcard[c, TB.VC_TYPE]
    s[b, L.VLOC + c] = L.L_THREAT
    s[b, L.VOWNER + c] = h
    s[b, L.VDMG + c] = 0
    s[b, L.VJUST + c] = 0
    s[b, L.VEXH + c] = 0
    s[b, L.VPOS + c] = -1
    color = T.vcard[c, TB.VC_COLOR]
    if typ == TB.VT_LACKEY:
        sp = T.lackey_space[color] if color >= 0 else -1
        if sp < 0:
            sp = T.cfg[TB.CFG_START_SPACE]
        if not is_empty(s, b, T, sp):
            sp = nearest_empty(s, b, T, sp, False, -1)
    else:
        sp = T.peril_space[color] if color >= 0 else -1
        if sp < 0:
            sp = T.cfg[TB.CFG_START_SPACE]
        sp = nearest_empty(s, b, T, sp, True, -1)
    s[b, L.VPOS + c] = sp


@njit(cache=True)
def next_villain_card(s, b, T, h, showdown, v):
    """The villain card that resolves against hero ``h`` now: the top of villain ``v``'s
    deck (rulebook), or with the villain agent (core/mastermind.py) the card it picks from its
    hand. Returns the card, moved to L_PENDING; NO_CARD when none is left anywhere; PARKED
    when the villain must choose first (D_VPLAY parked, the caller returns unpopped)."""
    if T.cfg[TB.CFG_VHAND] == 0 or (showdown == 1 and T.cfg[TB.CFG_VSHOWDOWN] == 0):
        return villain_draw(s, b, v)
    ch = stack.take_choice(s, b)
    if ch >= 0:
        c = L.vcard_of(L.action_target(ch))
        s[b, L.VLOC + c] = L.L_PENDING
        return c
    if fill_hand(s, b, T) == 0:
        return NO_CARD
    stack.park(s, b, L.D_VPLAY, L.VILLAIN_SEAT, h, showdown)
    return PARKED


@njit(cache=True)
def op_vdraw(s, b, T, h):
    """Hero ``h`` draws and resolves one villain card (rulebook: Villain Turn): with two
    villains, from the deck of the villain ``h`` faces (engine.md #47)."""
    s[b, L.ACTIVE] = h
    c = next_villain_card(s, b, T, h, 0, s[b, L.HFACE + h])
    if c == PARKED:
        return
    stack.pop(s, b)
    if c < 0:
        return
    # the whole card is one effect: its ploy icons (special ones too) share one latch
    t = L.vcard_target(c)
    stack.push(s, b, stack.F_EFFECT_END, s[b, L.CRISIS_LATCH], 0, 0, h, t)
    s[b, L.CRISIS_LATCH] = L.LATCH_OPEN
    typ = T.vcard[c, TB.VC_TYPE]
    if typ == TB.VT_LACKEY or typ == TB.VT_PERIL:
        place_figure_card(s, b, T, c, h)
    stack.push(s, b, stack.F_VCARD_END, c, 0, 0, h, t)
    for k in range(T.vcard[c, TB.VC_NPLOYS] - 1, -1, -1):
        stack.push(s, b, stack.F_PLOY, c, k, 0, h, t)


@njit(cache=True)
def op_ploy(s, b, T, c, k, h):
    """Resolve ploy icon ``k`` of villain card ``c`` (rulebook: Ploy Icons)."""
    icon = T.vcard[c, TB.VC_PLOY0 + k]
    v = card_villain(c)
    if icon == TB.PLOY_CUNNING:
        who = cunning_decider(T, h)
        ch = stack.answer_or_park(s, b, L.D_CUNNING, who, h if who != h else 0, 0)
        if ch < 0:
            return
        stack.pop(s, b)
        vt = L.villain_target(v)
        if ch == L.A_OPTION:
            stack.push(s, b, stack.F_SCHEME_ONCE, v, 0, 0, h, vt)
        elif stack.on_board(s, b, h):
            stack.push(s, b, stack.F_HERO_DAMAGE, h, enemy_inflict(s, b, T, vt), 0, h, vt)
        return
    stack.pop(s, b)
    if icon == TB.PLOY_BYSTANDER:
        if place_bystander(s, b, T, h, v):
            stack.effect_crisis(s, b)
    elif icon == TB.PLOY_SPECIAL:
        stack.push_ops(s, b, T, T.vcard[c, TB.VC_SPECIAL_PROG], h, L.vcard_target(c))
    elif icon >= 1:
        if place_minions(s, b, T, 1, icon):
            stack.effect_crisis(s, b)


@njit(cache=True)
def op_vcard_end(s, b, T, c):
    """A resolved Ploy card is discarded, stays attached to its host (Attaching Cards), or,
    with the Crisis trait, joins the issue play area (Crisis Cards)."""
    stack.pop(s, b)
    if s[b, L.VLOC + c] != L.L_PENDING:
        return
    if T.vcard[c, TB.VC_CRISIS_PROG] >= 0:
        enter_issue_area(s, b, L.vcard_target(c))
        s[b, L.VLOC + c] = L.L_ISSUE_AREA
        return
    host = attach_host(s, b, T, T.vcard[c, TB.VC_ATTACH])
    if host >= 0:
        s[b, L.VLOC + c] = L.L_ATTACHED
        s[b, L.VATTACH + c] = host
    else:
        s[b, L.VLOC + c] = L.L_DISCARD


@njit(cache=True)
def enter_issue_area(s, b, t):
    """Card target ``t`` (a villain or issue card with the Crisis trait) joins the issue
    play area at its right end; it stays there for the rest of the game."""
    n = s[b, L.CRISIS_AREA_N]
    if n >= TB.DECK_CRISES:  # the loader caps the Crisis cards of the decks at DECK_CRISES
        fail(s, b, L.ERR_ISSUE_AREA_FULL)
        return
    s[b, L.CRISIS_AREA + n] = t
    s[b, L.CRISIS_AREA_N] = n + 1


@njit(cache=True)
def op_scheme_once(s, b, T, v):
    """Villain ``v`` schemes: its panel's Scheme effect (rulebook: Villain Schemes), with
    that villain as the effect's source (its "the villain")."""
    stack.pop(s, b)
    if not villain_active(s, b, T, v):
        return
    stack.push_prog(s, b, T, T.panel_prog[villain_panel(s, b, T, v)], s[b, L.ACTIVE],
              L.villain_target(v))


@njit(cache=True)
def op_hero_turn(s, b, T):
    """Ready play areas, hand out two action tokens each, give the first seat the initiative."""
    stack.pop(s, b)
    s[b, L.TURN] = L.TURN_HERO
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        s[b, L.HEXH + h] = 0
        s[b, L.ALLY_EXH + h] = 0
        for c in range(TB.HERO_DECK):
            if s[b, L.HCLOC + h * TB.HERO_DECK + c] == L.L_PLAY:
                s[b, L.HCEXH + h * TB.HERO_DECK + c] = 0
        s[b, L.HACTIONS + h] = 2
        s[b, L.HYIELDS + h] = 0
        s[b, L.HTHREAT_DONE + h] = 0
    s[b, L.ACTOR] = 0
    stack.push(s, b, stack.F_MAIN, 0, 0, 0, 0, -1)


@njit(cache=True)
def op_after_threat(s, b, T):
    """Pass the initiative on, or end the hero turn when every hero is done."""
    stack.pop(s, b)
    nxt = yield_target(s, b, T, s[b, L.ACTOR])
    if nxt >= 0:
        s[b, L.ACTOR] = nxt
        stack.push(s, b, stack.F_MAIN, 0, 0, 0, nxt, -1)
    else:
        stack.push(s, b, stack.F_HERO_TURN_END, 0, 0, 0, -1, -1)


@njit(cache=True)
def op_threat(s, b, T, h):
    """Hero ``h``'s threat phase: activate each card now in their threat area.

    Cards are taken in a fixed order (villain cards, issue cards, nemeses, then the Villain
    card); the rulebook leaves the order to the players. Cards that arrive during the phase
    are not in the list and do not activate (rulebook: Threat Phase).
    """
    stack.pop(s, b)
    for v in range(TB.VILLAINS - 1, -1, -1):
        if s[b, vil_col(L.VIL_OWNER, v)] == h and villain_active(s, b, T, v):
            stack.push(s, b, stack.F_ACTIVATE, L.villain_target(v), 0, 0, h, L.villain_target(v))
    for k in range(TB.NEMESES - 1, -1, -1):
        if nem_in_play(s, b, k) and s[b, L.NEM_OWNER + k] == h:
            stack.push(s, b, stack.F_ACTIVATE, L.T_NEM0 + k, 0, 0, h, L.T_NEM0 + k)
    for i in range(L.IDECK - 1, -1, -1):
        if s[b, L.ILOC + i] == L.L_THREAT and s[b, L.IOWNER + i] == h:
            stack.push(s, b, stack.F_ACTIVATE, L.T_I0 + i, 0, 0, h, L.T_I0 + i)
    for i in range(TB.VCARDS - 1, -1, -1):
        if s[b, L.VLOC + i] == L.L_THREAT and s[b, L.VOWNER + i] == h:
            stack.push(s, b, stack.F_ACTIVATE, L.vcard_target(i), 0, 0, h, L.vcard_target(i))


@njit(cache=True)
def op_activate(s, b, T, t, h):
    """Activate one threat-area card; an exhausted card readies instead (Activating Enemies)."""
    stack.pop(s, b)
    if L.is_villain_target(t):
        v = target_villain(t)
        if s[b, vil_col(L.VIL_OWNER, v)] != h or not villain_active(s, b, T, v):
            return
        if s[b, vil_col(L.VIL_EXH, v)] == 1:
            s[b, vil_col(L.VIL_EXH, v)] = 0
            return
        stack.push_prog(s, b, T, T.vil_stat[v, TB.VS_ACTIVATE_PROG], h, t)
    elif L.is_vcard_target(t):
        c = L.vcard_of(t)
        if s[b, L.VLOC + c] != L.L_THREAT or s[b, L.VOWNER + c] != h:
            return
        if s[b, L.VEXH + c] == 1:
            s[b, L.VEXH + c] = 0
            return
        stack.push_prog(s, b, T, T.vcard[c, TB.VC_ACTIVATE_PROG], h, t)
    elif t > L.T_VILLAIN:
        # a nemesis: its Scheme-side Activate effect while scheming, else its enemy one
        k = t - L.T_NEM0
        if not nem_in_play(s, b, k) or s[b, L.NEM_OWNER + k] != h:
            return
        if s[b, L.NEM_EXH + k] == 1:
            s[b, L.NEM_EXH + k] = 0
            return
        col = TB.NM_ACTIVATE_PROG if s[b, L.NEM_SIDE + k] == 1 else TB.NM_SCHEME_PROG
        stack.push_prog(s, b, T, T.nemesis[s[b, L.NEM_CARD + k], col], h, t)
    else:
        i = t - L.T_I0
        if s[b, L.ILOC + i] != L.L_THREAT or s[b, L.IOWNER + i] != h:
            return
        if s[b, L.IEXH + i] == 1:
            s[b, L.IEXH + i] = 0
            return
        if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME:
            if s[b, L.ISIDE + i] == 1:
                stack.push_prog(s, b, T, T.icard[i, TB.IC_BACK_ACTIVATE_PROG], h, t)
        else:
            stack.push_prog(s, b, T, T.icard[i, TB.IC_ACTIVATE_PROG], h, t)


@njit(cache=True)
def op_hero_turn_end(s, b, T):
    """Each hero draws 1 card; the action tokens flip back (rulebook: Hero Turn)."""
    stack.pop(s, b)
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        hero_draw(s, b, h)
        s[b, L.HACTIONS + h] = 0


@njit(cache=True)
def op_issue_turn(s, b, T):
    """Draw and resolve one issue card; an empty issue deck loses (rulebook: Issue Turn).

    The issue card's "active hero" (and the threat area for a card that stays) is the hero
    with the fewest threat-area cards, lowest seat first.
    """
    stack.pop(s, b)
    s[b, L.TURN] = L.TURN_ISSUE
    c = issue_draw(s, b)
    if c < 0:
        end_game(s, b, T, L.OUT_LOSS, L.LOSS_ISSUE_DECK)
        return
    h = fewest_threats(s, b, T)
    s[b, L.ACTIVE] = h
    stack.push(s, b, stack.F_ICARD_END, c, 0, 0, h, L.T_I0 + c)
    stack.push_prog(s, b, T, T.icard[c, TB.IC_EFFECT_PROG], h, L.T_I0 + c)


@njit(cache=True)
def op_icard_end(s, b, T, c, h):
    stack.pop(s, b)
    if s[b, L.ILOC + c] != L.L_PENDING:
        return
    if T.icard[c, TB.IC_CRISIS_PROG] >= 0:
        enter_issue_area(s, b, L.T_I0 + c)
        s[b, L.ILOC + c] = L.L_ISSUE_AREA
    elif T.icard[c, TB.IC_BYSTANDER] == 1:
        place_character(s, b, T, c, source_villain(s, b, T, L.T_I0 + c, h))
    elif T.icard[c, TB.IC_STAYS] == 1:
        s[b, L.ILOC + c] = L.L_THREAT
        s[b, L.IOWNER + c] = h
        s[b, L.IJUST + c] = 0
        s[b, L.IEXH + c] = 0
        s[b, L.IPOS + c] = T.icard[c, TB.IC_LOCATION]
    else:
        s[b, L.ILOC + c] = L.L_DISCARD


@njit(cache=True)
def op_return(s, b, T):
    """Heroes defeated during the turn now return to an empty space near the start."""
    stack.pop(s, b)
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        if s[b, L.HDEFEATED + h] == 1:
            s[b, L.HDEFEATED + h] = 0
            sp = nearest_empty(s, b, T, T.cfg[TB.CFG_START_SPACE], False, -1)
            move_hero_to(s, b, T, h, sp)


@njit(cache=True)
def op_mulligan(s, b, T, h):
    """Opening mulligan: mark cards one at a time, then redraw and shuffle them back."""
    ch = stack.answer_or_park(s, b, L.D_MULLIGAN, h, 0, 0)
    if ch < 0:
        return
    base = L.HCLOC + h * TB.HERO_DECK
    if ch >= L.A_CARD:
        s[b, base + ch - L.A_CARD] = L.L_MULLIGAN
        return
    stack.pop(s, b)
    marked = 0
    for c in range(TB.HERO_DECK):
        if s[b, base + c] == L.L_MULLIGAN:
            marked += 1
    for _ in range(marked):
        hero_draw(s, b, h)
    n = s[b, L.HDECK_N + h]
    for c in range(TB.HERO_DECK):
        if s[b, base + c] == L.L_MULLIGAN:
            s[b, base + c] = L.L_DECK
            s[b, L.HDECK_ORDER + h * TB.HERO_DECK + n] = c
            n += 1
    s[b, L.HDECK_N + h] = n
    shuffle_slice(s, b, L.HDECK_ORDER + h * TB.HERO_DECK, n)


@njit(cache=True)
def op_face(s, b, T, h):
    """Two Fronts setup: hero ``h`` chooses the villain it faces (D_FACE, OPTION v); after
    the last hero the fronts open (core/two_fronts.py: hidden tokens, per-hero values)."""
    ch = stack.answer_or_park(s, b, L.D_FACE, h, 0, 0)
    if ch < 0:
        return
    stack.pop(s, b)
    s[b, L.HFACE + h] = ch - L.A_OPTION
    if h == T.cfg[TB.CFG_N_HEROES] - 1:
        open_fronts(s, b, T)
