"""State changes shared by many rules: damage, justice, focus, bystanders, minions, crises.

These are plain helpers; none of them asks a question. Anything that needs a decision is
an interpreter op (interp.py) that parks and calls these once the answer is known.
"""

from __future__ import annotations

from numba import njit

from hon_env.core import bystanders, geometry
from hon_env.core.facing import target_villain, two_villains, vil_col, villain_active
from hon_env.core.fame import count, credit, final_awards
from hon_env.core.queries import enemy_health, nemeses_in_play, problem_danger, villain_panel
from hon_env.core.rng import randint
from hon_env.core.two_fronts import face_villain, take_hidden_token
from hon_env.core.zones import gain_clue
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def end_game(s, b, T, outcome, reason):
    """Record the outcome once (later calls keep the first result) and add the fame
    awarded at the end of the game (``core/fame.py``)."""
    if s[b, L.OUTCOME] == L.OUT_ONGOING:
        s[b, L.OUTCOME] = outcome
        s[b, L.LOSS_REASON] = reason
        s[b, L.TURN] = L.TURN_OVER
        final_awards(s, b, T)


@njit(cache=True)
def gain_focus(s, b, T, h, n):
    """Hero ``h`` gains ``n`` focus (Focus Tokens).

    Focus is capped; during the hero turn, an unfocused hero whose focus would pass the
    cap spends the flip cost to turn Focused and keeps the remainder. The rulebook makes
    this optional; flipping is never worse for the hero, so it is automatic here. The
    result stays within 0..cap whatever the rule settings (the loader also refuses a flip
    cost above the cap, which would make the Focused side unreachable).
    """
    if s[b, L.HLOC + h] < 0 or n <= 0:
        return
    cap = T.cfg[TB.CFG_FOCUS_CAP]
    cost = T.cfg[TB.CFG_FOCUS_TO_FLIP]
    f = s[b, L.HFOCUS + h] + n
    if f > cap and f >= cost and s[b, L.HSIDE + h] == 0 and s[b, L.TURN] == L.TURN_HERO:
        turn_focused(s, b, T, h)
        f -= cost
    s[b, L.HFOCUS + h] = max(0, min(f, cap))


@njit(cache=True)
def turn_focused(s, b, T, h):
    """Flip hero ``h``'s Hero card to its Focused side (rulebook: Becoming Focused).

    For a hero with forms the Focused side is the mech, so this is boarding it: the pilot
    token's damage is set aside with the pilot (``hpilot_dmg``) and the mech, kept beside
    the play area until now, starts undamaged in the hero's space.
    """
    if s[b, L.HSIDE + h] == 1:
        return
    s[b, L.HSIDE + h] = 1
    if T.hero_stat[h, 1, TB.HS_FORM] == TB.FORM_MECH:
        s[b, L.HPILOT_DMG + h] = s[b, L.HDMG + h]
        s[b, L.HDMG + h] = 0


@njit(cache=True)
def leave_mech(s, b, T, h):
    """Hero ``h`` leaves the mech (an eject, or the mech is wrecked); else nothing.

    The mech figure goes back beside the play area and its damage is discarded; the Hero
    card flips to the pilot side, whose set-aside damage returns. The pilot token stays in
    the hero's space, so the hero never leaves the map (our reading of the pilot rule).
    """
    if T.hero_stat[h, s[b, L.HSIDE + h], TB.HS_FORM] != TB.FORM_MECH:
        return
    s[b, L.HSIDE + h] = 0
    s[b, L.HDMG + h] = s[b, L.HPILOT_DMG + h]
    s[b, L.HPILOT_DMG + h] = 0


@njit(cache=True)
def rescue_on_map(s, b, T, h, sp):
    """Hero ``h`` entered ``sp``: the bystanders there are rescued (not in panels).

    A rescued bystander returns to the supply (a special figure too, after which its card's
    rescued effect resolves for ``h``); a rescued bystander character's card is discarded
    (its token leaves the board).
    """
    if T.space_kind[sp] == TB.SP_SCHEME:
        return
    if s[b, L.BYSTANDER_ON + sp] == 1:
        s[b, L.BYSTANDER_ON + sp] = 0
        j = s[b, L.SBY_ON + sp]
        s[b, L.SBY_ON + sp] = -1
        bystanders.return_to_supply(s, b, j)
        credit(s, b, T, L.EV_RESCUES, h, 1)
        gain_clue(s, b, T, h)
        if j >= 0:
            bystanders.special_event(s, b, T, j, TB.SBE_RESCUED, h)
    i = geometry.character_on(s, b, sp)
    if i >= 0:
        s[b, L.ILOC + i] = L.L_DISCARD
        s[b, L.IPOS + i] = -1
        credit(s, b, T, L.EV_RESCUES, h, 1)
        gain_clue(s, b, T, h)
        bystanders.character_event(s, b, T, i, False, h)


@njit(cache=True)
def rescue_captured(s, b, T, h, panel, n):
    """Hero ``h`` rescues up to ``n`` captured bystanders from ``panel``; returns how many.

    Special figures go first (card order), then normal tokens, then bystander characters
    held there (engine.md #22, #42).
    """
    k = min(n, s[b, L.CAPTURED + panel])
    for _ in range(k):
        j = bystanders.release_captive(s, b, panel, True)
        bystanders.return_to_supply(s, b, j)
        credit(s, b, T, L.EV_RESCUES, h, 1)
        gain_clue(s, b, T, h)
        if j >= 0:
            bystanders.special_event(s, b, T, j, TB.SBE_RESCUED, h)
    sp = T.scheme_space[panel]
    for i in range(L.IDECK):
        if k < n and s[b, L.ILOC + i] == L.L_BOARD and s[b, L.IPOS + i] == sp:
            s[b, L.ILOC + i] = L.L_DISCARD
            s[b, L.IPOS + i] = -1
            credit(s, b, T, L.EV_RESCUES, h, 1)
            gain_clue(s, b, T, h)
            bystanders.character_event(s, b, T, i, False, h)
            k += 1
    return k


@njit(cache=True)
def move_hero_to(s, b, T, h, sp):
    """Put hero ``h`` in ``sp`` (a scheme space means its panel) and rescue there."""
    s[b, L.HLOC + h] = sp
    rescue_on_map(s, b, T, h, sp)


@njit(cache=True)
def move_ally_to(s, b, T, h, sp):
    """Put the ally of seat ``h`` in map space ``sp``; a bystander there is rescued for
    its hero (interpretation #38 in docs/engine.md)."""
    s[b, L.ALLY_LOC + h] = sp
    rescue_on_map(s, b, T, h, sp)


@njit(cache=True)
def damage_ally(s, b, T, h, n):
    """The ally of seat ``h`` suffers ``n`` damage; at its health it is defeated and leaves
    the game (rulebook: Ally Cards and Figures). Writes ALLY_DMG, ALLY_LOC, the event."""
    if s[b, L.ALLY_LOC + h] < 0 or n <= 0:
        return
    s[b, L.ALLY_DMG + h] += n
    if s[b, L.ALLY_DMG + h] >= T.ally[h, TB.AL_HEALTH]:
        s[b, L.ALLY_DMG + h] = T.ally[h, TB.AL_HEALTH]
        s[b, L.ALLY_LOC + h] = -1
        credit(s, b, T, L.EV_ALLY_DEFEATS, h, 1)


@njit(cache=True)
def place_minions(s, b, T, n, panel):
    """Place ``n`` minions in ``panel``. Returns True when the supply ran out (a shortage).

    Reads and writes MINION_SUPPLY, MINIONS, SMIN_SUPPLY and SMIN. While special minions
    are in the supply each token is drawn at random from the whole supply (the figures are
    mixed in one pile); without them no random number is drawn, so games without the
    Special Minions rule keep their trajectories.
    """
    short = False
    for _ in range(n):
        supply = s[b, L.MINION_SUPPLY]
        if supply == 0:
            short = True
            break
        special = 0
        for j in range(TB.SPECIAL_MINIONS):
            special += s[b, L.SMIN_SUPPLY + j]
        if special > 0:
            r = randint(s, b, supply) - (supply - special)  # < 0: a normal minion
            for j in range(TB.SPECIAL_MINIONS):
                if r < 0:
                    break
                if r < s[b, L.SMIN_SUPPLY + j]:
                    s[b, L.SMIN_SUPPLY + j] -= 1
                    s[b, L.SMIN + panel * TB.SPECIAL_MINIONS + j] += 1
                    break
                r -= s[b, L.SMIN_SUPPLY + j]
        s[b, L.MINION_SUPPLY] -= 1
        s[b, L.MINIONS + panel] += 1
    return short


@njit(cache=True)
def bystanders_on_map(s, b, T):
    n = 0
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        n += s[b, L.BYSTANDER_ON + sp]
    for i in range(L.IDECK):
        if s[b, L.ILOC + i] == L.L_BOARD and T.space_kind[s[b, L.IPOS + i]] != TB.SP_SCHEME:
            n += 1
    return n


@njit(cache=True)
def place_bystander(s, b, T, h, v):
    """Place one bystander from the supply (rulebook: Ploy Icons, Captured Bystanders).

    Which one is drawn at random while the supply holds special figures (engine.md #40).
    It goes to the first empty bystander space without a token (the rulebook lets the
    active hero pick; we take the lowest index). With no free space, or the map already
    holding its maximum, it is captured in the panel nearest villain ``v`` (a special
    figure's captured effect then resolves for ``h``, the hero resolving the placement).
    Returns True when the supply was empty (a shortage).
    """
    if s[b, L.BYSTANDER_SUPPLY] == 0:
        return True
    land_bystander(s, b, T, bystanders.take_from_supply(s, b), h, v)
    return False


@njit(cache=True)
def land_bystander(s, b, T, j, h, v):
    """A bystander taken from the supply (special card ``j``, or -1) is placed on the map,
    or captured when it cannot be (see ``place_bystander``)."""
    if bystanders_on_map(s, b, T) < T.cfg[TB.CFG_MAX_MAP_BYSTANDERS]:
        for sp in range(T.cfg[TB.CFG_N_SPACES]):
            if (T.space_kind[sp] == TB.SP_BYSTANDER and s[b, L.BYSTANDER_ON + sp] == 0
                    and geometry.is_empty(s, b, T, sp)):
                s[b, L.BYSTANDER_ON + sp] = 1
                s[b, L.SBY_ON + sp] = j
                return
    bystanders.capture_into(s, b, T, geometry.nearest_panel(T, s[b, vil_col(L.VIL_LOC, v)]), j, h)


@njit(cache=True)
def place_own_figure(s, b, T, j, h, v):
    """``place_bystanders`` with ``figure: own`` in special Bystander card ``j``'s effect.

    One of the card's figures leaves the supply and replaces a normal bystander (rulebook:
    Replacing Bystanders; the replaced token returns to the supply): the map one nearest
    the villain (lowest space on ties), else a normal captive, the villain's panel first.
    With none to replace it is placed like any bystander. Nothing happens when none of the
    card's figures is left in the supply (engine.md #42).
    """
    if s[b, L.SBY_SUPPLY + j] == 0:
        return
    s[b, L.SBY_SUPPLY + j] -= 1
    best = -1
    best_d = 1 << 30
    vloc = s[b, vil_col(L.VIL_LOC, v)]
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if (s[b, L.BYSTANDER_ON + sp] == 1 and s[b, L.SBY_ON + sp] < 0
                and T.dist[vloc, sp] < best_d):
            best, best_d = sp, T.dist[vloc, sp]
    if best >= 0:
        s[b, L.SBY_ON + best] = j  # the normal token it replaces stays counted, now in the supply
        return
    first = villain_panel(s, b, T, v)
    for k in range(T.cfg[TB.CFG_N_PANELS] + 1):
        p = first if k == 0 else k
        if s[b, L.CAPTURED + p] > bystanders.special_captives(s, b, p):
            s[b, L.SBY_CAPT + p * TB.SPECIAL_BYSTANDERS + j] += 1
            return
    s[b, L.BYSTANDER_SUPPLY] -= 1
    land_bystander(s, b, T, j, h, v)


@njit(cache=True)
def capture_nearest_villain(s, b, T, n, h, v):
    """Capture the ``n`` map bystanders nearest villain ``v`` (lowest space on ties); ``h``
    is the hero the capturing effect resolves for."""
    vloc = s[b, vil_col(L.VIL_LOC, v)]
    for _ in range(n):
        best = -1
        best_d = 1 << 30
        bys = geometry.bystander_spaces(s, b, T)
        for sp in range(T.cfg[TB.CFG_N_SPACES]):
            if bys[sp] and T.dist[vloc, sp] < best_d:
                best, best_d = sp, T.dist[vloc, sp]
        if best < 0:
            return
        geometry.capture_at(s, b, T, best, h)


@njit(cache=True)
def defeat_bystanders(s, b, T, n, h, v):
    """Defeat ``n`` captured bystanders, villain ``v``'s panel first. True if none could be.

    Normal tokens of a panel go before its special figures; a defeated special figure's
    card effect resolves for ``h``, the hero resolving the defeating effect (engine.md #41, #42).
    """
    done = 0
    first = villain_panel(s, b, T, v)
    for _ in range(n):
        p = first
        if s[b, L.CAPTURED + p] == 0:
            p = 0
            for k in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
                if s[b, L.CAPTURED + k] > 0:
                    p = k
                    break
        if p == 0:
            break
        j = bystanders.release_captive(s, b, p, False)
        s[b, L.BYSTANDERS_DEFEATED] += 1
        s[b, L.EVENTS + L.EV_BYSTANDERS_DEFEATED] += 1
        done += 1
        if j >= 0:
            s[b, L.SBY_DEFEATED + j] += 1
            bystanders.special_event(s, b, T, j, TB.SBE_DEFEATED, h)
    return done == 0 and n > 0


@njit(cache=True)
def advance_villain(s, b, T, v):
    """Villain ``v`` advances to the next panel (Scheming) or scheme space (Showdown).

    Beyond the highest panel there is nowhere to go: the villain stays.
    """
    if not villain_active(s, b, T, v):
        return
    p = villain_panel(s, b, T, v)
    if p >= T.cfg[TB.CFG_N_PANELS]:
        return
    nxt = T.scheme_space[p + 1]
    loc = vil_col(L.VIL_LOC, v)
    if s[b, vil_col(L.VIL_IN_PANEL, v)] == 1:
        s[b, loc] = nxt
    else:
        s[b, loc] = -1  # lift the figure so it does not block its own landing
        if geometry.is_empty(s, b, T, nxt):
            s[b, loc] = nxt
        else:
            s[b, loc] = geometry.nearest_empty(s, b, T, nxt, False, -1)
    s[b, L.EVENTS + L.EV_VILLAIN_ADVANCES] += 1


@njit(cache=True)
def add_counter(s, b, T, k, n):
    """Add ``n`` to issue counter ``k`` (never below 0) and apply the issue's loss check."""
    v = max(0, s[b, L.COUNTERS + k] + n)
    s[b, L.COUNTERS + k] = v
    if T.cfg[TB.CFG_LOSS_COUNTER] == k and v >= T.cfg[TB.CFG_LOSS_AT_LEAST]:
        end_game(s, b, T, L.OUT_LOSS, L.LOSS_COUNTER)


@njit(cache=True)
def damage_enemy_card(s, b, T, t, n, h):
    """Deal ``n`` damage to enemy card target ``t`` (defense already applied by the caller).

    A defeated lackey is discarded with its figure; a defeated issue enemy (a flipped
    Scheme card) or nemesis leaves the game; the hero dealing the final damage gains a
    clue. A defeated villain wins the game (rulebook: Dealing and Suffering Damage), but
    not while a nemesis remains: then the villain keeps its last point of health
    (rulebook: Playing with 5-6 Players, Gameplay; the Nemesis optional rule).
    """
    if n <= 0:
        return
    credit(s, b, T, L.EV_DAMAGE_DEALT, h, n)
    nh = T.cfg[TB.CFG_N_HEROES]
    if L.is_villain_target(t):
        v = target_villain(t)
        dmg, health = vil_col(L.VIL_DAMAGE, v), s[b, vil_col(L.VIL_HEALTH, v)]
        count(s, b, T, L.HV_VILLAIN_DAMAGE, h, n)
        s[b, dmg] += n
        if health != TB.DASH and nemeses_in_play(s, b) > 0:
            s[b, dmg] = min(s[b, dmg], health - 1)
        if s[b, dmg] >= health and health != TB.DASH:
            credit(s, b, T, L.EV_ENEMIES_DEFEATED, h, 1)
            count(s, b, T, L.HV_FINAL_BLOWS, h, 1)
            defeat_villain(s, b, T, v)
        return
    health = enemy_health(s, b, T, t, nh)
    vcard = L.is_vcard_target(t)
    if vcard:
        c = L.vcard_of(t)
        s[b, L.VDMG + c] += n
        defeated = health != TB.DASH and s[b, L.VDMG + c] >= health
    elif t >= L.T_NEM0:
        k = t - L.T_NEM0
        s[b, L.NEM_DMG + k] += n
        if health != TB.DASH and s[b, L.NEM_DMG + k] >= health:
            leave_play(s, b, t, L.L_REMOVED)
            credit(s, b, T, L.EV_ENEMIES_DEFEATED, h, 1)
            gain_clue(s, b, T, h)
        return
    else:
        s[b, L.IDMG + t - L.T_I0] += n
        defeated = health != TB.DASH and s[b, L.IDMG + t - L.T_I0] >= health
    if defeated:
        leave_play(s, b, t, L.L_DISCARD if vcard else L.L_REMOVED)
        credit(s, b, T, L.EV_ENEMIES_DEFEATED, h, 1)
        gain_clue(s, b, T, h)


@njit(cache=True)
def defeat_villain(s, b, T, v):
    """Villain ``v`` is defeated (rulebook: Dealing and Suffering Damage).

    With one villain the heroes win. With two (Two Fronts, engine.md #50) the heroes win
    once both are; the first to fall leaves the game: ``VIL_OUT``, its Villain card and
    its deck's cards in threat areas or attached leave play (removed), and every hero that
    faced it turns to the other villain, whose per-hero values now count every hero.
    Its cards in the issue play area (Crisis trait) stay there: they act as the issue's.
    """
    if not two_villains(T) or s[b, L.VIL_OUT + 1 - v] == 1:
        if two_villains(T):
            s[b, L.VIL_OUT + v] = 1
        end_game(s, b, T, L.OUT_WIN, 0)
        return
    s[b, L.VIL_OUT + v] = 1
    s[b, vil_col(L.VIL_OWNER, v)] = -1
    s[b, vil_col(L.VIL_EXH, v)] = 0
    discard_attached(s, b, L.villain_target(v))
    for c in range(v * TB.VDECK, (v + 1) * TB.VDECK):
        zone = s[b, L.VLOC + c]
        if zone == L.L_THREAT or zone == L.L_ATTACHED:
            leave_play(s, b, L.vcard_target(c), L.L_REMOVED)
            s[b, L.VATTACH + c] = -1
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        if s[b, L.HFACE + h] == v:
            face_villain(s, b, T, h, 1 - v)


@njit(cache=True)
def leave_play(s, b, t, zone):
    """Card target ``t`` (villain or issue deck, or a nemesis) leaves play for ``zone``, with
    its figure or token and every card attached to it. A nemesis always leaves the game
    (rulebook: Nemeses); its slot keeps the card to show which one was beaten."""
    discard_attached(s, b, t)
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        s[b, L.VLOC + c] = zone
        s[b, L.VOWNER + c] = -1
        s[b, L.VPOS + c] = -1
    elif t >= L.T_NEM0:
        k = t - L.T_NEM0
        s[b, L.NEM_OWNER + k] = -1
        s[b, L.NEM_POS + k] = -1
        s[b, L.NEM_EXH + k] = 0
    else:
        s[b, L.ILOC + t - L.T_I0] = zone
        s[b, L.IOWNER + t - L.T_I0] = -1
        s[b, L.IPOS + t - L.T_I0] = -1


@njit(cache=True)
def discard_attached(s, b, host):
    """``host`` leaves play: every card attached to it is discarded (Attaching Cards)."""
    for i in range(TB.VCARDS):
        if s[b, L.VLOC + i] == L.L_ATTACHED and s[b, L.VATTACH + i] == host:
            s[b, L.VLOC + i] = L.L_DISCARD
            s[b, L.VATTACH + i] = -1


@njit(cache=True)
def normal_minions(s, b, panel):
    """Normal (not special) minions in ``panel``."""
    n = s[b, L.MINIONS + panel]
    for j in range(TB.SPECIAL_MINIONS):
        n -= s[b, L.SMIN + panel * TB.SPECIAL_MINIONS + j]
    return n


@njit(cache=True)
def kill_minions(s, b, T, panel, successes, h):
    """Hero ``h`` spends ``successes`` damage on the normal minions of ``panel``; returns
    the damage left over for its special minions (``hurt_special_minions``).

    Reads cfg minion health; writes MINIONS, MINION_SUPPLY, the damage event counter and
    the hero's minion count.
    Normal minions are hit first: they are the cheapest to defeat, so this is the spread a
    hero would choose to defeat the most minions.
    """
    health = max(1, T.cfg[TB.CFG_MINION_HEALTH])
    killed = min(successes // health, normal_minions(s, b, panel))
    s[b, L.MINIONS + panel] -= killed
    s[b, L.MINION_SUPPLY] += killed
    credit(s, b, T, L.EV_DAMAGE_DEALT, h, killed)
    count(s, b, T, L.HV_MINIONS, h, killed)
    return successes - killed * health


@njit(cache=True)
def hurt_special_minions(s, b, T, panel, j, n, h):
    """Hero ``h`` deals ``n`` damage to special Minion card ``j``'s minions in ``panel``,
    one minion at a time; returns (minions defeated, damage left over).

    Reads smin health; writes SMIN, SMIN_DMG, SMIN_SUPPLY, MINIONS, MINION_SUPPLY and the
    hero's counters. Damage
    that does not defeat a minion stays on it (SMIN_DMG: one wounded minion per card and
    panel, since damage is always finished off before the next minion is hit). A defeated
    minion goes back to the supply undamaged.
    """
    col = panel * TB.SPECIAL_MINIONS + j
    health = T.smin[j, TB.SM_HEALTH]
    killed = 0
    while n > 0 and s[b, L.SMIN + col] > 0:
        need = health - s[b, L.SMIN_DMG + col]
        hit = min(n, need)
        n -= hit
        credit(s, b, T, L.EV_DAMAGE_DEALT, h, hit)
        if hit < need:
            s[b, L.SMIN_DMG + col] += hit
            break
        s[b, L.SMIN_DMG + col] = 0
        s[b, L.SMIN + col] -= 1
        s[b, L.SMIN_SUPPLY + j] += 1
        s[b, L.MINIONS + panel] -= 1
        s[b, L.MINION_SUPPLY] += 1
        count(s, b, T, L.HV_MINIONS, h, 1)
        killed += 1
    return killed, n


@njit(cache=True)
def reveal_villain(s, b, T, h, v):
    """Villain ``v``'s Villain card was solved: flip to Showdown in ``h``'s threat area
    (Revealing)."""
    loc = vil_col(L.VIL_LOC, v)
    s[b, vil_col(L.VIL_JUSTICE, v)] = 0
    s[b, vil_col(L.VIL_SIDE, v)] = 1
    s[b, vil_col(L.VIL_OWNER, v)] = h
    s[b, vil_col(L.VIL_IN_PANEL, v)] = 0
    sp = s[b, loc]
    s[b, loc] = -1
    if geometry.is_empty(s, b, T, sp):
        s[b, loc] = sp
    else:
        s[b, loc] = geometry.nearest_empty(s, b, T, sp, False, -1)


@njit(cache=True)
def flip_scheme(s, b, T, i, h):
    """Scheme card ``i`` was solved on its Scheme side (rulebook: Scheme Cards).

    It flips in place, its solver gains a clue and one hidden token leaves the Villain
    card. Justice is cleared on the flip (our reading: the new side is a fresh problem).
    """
    s[b, L.ISIDE + i] = 1
    s[b, L.IJUST + i] = 0
    s[b, L.IDMG + i] = 0
    take_hidden_token(s, b, T, h)
    credit(s, b, T, L.EV_SCHEMES_SOLVED, h, 1)
    gain_clue(s, b, T, h)
    back = T.icard[i, TB.IC_BACK]
    if back == TB.BACK_NONE:
        leave_play(s, b, L.T_I0 + i, L.L_REMOVED)
    elif back == TB.BACK_PROBLEM:
        loc = T.icard[i, TB.IC_LOCATION]
        s[b, L.IPOS + i] = loc if loc >= 0 else T.scheme_space[T.icard[i, TB.IC_PANEL]]
    elif back == TB.BACK_ENEMY:
        sp = T.scheme_space[T.icard[i, TB.IC_PANEL]]
        s[b, L.IPOS + i] = -1
        if not geometry.is_empty(s, b, T, sp):
            sp = geometry.nearest_empty(s, b, T, sp, False, -1)
        s[b, L.IPOS + i] = sp


@njit(cache=True)
def flip_nemesis(s, b, T, k, h):
    """Nemesis ``k``'s Scheme side was solved (rulebook: Nemeses).

    Its solver gains a clue, one hidden token leaves the Villain card, and the card flips
    to its enemy side in the same threat area; the figure leaves the panel for the empty
    space nearest that panel's scheme space. Justice is cleared on the flip, as for Scheme
    cards (engine.md #10).
    """
    s[b, L.NEM_JUST + k] = 0
    s[b, L.NEM_DMG + k] = 0
    take_hidden_token(s, b, T, h)
    credit(s, b, T, L.EV_SCHEMES_SOLVED, h, 1)
    gain_clue(s, b, T, h)
    # still on the Scheme side, the figure is in the panel and does not block its own space
    sp = s[b, L.NEM_POS + k]
    if not geometry.is_empty(s, b, T, sp):
        sp = geometry.nearest_empty(s, b, T, sp, False, -1)
    s[b, L.NEM_POS + k] = sp
    s[b, L.NEM_SIDE + k] = 1


@njit(cache=True)
def place_justice(s, b, T, t, n, h):
    """Place ``n`` justice on problem target ``t``; resolve it when solved (Solve Actions).

    Captured-bystander targets rescue one bystander per justice instead (the caller does
    that). Returns the program the interpreter must resolve next for hero ``h``: a solved
    crisis card's Solved effect, else -1.
    """
    if n <= 0:
        return -1
    nh = T.cfg[TB.CFG_N_HEROES]
    if t == L.T_CAPTURED:
        return -1
    credit(s, b, T, L.EV_JUSTICE, h, n)
    if L.is_villain_target(t):
        v = target_villain(t)
        just, danger = vil_col(L.VIL_JUSTICE, v), s[b, vil_col(L.VIL_DANGER, v)]
        s[b, just] += n
        if danger != TB.DASH and s[b, just] >= danger:
            credit(s, b, T, L.EV_PROBLEMS_SOLVED, h, 1)
            count(s, b, T, L.HV_REVEALS, h, 1)
            gain_clue(s, b, T, h)
            reveal_villain(s, b, T, h, v)
        return -1
    danger = problem_danger(s, b, T, t, nh)
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        s[b, L.VJUST + c] += n
        if danger != TB.DASH and s[b, L.VJUST + c] >= danger:
            leave_play(s, b, t, L.L_DISCARD)
            credit(s, b, T, L.EV_PROBLEMS_SOLVED, h, 1)
            gain_clue(s, b, T, h)
        return -1
    if t >= L.T_CRISIS0:
        return crisis_justice(s, b, T, t - L.T_CRISIS0, n, h)
    if t >= L.T_NEM0:
        k = t - L.T_NEM0
        s[b, L.NEM_JUST + k] += n
        if danger != TB.DASH and s[b, L.NEM_JUST + k] >= danger:
            credit(s, b, T, L.EV_PROBLEMS_SOLVED, h, 1)
            flip_nemesis(s, b, T, k, h)
        return -1
    i = t - L.T_I0
    s[b, L.IJUST + i] += n
    if danger == TB.DASH or s[b, L.IJUST + i] < danger:
        return -1
    credit(s, b, T, L.EV_PROBLEMS_SOLVED, h, 1)
    if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME and s[b, L.ISIDE + i] == 0:
        flip_scheme(s, b, T, i, h)
        return -1
    # an overcome flipped Scheme card leaves the game; a solved issue card is discarded
    leave_play(s, b, t, L.L_REMOVED if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME else L.L_DISCARD)
    gain_clue(s, b, T, h)
    return -1


@njit(cache=True)
def crisis_justice(s, b, T, k, n, h):
    """Place ``n`` justice on crisis card ``k`` (rulebook: Crisis Cards, Problem Cards).

    Justice reaching its danger value solves it: the solver gains 1 clue, the card leaves
    play with its crisis token (its Crisis effect no longer resolves) and its justice is
    cleared. Returns its Solved effect's program for the caller to resolve, or -1.
    """
    if s[b, L.CRISIS_POS + k] < 0:
        return -1
    s[b, L.CRISIS_JUST + k] += n
    if s[b, L.CRISIS_JUST + k] < problem_danger(s, b, T, L.T_CRISIS0 + k, T.cfg[TB.CFG_N_HEROES]):
        return -1
    s[b, L.CRISIS_JUST + k] = 0
    s[b, L.CRISIS_POS + k] = -1
    s[b, L.CRISIS_OUT + k] = 1
    credit(s, b, T, L.EV_PROBLEMS_SOLVED, h, 1)
    gain_clue(s, b, T, h)
    return T.crisis[k, TB.CR_SOLVED_PROG]


@njit(cache=True)
def place_character(s, b, T, i, v):
    """Bystander character ``i`` replaces a bystander (rulebook: Replacing Bystanders).

    The replaced bystander goes back to the supply and the character takes its place: the
    map bystander nearest the villain first, else a captive (the villain's panel first).
    With no bystander to replace it goes to an empty bystander space, else it is captured
    in the panel nearest the villain (``v``). (Which bystander is the players' choice;
    this order is our fixed tie-break.)
    """
    s[b, L.ILOC + i] = L.L_BOARD
    best = -1
    best_d = 1 << 30
    vloc = s[b, vil_col(L.VIL_LOC, v)]
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if s[b, L.BYSTANDER_ON + sp] == 1 and T.dist[vloc, sp] < best_d:
            best, best_d = sp, T.dist[vloc, sp]
    if best >= 0:
        s[b, L.BYSTANDER_ON + best] = 0
        bystanders.return_to_supply(s, b, s[b, L.SBY_ON + best])
        s[b, L.SBY_ON + best] = -1
        s[b, L.IPOS + i] = best
        return
    first = villain_panel(s, b, T, v)
    for k in range(T.cfg[TB.CFG_N_PANELS] + 1):
        p = first if k == 0 else k
        if s[b, L.CAPTURED + p] > 0:
            bystanders.return_to_supply(s, b, bystanders.release_captive(s, b, p, False))
            s[b, L.IPOS + i] = T.scheme_space[p]
            return
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if (T.space_kind[sp] == TB.SP_BYSTANDER and not geometry.bystander_at(s, b, T, sp)
                and geometry.is_empty(s, b, T, sp)):
            s[b, L.IPOS + i] = sp
            return
    s[b, L.IPOS + i] = T.scheme_space[geometry.nearest_panel(T, vloc)]
    s[b, L.EVENTS + L.EV_CAPTURES] += 1
    bystanders.character_event(s, b, T, i, True, -1)


@njit(cache=True)
def initial_bystanders(s, b, T):
    """Setup: one bystander on each bystander space, the rest in the supply.

    Each special Bystander card first swaps 4 of the tokens for its figures; the bystanders
    on the map are then drawn from that mixed supply (engine.md #40).
    """
    s[b, L.BYSTANDER_SUPPLY] = T.cfg[TB.CFG_BYSTANDERS]
    for j in range(TB.SPECIAL_BYSTANDERS):
        s[b, L.SBY_SUPPLY + j] = TB.SPECIAL_BYSTANDER_TOKENS if T.sby[j, TB.SB_PRESENT] == 1 else 0
    for sp in range(TB.MAX_SPACES):
        s[b, L.SBY_ON + sp] = -1
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if T.space_kind[sp] == TB.SP_BYSTANDER:
            s[b, L.BYSTANDER_ON + sp] = 1
            if s[b, L.BYSTANDER_SUPPLY] > 0:  # (more spaces than tokens: the extras are normal)
                s[b, L.SBY_ON + sp] = bystanders.take_from_supply(s, b)


