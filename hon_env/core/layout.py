"""Game state layout: one ``int32`` row per game, every field a fixed column range.

The batched state is a single matrix ``state[B, STATE_LEN]``. Each named field below owns
a contiguous slice of a row; ``field_view(state, name)`` returns it as a ``[B, ...]`` view,
so the state is a structure of arrays with a leading batch axis while copying, saving and
restoring a game stays a row copy. Kernels address fields by the integer constants
defined here (numba freezes module-level ints as compile-time constants).

Encodings use ``-1`` for "none/empty". Card zones:

    L_DECK 0  L_HAND 1  L_PLAY 2  L_DISCARD 3  L_REMOVED 4  L_THREAT 5  L_PENDING 6
    L_MULLIGAN 7 (marked to go back during the opening mulligan)  L_ATTACHED 8
    L_BOARD 9 (a bystander character's token on the map or captured in a panel)
"""

from __future__ import annotations

import numpy as np

from hon_env.content.tables import (
    CLUE_DECK,
    CLUE_LIST,
    DECK_CRISES,
    HERO_DECK,
    IDECK,
    MAX_CRISES,
    MAX_HEROES,
    MAX_PANELS,
    MAX_SPACES,
    N_SBE,
    NEMESES,
    SPECIAL_BYSTANDERS,
    SPECIAL_MINIONS,
    VDECK,
)

STACK_DEPTH = 96  # interpreter stack entries per game
STACK_W = 6  # entry = (op, a, b, c, hero, src)
N_EVENTS = 16
SBY_QUEUE_CAP = 16  # special bystander programs waiting for the interpreter (see SBY_QUEUE)

# --- target numbering (cards and tokens an Attack/Solve/effect can pick)
#   [0, 29)   T_V0 + i       villain deck card i
#   [29, 43)  T_I0 + i       issue deck card i (Scheme cards first)
#   43        T_VILLAIN      the Villain card
#   [44, 46)  T_NEM0 + k     nemesis slot k
#   46        T_MINION       the minions of the target space's panel
#   47        T_CAPTURED     the captured bystanders of the target space's panel
#   [48, 54)  T_ALLY0 + h    the ally of seat h (Allies rule; who suffers an inflict)
#   [54, 58)  T_CRISIS0 + k  crisis card k (Crisis Cards rule) with a danger value, at its token
T_V0 = 0
T_I0 = VDECK
T_VILLAIN = VDECK + IDECK
T_NEM0 = T_VILLAIN + 1
T_MINION = T_NEM0 + NEMESES
T_CAPTURED = T_MINION + 1
T_ALLY0 = T_CAPTURED + 1
T_CRISIS0 = T_ALLY0 + MAX_HEROES  # crisis targets come last (checks use t >= T_CRISIS0)
N_TARGETS = T_CRISIS0 + MAX_CRISES
ALLY_BIT = 8  # in a D_PICK_HERO seat mask, bit ALLY_BIT + h stands for seat h's ally
LATCH_OPEN = 1  # CRISIS_LATCH: inside an effect that has caused no crisis yet
LATCH_SPENT = 2  # CRISIS_LATCH: inside an effect that already caused its crisis
THREAT_RUNNING = 1  # HTHREAT_DONE: the threat phase is taken or under way
THREAT_OWED = 2  # HTHREAT_DONE: defeated inside an effect, the phase follows its end

FIELDS: dict[str, tuple[int, tuple[int, ...]]] = {}
_cursor = 0


def _field(name: str, *shape: int) -> int:
    """Reserve ``prod(shape)`` columns for ``name`` and return its first column."""
    global _cursor
    size = int(np.prod(shape)) if shape else 1
    FIELDS[name] = (_cursor, shape)
    start = _cursor
    _cursor += size
    return start



# --- bookkeeping
RNG = _field("rng", 4)  # xoshiro128** words (uint32 stored as int32)
ROUND = _field("round")  # rounds started (1 in the first round)
TURN = _field("turn")  # TURN_*: which part of the round is running
OUTCOME = _field("outcome")  # OUT_*
LOSS_REASON = _field("loss_reason")  # LOSS_*
DECISIONS = _field("decisions")  # decisions answered so far
SP = _field("sp")  # interpreter stack pointer (entries in use)
STACK = _field("stack", STACK_DEPTH, STACK_W)
# --- the pending decision
DEC_KIND = _field("dec_kind")  # D_* (D_NONE when the game is over)
DEC_HERO = _field("dec_hero")  # seat that decides
DEC_A = _field("dec_a")  # decision context (see masks.py for each kind)
DEC_B = _field("dec_b")
CHOICE = _field("choice")  # the answer being applied, -1 when none
# --- hero turn
ACTOR = _field("actor")  # seat holding the initiative in the hero turn
ACTIVE = _field("active")  # the active hero for villain/issue effects
# The effect resolving now: 0 none (every crisis cause counts), LATCH_OPEN it has caused no
# crisis yet, LATCH_SPENT it has (rulebook: one crisis per card or effect).
CRISIS_LATCH = _field("crisis_latch")
CRISIS_DEPTH = _field("crisis_depth")  # >0 while crisis effects resolve (no nested crises)
# villain and issue cards with the Crisis trait in the issue play area (L_ISSUE_AREA), as
# targets (T_V0 + i / T_I0 + i) in the order they arrived, left to right
CRISIS_AREA = _field("crisis_area", DECK_CRISES)
CRISIS_AREA_N = _field("crisis_area_n")
# --- villain
VIL_SIDE = _field("vil_side")  # 0 Scheming, 1 Showdown
VIL_HIDDEN = _field("vil_hidden")  # hidden tokens on the Villain card
VIL_JUSTICE = _field("vil_justice")
VIL_DAMAGE = _field("vil_damage")
VIL_LOC = _field("vil_loc")  # space of the figure (the panel's scheme space while in a panel)
VIL_IN_PANEL = _field("vil_in_panel")  # 1 while the figure stands in a scheme panel
VIL_OWNER = _field("vil_owner")  # seat whose threat area holds the Showdown card, -1
VIL_EXH = _field("vil_exh")  # Villain card exhausted (only possible in a threat area)
VIL_HEALTH = _field("vil_health")  # Showdown health for this hero count
VIL_DANGER = _field("vil_danger")  # Scheming danger for this hero count
# --- nemeses: slot k is target T_NEM0 + k (rulebook: Playing with 5-6 Players, Nemeses)
NEM_CARD = _field("nem_card", NEMESES)  # row of Tables.nemesis in this slot, -1 unused
NEM_OWNER = _field("nem_owner", NEMESES)  # seat whose threat area holds it; -1 unused/defeated
NEM_SIDE = _field("nem_side", NEMESES)  # 0 Scheme side, 1 enemy side
NEM_POS = _field("nem_pos", NEMESES)  # figure's space (scheming: its panel's scheme space), -1
NEM_DMG = _field("nem_dmg", NEMESES)
NEM_JUST = _field("nem_just", NEMESES)
NEM_EXH = _field("nem_exh", NEMESES)  # exhausted (readies instead of activating)
# --- crisis cards (Crisis Cards rule): slot k is Tables.crisis row k and target T_CRISIS0 + k
CRISIS_POS = _field("crisis_pos", MAX_CRISES)  # crisis token space; -1 none or solved
CRISIS_JUST = _field("crisis_just", MAX_CRISES)  # justice on it (0 once solved)
CRISIS_OUT = _field("crisis_out", MAX_CRISES)  # 1: solved and left play (no more Crisis effect)
# --- supplies and board tokens
MINION_SUPPLY = _field("minion_supply")
BYSTANDER_SUPPLY = _field("bystander_supply")
BYSTANDERS_DEFEATED = _field("bystanders_defeated")
MINIONS = _field("minions", MAX_PANELS + 1)  # minions in panel k (index 0 unused)
# Special Minions rule: MINION_SUPPLY and MINIONS count every minion; these say how many of
# them belong to special Minion card j (Tables.smin row j). Column p * SPECIAL_MINIONS + j.
SMIN_SUPPLY = _field("smin_supply", SPECIAL_MINIONS)  # card j's minions in the supply
SMIN = _field("smin", MAX_PANELS + 1, SPECIAL_MINIONS)  # card j's minions in panel p
SMIN_DMG = _field("smin_dmg", MAX_PANELS + 1, SPECIAL_MINIONS)  # damage on one of them
CAPTURED = _field("captured", MAX_PANELS + 1)  # captured bystanders in panel k
BYSTANDER_ON = _field("bystander_on", MAX_SPACES)  # 1: bystander token on that map space
# Special Bystanders rule: the four fields above count every bystander token; these say which
# of them are special Bystander card j's figures (Tables.sby row j). core/bystanders.py
# keeps both in step. SBY_CAPT column p * SPECIAL_BYSTANDERS + j.
SBY_SUPPLY = _field("sby_supply", SPECIAL_BYSTANDERS)  # card j's figures in the supply
SBY_ON = _field("sby_on", MAX_SPACES)  # card j of the figure on that map space; -1 normal/none
SBY_CAPT = _field("sby_capt", MAX_PANELS + 1, SPECIAL_BYSTANDERS)  # card j's captives in p
SBY_DEFEATED = _field("sby_defeated", SPECIAL_BYSTANDERS)  # card j's figures out of the game
SBY_EVENTS = _field("sby_events", SPECIAL_BYSTANDERS, N_SBE)  # times rescued/captured/defeated
SBY_QN = _field("sby_qn")  # entries in SBY_QUEUE
# (program, hero) of card effects queued by rescues, captures and defeats; interp.run pushes
# them before the next op, so a rule helper never writes the interpreter stack itself
SBY_QUEUE = _field("sby_queue", SBY_QUEUE_CAP, 2)
COUNTERS = _field("counters", 4)  # issue counters (e.g. gold)
# --- the dice roll in progress (attacks and solves do not nest)
ROLL_KIND = _field("roll_kind")  # 0 none, 1 Attack, 2 Solve
ROLL_HERO = _field("roll_hero")
ROLL_SPACE = _field("roll_space")  # target space
ROLL_DICE = _field("roll_dice")  # dice gathered
ROLL_SUCC = _field("roll_succ")  # successes not yet spent
ROLL_FOCUS = _field("roll_focus")  # focus results not yet spent
ROLL_SHOWDOWN = _field("roll_showdown")  # villain card drawn for the Showdown reaction, -1
ASSIGN = _field("assign", N_TARGETS)  # successes assigned per target (T_* numbering)
# --- clue deck
CLUE_N = _field("clue_n")  # cards left in the clue deck
CLUE_ORDER = _field("clue_order", CLUE_DECK)  # deck order, top = index clue_n-1
CLUE_LOC = _field("clue_loc", CLUE_DECK)  # -1 deck, -2 discard, -3 not in the game, else seat
# --- villain deck
VDECK_N = _field("vdeck_n")
VDECK_ORDER = _field("vdeck_order", VDECK)
VLOC = _field("vloc", VDECK)  # L_*
VOWNER = _field("vowner", VDECK)  # seat of the threat area, -1
VPOS = _field("vpos", VDECK)  # lackey figure / peril token space, -1
VDMG = _field("vdmg", VDECK)
VJUST = _field("vjust", VDECK)
VEXH = _field("vexh", VDECK)
VATTACH = _field("vattach", VDECK)  # host target (T_*) of an attached card, -1
# --- issue deck (Scheme cards first)
IDECK_N = _field("ideck_n")
IDECK_ORDER = _field("ideck_order", IDECK)
ILOC = _field("iloc", IDECK)
IOWNER = _field("iowner", IDECK)
IPOS = _field("ipos", IDECK)  # space the card is solved/attacked at, -1
IDMG = _field("idmg", IDECK)
IJUST = _field("ijust", IDECK)
IEXH = _field("iexh", IDECK)
ISIDE = _field("iside", IDECK)  # 0 front (Scheme side), 1 flipped
# --- heroes
HLOC = _field("hloc", MAX_HEROES)  # space; a scheme space means "in that panel"; -1 off board
HDMG = _field("hdmg", MAX_HEROES)
HFOCUS = _field("hfocus", MAX_HEROES)
HSIDE = _field("hside", MAX_HEROES)  # 0 normal, 1 Focused (a hero with forms: 0 pilot, 1 mech)
HPILOT_DMG = _field("hpilot_dmg", MAX_HEROES)  # pilot's damage set aside while in the mech, else 0
HACTIONS = _field("hactions", MAX_HEROES)  # action tokens left this hero turn
HYIELDS = _field("hyields", MAX_HEROES)  # initiative yields used this hero turn
# 0: the hero's threat phase is still to come this hero turn; THREAT_RUNNING: taken or under
# way; THREAT_OWED: defeated, it runs when the effect that defeated them ends
HTHREAT_DONE = _field("hthreat_done", MAX_HEROES)
HDEFEATED = _field("hdefeated", MAX_HEROES)  # 1: defeated, waiting to return at turn end
HEXH = _field("hexh", MAX_HEROES)  # Hero card exhausted
HDECK_N = _field("hdeck_n", MAX_HEROES)
HDECK_ORDER = _field("hdeck_order", MAX_HEROES, HERO_DECK)
HCLOC = _field("hcloc", MAX_HEROES, HERO_DECK)  # L_* of each hero card
HCEXH = _field("hcexh", MAX_HEROES, HERO_DECK)
ALLY_LOC = _field("ally_loc", MAX_HEROES)  # map space of seat h's ally figure; -1 none/defeated
ALLY_DMG = _field("ally_dmg", MAX_HEROES)
ALLY_EXH = _field("ally_exh", MAX_HEROES)  # the Ally card is exhausted
ROLL_ALLY = _field("roll_ally")  # 1 while the Attack/Solve being resolved is an ally's
DICE_N = _field("dice_n")  # forced die faces still queued (tests and tutorials)
DICE_QUEUE = _field("dice_queue", 32)  # faces used before the generator, first first
DEF_BONUS = _field("def_bonus", 2)  # defense added this round: [0] villain, [1] lackeys
EVENTS = _field("events", N_EVENTS)  # EV_* counters for info and reward shaping

STATE_LEN = _cursor

# --- enumerations
TURN_SETUP, TURN_VILLAIN, TURN_HERO, TURN_ISSUE, TURN_OVER = 0, 1, 2, 3, 4
OUT_ONGOING, OUT_WIN, OUT_LOSS, OUT_TRUNCATED = 0, 1, 2, 3
OUTCOME_NAMES = ("ongoing", "win", "loss", "truncated")
LOSS_NONE, LOSS_ISSUE_DECK, LOSS_COUNTER, LOSS_CAP_ROUNDS, LOSS_CAP_DECISIONS = 0, 1, 2, 3, 4
LOSS_ILLEGAL = 5  # set by front ends in "penalize" mode, never by the engine
LOSS_REASON_NAMES = ("", "issue_deck_empty", "villain_objective", "round_cap", "decision_cap",
                     "illegal_action")

(L_DECK, L_HAND, L_PLAY, L_DISCARD, L_REMOVED, L_THREAT, L_PENDING, L_MULLIGAN, L_ATTACHED,
 L_BOARD, L_ISSUE_AREA) = range(11)
ZONE_NAMES = ("deck", "hand", "play", "discard", "removed", "threat", "pending", "mulligan",
              "attached", "board", "issue_area")

# event counters
EV_DAMAGE_DEALT = 0  # damage dealt by heroes to enemies
EV_JUSTICE = 1  # justice placed by heroes
EV_RESCUES = 2
EV_ENEMIES_DEFEATED = 3
EV_PROBLEMS_SOLVED = 4
EV_SCHEMES_SOLVED = 5
EV_HERO_DAMAGE = 6  # damage suffered by heroes
EV_HERO_DEFEATS = 7
EV_CRISES = 8
EV_CAPTURES = 9
EV_BYSTANDERS_DEFEATED = 10
EV_VILLAIN_ADVANCES = 11
EV_CLUES = 12
EV_MECH_WRECKS = 13  # a mech side reached its health: the mech was wrecked, the pilot stays
EV_ALLY_DEFEATS = 14  # an ally was defeated and left the game
EVENT_NAMES = (
    "damage_dealt", "justice_placed", "rescues", "enemies_defeated", "problems_solved",
    "schemes_solved", "hero_damage", "hero_defeats", "crises", "captures",
    "bystanders_defeated", "villain_advances", "clues_gained", "mech_wrecks", "ally_defeats",
)

# --- the flat action space
#   [0]                 PASS     yield the initiative / end / stop / decline / done
#   [1]                 DRAW     draw 1 card (an action)
#   [2, 66)             SPACE    move one space / place figure / choose a space
#   [66, 130)           ATTACK   attack a target space (an action)
#   [130, 194)          SOLVE    solve at a target space (an action)
#   [194, 214)          PLAY     play hero card i from hand
#   [214, 236)          USE      use the ability of card i in play (20 = the Hero card,
#                                21 = the Ally card)
#   [236, 296)          FEAT     discard card i for feat k (k: 0 mobility 1 strength 2 deduction)
#   [296, 316)          CLUE     use a clue card of list entry i (card i or its copy i + 20)
#   [316]               FOCUS    discard 5 focus to flip to the Focused side
#   [317, 325)          OPTION   choose option k
#   [325, 383)          TARGET   choose target t (T_* numbering)
#   [383, 389)          HERO     choose the hero k seats after you (0 = yourself)
#   [389, 409)          CARD     choose card i of your hand
A_PASS = 0
A_DRAW = 1
A_SPACE = 2
A_ATTACK = A_SPACE + MAX_SPACES
A_SOLVE = A_ATTACK + MAX_SPACES
A_PLAY = A_SOLVE + MAX_SPACES
A_USE = A_PLAY + HERO_DECK
USE_HERO_CARD = HERO_DECK  # USE slot of the Hero card's ability
USE_ALLY_CARD = HERO_DECK + 1  # USE slot of the Ally card's ability
N_USE = HERO_DECK + 2
A_FEAT = A_USE + N_USE
N_FEAT_KINDS = 3
A_CLUE = A_FEAT + HERO_DECK * N_FEAT_KINDS
A_FOCUS = A_CLUE + CLUE_LIST  # copies of one clue card are one action (see masks.py)
A_OPTION = A_FOCUS + 1
N_OPTIONS = 8
A_TARGET = A_OPTION + N_OPTIONS
A_HERO = A_TARGET + N_TARGETS
A_CARD = A_HERO + MAX_HEROES
N_ACTIONS = A_CARD + HERO_DECK

SEGMENTS = (
    ("pass", A_PASS, 1), ("draw", A_DRAW, 1), ("space", A_SPACE, MAX_SPACES),
    ("attack", A_ATTACK, MAX_SPACES), ("solve", A_SOLVE, MAX_SPACES),
    ("play", A_PLAY, HERO_DECK), ("use", A_USE, N_USE),
    ("feat", A_FEAT, HERO_DECK * N_FEAT_KINDS), ("clue", A_CLUE, CLUE_LIST),
    ("focus", A_FOCUS, 1), ("option", A_OPTION, N_OPTIONS), ("target", A_TARGET, N_TARGETS),
    ("hero", A_HERO, MAX_HEROES), ("card", A_CARD, HERO_DECK),
)

# --- decision kinds (what the pending decision asks; see masks.py)
D_NONE = 0
D_MULLIGAN = 1  # CARD: mark a card to send back; PASS: done
D_MAIN = 2  # the actor's hero-turn menu
D_MOVE = 3  # SPACE: next step of a Move (DEC_A steps left); PASS: stop
D_PLACE = 4  # SPACE: where to place your figure (DEC_A range, 0 any; DEC_B 1: your ally's)
D_CUNNING = 5  # OPTION 0: the villain schemes, 1: the villain inflicts
D_CLUE_DICE = 6  # CLUE: discard for bonus dice; PASS: roll
D_FOCUS_SPEND = 7  # OPTION k: spend k focus tokens to convert k focus results
D_ASSIGN = 8  # TARGET: where the next success goes
D_DAMAGE = 9  # CARD: toughness feat; USE: prevent ability; FOCUS: become Focused (hero turn);
#              PASS: suffer DEC_A damage
D_DISCARD_OR_DAMAGE = 10  # CARD: discard it; PASS: suffer DEC_A damage
D_PICK_HERO = 11  # HERO: target of heal / who suffers an inflict (TARGET T_ALLY0 + h: an ally)
D_PICK_TARGET = 12  # TARGET: target of damage_enemy / justice / exhaust_threat
D_ATTACK_SPACE = 13  # ATTACK: target space of a free Attack (DEC_B 1: your ally's Attack)
D_SOLVE_SPACE = 14  # SOLVE: target space of a free Solve (DEC_B 1: your ally's Solve)
D_RESCUE = 15  # SPACE: where to rescue a bystander
DECISION_NAMES = (
    "none", "mulligan", "main", "move", "place", "cunning", "clue_dice", "focus_spend",
    "assign", "damage", "discard_or_damage", "pick_hero", "pick_target", "attack_space",
    "solve_space", "rescue",
)


def field_view(state: np.ndarray, name: str) -> np.ndarray:
    """Return field ``name`` of a ``[B, STATE_LEN]`` state as a ``[B, *shape]`` view."""
    start, shape = FIELDS[name]
    size = int(np.prod(shape)) if shape else 1
    view = state[:, start:start + size]
    return view.reshape((state.shape[0],) + shape) if shape else view[:, 0]
