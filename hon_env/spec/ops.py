"""The closed effect vocabulary: every op a card, panel or overview may use.

A card effect in YAML is a list of ops, each a mapping with an ``op`` key and the op's
parameters, e.g. ``- {op: damage_enemy, n: 2, range: 1}``. The loader rejects unknown ops,
unknown parameters, missing required parameters, out-of-range numbers and ops used where
they have no meaning (``where``). Compiled, each op is one row ``(code, a, b, c)`` of the
program table; parameters fill ``a, b, c`` in the order they are declared here.

Contexts (``where``):

- ``hero``: hero cards, hero abilities and clue cards; "you" is the hero using the card.
- ``villain``: villain card special/showdown effects, scheme panel effects, issue cards,
  the issue overview's setup and crisis effects, nemesis setup; "the active hero" is the
  hero resolving the card (for issue cards: the hero chosen to hold it, see engine docs).
- ``ally``: the ability of an Ally card (optional rule: Allies); every hero op works as on
  a hero card ("you" is the hero controlling the ally), plus the ``ally_*`` ops that move
  the ally figure and let it Attack or Solve.
- ``activate``: the Activate effect of a card in a threat area; the op acts for the enemy
  or problem that card stands for, and "the owner" is the hero whose threat area holds it.

Enumerated parameters are written as names in YAML and compiled to the integers below.
"""

from __future__ import annotations

from dataclasses import dataclass

PANEL_VILLAIN = 0  # "villain": the panel the villain is in (or nearest to)
PANEL_ALL = -1  # "all": every scheme panel

PANEL_NAMES = {"villain": PANEL_VILLAIN, "all": PANEL_ALL}

WHO_ACTIVE = 0  # the active hero (or the owner, in an activate effect)
WHO_EACH = 1  # each hero on the board
WHO_NEAR_VILLAIN = 2  # each hero near the villain figure/panel

WHO_NAMES = {"active": WHO_ACTIVE, "each": WHO_EACH, "near_villain": WHO_NEAR_VILLAIN}

TOWARD_ANY = 0  # the nearest hero or map bystander
TOWARD_HERO = 1
TOWARD_BYSTANDER = 2

TOWARD_NAMES = {"any": TOWARD_ANY, "hero": TOWARD_HERO, "bystander": TOWARD_BYSTANDER}

AWAY_FROM_VILLAIN = 0  # the villain's figure (or its panel)
AWAY_FROM_THIS = 1  # the figure of the card whose effect this is (activate effects)

AWAY_NAMES = {"villain": AWAY_FROM_VILLAIN, "this": AWAY_FROM_THIS}

FORTIFY_VILLAIN = 0
FORTIFY_LACKEYS = 1

FORTIFY_NAMES = {"villain": FORTIFY_VILLAIN, "lackeys": FORTIFY_LACKEYS}

FIGURE_ANY = 0  # a bystander drawn from the supply (normal or special, at random)
FIGURE_OWN = "own"  # one of this special Bystander card's figures; compiled to card row + 1

SIMPLE_ENUMS = {"who": WHO_NAMES, "toward": TOWARD_NAMES, "away": AWAY_NAMES,
                "fortify": FORTIFY_NAMES}

# Quantities an ``if`` op can test; ``counter:<name>`` is resolved per issue.
COUNT_MINIONS_VILLAIN_PANEL = 0
COUNT_MINIONS_TOTAL = 1
COUNT_CAPTURED_TOTAL = 2
COUNT_BYSTANDERS_MAP = 3
COUNT_MINION_SUPPLY = 4
COUNT_BYSTANDER_SUPPLY = 5
COUNT_VILLAIN_HIDDEN = 6
COUNT_ACTIVE_THREATS = 7  # cards in the active hero's threat area
COUNT_ACTIVE_DAMAGE = 8  # damage on the active hero
COUNT_VILLAIN_PANEL = 9  # number of the villain's current (or nearest) scheme panel
COUNT_ROUND = 10
COUNT_ACTIVE_PILOTING = 11  # 1 while the active hero is on a pilot side (pilot token on the map)
COUNT_ACTIVE_IN_MECH = 12  # 1 while the active hero is on a mech side (in the mech)
COUNT_COUNTER_BASE = 16  # + counter index (issue counters such as gold)

COUNT_NAMES = {
    "minions_in_villain_panel": COUNT_MINIONS_VILLAIN_PANEL,
    "minions_total": COUNT_MINIONS_TOTAL,
    "captured_total": COUNT_CAPTURED_TOTAL,
    "bystanders_on_map": COUNT_BYSTANDERS_MAP,
    "minion_supply": COUNT_MINION_SUPPLY,
    "bystander_supply": COUNT_BYSTANDER_SUPPLY,
    "villain_hidden_tokens": COUNT_VILLAIN_HIDDEN,
    "active_hero_threats": COUNT_ACTIVE_THREATS,
    "active_hero_damage": COUNT_ACTIVE_DAMAGE,
    "villain_panel": COUNT_VILLAIN_PANEL,
    "round": COUNT_ROUND,
    "active_hero_piloting": COUNT_ACTIVE_PILOTING,
    "active_hero_in_mech": COUNT_ACTIVE_IN_MECH,
}
# Ops and counts that only mean something for a hero whose Hero card has a pilot side and a
# mech side (``form`` in the hero file); the loader rejects them anywhere else.
FORM_OPS = frozenset({"board_mech", "eject"})
FORM_COUNTS = frozenset({"active_hero_piloting", "active_hero_in_mech"})
MAX_COUNTERS = 4


@dataclass(frozen=True)
class Param:
    """One op parameter: an integer in [lo, hi] or a name from ``enum``."""

    name: str
    default: int | str | None = None  # None: required
    lo: int = 0
    hi: int = 20
    enum: str | None = None  # panel, who, toward, away, fortify, count, counter, figure


@dataclass(frozen=True)
class OpSpec:
    name: str
    code: int
    params: tuple[Param, ...]
    where: frozenset[str]
    doc: str
    # the op's short English phrase (``content/text.py`` fills it in): ``{param}`` is the
    # value, ``{param:word}`` a word of ``content/text.py``'s ``WORDS`` (``s:card`` the
    # value and a plural; see there); "" where the phrase is built otherwise (``if``)
    phrase: str = ""


H = frozenset({"hero", "ally"})
V = frozenset({"villain", "activate"})
A = frozenset({"activate"})
AL = frozenset({"ally"})
ANY = frozenset({"hero", "ally", "villain", "activate"})

_N1 = Param("n", 1, 1, 20)

OPS: tuple[OpSpec, ...] = (
    # hero-side effects
    OpSpec("gain_focus", 1, (_N1,), H,
           "You gain n focus (at most `focus_cap`, default 5, kept; see Focus Tokens).",
           phrase="gain {n} focus"),
    OpSpec("draw", 2, (_N1,), H, "You draw n cards from your deck.",
           phrase="draw {n:s:card}"),
    OpSpec("gain_clue", 3, (_N1,), ANY, "You (or the active hero) gain n clue cards.",
           phrase="gain {n:s:clue}"),
    OpSpec("heal", 4, (_N1, Param("range", 0, 0, 12)), H,
           "Remove up to n damage from one hero within range (0: yourself only).",
           phrase="remove up to {n} damage from {range:hero_in_range}"),
    OpSpec("damage_enemy", 5, (_N1, Param("range", 1, 0, 12)), H,
           "Deal n damage (defense ignored) to one enemy within range of you.",
           phrase="deal {n} damage to an enemy {range:within}"),
    OpSpec("justice", 6, (_N1, Param("range", 1, 0, 12)), H,
           "Place n justice on one problem within range of you (Scheme cards: only from "
           "their panel).",
           phrase="place {n} justice on a problem {range:within}"),
    OpSpec("move", 7, (Param("n", 3, 1, 12),), H,
           "Perform a Move of up to n spaces (no action spent).",
           phrase="move up to {n}"),
    OpSpec("attack", 8, (Param("dice", 0, 0, 6), Param("range", 1, 1, 12)), H,
           "Perform an Attack with extra dice (no action spent) on a space within range "
           "(1: a nearby space).",
           phrase="attack{dice:extra_dice}{range:beyond_near}"),
    OpSpec("solve", 9, (Param("dice", 0, 0, 6), Param("range", 1, 1, 12)), H,
           "Perform a Solve with extra dice (no action spent) on a space within range "
           "(1: a nearby space).",
           phrase="solve{dice:extra_dice}{range:beyond_near}"),
    OpSpec("place", 10, (Param("range", 0, 0, 12),), H,
           "Place your figure in any space within range (0: anywhere on the map).",
           phrase="place your figure {range:anywhere}"),
    OpSpec("rescue", 11, (Param("range", 1, 0, 12),), H,
           "Rescue one bystander on the map or captured in a panel within range.",
           phrase="rescue a bystander {range:within}"),
    OpSpec("exhaust_threat", 12, (), H, "Exhaust one ready card in your threat area.",
           phrase="exhaust a ready card in your threat area"),
    OpSpec("prevent", 13, (_N1,), H,
           "Reduce damage you are about to suffer by n. Only as an Exhaust ability, "
           "usable while you are being dealt damage.",
           phrase="prevent {n} damage"),
    # villain / issue effects
    OpSpec("place_minions", 14, (_N1, Param("panel", "villain", enum="panel")), V,
           "Place n minions from the supply in a panel (villain: the villain's panel; all: "
           "each panel). Running out causes one crisis.",
           phrase="place {n:s:minion} in {panel:panel}"),
    OpSpec("place_bystanders", 15, (_N1, Param("figure", "any", enum="figure")), V,
           "Place n bystanders from the supply on empty bystander spaces (captured when "
           "none is free or 4 are on the map). Running out causes one crisis. figure: own "
           "(only in a special Bystander card's effects) takes that card's own figures "
           "instead: each replaces a normal bystander (the map one nearest the villain, "
           "else a captive), else is placed as usual; none left in the supply: nothing.",
           phrase="place {n:bystanders_or_figures}"),
    OpSpec("capture_bystanders", 16, (_N1,), V,
           "The n bystanders on the map nearest the villain are captured.",
           phrase="capture {n:s:bystander} nearest the villain"),
    OpSpec("defeat_bystanders", 17, (_N1,), V,
           "Defeat n captured bystanders, the villain's panel first; one crisis if none.",
           phrase="defeat {n:s:captured bystander}"),
    OpSpec("scheme", 18, (_N1,), V, "The villain schemes n times.",
           phrase="the villain schemes{n:times}"),
    OpSpec("advance", 19, (_N1,), V, "The villain advances n times.",
           phrase="the villain advances{n:times}"),
    OpSpec("villain_inflict", 20, (), V, "The villain inflicts the active hero.",
           phrase="the villain inflicts the active hero"),
    OpSpec("damage_hero", 21, (_N1, Param("who", "active", enum="who")), V,
           "Deal n damage to the chosen heroes.",
           phrase="deal {n} damage to {who:who}"),
    OpSpec("discard_or_damage", 22, (_N1, Param("who", "active", enum="who")), V,
           "Each chosen hero discards 1 card or suffers n damage.",
           phrase="{who:who} discards 1 card or suffers {n} damage"),
    OpSpec("crisis", 23, (), V, "A crisis occurs.",
           phrase="a crisis occurs"),
    OpSpec("counter_add", 24, (Param("counter", None, enum="counter"), Param("n", 1, -20, 20)), V,
           "Add n to an issue counter (e.g. gold); the issue's loss check follows.",
           phrase="{n:add_or_remove} {counter}"),
    OpSpec("heal_villain", 25, (_N1,), V, "Remove n damage from the villain.",
           phrase="remove {n} damage from the villain"),
    OpSpec("villain_move", 26, (_N1, Param("toward", "any", enum="toward")), V,
           "The villain figure (Showdown side, on the map) moves n spaces like an enemy: "
           "toward the nearest hero or bystander, passing through figures.",
           phrase="the villain moves {n} toward the nearest {toward:toward}"),
    # activate-only
    OpSpec("enemy_move", 27, (_N1, Param("toward", "any", enum="toward")), A,
           "This enemy moves n toward the nearest hero or bystander (toward: any, hero, "
           "bystander).",
           phrase="move {n} toward the nearest {toward:toward}"),
    OpSpec("inflict", 28, (Param("bonus", 0, 0, 10),), A,
           "This enemy inflicts (inflict value + bonus) on a nearby hero.",
           phrase="inflict{bonus:bonus} on a nearby hero"),
    OpSpec("inflict_owner", 29, (Param("bonus", 0, 0, 10),), A,
           "This enemy inflicts the owner wherever they are.",
           phrase="inflict{bonus:bonus} on the owner"),
    # control flow (written as {op: if, count: ..., at_least: N, then: [...]})
    OpSpec("if", 30, (Param("count", None, enum="count"), Param("at_least", 1, -20, 40),
                      Param("skip", 0, 0, 40)), ANY,
           "Run the ``then`` ops only when the counted quantity is at least at_least.",
           phrase=""),
    OpSpec("fortify", 32, (_N1, Param("target", "villain", enum="fortify")), V,
           "Until the end of the round the villain (target: villain) or every lackey "
           "(target: lackeys) has +n defense.",
           phrase="until the end of the round {target:fortified} +{n} defense"),
    # hero forms (a Hero card with a pilot side and a mech side, see docs/content_format.md)
    OpSpec("board_mech", 33, (Param("range", 0, 0, 12),), H,
           "On your pilot side: board your mech, flipping your Hero card to its mech side "
           "(no focus spent). The pilot's damage is set aside and the mech starts undamaged. "
           "With range > 0 the mech arrives in a space you choose within range of the pilot "
           "(your own space included), and you stand there. Does nothing in the mech.",
           phrase="board your mech{range:lands_within}"),
    OpSpec("eject", 34, (), H,
           "In your mech: leave it. The mech and its damage go back beside your play area, "
           "your Hero card flips to its pilot side and the pilot's set-aside damage returns; "
           "the pilot token stays in your space. Does nothing on the pilot side.",
           phrase="leave your mech (back to the pilot)"),
    # allies (an Ally card's ability; see docs/content_format.md)
    OpSpec("ally_move", 35, (Param("n", 2, 1, 12),), AL,
           "Your ally figure moves to an empty map space within n spaces of it (not into "
           "a scheme panel); it may stay where it is.",
           phrase="your ally moves up to {n}"),
    OpSpec("ally_attack", 36, (Param("range", 1, 1, 12),), AL,
           "Your ally Attacks a space within range of its figure: no dice, its attack value "
           "is dealt as damage among the enemies there (defense applies to each).",
           phrase="your ally attacks a space within {range} of it (attack value, no dice)"),
    OpSpec("ally_solve", 37, (Param("range", 1, 1, 12),), AL,
           "Your ally Solves a space within range of its figure: no dice, its solve value "
           "is placed as justice among the problems there (captured bystanders included); "
           "nearby enemies do not inflict.",
           phrase="your ally solves at a space within {range} of it (solve value, no dice)"),
    OpSpec("move_away", 31, (_N1, Param("who", "active", enum="who"),
                             Param("from", "villain", enum="away")), V,
           "Forced movement: the chosen heroes move up to n spaces, each step farther from "
           "the villain (or from this card's figure); a hero who cannot, stops.",
           phrase="{who:who} moves up to {n} away from {from:away_from}"),
)

OP_BY_NAME = {op.name: op for op in OPS}
# The ops a hero's cards use, in the order of the observation's card-effect features
# (``obs_features`` own_cards); ``HERO_OP_AMOUNT`` says how each one's size is read.
HERO_OPS = ("gain_focus", "draw", "gain_clue", "heal", "damage_enemy", "justice", "move",
            "attack", "solve", "place", "rescue", "exhaust_threat", "prevent", "board_mech",
            "eject")
AMOUNT_N, AMOUNT_DICE, AMOUNT_ONE = 0, 1, 2  # a (its n); 1 + a (extra dice); 1
HERO_OP_AMOUNT = tuple(
    AMOUNT_DICE if name in ("attack", "solve")
    else AMOUNT_N if OP_BY_NAME[name].params and OP_BY_NAME[name].params[0].name == "n"
    else AMOUNT_ONE for name in HERO_OPS)
N_CONTENT_OPS = max(op.code for op in OPS) + 1  # content codes are 1 .. N_CONTENT_OPS - 1


def _code(name: str) -> int:
    return OP_BY_NAME[name].code


# The codes as module constants for the kernels (numba freezes them at compile time).
# ``OPS`` above is the one place a code is chosen; tests/test_op_codes.py ties these names,
# the codes and the interpreter's dispatch together.
OP_GAIN_FOCUS = _code("gain_focus")
OP_DRAW = _code("draw")
OP_GAIN_CLUE = _code("gain_clue")
OP_HEAL = _code("heal")
OP_DAMAGE_ENEMY = _code("damage_enemy")
OP_JUSTICE = _code("justice")
OP_MOVE = _code("move")
OP_ATTACK = _code("attack")
OP_SOLVE = _code("solve")
OP_PLACE = _code("place")
OP_RESCUE = _code("rescue")
OP_EXHAUST_THREAT = _code("exhaust_threat")
OP_PREVENT = _code("prevent")
OP_PLACE_MINIONS = _code("place_minions")
OP_PLACE_BYSTANDERS = _code("place_bystanders")
OP_CAPTURE = _code("capture_bystanders")
OP_DEFEAT_BYSTANDERS = _code("defeat_bystanders")
OP_SCHEME = _code("scheme")
OP_ADVANCE = _code("advance")
OP_VILLAIN_INFLICT = _code("villain_inflict")
OP_DAMAGE_HERO = _code("damage_hero")
OP_DISCARD_OR_DAMAGE = _code("discard_or_damage")
OP_CRISIS = _code("crisis")
OP_COUNTER_ADD = _code("counter_add")
OP_HEAL_VILLAIN = _code("heal_villain")
OP_VILLAIN_MOVE = _code("villain_move")
OP_ENEMY_MOVE = _code("enemy_move")
OP_INFLICT = _code("inflict")
OP_INFLICT_OWNER = _code("inflict_owner")
OP_IF = _code("if")
OP_MOVE_AWAY = _code("move_away")
OP_FORTIFY = _code("fortify")
OP_BOARD_MECH = _code("board_mech")
OP_EJECT = _code("eject")
OP_ALLY_MOVE = _code("ally_move")
OP_ALLY_ATTACK = _code("ally_attack")
OP_ALLY_SOLVE = _code("ally_solve")
