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

import math

import numpy as np
from numba import njit

from hon_env.spec.tables import (
    CLUE_DECK,
    CLUE_LIST,
    DECK_CRISES,
    HEADLINE_POOL,
    HERO_DECK,
    IDECK,
    MAX_CRISES,
    MAX_DRAFT_POOL,
    MAX_HEADLINES,
    MAX_HEROES,
    MAX_PANELS,
    MAX_SPACES,
    N_EVENTS,
    N_HEV,
    N_SBE,
    NEMESES,
    SPECIAL_BYSTANDERS,
    SPECIAL_MINIONS,
    VCARDS,
    VDECK,
    VILLAINS,
)

STACK_DEPTH = 96  # interpreter stack entries per game
STACK_W = 6  # entry = (op, a, b, c, hero, src)
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
#   [58, 87)  T_W0 + i       the second villain's deck card i (villain card slot VDECK + i)
#   87        T_VILLAIN2     the second Villain card (Two Fronts variant)
# The second villain's targets come after the rulebook's so that every target number and
# action of a one-villain game keeps its value; code that compares targets by order goes
# through is_vcard_target / vcard_of / is_villain_target first.
T_V0 = 0
T_I0 = VDECK
T_VILLAIN = VDECK + IDECK
T_NEM0 = T_VILLAIN + 1
T_MINION = T_NEM0 + NEMESES
T_CAPTURED = T_MINION + 1
T_ALLY0 = T_CAPTURED + 1
T_CRISIS0 = T_ALLY0 + MAX_HEROES  # the rulebook's last targets (checks use t >= T_CRISIS0
#                                   after the second villain's targets are ruled out)
T_W0 = T_CRISIS0 + MAX_CRISES
T_VILLAIN2 = T_W0 + VDECK
N_TARGETS = T_VILLAIN2 + 1
ALLY_BIT = 8  # in a D_PICK_HERO seat mask, bit ALLY_BIT + h stands for seat h's ally
LATCH_OPEN = 1  # CRISIS_LATCH: inside an effect that has caused no crisis yet
LATCH_SPENT = 2  # CRISIS_LATCH: inside an effect that already caused its crisis
THREAT_RUNNING = 1  # HTHREAT_DONE: the threat phase is taken or under way
THREAT_OWED = 2  # HTHREAT_DONE: defeated inside an effect, the phase follows its end

FIELDS: dict[str, tuple[int, tuple[int, ...]]] = {}
# Legal values of every field, declared with the field (``_field(..., lo=, hi=)``) and read
# by ``hon_env/core/validate.py`` before any kernel sees a state from outside:
# name -> (lo, hi, live, seat). Values must lie in ``[lo, hi)``; a ``hi`` (or ``lo``) given
# as a string is a per-scenario limit (``validate.scenario_limits``: "heroes", "spaces",
# "nemesis_pool"). ``live`` names the count field saying how many leading entries are in
# use (only those are checked, and the stack and bystander queue entries get the per-op
# checks of validate.py); ``seat`` marks a per-seat field whose seats past the scenario's
# heroes must keep the value a new game gives them.
RANGES: dict[str, tuple[int | str, int | str, str | None, bool]] = {}
_cursor = 0

I32_MIN, I32_END = -(1 << 31), 1 << 31  # any int32 (RNG words, stack words)
BIG = 1 << 12  # damage, justice, dice and other amounts: far above any real game
TOKENS = 1 << 10  # token counts (supplies, panels)
HUGE = 1 << 24  # counters that grow over a game (decisions, events)
N_ZONES = 11  # card zones L_* below
DICE_CAP = 32  # forced die faces (DICE_QUEUE)


def _field(name: str, *shape: int, lo: int | str = 0, hi: int | str, live: str | None = None,
           seat: bool = False) -> int:
    """Reserve ``prod(shape)`` columns for ``name`` with legal values ``[lo, hi)`` and
    return its first column (see ``RANGES``)."""
    global _cursor
    size = int(np.prod(shape)) if shape else 1
    FIELDS[name] = (_cursor, shape)
    RANGES[name] = (lo, hi, live, seat)
    start = _cursor
    _cursor += size
    return start


# --- bookkeeping
RNG = _field("rng", 4, lo=I32_MIN, hi=I32_END)  # xoshiro128** words (uint32 stored as int32)
ROUND = _field("round", hi=BIG)  # rounds started (1 in the first round)
TURN = _field("turn", hi=5)  # TURN_*: which part of the round is running
OUTCOME = _field("outcome", hi=4)  # OUT_*
LOSS_REASON = _field("loss_reason", hi=6)  # LOSS_*
DECISIONS = _field("decisions", hi=HUGE)  # decisions answered so far
SP = _field("sp", hi=STACK_DEPTH + 1)  # interpreter stack pointer (entries in use)
STACK = _field("stack", STACK_DEPTH, STACK_W, lo=I32_MIN, hi=I32_END, live="sp")
# --- the pending decision
# D_* (D_NONE when the game is over); its bound is set with DECISION_NAMES below
DEC_KIND = _field("dec_kind", hi=1)
DEC_HERO = _field("dec_hero", hi="deciders")  # seat that decides (VILLAIN_SEAT: the villain)
DEC_A = _field("dec_a", lo=-1, hi=BIG)  # decision context (see masks.py for each kind)
DEC_B = _field("dec_b", lo=-1, hi=BIG)
CHOICE = _field("choice", lo=-1, hi=0)  # the answer being applied, -1 when none
# --- hero turn
ACTOR = _field("actor", hi="heroes")  # seat holding the initiative in the hero turn
ACTIVE = _field("active", hi="heroes")  # the active hero for villain/issue effects
# The effect resolving now: 0 none (every crisis cause counts), LATCH_OPEN it has caused no
# crisis yet, LATCH_SPENT it has (rulebook: one crisis per card or effect).
CRISIS_LATCH = _field("crisis_latch", hi=LATCH_SPENT + 1)
CRISIS_DEPTH = _field("crisis_depth", hi=64)  # >0 while crisis effects resolve (no nested crises)
# villain and issue cards with the Crisis trait in the issue play area (L_ISSUE_AREA), as
# targets (T_V0 + i / T_I0 + i) in the order they arrived, left to right
CRISIS_AREA = _field("crisis_area", DECK_CRISES, hi=N_TARGETS, live="crisis_area_n")
CRISIS_AREA_N = _field("crisis_area_n", hi=DECK_CRISES + 1)
# --- villain
VIL_SIDE = _field("vil_side", hi=2)  # 0 Scheming, 1 Showdown
VIL_HIDDEN = _field("vil_hidden", hi=64)  # hidden tokens on the Villain card
VIL_JUSTICE = _field("vil_justice", hi=BIG)
VIL_DAMAGE = _field("vil_damage", hi=BIG)
# space of the figure (the panel's scheme space while in a panel)
VIL_LOC = _field("vil_loc", hi="spaces")
VIL_IN_PANEL = _field("vil_in_panel", hi=2)  # 1 while the figure stands in a scheme panel
# seat whose threat area holds the Showdown card, -1
VIL_OWNER = _field("vil_owner", lo=-1, hi="heroes")
VIL_EXH = _field("vil_exh", hi=2)  # Villain card exhausted (only possible in a threat area)
VIL_HEALTH = _field("vil_health", hi=BIG)  # Showdown health for this hero count
VIL_DANGER = _field("vil_danger", hi=BIG)  # Scheming danger for this hero count
# --- nemeses: slot k is target T_NEM0 + k (rulebook: Playing with 5-6 Players, Nemeses)
# row of Tables.nemesis in this slot, -1 unused
NEM_CARD = _field("nem_card", NEMESES, lo=-1, hi="nemesis_pool")
# seat whose threat area holds it; -1 unused/defeated
NEM_OWNER = _field("nem_owner", NEMESES, lo=-1, hi="heroes")
NEM_SIDE = _field("nem_side", NEMESES, hi=2)  # 0 Scheme side, 1 enemy side
# figure's space (scheming: its panel's scheme space), -1
NEM_POS = _field("nem_pos", NEMESES, lo=-1, hi="spaces")
NEM_DMG = _field("nem_dmg", NEMESES, hi=BIG)
NEM_JUST = _field("nem_just", NEMESES, hi=BIG)
NEM_EXH = _field("nem_exh", NEMESES, hi=2)  # exhausted (readies instead of activating)
# --- crisis cards (Crisis Cards rule): slot k is Tables.crisis row k and target T_CRISIS0 + k
# crisis token space; -1 none or solved
CRISIS_POS = _field("crisis_pos", MAX_CRISES, lo=-1, hi="spaces")
CRISIS_JUST = _field("crisis_just", MAX_CRISES, hi=BIG)  # justice on it (0 once solved)
# 1: solved and left play (no more Crisis effect)
CRISIS_OUT = _field("crisis_out", MAX_CRISES, hi=2)
# --- supplies and board tokens
MINION_SUPPLY = _field("minion_supply", hi=TOKENS)
BYSTANDER_SUPPLY = _field("bystander_supply", hi=TOKENS)
BYSTANDERS_DEFEATED = _field("bystanders_defeated", hi=TOKENS)
MINIONS = _field("minions", MAX_PANELS + 1, hi=TOKENS)  # minions in panel k (index 0 unused)
# Special Minions rule: MINION_SUPPLY and MINIONS count every minion; these say how many of
# them belong to special Minion card j (Tables.smin row j). Column p * SPECIAL_MINIONS + j.
SMIN_SUPPLY = _field("smin_supply", SPECIAL_MINIONS, hi=TOKENS)  # card j's minions in the supply
SMIN = _field("smin", MAX_PANELS + 1, SPECIAL_MINIONS, hi=TOKENS)  # card j's minions in panel p
SMIN_DMG = _field("smin_dmg", MAX_PANELS + 1, SPECIAL_MINIONS, hi=BIG)  # damage on one of them
CAPTURED = _field("captured", MAX_PANELS + 1, hi=TOKENS)  # captured bystanders in panel k
BYSTANDER_ON = _field("bystander_on", MAX_SPACES, hi=2)  # 1: bystander token on that map space
# Special Bystanders rule: the four fields above count every bystander token; these say which
# of them are special Bystander card j's figures (Tables.sby row j). core/bystanders.py
# keeps both in step. SBY_CAPT column p * SPECIAL_BYSTANDERS + j.
SBY_SUPPLY = _field("sby_supply", SPECIAL_BYSTANDERS, hi=TOKENS)  # card j's figures in the supply
# card j of the figure on that map space; -1 normal/none
SBY_ON = _field("sby_on", MAX_SPACES, lo=-1, hi=SPECIAL_BYSTANDERS)
# card j's captives in p
SBY_CAPT = _field("sby_capt", MAX_PANELS + 1, SPECIAL_BYSTANDERS, hi=TOKENS)
# card j's figures out of the game
SBY_DEFEATED = _field("sby_defeated", SPECIAL_BYSTANDERS, hi=TOKENS)
# times rescued/captured/defeated
SBY_EVENTS = _field("sby_events", SPECIAL_BYSTANDERS, N_SBE, hi=HUGE)
SBY_QN = _field("sby_qn", hi=SBY_QUEUE_CAP + 1)  # entries in SBY_QUEUE
# (program, hero) of card effects queued by rescues, captures and defeats; interp.run pushes
# them before the next op, so a rule helper never writes the interpreter stack itself
SBY_QUEUE = _field("sby_queue", SBY_QUEUE_CAP, 2, lo=I32_MIN, hi=I32_END, live="sby_qn")
COUNTERS = _field("counters", 4, lo=-HUGE, hi=HUGE)  # issue counters (e.g. gold)
# --- the dice roll in progress (attacks and solves do not nest)
ROLL_KIND = _field("roll_kind", hi=3)  # 0 none, 1 Attack, 2 Solve
ROLL_HERO = _field("roll_hero", hi="heroes")
ROLL_SPACE = _field("roll_space", hi="spaces")  # target space
ROLL_DICE = _field("roll_dice", hi=BIG)  # dice gathered
ROLL_SUCC = _field("roll_succ", hi=BIG)  # successes not yet spent
ROLL_FOCUS = _field("roll_focus", hi=BIG)  # focus results not yet spent
# villain card drawn for the Showdown reaction, -1
ROLL_SHOWDOWN = _field("roll_showdown", lo=-1, hi=VCARDS)  # either villain's card slot
ASSIGN = _field("assign", N_TARGETS, hi=BIG)  # successes assigned per target (T_* numbering)
# --- clue deck
CLUE_N = _field("clue_n", hi=CLUE_DECK + 1)  # cards left in the clue deck
CLUE_ORDER = _field("clue_order", CLUE_DECK, hi=CLUE_DECK)  # deck order, top = index clue_n-1
# -1 deck, -2 discard, -3 not in the game, else seat
CLUE_LOC = _field("clue_loc", CLUE_DECK, lo=-3, hi="heroes")
# --- villain deck (the first villain's; the second's order is VDECK2_* at the end)
VDECK_N = _field("vdeck_n", hi=VDECK + 1)
VDECK_ORDER = _field("vdeck_order", VDECK, hi=VDECK)
# villain cards c < VDECK are the first villain's, the rest the second's (Two Fronts; they
# are L_REMOVED with one villain)
VLOC = _field("vloc", VCARDS, hi=N_ZONES)  # L_*
VOWNER = _field("vowner", VCARDS, lo=-1, hi="heroes")  # seat of the threat area, -1
VPOS = _field("vpos", VCARDS, lo=-1, hi="spaces")  # lackey figure / peril token space, -1
VDMG = _field("vdmg", VCARDS, hi=BIG)
VJUST = _field("vjust", VCARDS, hi=BIG)
VEXH = _field("vexh", VCARDS, hi=2)
# host target (T_*) of an attached card, -1
VATTACH = _field("vattach", VCARDS, lo=-1, hi=N_TARGETS)
# --- issue deck (Scheme cards first)
IDECK_N = _field("ideck_n", hi=IDECK + 1)
IDECK_ORDER = _field("ideck_order", IDECK, hi=IDECK)
ILOC = _field("iloc", IDECK, hi=N_ZONES)
IOWNER = _field("iowner", IDECK, lo=-1, hi="heroes")
IPOS = _field("ipos", IDECK, lo=-1, hi="spaces")  # space the card is solved/attacked at, -1
IDMG = _field("idmg", IDECK, hi=BIG)
IJUST = _field("ijust", IDECK, hi=BIG)
IEXH = _field("iexh", IDECK, hi=2)
ISIDE = _field("iside", IDECK, hi=2)  # 0 front (Scheme side), 1 flipped
# --- heroes
# space; a scheme space means "in that panel"; -1 off board
HLOC = _field("hloc", MAX_HEROES, lo=-1, hi="spaces", seat=True)
HDMG = _field("hdmg", MAX_HEROES, hi=BIG, seat=True)
HFOCUS = _field("hfocus", MAX_HEROES, hi=BIG, seat=True)
# 0 normal, 1 Focused (a hero with forms: 0 pilot, 1 mech)
HSIDE = _field("hside", MAX_HEROES, hi=2, seat=True)
# pilot's damage set aside while in the mech, else 0
HPILOT_DMG = _field("hpilot_dmg", MAX_HEROES, hi=BIG, seat=True)
HACTIONS = _field("hactions", MAX_HEROES, hi=64, seat=True)  # action tokens left this hero turn
HYIELDS = _field("hyields", MAX_HEROES, hi=64, seat=True)  # initiative yields used this hero turn
# 0: the hero's threat phase is still to come this hero turn; THREAT_RUNNING: taken or under
# way; THREAT_OWED: defeated, it runs when the effect that defeated them ends
HTHREAT_DONE = _field("hthreat_done", MAX_HEROES, hi=THREAT_OWED + 1, seat=True)
# 1: defeated, waiting to return at turn end
HDEFEATED = _field("hdefeated", MAX_HEROES, hi=2, seat=True)
HEXH = _field("hexh", MAX_HEROES, hi=2, seat=True)  # Hero card exhausted
HDECK_N = _field("hdeck_n", MAX_HEROES, hi=HERO_DECK + 1, seat=True)
HDECK_ORDER = _field("hdeck_order", MAX_HEROES, HERO_DECK, hi=HERO_DECK, seat=True)
HCLOC = _field("hcloc", MAX_HEROES, HERO_DECK, hi=N_ZONES, seat=True)  # L_* of each hero card
HCEXH = _field("hcexh", MAX_HEROES, HERO_DECK, hi=2, seat=True)
# map space of seat h's ally figure; -1 none/defeated
ALLY_LOC = _field("ally_loc", MAX_HEROES, lo=-1, hi="spaces", seat=True)
ALLY_DMG = _field("ally_dmg", MAX_HEROES, hi=BIG, seat=True)
ALLY_EXH = _field("ally_exh", MAX_HEROES, hi=2, seat=True)  # the Ally card is exhausted
ROLL_ALLY = _field("roll_ally", hi=2)  # 1 while the Attack/Solve being resolved is an ally's
DICE_N = _field("dice_n", hi=DICE_CAP + 1)  # forced die faces still queued (tests and tutorials)
# faces used before the generator, first first
DICE_QUEUE = _field("dice_queue", DICE_CAP, hi=6, live="dice_n")
# defense added this round: [0] villain, [1] lackeys
DEF_BONUS = _field("def_bonus", 2, lo=-BIG, hi=BIG)
EVENTS = _field("events", N_EVENTS, hi=HUGE)  # EV_* counters for info and reward shaping
# --- engine errors: a kernel meeting an impossible situation records an ERR_* code here
# and stops this game's interpreter instead of raising (one broken game never stops a
# batch). The others say where: the op on top of the stack, and the decision kind, seat
# and action being answered. A state from outside must carry no error (all zero).
ERROR = _field("error", hi=1)
ERROR_OP = _field("error_op", hi=1)
ERROR_DEC = _field("error_dec", hi=1)
ERROR_SEAT = _field("error_seat", hi=1)
ERROR_ACTION = _field("error_action", hi=1)
# --- the Fame variant (core/fame.py): who did what, kept in every game; fame changes no rule
# per-hero counters: column EV_* counts that event for the hero who did it (the attributable
# ones, HERO_EVENTS), then the HV_* columns
HEV = _field("hev", MAX_HEROES, N_HEV, hi=HUGE, seat=True)
FAME = _field("fame", MAX_HEROES, lo=-HUGE, hi=HUGE, seat=True)  # fame so far (awards at the end)
HEADLINE = _field("headline", MAX_HEADLINES, lo=-1, hi=HEADLINE_POOL)  # Tables.headline row, -1
# order in which each seat finished each headline (1 first), 0 not yet
HEADLINE_RANK = _field("headline_rank", MAX_HEADLINES, MAX_HEROES, hi=MAX_HEROES + 1)
HEADLINE_DONE = _field("headline_done", MAX_HEADLINES, hi=MAX_HEROES + 1)  # finishers so far
# --- per-game content (core/teams.py): the row of the tables the game plays, in a vector env
# whose games draw their scenario from a pool; always 0 for a single game
TEAM = _field("team", hi="tables")
# --- the second villain (Two Fronts variant, core/two_fronts.py; untouched with one villain)
# Its Villain-card fields, in the order of the first villain's VIL_SIDE..VIL_DANGER, so
# villain v's copy of field F is column F + v * VIL_STRIDE.
VIL2_SIDE = _field("vil2_side", hi=2)
VIL2_HIDDEN = _field("vil2_hidden", hi=64)
VIL2_JUSTICE = _field("vil2_justice", hi=BIG)
VIL2_DAMAGE = _field("vil2_damage", hi=BIG)
VIL2_LOC = _field("vil2_loc", hi="spaces")
VIL2_IN_PANEL = _field("vil2_in_panel", hi=2)
VIL2_OWNER = _field("vil2_owner", lo=-1, hi="heroes")
VIL2_EXH = _field("vil2_exh", hi=2)
VIL2_HEALTH = _field("vil2_health", hi=BIG)
VIL2_DANGER = _field("vil2_danger", hi=BIG)
VIL_STRIDE = VIL2_SIDE - VIL_SIDE
# its deck: card VDECK + VDECK2_ORDER[k]; villain v's copy of VDECK_N is VDECK_N + v * DECK_STRIDE
VDECK2_N = _field("vdeck2_n", hi=VDECK + 1)
VDECK2_ORDER = _field("vdeck2_order", VDECK, hi=VDECK)
DECK_STRIDE = VDECK2_N - VDECK_N
DEF_BONUS2 = _field("def_bonus2", 2, lo=-BIG, hi=BIG)  # as DEF_BONUS, for the second villain
HFACE = _field("hface", MAX_HEROES, hi=VILLAINS, seat=True)  # villain each hero faces
VIL_OUT = _field("vil_out", VILLAINS, hi=2)  # 1: villain v is defeated (two villains)
# --- the Draft variant (core/draft.py): the heroes are chosen inside the episode. The row
# is all zero without a draft; the record below stays after the draft, when the game runs.
DRAFTING = _field("drafting", hi=2)  # 1 while the seats are drafting (no game set up yet)
DRAFT_STEP = _field("draft_step", hi=MAX_HEROES + 1)  # seats that have picked
# the episode seed (low, high 32-bit words): the game is set up from it after the draft
DRAFT_SEED = _field("draft_seed", 2, lo=I32_MIN, hi=I32_END)
# per pool hero: seat + 1 it is dealt to face down (mode "deal"), 0 none
DRAFT_OFFER = _field("draft_offer", MAX_DRAFT_POOL, hi=MAX_HEROES + 1)
# per pool hero: seat + 1 that took it, 0 none
DRAFT_OWNER = _field("draft_owner", MAX_DRAFT_POOL, hi=MAX_HEROES + 1)
# per seat: pool index + 1 of the hero it took, 0 none yet
DRAFT_PICK = _field("draft_pick", MAX_HEROES, hi=MAX_DRAFT_POOL + 1)

STATE_LEN = _cursor

# --- enumerations
# engine error codes (ERROR field; engine.md "Engine errors")
(ERR_NONE, ERR_STACK_OVERFLOW, ERR_STACK_EMPTY, ERR_NO_LEGAL_ACTION, ERR_UNKNOWN_OP,
 ERR_BYSTANDER_QUEUE_FULL, ERR_ISSUE_AREA_FULL, ERR_STEP_BUDGET) = range(8)
ERROR_NAMES = ("none", "stack_overflow", "stack_empty", "no_legal_action", "unknown_op",
               "bystander_queue_full", "issue_area_full", "step_budget")
STEP_BUDGET = 200_000  # ops one apply/refresh may run before it is stopped as looping
TURN_SETUP, TURN_VILLAIN, TURN_HERO, TURN_ISSUE, TURN_OVER = 0, 1, 2, 3, 4
OUT_ONGOING, OUT_WIN, OUT_LOSS, OUT_TRUNCATED = 0, 1, 2, 3
OUTCOME_NAMES = ("ongoing", "win", "loss", "truncated")
LOSS_NONE, LOSS_ISSUE_DECK, LOSS_COUNTER, LOSS_CAP_ROUNDS, LOSS_CAP_DECISIONS = 0, 1, 2, 3, 4
LOSS_ILLEGAL = 5  # set by front ends in "penalize" mode, never by the engine
LOSS_ENGINE_ERROR = 6  # set by VectorEnv(on_error="reset") for a game the engine stopped
LOSS_REASON_NAMES = ("", "issue_deck_empty", "villain_objective", "round_cap", "decision_cap",
                     "illegal_action", "engine_error")

(L_DECK, L_HAND, L_PLAY, L_DISCARD, L_REMOVED, L_THREAT, L_PENDING, L_MULLIGAN, L_ATTACHED,
 L_BOARD, L_ISSUE_AREA) = range(11)
ZONE_NAMES = ("deck", "hand", "play", "discard", "removed", "threat", "pending", "mulligan",
              "attached", "board", "issue_area")

# event counters (EV_*, EVENT_NAMES) and the per-hero counters (HV_*, HERO_EVENTS,
# HERO_COUNTER_COLS/NAMES): declared in spec/tables.py beside the fame table that weights
# them (the content compiler needs their columns too), named here with the state's fields
from hon_env.spec.tables import (  # noqa: E402, F401
    EV_ALLY_DEFEATS,
    EV_BYSTANDERS_DEFEATED,
    EV_CAPTURES,
    EV_CLUES,
    EV_CRISES,
    EV_DAMAGE_DEALT,
    EV_ENEMIES_DEFEATED,
    EV_HERO_DAMAGE,
    EV_HERO_DEFEATS,
    EV_JUSTICE,
    EV_MECH_WRECKS,
    EV_PROBLEMS_SOLVED,
    EV_RESCUES,
    EV_SCHEMES_SOLVED,
    EV_VILLAIN_ADVANCES,
    EVENT_NAMES,
    HERO_COUNTER_COLS,
    HERO_COUNTER_NAMES,
    HERO_EVENTS,
    HV_FINAL_BLOWS,
    HV_MINIONS,
    HV_REVEALS,
    HV_VILLAIN_DAMAGE,
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
#   [409, 439)          TARGET2  choose target T_W0 + k (the second villain's cards; Two Fronts)
#   [439]               TURN     turn around to face the other villain (an action; Two Fronts)
#   [440, 456)          DRAFT    take hero i of the draft pool (the Draft variant)
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
A_HERO = A_TARGET + T_W0  # the TARGET segment covers the rulebook's targets [0, T_W0)
A_CARD = A_HERO + MAX_HEROES
A_TARGET2 = A_CARD + HERO_DECK
A_TURN = A_TARGET2 + N_TARGETS - T_W0
A_DRAFT = A_TURN + 1  # take pool hero i (the Draft variant)
N_ACTIONS = A_DRAFT + MAX_DRAFT_POOL

SEGMENTS = (
    ("pass", A_PASS, 1), ("draw", A_DRAW, 1), ("space", A_SPACE, MAX_SPACES),
    ("attack", A_ATTACK, MAX_SPACES), ("solve", A_SOLVE, MAX_SPACES),
    ("play", A_PLAY, HERO_DECK), ("use", A_USE, N_USE),
    ("feat", A_FEAT, HERO_DECK * N_FEAT_KINDS), ("clue", A_CLUE, CLUE_LIST),
    ("focus", A_FOCUS, 1), ("option", A_OPTION, N_OPTIONS), ("target", A_TARGET, T_W0),
    ("hero", A_HERO, MAX_HEROES), ("card", A_CARD, HERO_DECK),
    ("target2", A_TARGET2, N_TARGETS - T_W0), ("turn", A_TURN, 1),
    ("draft", A_DRAFT, MAX_DRAFT_POOL),
)


@njit(cache=True)
def target_action(t):
    """The action that chooses target ``t`` (TARGET, or TARGET2 for the second villain's)."""
    return A_TARGET + t if t < T_W0 else A_TARGET2 + t - T_W0


@njit(cache=True)
def action_target(a):
    """The target a TARGET or TARGET2 action ``a`` chooses (inverse of ``target_action``)."""
    return a - A_TARGET if a < A_TARGET2 else a - A_TARGET2 + T_W0


@njit(cache=True)
def is_target_action(a):
    """Is action ``a`` in the TARGET or TARGET2 segment?"""
    return A_TARGET <= a < A_HERO or A_TARGET2 <= a < A_TURN


@njit(cache=True)
def vcard_target(c):
    """Target of villain card slot ``c`` (either villain's deck)."""
    return c if c < VDECK else T_W0 + c - VDECK


@njit(cache=True)
def is_vcard_target(t):
    """Is target ``t`` a villain deck card (either villain's)?"""
    return (0 <= t < T_I0) or (T_W0 <= t < T_VILLAIN2)


@njit(cache=True)
def vcard_of(t):
    """Villain card slot of a villain deck card target (``is_vcard_target``)."""
    return t if t < T_I0 else t - T_W0 + VDECK


@njit(cache=True)
def villain_target(v):
    """Target of villain ``v``'s Villain card."""
    return T_VILLAIN if v == 0 else T_VILLAIN2


@njit(cache=True)
def is_villain_target(t):
    """Is target ``t`` a Villain card (either villain's)?"""
    return t == T_VILLAIN or t == T_VILLAIN2

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
D_VPLAY = 16  # TARGET T_V0 + i: the villain plays hand card i against hero DEC_A
#               (DEC_B 0: villain turn, 1: Showdown); Mastermind variant only
# The villain breaks enemy movement ties (villain_agent enemy_ties "villain",
# core/enemy_ties.py): DEC_A the moving enemy (a TARGET id), DEC_B its current space.
D_ENEMY_TARGET = 17  # SPACE: the space of the target (tied for nearest) it moves toward
D_ENEMY_STEP = 18  # SPACE: its next space (several shortest paths)
D_FACE = 19  # OPTION v: face villain v (setup); Two Fronts variant only
D_DRAFT = D_FACE + 1  # DRAFT: the hero DEC_HERO takes (Draft variant, core/draft.py)
DECISION_NAMES = (
    "none", "mulligan", "main", "move", "place", "cunning", "clue_dice", "focus_spend",
    "assign", "damage", "discard_or_damage", "pick_hero", "pick_target", "attack_space",
    "solve_space", "rescue", "villain_play", "enemy_target", "enemy_step", "face", "draft",
)
assert len(DECISION_NAMES) == D_DRAFT + 1
RANGES["dec_kind"] = (0, len(DECISION_NAMES), None, False)
# The villain agent's seat (Mastermind variant) is DEC_HERO of the decisions it owns. It
# has no hero fields; villain cards in its hand have zone L_HAND.
from hon_env.spec.tables import VILLAIN_SEAT  # noqa: E402, F401 (declared with MAX_HEROES)


def field_view(state: np.ndarray, name: str, start: int | None = None) -> np.ndarray:
    """Return field ``name`` of a ``[B, STATE_LEN]`` state as a ``[B, *shape]`` view
    (``start``: the field's first column in ``state`` when that holds a span of the row's
    columns rather than all of them; its offset in the row by default)."""
    first, shape = FIELDS[name]
    start = first if start is None else start
    size = math.prod(shape)  # a front end asks on every step: np.prod costs microseconds
    view = state[:, start:start + size]
    return view.reshape((state.shape[0],) + shape) if shape else view[:, 0]


def _check_villain_blocks() -> None:
    """The second villain's fields mirror the first's at fixed strides (see VIL_STRIDE)."""
    first = ("vil_side", "vil_hidden", "vil_justice", "vil_damage", "vil_loc", "vil_in_panel",
             "vil_owner", "vil_exh", "vil_health", "vil_danger")
    for name in first:
        second = name.replace("vil_", "vil2_")
        if FIELDS[second][0] - FIELDS[name][0] != VIL_STRIDE or RANGES[second] != RANGES[name]:
            raise AssertionError(f"{second} does not mirror {name}")
    if FIELDS["vdeck2_order"][0] - FIELDS["vdeck_order"][0] != DECK_STRIDE:
        raise AssertionError("vdeck2_order does not mirror vdeck_order")


_check_villain_blocks()
