"""Scenario tests for the hero cards and Hero-card abilities of every hero.

One test (or one parametrised row) per card whose effect is more than a single number
change: several ops, conditions, constants with passives or abilities (Exhaust, Action),
and the abilities printed on the Hero cards. The single-op instants ride along as rows of
the same shape where that costs nothing. ``docs/card_coverage.md`` lists which test covers
which card.

Positions: one hero (two where an effect reaches another hero) alone with Dowager on the
Century Heist board, cleared of bystanders, minions and Scheme cards; the hero stands on C3
with a known hand. Villain cards from the Dowager deck stand in as targets: Big Bertram
(lackey, health 5, defense 0), Hatchet Hollis (lackey, health 4, defense 1), Chauffeur Vance
(lackey, health 3), Gala Firebomb and Favours Called In (perils, danger 3).

Printed values used below (docs/content.md): attack / solve dice are Majesty 3/2, Cipher
2/3, Guerilla 3/1, Stride 2/2, Tinkerbolt 2/2; the Move action is 3 spaces.
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    BLANK,
    PASS,
    SUCCESS,
    answer_damage,
    card_in,
    clues_held,
    dice_rolled,
    dist,
    hand,
    legal,
    play,
    put_bystander,
    run_op,
    scenario,
    setup,
    sp,
    space_at,
    step_toward,
    suffer,
    use,
    walk_toward,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec.ops import WHO_ACTIVE
from hon_env.spec.tables import HERO_DECK

HERE = "C3"


def hero_game(hero: str, where: str = HERE, hand_cards=(), play_cards=(), *,
              partner: str | None = None, focused: bool = False, damage: int = 0) -> Game:
    """``hero`` (seat 0) on ``where`` with exactly ``hand_cards`` in hand and ``play_cards``
    in play; not yet in the hero turn (add pieces, then ``start``)."""
    heroes = (hero,) if partner is None else (hero, partner)
    g = setup(scenario(heroes), where, cards=tuple(hand_cards))
    if play_cards:
        P.give_cards(g, 0, list(play_cards), zone="play")
    P.set_hero(g, 0, focused=focused, damage=damage)
    return g


def card_game(hero: str, card: str | None, how: str, **kw: object) -> Game:
    """``hero_game`` with ``card`` where ``activate(g, how, card)`` takes it: in hand to be
    played (``instant``/``constant``) or in play for its ability (``exhaust``/``action``;
    ``card`` None: the Hero card, nothing added)."""
    assert how in ("instant", "constant", "exhaust", "action"), how
    cards = [] if card is None else [card]
    if how in ("instant", "constant"):
        return hero_game(hero, hand_cards=cards, **kw)
    return hero_game(hero, play_cards=cards, **kw)


def start(g: Game) -> Game:
    P.jump(g, "hero_turn")
    assert g.decision == "main" and g.current_seat == 0
    return g


def actions(g: Game) -> int:
    return int(g.field("hactions")[0])


def exhausted(g: Game, card: str | None) -> bool:
    if card is None:
        return bool(g.field("hexh")[0])
    return bool(g.field("hcexh")[0][card_in(g, card, L.L_PLAY)])


def activate(g: Game, how: str, card: str | None) -> None:
    """Play ``card`` from hand (``instant``/``constant``) or use its ability."""
    if how in ("instant", "constant"):
        play(g, card)
    else:
        use(g, card)


def end_hero_turn_and_game(g: Game) -> None:
    """Spend the actions and end into the threat phase; the empty issue deck then ends the
    game at the issue turn, so nothing after the threat phase touches the state."""
    P.discard_from_deck(g, "issue")
    P.set_hero(g, 0, actions=0)
    g.refresh()  # with no card to play, ending the actions is the only answer: taken now
    if not g.is_over and g.decision == "main":
        g.apply(PASS)
    answer_damage(g)
    assert g.outcome == "loss" and g.loss_reason == "issue_deck_empty"


# --- passives: dice, move, armour, pierce ------------------------------------------------------

PASSIVE_DICE = [
    ("majesty", "Scepter of Dominion", "attack"),
    ("majesty", "Diadem of Insight", "solve"),
    ("cipher", "Jeweller's Loupe", "solve"),
    ("guerilla", "Iron Knuckles", "attack"),
    ("stride", "Momentum", "attack"),
    ("tinkerbolt", "Servo Arm", "attack"),
    ("tinkerbolt", "Scanner Goggles", "solve"),
    ("majesty", "focused", "attack"),  # Sovereign Fury
    ("guerilla", "focused", "attack"),  # Silverback Rampage
]


@pytest.mark.parametrize("hero,card,roll", PASSIVE_DICE,
                         ids=[f"{h}-{c}" for h, c, _ in PASSIVE_DICE])
def test_passive_adds_one_die(hero, card, roll):
    """Rulebook: Rolling and Resolving Hero Dice step 2a — a constant in play (or the
    Focused side's passive ability) adds one die to each Attack or Solve of its hero."""
    def rolled(with_bonus: bool) -> int:
        on = with_bonus and card != "focused"
        g = hero_game(hero, play_cards=[card] if on else [],
                      focused=with_bonus and card == "focused")
        target = "Big Bertram" if roll == "attack" else "Gala Firebomb"
        P.add_villain_card(g, target, 0, "D3")
        start(g)
        action = (L.A_ATTACK if roll == "attack" else L.A_SOLVE) + sp(g, "D3")
        return dice_rolled(g, lambda g: g.apply(action))

    base = rolled(False)
    assert base >= 1
    assert rolled(True) == base + 1


PASSIVE_MOVE = [
    ("majesty", "Gilded Stride"),
    ("guerilla", "Unnatural Agility"),
    ("stride", "Friction Soles"),
    ("tinkerbolt", "Rocket Skates"),
    ("guerilla", "focused"),  # Silverback Rampage
]


def move_length(g: Game) -> int:
    """Spaces the Move action allows: the first step, then the steps left it offers."""
    step_toward(g, "G7")
    assert g.decision == "move"
    return 1 + int(g.field("dec_a"))


@pytest.mark.parametrize("hero,card", PASSIVE_MOVE, ids=[f"{h}-{c}" for h, c in PASSIVE_MOVE])
def test_passive_adds_one_move(hero, card):
    """Rulebook: Move — the Move action is 3 spaces (4 for Stride, whose Quick Feet adds
    one); a constant in play (or Guerilla's Focused passive) adds one more."""
    plain = move_length(start(hero_game(hero)))
    assert plain == (4 if hero == "stride" else 3)
    boosted = start(hero_game(hero, play_cards=[] if card == "focused" else [card],
                              focused=card == "focused"))
    assert move_length(boosted) == plain + 1


def test_stride_quick_feet_moves_four_until_focused():
    """Rulebook: Hero Deck E (Hero ability) / Double-Sided Cards — Stride's normal side
    has Quick Feet (+1 move); her Focused side does not."""
    assert move_length(start(hero_game("stride"))) == 4
    assert move_length(start(hero_game("stride", focused=True))) == 3


PASSIVE_ARMOR = [
    ("cipher", "Reinforced Trench Coat"),
    ("guerilla", "Silverback Hide"),
    ("tinkerbolt", "Reinforced Plating"),
    ("majesty", "focused"),  # Sovereign Fury
    ("tinkerbolt", "focused"),  # Overclocked Rig
]


@pytest.mark.parametrize("hero,card", PASSIVE_ARMOR, ids=[f"{h}-{c}" for h, c in PASSIVE_ARMOR])
def test_armor_reduces_each_damage_instance_by_one(hero, card):
    """Rulebook: Dealing and Suffering Damage — armour takes 1 off a damage instance
    before the hero decides on toughness or prevention (3 damage arrive as 2). With no
    toughness card in hand the damage window has one answer and is taken automatically."""
    for armored, expected in ((False, 3), (True, 2)):
        g = start(hero_game(hero, play_cards=[card] if armored and card != "focused" else [],
                            focused=armored and card == "focused"))
        run_op(g, ops.OP_DAMAGE_HERO, 3, WHO_ACTIVE)
        answer_damage(g)
        assert int(g.field("hdmg")[0]) == expected


PIERCE = [
    ("guerilla", "Iron Knuckles"),
    ("tinkerbolt", "Targeting Visor"),
    ("guerilla", "focused"),  # Silverback Rampage
    ("tinkerbolt", "focused"),  # Overclocked Rig
]


@pytest.mark.parametrize("hero,card", PIERCE, ids=[f"{h}-{c}" for h, c in PIERCE])
def test_pierce_ignores_one_defense(hero, card):
    """Rulebook: Defense Value — Hatchet Hollis (defense 1) takes no damage from a single
    success, unless the attacker's pierce 1 cancels his defense."""
    for pierce, expected in ((False, 0), (True, 1)):
        g = hero_game(hero, play_cards=[card] if pierce and card != "focused" else [],
                      focused=pierce and card == "focused")
        hollis = P.add_villain_card(g, "Hatchet Hollis", 0, "D3")
        start(g)
        P.force_dice(g, [SUCCESS] + [BLANK] * 8)
        g.apply(L.A_ATTACK + sp(g, "D3"))
        assert int(g.field("vdmg")[hollis]) == expected


# --- Exhaust abilities in the damage window ------------------------------------------------------

PREVENT = [
    ("majesty", None, 1),  # Regal Bearing (Hero card)
    ("majesty", "Ermine Mantle", 2),
    ("cipher", "Read the Opponent", 2),
    ("guerilla", "Unnatural Agility", 2),
    ("stride", "Afterimage", 2),
    ("tinkerbolt", "Deflector Field", 2),
]


@pytest.mark.parametrize("hero,card,n", PREVENT, ids=[f"{h}-{c}" for h, c, _ in PREVENT])
def test_exhaust_prevent_reduces_damage(hero, card, n):
    """Rulebook: Exhausted Cards / Dealing and Suffering Damage — while damage is dealt the
    hero may exhaust a prevent ability; it takes its number off that damage, once."""
    g = start(hero_game(hero, play_cards=[card] if card else []))
    i = HERO_DECK if card is None else card_in(g, card, L.L_PLAY)
    assert L.A_USE + i not in legal(g)  # prevention is only offered while taking damage
    run_op(g, ops.OP_DAMAGE_HERO, 3, WHO_ACTIVE)
    assert g.decision == "damage" and L.A_USE + i in legal(g)
    g.apply(L.A_USE + i)
    assert exhausted(g, card)
    if g.decision == "damage":  # another prevent ability (Majesty's Hero card) is on offer
        assert int(g.field("dec_a")) == 3 - n
        assert L.A_USE + i not in legal(g)  # exhausted: not a second time
        suffer(g)
    assert int(g.field("hdmg")[0]) == 3 - n


# --- healing ------------------------------------------------------------------------------------

HEAL_SELF = [
    ("guerilla", "Thick Skull", "exhaust", 1),
    ("stride", "Tireless", "exhaust", 1),
    ("majesty", "Second Wind", "instant", 2),
    ("cipher", "Saw It Coming", "instant", 2),
    ("guerilla", "Hide Like Iron", "instant", 2),
]


@pytest.mark.parametrize("hero,card,how,n", HEAL_SELF, ids=[f"{h}-{c}" for h, c, _, _ in HEAL_SELF])
def test_heal_yourself(hero, card, how, n):
    """Rulebook: Hero Deck E (Hero ability) / Exhausted Cards — the effect removes up to n
    damage from its hero, for free (no action token)."""
    g = card_game(hero, card, how, damage=3)
    start(g)
    activate(g, how, card)
    assert int(g.field("hdmg")[0]) == 3 - n
    assert actions(g) == 2
    if how == "exhaust":
        assert exhausted(g, card)
        assert L.A_USE + card_in(g, card, L.L_PLAY) not in legal(g)


HEAL_OTHER = [
    # hero, card, how, healed, range, actions left
    ("tinkerbolt", "Repair Bot", "action", 2, 2, 1),
    ("tinkerbolt", "Patch Job", "instant", 2, 1, 2),
]


@pytest.mark.parametrize("hero,card,how,n,rng,left", HEAL_OTHER, ids=[c for _, c, *_ in HEAL_OTHER])
def test_heal_a_hero_within_range(hero, card, how, n, rng, left):
    """Rulebook: Within X Spaces — a heal with a range may pick any hero that many spaces
    away (or the user); a hero one space farther is not offered."""
    for d, reachable in ((rng, True), (rng + 1, False)):
        g = card_game(hero, card, how, partner="majesty", damage=1)
        P.place_hero(g, 1, space_at(g, HERE, d))
        P.set_hero(g, 1, damage=3)
        start(g)
        activate(g, how, card)
        if reachable:
            assert g.decision == "pick_hero" and legal(g) == {L.A_HERO, L.A_HERO + 1}
            g.apply(L.A_HERO + 1)  # the partner, one seat after the user
            assert int(g.field("hdmg")[1]) == 3 - n
        else:
            # only the user is in range: chosen automatically
            assert int(g.field("hdmg")[1]) == 3
            assert int(g.field("hdmg")[0]) == 0
        assert actions(g) == left


def test_double_back_moves_then_heals_a_nearby_hero():
    """Rulebook: Actions in Text Effects / Within X Spaces — Stride's Double Back: move up
    to 1, then remove 1 damage from a hero within 2 (the move brings the partner in range)."""
    g = hero_game("stride", partner="majesty", hand_cards=["Double Back"])
    far = space_at(g, HERE, 3)
    P.place_hero(g, 1, far)
    P.set_hero(g, 1, damage=2)
    start(g)
    play(g, "Double Back")
    assert g.decision == "move" and int(g.field("dec_a")) == 1
    step_toward(g, far)
    assert dist(g, int(g.field("hloc")[0]), far) == 2
    assert g.decision == "pick_hero"
    g.apply(L.A_HERO + 1)
    assert int(g.field("hdmg")[1]) == 1
    assert actions(g) == 2  # no action icon


# --- justice and damage at range ------------------------------------------------------------

JUSTICE = [
    ("cipher", None, "exhaust", 2),  # Sharp Eyes (Hero card)
    ("cipher", "Pocket Notebook", "exhaust", 2),
    ("cipher", "Inference at a Distance", "instant", 3),
    ("guerilla", "Jungle Sense", "exhaust", 0),
    ("guerilla", "Blunt Answer", "instant", 0),
    ("majesty", "Read the Room", "instant", 1),
]


@pytest.mark.parametrize("hero,card,how,rng", JUSTICE, ids=[f"{h}-{c}" for h, c, _, _ in JUSTICE])
def test_justice_on_a_problem_within_range(hero, card, how, rng):
    """Rulebook: Within X Spaces / Problem Cards — 1 justice goes on a problem exactly
    ``rng`` spaces away (0: in the hero's own space); a problem one space farther is not a
    target, so the near one is chosen without a question."""
    g = card_game(hero, card, how)
    near_space = sp(g, HERE) if rng == 0 else space_at(g, HERE, rng)
    near = P.add_villain_card(g, "Gala Firebomb", 0, near_space)
    far = P.add_villain_card(g, "Favours Called In", 0, space_at(g, HERE, rng + 1))
    start(g)
    activate(g, how, card)
    assert g.decision == "main"
    assert int(g.field("vjust")[near]) == 1
    assert int(g.field("vjust")[far]) == 0
    if how == "exhaust":
        assert exhausted(g, card)


def test_cipher_whole_picture_justice_within_four_and_draw():
    """Rulebook: Hero Deck E / Double-Sided Cards — Cipher's Focused ability, The Whole
    Picture: 1 justice on a problem within 4, then draw a card."""
    g = hero_game("cipher", focused=True)
    peril = P.add_villain_card(g, "Gala Firebomb", 0, space_at(g, HERE, 4))
    start(g)
    use(g, None)
    assert int(g.field("vjust")[peril]) == 1
    assert len(hand(g)) == 1
    assert exhausted(g, None)


DAMAGE = [
    # hero, card, how, damage, range, actions left
    ("tinkerbolt", None, "exhaust", 1, 2, 2),  # Pocket Zapper (Hero card)
    ("cipher", "Find the Flaw", "exhaust", 1, 2, 2),
    ("tinkerbolt", "Zap Drone", "action", 1, 4, 1),
    ("majesty", "Palace Guard", "action", 2, 1, 1),
    ("tinkerbolt", "Arc Blast", "instant", 2, 3, 1),
    ("cipher", "Pressure Point", "instant", 2, 1, 1),
    ("majesty", "Backhand", "instant", 1, 1, 2),
    ("stride", "Flurry of Jabs", "instant", 1, 1, 2),
]


@pytest.mark.parametrize("hero,card,how,n,rng,left", DAMAGE,
                         ids=[f"{h}-{c}" for h, c, *_ in DAMAGE])
def test_damage_to_an_enemy_within_range(hero, card, how, n, rng, left):
    """Rulebook: Within X Spaces / Defense Value — n damage to an enemy exactly ``rng``
    spaces away, defense ignored (Hatchet Hollis, defense 1, takes all n); an enemy one
    space farther is not a target."""
    g = card_game(hero, card, how)
    hollis = P.add_villain_card(g, "Hatchet Hollis", 0, space_at(g, HERE, rng))
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, space_at(g, HERE, rng + 1))
    start(g)
    activate(g, how, card)
    assert g.decision == "main"
    assert int(g.field("vdmg")[hollis]) == n
    assert int(g.field("vdmg")[vance]) == 0
    assert actions(g) == left
    if how == "action":
        # an Action ability is not exhausted: with an action left it can be used again
        assert L.A_USE + card_in(g, card, L.L_PLAY) in legal(g)


# --- movement and placement --------------------------------------------------------------------

MOVE_ABILITY = [
    ("majesty", "Herald's Call"),
    ("tinkerbolt", "Rocket Skates"),
    ("guerilla", None),  # Canopy Leap (Hero card)
]


@pytest.mark.parametrize("hero,card", MOVE_ABILITY, ids=[f"{h}-{c}" for h, c in MOVE_ABILITY])
def test_exhaust_to_move_two(hero, card):
    """Rulebook: Actions in Text Effects — an Exhaust ability that moves up to 2 is a Move
    without an action token (and no Move passive is added to it)."""
    g = start(hero_game(hero, play_cards=[card] if card else []))
    use(g, card)
    assert g.decision == "move" and int(g.field("dec_a")) == 2
    walk_toward(g, "G7", 2)
    assert dist(g, int(g.field("hloc")[0]), HERE) == 2
    assert actions(g) == 2 and exhausted(g, card)


def test_kinetic_reserve_places_stride_anywhere():
    """Rulebook: "Move To" Effects — Kinetic Reserve places Stride in any space, however
    far (here the far corner), without a Move."""
    g = start(hero_game("stride", play_cards=["Kinetic Reserve"]))
    use(g, "Kinetic Reserve")
    assert g.decision == "place"
    target = sp(g, "G7")
    assert dist(g, HERE, target) > 4
    g.apply(L.A_SPACE + target)
    assert int(g.field("hloc")[0]) == target
    assert actions(g) == 2 and exhausted(g, "Kinetic Reserve")


def test_stride_everywhere_at_once_places_and_rescues():
    """Rulebook: "Move To" Effects / Rescuing Bystanders — Stride's Focused ability: place
    her anywhere, then rescue a bystander within 1 (she gains a clue)."""
    g = hero_game("stride", focused=True)
    put_bystander(g, "G6")
    start(g)
    use(g, None)
    assert g.decision == "place"
    g.apply(L.A_SPACE + sp(g, "F6"))
    assert int(g.field("hloc")[0]) == sp(g, "F6")
    assert int(g.field("bystander_on")[sp(g, "G6")]) == 0
    assert clues_held(g) == 1
    assert exhausted(g, None)


MOVE_THEN_ATTACK = [
    # hero, card, how, move, attack dice
    ("majesty", "Imperial Charge", "instant", 3, 4),
    ("guerilla", "Knuckle-Walk Charge", "instant", 2, 4),
    ("guerilla", "Torn-Off Branch", "action", 1, 4),
]


@pytest.mark.parametrize("hero,card,how,n,dice", MOVE_THEN_ATTACK,
                         ids=[c for _, c, *_ in MOVE_THEN_ATTACK])
def test_move_then_attack_with_extra_die(hero, card, how, n, dice):
    """Rulebook: Actions in Text Effects — move up to n, then Attack with one extra die:
    the move brings Big Bertram (n + 1 away) into reach; each success is 1 damage."""
    g = card_game(hero, card, how)
    target = space_at(g, HERE, n + 1)
    bertram = P.add_villain_card(g, "Big Bertram", 0, target)
    start(g)
    activate(g, how, card)
    assert g.decision == "move" and int(g.field("dec_a")) == n
    P.force_dice(g, [SUCCESS] * dice + [BLANK] * 4)
    walk_toward(g, target, n)
    assert int(g.field("vdmg")[bertram]) == dice  # the only target: attacked automatically
    assert int(g.field("dice_n")) == 4
    assert actions(g) == 1


def test_canopy_drop_places_within_three_then_attacks():
    """Rulebook: "Move To" Effects — Canopy Drop: place Guerilla within 3, then Attack with
    one extra die (4 dice) an enemy near his new space."""
    g = hero_game("guerilla", hand_cards=["Canopy Drop"])
    target = space_at(g, HERE, 4)
    bertram = P.add_villain_card(g, "Big Bertram", 0, target)
    start(g)
    play(g, "Canopy Drop")
    assert g.decision == "place"
    T = g.scenario.tables
    landing = min(a - L.A_SPACE for a in legal(g) if T.dist[a - L.A_SPACE, target] == 1)
    P.force_dice(g, [SUCCESS] * 4 + [BLANK] * 4)
    g.apply(L.A_SPACE + landing)
    assert int(g.field("hloc")[0]) == landing
    assert int(g.field("vdmg")[bertram]) == 4


MOVE_THEN_SOLVE = [
    ("guerilla", "Jungle Instinct", 1, 2),
    ("stride", "Quick Study", 2, 3),
]


@pytest.mark.parametrize("hero,card,n,dice", MOVE_THEN_SOLVE,
                         ids=[c for _, c, *_ in MOVE_THEN_SOLVE])
def test_move_then_solve_with_extra_die(hero, card, n, dice):
    """Rulebook: Actions in Text Effects / Solve — move up to n, then Solve with one extra
    die at the peril the move reached; enough justice solves it (discarded, a clue)."""
    g = hero_game(hero, hand_cards=[card])
    target = space_at(g, HERE, n + 1)
    peril = P.add_villain_card(g, "Gala Firebomb", 0, target)
    start(g)
    play(g, card)
    assert g.decision == "move" and int(g.field("dec_a")) == n
    P.force_dice(g, [SUCCESS] * dice + [BLANK] * 4)
    walk_toward(g, target, n)
    assert int(g.field("dice_n")) == 4  # exactly ``dice`` dice rolled
    if dice >= 3:  # Gala Firebomb's danger is 3: solved, discarded, a clue
        assert int(g.field("vloc")[peril]) == L.L_DISCARD and clues_held(g) == 1
    else:
        assert int(g.field("vjust")[peril]) == dice


MOVE_THEN_RESCUE = [
    ("guerilla", "Scoop Up", "instant", 2),
    ("stride", "Snatch to Safety", "instant", 3),
    ("stride", "Rescue Relay", "action", 2),
]


@pytest.mark.parametrize("hero,card,how,n", MOVE_THEN_RESCUE,
                         ids=[c for _, c, *_ in MOVE_THEN_RESCUE])
def test_move_then_rescue_nearby(hero, card, how, n):
    """Rulebook: Rescuing Bystanders — move up to n, then rescue a bystander within 1: the
    bystander n + 1 away returns to the supply and the hero gains a clue."""
    g = card_game(hero, card, how)
    target = space_at(g, HERE, n + 1)
    put_bystander(g, target)
    supply = int(g.field("bystander_supply"))
    start(g)
    activate(g, how, card)
    assert g.decision == "move" and int(g.field("dec_a")) == n
    walk_toward(g, target, n)
    assert int(g.field("bystander_on")[target]) == 0
    assert int(g.field("bystander_supply")) == supply + 1
    assert clues_held(g) == 1
    assert actions(g) == 1


MOVE_THEN_JUSTICE = [
    ("cipher", "Tail the Suspect", "instant", 3),
    ("stride", "Patrol Loop", "action", 3),
]


@pytest.mark.parametrize("hero,card,how,n", MOVE_THEN_JUSTICE,
                         ids=[c for _, c, *_ in MOVE_THEN_JUSTICE])
def test_move_then_justice_nearby(hero, card, how, n):
    """Rulebook: Problem Cards / Within X Spaces — move up to n, then 1 justice on a
    problem within 1 (the peril the move reached)."""
    g = card_game(hero, card, how)
    target = space_at(g, HERE, n + 1)
    peril = P.add_villain_card(g, "Gala Firebomb", 0, target)
    start(g)
    activate(g, how, card)
    assert g.decision == "move" and int(g.field("dec_a")) == n
    walk_toward(g, target, n)
    assert int(g.field("vjust")[peril]) == 1
    assert actions(g) == 1


def test_hit_and_run_attacks_then_moves_three():
    """Rulebook: Actions in Text Effects — Hit and Run: Attack (Stride's 2 dice), then move
    up to 3 away."""
    g = hero_game("stride", hand_cards=["Hit and Run"])
    bertram = P.add_villain_card(g, "Big Bertram", 0, "D3")
    start(g)
    P.force_dice(g, [SUCCESS, SUCCESS])
    play(g, "Hit and Run")
    assert int(g.field("vdmg")[bertram]) == 2
    assert g.decision == "move" and int(g.field("dec_a")) == 3
    walk_toward(g, "A5", 3)
    assert dist(g, int(g.field("hloc")[0]), "D3") >= 3


def test_rebound_kick_damages_then_moves_one():
    """Rulebook: Actions in Text Effects — Rebound Kick: 1 damage to an enemy within 1,
    then move up to 1; no action token."""
    g = hero_game("guerilla", hand_cards=["Rebound Kick"])
    bertram = P.add_villain_card(g, "Big Bertram", 0, "D3")
    start(g)
    play(g, "Rebound Kick")
    assert int(g.field("vdmg")[bertram]) == 1
    assert g.decision == "move" and int(g.field("dec_a")) == 1
    walk_toward(g, "A5", 1)
    assert dist(g, int(g.field("hloc")[0]), HERE) == 1
    assert actions(g) == 2


def test_second_lap_draws_then_moves_one():
    """Rulebook: Draw 1 Card / Actions in Text Effects — Second Lap: draw 1, then move up
    to 1."""
    g = start(hero_game("stride", hand_cards=["Second Lap"]))
    play(g, "Second Lap")
    assert len(hand(g)) == 1
    assert g.decision == "move" and int(g.field("dec_a")) == 1


# --- solve combinations ------------------------------------------------------------------------

SOLVE_PLUS = [
    # hero, card, how, dice, extra check
    ("majesty", "Decree of Justice", "instant", 3, "focus"),
    ("majesty", "War Council", "action", 3, "focus"),
    ("tinkerbolt", "Run Diagnostics", "instant", 3, "draw"),
]


@pytest.mark.parametrize("hero,card,how,dice,extra", SOLVE_PLUS, ids=[c for _, c, *_ in SOLVE_PLUS])
def test_solve_with_extra_die_then_bonus(hero, card, how, dice, extra):
    """Rulebook: Solve / Focus Tokens / Draw 1 Card — Solve with one extra die (3 dice
    solve Gala Firebomb, danger 3), then gain 1 focus or draw 1 card."""
    g = card_game(hero, card, how)
    peril = P.add_villain_card(g, "Gala Firebomb", 0, "D3")
    start(g)
    P.force_dice(g, [SUCCESS] * dice + [BLANK] * 4)
    activate(g, how, card)
    assert int(g.field("dice_n")) == 4
    assert int(g.field("vloc")[peril]) == L.L_DISCARD
    assert clues_held(g) == 1
    if extra == "focus":
        assert int(g.field("hfocus")[0]) == 1
    else:
        assert len(hand(g)) == 1
    assert actions(g) == 1


def test_case_board_solves_within_three():
    """Rulebook: Rolling and Resolving Hero Dice step 1a — Case Board's Action ability:
    Solve with one extra die (Cipher: 4) at a problem up to 3 spaces away."""
    g = hero_game("cipher", play_cards=["Case Board"])
    target = space_at(g, HERE, 3)
    peril = P.add_villain_card(g, "Gala Firebomb", 0, target)
    start(g)
    assert L.A_SOLVE + target not in legal(g)  # out of reach of a plain Solve
    P.force_dice(g, [SUCCESS] * 4 + [BLANK] * 4)
    use(g, "Case Board")
    assert int(g.field("dice_n")) == 4
    assert int(g.field("vloc")[peril]) == L.L_DISCARD
    assert actions(g) == 1


def test_expose_the_weakness_solves_then_damages_within_two():
    """Rulebook: Solve / Within X Spaces — Expose the Weakness: Solve with one extra die
    (Cipher: 4), then 1 damage to an enemy within 2 (Hollis, not near: he does not
    inflict after the Solve)."""
    g = hero_game("cipher", hand_cards=["Expose the Weakness"])
    peril = P.add_villain_card(g, "Gala Firebomb", 0, "D3")
    hollis = P.add_villain_card(g, "Hatchet Hollis", 0, space_at(g, HERE, 2))
    start(g)
    P.force_dice(g, [BLANK] * 8)
    play(g, "Expose the Weakness")
    assert int(g.field("dice_n")) == 4
    assert int(g.field("vjust")[peril]) == 0
    assert int(g.field("vdmg")[hollis]) == 1
    assert int(g.field("hdmg")[0]) == 0


# --- conditions ------------------------------------------------------------------------------

@pytest.mark.parametrize("damage,dice", [(3, 4), (4, 4 + 3)])
def test_crowns_fury_second_attack_at_four_damage(damage, dice):
    """Rulebook: Attack — Crown's Fury: Attack with one extra die (4); only when Majesty
    already has 4 or more damage does a second Attack (3 dice) follow."""
    g = hero_game("majesty", hand_cards=["Crown's Fury"], damage=damage)
    P.add_villain_card(g, "Big Bertram", 0, "D3")
    start(g)
    assert dice_rolled(g, lambda g: play(g, "Crown's Fury")) == dice
    assert g.decision == "main"


@pytest.mark.parametrize("damage,extra", [(4, 0), (5, 1)])
def test_ground_slam_extra_damage_at_five_damage(damage, extra):
    """Rulebook: Attack / Within X Spaces — Ground Slam: Attack with two extra dice (5);
    at 5 or more damage on Guerilla, 1 more damage to an enemy within 1."""
    g = hero_game("guerilla", hand_cards=["Ground Slam"], damage=damage)
    bertram = P.add_villain_card(g, "Big Bertram", 0, "D3")
    start(g)
    assert dice_rolled(g, lambda g: play(g, "Ground Slam")) == 5
    assert int(g.field("vdmg")[bertram]) == extra


# --- rescue, focus, draw, clues --------------------------------------------------------------

def test_shield_the_innocent_rescues_within_two_and_heals_one():
    """Rulebook: Rescuing Bystanders — Shield the Innocent: rescue a bystander 2 spaces
    away, then remove 1 damage from Majesty."""
    g = hero_game("majesty", hand_cards=["Shield the Innocent"], damage=2)
    target = space_at(g, HERE, 2)
    put_bystander(g, target)
    start(g)
    play(g, "Shield the Innocent")
    assert int(g.field("bystander_on")[target]) == 0
    assert clues_held(g) == 1
    assert int(g.field("hdmg")[0]) == 1


def test_evacuation_route_rescues_within_three_and_gains_focus():
    """Rulebook: Rescuing Bystanders / Focus Tokens — Evacuation Route: rescue a bystander
    3 spaces away (not one 4 away), then gain 1 focus."""
    g = hero_game("stride", hand_cards=["Evacuation Route"])
    near, far = space_at(g, HERE, 3), space_at(g, HERE, 4)
    put_bystander(g, near)
    put_bystander(g, far)
    start(g)
    play(g, "Evacuation Route")
    assert int(g.field("bystander_on")[near]) == 0
    assert int(g.field("bystander_on")[far]) == 1
    assert int(g.field("hfocus")[0]) == 1


def test_counsel_of_the_court_draws_and_gains_focus():
    """Rulebook: Draw 1 Card / Focus Tokens — Counsel of the Court: draw 1, gain 1 focus,
    no action token."""
    g = start(hero_game("majesty", hand_cards=["Counsel of the Court"]))
    play(g, "Counsel of the Court")
    assert len(hand(g)) == 1
    assert int(g.field("hfocus")[0]) == 1
    assert actions(g) == 2


DRAW = [
    ("tinkerbolt", "Overstuffed Toolbelt", "exhaust", 1),
    ("tinkerbolt", "Jury-Rig", "instant", 2),
    ("majesty", "Herald's Call", "constant", 1),
    ("cipher", "Pocket Notebook", "constant", 1),
    ("guerilla", "Jungle Sense", "constant", 1),
]


@pytest.mark.parametrize("hero,card,how,n", DRAW, ids=[c for _, c, *_ in DRAW])
def test_draw_cards(hero, card, how, n):
    """Rulebook: Draw 1 Card / Hero Deck I (Constant) — the effect draws n cards from the
    hero's deck; a constant that draws when played stays in the play area."""
    g = card_game(hero, card, how)
    start(g)
    deck = int(g.field("hdeck_n")[0])
    activate(g, how, card)
    assert len(hand(g)) == n
    assert int(g.field("hdeck_n")[0]) == deck - n
    if how == "constant":
        card_in(g, card, L.L_PLAY)  # raises if not in play
    if how == "exhaust":
        assert exhausted(g, card)


CLUE = [
    ("cipher", "Informant Network", "action", 0),
    ("cipher", "Follow the Thread", "instant", 0),
    ("cipher", "Case Notes", "instant", 1),
]


@pytest.mark.parametrize("hero,card,how,draws", CLUE, ids=[c for _, c, *_ in CLUE])
def test_gain_a_clue(hero, card, how, draws):
    """Rulebook: Clue Cards — the effect gives the hero the top clue card (Case Notes also
    draws a hero card)."""
    g = card_game(hero, card, how)
    start(g)
    top = int(g.field("clue_order")[int(g.field("clue_n")) - 1])
    activate(g, how, card)
    assert clues_held(g) == 1
    assert int(g.field("clue_loc")[top]) == 0
    assert len(hand(g)) == draws


@pytest.mark.parametrize("hero,card,how", [("tinkerbolt", "Pulse Emitter", "exhaust"),
                                          ("tinkerbolt", "Jam the Signal", "instant")])
def test_exhaust_a_threat_card_skips_its_activation(hero, card, how):
    """Rulebook: Exhausted Cards / Activating Enemies — exhausting Gala Firebomb in the
    hero's threat area means it readies instead of dealing its 2 damage this threat phase."""
    g = card_game(hero, card, how)
    peril = P.add_villain_card(g, "Gala Firebomb", 0)
    start(g)
    activate(g, how, card)
    assert int(g.field("vexh")[peril]) == 1
    end_hero_turn_and_game(g)
    assert int(g.field("hdmg")[0]) == 0
    assert int(g.field("vexh")[peril]) == 0


def test_without_exhausting_the_peril_deals_its_damage():
    """Control for the test above: a ready Gala Firebomb deals 2 in the threat phase."""
    g = hero_game("tinkerbolt")
    P.add_villain_card(g, "Gala Firebomb", 0)
    start(g)
    end_hero_turn_and_game(g)
    assert int(g.field("hdmg")[0]) == 2


def test_herald_call_stays_and_its_ability_readies_next_turn():
    """Rulebook: Exhausted Cards / Hero Turn — Herald's Call stays in play; its Exhaust
    ability is spent for the turn and ready again at the next hero turn."""
    g = start(hero_game("majesty", hand_cards=["Herald's Call"]))
    play(g, "Herald's Call")
    i = card_in(g, "Herald's Call", L.L_PLAY)
    use(g, "Herald's Call")
    walk_toward(g, "G7", 2)
    assert L.A_USE + i not in legal(g)
    P.jump(g, "hero_turn")
    assert L.A_USE + i in legal(g)


# --- single-op instants (the op itself is covered by the rule tests; played once here) ----

SINGLE = [
    # hero, card, what, amount
    ("majesty", "Throne Breaker", "attack dice", 3 + 2),
    ("tinkerbolt", "Shock Gauntlet", "attack dice", 2 + 2),
    ("cipher", "Cross-Examine", "solve dice", 3 + 2),
    ("majesty", "Royal Summons", "move", 2),
    ("cipher", "Shortcut", "move", 2),
    ("stride", "Sprint", "move", 3),
    ("cipher", "Eureka", "focus", 2),
    ("guerilla", "Primal Roar", "focus", 2),
    ("tinkerbolt", "Grapple Line", "place within", 3),
    ("stride", "Slipstream", "place within", 4),
]


@pytest.mark.parametrize("hero,card,what,n", SINGLE, ids=[c for _, c, _, _ in SINGLE])
def test_single_op_instant(hero, card, what, n):
    """Rulebook: Play 1 Action Card / Actions in Text Effects — a one-op instant does
    exactly its op: an Attack or Solve with extra dice, a Move of up to n, n focus, or
    placing the figure at most n spaces away."""
    g = hero_game(hero, hand_cards=[card])
    if what.endswith("dice"):
        P.add_villain_card(g, "Big Bertram" if what == "attack dice" else "Gala Firebomb",
                           0, "D3")
    start(g)
    if what.endswith("dice"):
        assert dice_rolled(g, lambda g: play(g, card)) == n
    elif what == "move":
        play(g, card)
        assert g.decision == "move" and int(g.field("dec_a")) == n
        g.apply(PASS)  # stop moving: the instant is done
    elif what == "focus":
        play(g, card)
        assert int(g.field("hfocus")[0]) == n
    else:
        play(g, card)
        assert g.decision == "place"
        T = g.scenario.tables
        offered = {a - L.A_SPACE for a in legal(g)}
        assert all(int(T.dist[sp(g, HERE), s]) <= n for s in offered)
        target = space_at(g, HERE, n)
        assert target in offered and space_at(g, HERE, n + 1) not in offered
        g.apply(L.A_SPACE + target)
        assert int(g.field("hloc")[0]) == target
    assert g.decision == "main"
    card_in(g, card, L.L_DISCARD)  # the instant went to the discard pile (raises if not)


def test_every_hero_card_is_played_here():
    """Guard: every card of every hero deck is named in a table or test of this file."""
    text = open(__file__).read()
    for hero in ("majesty", "cipher", "guerilla", "stride", "tinkerbolt"):
        for card in set(scenario((hero,)).hero_card_names[0]):
            assert f'"{card}"' in text, (hero, card)


def test_every_hero_card_named_here_exists():
    """Guard: the names above are cards of their heroes (a renamed card fails loudly)."""
    rows = (PASSIVE_DICE + PASSIVE_MOVE + PASSIVE_ARMOR + PIERCE + PREVENT + HEAL_SELF
            + HEAL_OTHER + JUSTICE + DAMAGE + MOVE_ABILITY + MOVE_THEN_ATTACK + MOVE_THEN_SOLVE
            + MOVE_THEN_RESCUE + MOVE_THEN_JUSTICE + SOLVE_PLUS + DRAW + CLUE + SINGLE)
    for hero, card, *_ in rows:
        if card in (None, "focused"):
            continue
        assert card in scenario((hero,)).hero_card_names[0], (hero, card)
