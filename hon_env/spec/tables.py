"""Compiled content: the integer tables the engine kernels read.

A scenario (heroes, villain, issue, board, clues, options) compiles to one ``Tables``
record. Every field is an ``int32`` numpy array (or a plain int) with a fixed capacity, so
the numba kernels see the same types for every scenario and compile once. Columns of the
2-D card tables are named by the ``*_`` constants below.

Capacities (fixed for every scenario)::

    MAX_HEROES   6    hero seats
    MAX_ROSTER   16   heroes in one content directory (the observation's hero one-hot)
    HERO_DECK    20   cards in a hero deck besides the Hero character card
    VDECK        29   villain deck cards besides the Villain card
    VCARDS       58   villain card slots: two decks (Two Fronts variant), villain v's in
                      rows [v * VDECK, (v + 1) * VDECK)
    VILLAINS     2    villains in one game (Two Fronts variant)
    IDECK        14   issue deck cards besides the Issue Overview (Scheme + issue cards)
    CLUE_LIST    20   cards in one clue deck file (the rulebook's deck)
    CLUE_DECK    40   clue cards in a game (two copies of the list with ``extra_clues``)
    NEMESES      2    nemeses in one game (target slots T_NEM0, T_NEM0 + 1)
    NEMESIS_POOL 8    nemesis cards a scenario may draw its nemeses from
    SPECIAL_MINIONS 2 special Minion cards in one game (optional rule: Special Minions)
    SPECIAL_BYSTANDERS 2 special Bystander cards in one game (Special Bystanders)
    MAX_CRISES   4    crisis cards added to one game (optional rule: Crisis Cards)
    DECK_CRISES  8    cards with the Crisis trait in the villain and issue decks together
    allies       one Ally card per hero seat at most (optional rule: Allies)
    MAX_SPACES   64   map spaces
    MAX_PANELS   6    scheme panels
    MAX_PROGS    512  effect programs
    PROG_LEN     24   ops per program
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

MAX_HEROES = 6
MAX_ROSTER = 16  # hero ids a content directory may hold: the hero one-hot's width
VILLAIN_SEAT = MAX_HEROES  # the villain agent's seat (Mastermind variant): no hero sits there
HERO_DECK = 20
VDECK = 29
VILLAINS = 2  # villains in one game (Two Fronts variant; the rulebook's game has one)
VCARDS = VILLAINS * VDECK  # villain card slots: card c belongs to villain c // VDECK
IDECK = 14
CLUE_LIST = 20  # a clue deck file (setup step 4 shuffles one deck of 20)
CLUE_COPIES = 2  # "Additional Clue Cards": at most a second, identical deck
CLUE_DECK = CLUE_LIST * CLUE_COPIES
NEMESES = 2  # the core box's nemesis cards; a 6-hero game uses both
NEMESIS_POOL = 8
SPECIAL_MINIONS = 2  # at most two kinds of special minion in one game
SPECIAL_MINION_TOKENS = 5  # each card replaces this many normal minion tokens
SPECIAL_BYSTANDERS = 2  # at most two kinds of special bystander in one game
SPECIAL_BYSTANDER_TOKENS = 4  # each card replaces this many normal bystander tokens
MAX_CRISES = 4  # our capacity; the rulebook sets no limit on crisis cards
DECK_CRISES = 8  # Crisis-trait cards a villain and an issue deck may hold together
MAX_SPACES = 64
MAX_PANELS = 6
MAX_PROGS = 512
PROG_LEN = 24
N_COLORS = 4  # red, green, blue, yellow
COLOR_NAMES = ("red", "green", "blue", "yellow")
DASH = -1  # a "-" value: cannot be defeated / solved

# --- hero character card, per seat and side: hero_stat[seat, side, col] (side 0 normal, 1 focused)
HS_HEALTH = 0
HS_ATTACK = 1
HS_SOLVE = 2
HS_ABILITY = 3  # ABIL_* kind of the hero card's ability on this side
HS_ABILITY_PROG = 4  # program id or -1
HS_ATTACK_DICE = 5  # passive: extra attack dice
HS_SOLVE_DICE = 6  # passive: extra solve dice
HS_MOVE = 7  # passive: extra spaces per Move
HS_ARMOR = 8  # passive: damage reduced on each damage instance
HS_PIERCE = 9  # passive: defense taken off the enemies this hero attacks
HS_FORM = 10  # FORM_*: what stands for the hero on the map while this side is up
HS_NCOLS = 11

# Hero forms (rulebook: Micro-guy's Pilot Token). Most heroes are one figure on both sides;
# a hero with forms has a pilot side (normal: a pilot token that counts as a figure) and a
# mech side (Focused: the mech figure, which is wrecked instead of the hero being defeated).
FORM_FIGURE = 0
FORM_PILOT = 1
FORM_MECH = 2
FORM_NAMES = {"figure": FORM_FIGURE, "pilot": FORM_PILOT, "mech": FORM_MECH}

ABIL_NONE = 0
ABIL_ACTION = 1  # costs an action
ABIL_EXHAUST = 2  # free; exhausts the card
ABIL_PASSIVE = 3  # always on (its numbers are the passive columns)

# --- hero deck cards: hcard[seat, card, col]
HC_CONSTANT = 0  # 0 Instant, 1 Constant
HC_ACTION = 1  # 1: has the action icon (costs an action to play)
HC_UNIQUE = 2
HC_FEATS = 3  # bitmask of FEAT_* bits
HC_PLAY_PROG = 4  # effect resolved when played, or -1
HC_ABILITY = 5  # ABIL_* kind for a Constant in play
HC_ABILITY_PROG = 6
HC_ATTACK_DICE = 7  # passive while in play
HC_SOLVE_DICE = 8
HC_MOVE = 9
HC_ARMOR = 10
HC_NAME_ID = 11  # same value for copies of one card (unique check)
HC_PIERCE = 12  # passive while in play: defense taken off attacked enemies
HC_FORM = 13  # FORM_* the passive numbers need (FORM_FIGURE: they count in any form)
HC_NCOLS = 14

FEAT_TOUGHNESS = 1
FEAT_MOBILITY = 2
FEAT_STRENGTH = 4
FEAT_DEDUCTION = 8
FEAT_NAMES = {"toughness": FEAT_TOUGHNESS, "mobility": FEAT_MOBILITY,
              "strength": FEAT_STRENGTH, "deduction": FEAT_DEDUCTION}

# --- Villain cards: vil_stat[v, col] (villain v; row 1 is zero with one villain)
VS_DANGER = 0  # Scheming side danger value
VS_DANGER_PH = 1  # 1: per hero
VS_SCHEMING_INFLICT = 2
VS_HEALTH = 3  # Showdown side health
VS_HEALTH_PH = 4
VS_DEFENSE = 5
VS_SHOWDOWN_INFLICT = 6
VS_ACTIVATE_PROG = 7  # Showdown side Activate (in a threat area), or -1
VS_NCOLS = 8

# --- villain deck cards: vcard[card, col] (rows [VDECK, VCARDS): the second villain's deck)
VC_PRESENT = 0  # 1 for a real card, 0 for an unused slot
VC_TYPE = 1  # VT_*
VC_SCALING = 2  # 0 none, 1: removed with 1 hero, 5: removed with 5-6 heroes
VC_COLOR = 3  # 0..3 for lackey/peril cards, -1 otherwise
VC_HEALTH = 4
VC_HEALTH_PH = 5
VC_DEFENSE = 6
VC_INFLICT = 7
VC_DANGER = 8
VC_DANGER_PH = 9
VC_ACTIVATE_PROG = 10
VC_SPECIAL_PROG = 11
VC_SHOWDOWN_PROG = 12
VC_NPLOYS = 13
VC_PLOY0 = 14  # VC_PLOY0 .. VC_PLOY0+MAX_PLOYS-1: PLOY_* codes, left to right
MAX_PLOYS = 6
VC_ATTACH = VC_PLOY0 + MAX_PLOYS  # ATTACH_*: what this Ploy card attaches to
VC_ATTACH_DEFENSE = VC_ATTACH + 1  # defense it adds to its host while attached
VC_CRISIS_PROG = VC_ATTACH_DEFENSE + 1  # a Ploy card with the Crisis trait: its Crisis effect
VC_NCOLS = VC_CRISIS_PROG + 1

ATTACH_NONE = 0
ATTACH_LACKEY = 1  # the lackey nearest the villain
ATTACH_VILLAIN = 2
ATTACH_NAMES = {"lackey": ATTACH_LACKEY, "villain": ATTACH_VILLAIN}

VT_LACKEY = 1
VT_PERIL = 2
VT_PLOY = 3

PLOY_CUNNING = 10
PLOY_BYSTANDER = 11
PLOY_SPECIAL = 12
# minion icons are their panel number 1..MAX_PANELS

# --- issue deck cards (Scheme cards first, then issue cards): icard[card, col]
IC_PRESENT = 0
IC_TYPE = 1  # IT_*
IC_PANEL = 2  # Scheme card: its panel number (1..)
IC_DANGER = 3  # Scheme side danger / staying issue card danger
IC_DANGER_PH = 4
IC_BACK = 5  # BACK_* kind of the Scheme card's other side
IC_BACK_DANGER = 6
IC_BACK_DANGER_PH = 7
IC_BACK_HEALTH = 8
IC_BACK_HEALTH_PH = 9
IC_BACK_DEFENSE = 10
IC_BACK_INFLICT = 11
IC_BACK_ACTIVATE_PROG = 12
IC_EFFECT_PROG = 13  # issue card: resolved when drawn
IC_STAYS = 14  # issue card: 1 stays in a threat area as a problem after resolving
IC_ACTIVATE_PROG = 15  # staying issue card: its Activate effect
IC_LOCATION = 16  # staying card / problem back: the space index it is solved from, or -1
IC_BYSTANDER = 17  # issue card: 1 for a bystander character (its token replaces a bystander)
IC_RESCUED_PROG = 18  # bystander character: resolved for the hero who rescues it, or -1
IC_CAPTURED_PROG = 19  # bystander character: resolved when it is captured, or -1
IC_CRISIS_PROG = 20  # issue card with the Crisis trait: its Crisis effect, or -1
IC_NCOLS = 21

IT_SCHEME = 1
IT_ISSUE = 2

BACK_NONE = 0  # flipped side is spent: removed from the game
BACK_PROBLEM = 1  # flipped side is a problem (danger) solved from IC_LOCATION or the panel
BACK_ENEMY = 2  # flipped side is an enemy with a figure at the scheme space

# --- nemesis cards of the scenario's pool: nemesis[card, col]
NM_PRESENT = 0
NM_DANGER = 1  # Scheme side danger value (DASH: "-")
NM_DANGER_PH = 2
NM_SCHEME_PROG = 3  # Scheme side Activate effect (owner's threat phase, while scheming), or -1
NM_HEALTH = 4  # enemy side
NM_HEALTH_PH = 5
NM_DEFENSE = 6
NM_INFLICT = 7
NM_ACTIVATE_PROG = 8  # enemy side Activate effect, or -1
NM_SETUP_PROG = 9  # Setup effect (5-6 players step 1b), or -1
NM_NCOLS = 10

# --- special Minion cards: smin[k, col] (optional rule: Special Minions)
SM_PRESENT = 0
SM_HEALTH = 1  # health of each of its minions (damage below it stays on one of them)
SM_INFLICT = 2  # inflict value of each of its minions
SM_SETUP_PROG = 3  # Setup effect, or -1
SM_DEFEAT_PROG = 4  # resolved for the defeating hero each time one is defeated, or -1
SM_NCOLS = 5

# --- special Bystander cards: sby[k, col] (optional rule: Special Bystanders), in rule order
SB_PRESENT = 0
SB_SETUP_PROG = 1  # Setup effect, or -1
SB_RESCUED_PROG = 2  # resolved for the rescuing hero each time one of its figures is rescued, or -1
SB_CAPTURED_PROG = 3  # resolved each time one is captured, for the hero of the capturing effect
SB_DEFEATED_PROG = 4  # resolved each time one is defeated, likewise (-1: no effect)
SB_NCOLS = 5
# what happened to a special figure: its program is column SB_RESCUED_PROG + SBE_*
SBE_RESCUED = 0
SBE_CAPTURED = 1
SBE_DEFEATED = 2
N_SBE = 3

# --- crisis cards: crisis[k, col] (optional rule: Crisis Cards), in the order added
CR_PRESENT = 0
CR_SETUP_PROG = 1  # Setup effect, or -1
CR_CRISIS_PROG = 2  # Crisis effect, resolved after the Issue Overview's at every crisis
CR_DANGER = 3  # danger value; 0: no danger value (not a problem, it never leaves play)
CR_DANGER_PH = 4  # 1: per hero
CR_TOKEN = 5  # space of its crisis token (where heroes solve it), -1 without a danger value
CR_SOLVED_PROG = 6  # resolved for the solving hero when it is solved, or -1
CR_NCOLS = 7

# --- Ally cards: ally[seat, col] (optional rule: Allies), the ally of the hero in that seat
AL_PRESENT = 0
AL_HEALTH = 1
AL_ATTACK = 2  # damage an ally Attack deals to the enemies in its target space
AL_SOLVE = 3  # justice an ally Solve places on the problems in its target space
AL_ABILITY = 4  # ABIL_* kind of the Ally card's ability (action or exhaust)
AL_ABILITY_PROG = 5  # program id, or -1
AL_NCOLS = 6

# --- clue cards: clue[card, col]
CL_PRESENT = 0
CL_PROG = 1  # text effect, or -1
CL_ATTACK_DICE = 2
CL_SOLVE_DICE = 3
CL_NCOLS = 4

# --- board spaces: space_kind[space]
SP_NONE = 0
SP_PLAIN = 1
SP_START = 2
SP_PERIL = 3  # space_arg: colour 0..3
SP_BYSTANDER = 4
SP_SCHEME = 5  # space_arg: panel number 1..

# --- dice faces: dice[face, col]
DF_SUCCESS = 0
DF_FOCUS = 1
DF_BURST = 2

# --- scalar configuration: cfg[index]
CFG_N_HEROES = 0
CFG_N_SPACES = 1
CFG_N_PANELS = 2
CFG_START_SPACE = 3
CFG_N_SCHEMES = 4  # Scheme cards in the issue deck (the first ones in icard)
CFG_SETUP_PROG = 5  # Issue Overview Setup, or -1
CFG_CRISIS_PROG = 6  # Issue Overview Crisis, or -1
CFG_LOSS_COUNTER = 7  # issue counter index that loses the game, or -1
CFG_LOSS_AT_LEAST = 8
CFG_MINIONS = 9  # minion supply at setup
CFG_BYSTANDERS = 10  # bystander supply at setup
CFG_MINION_HEALTH = 11
CFG_MINION_INFLICT = 12
CFG_HAND_SIZE = 13  # opening hand
CFG_MAX_ROUNDS = 14  # truncation cap on rounds
CFG_MAX_DECISIONS = 15  # truncation cap on decisions
CFG_MAX_YIELDS = 16  # initiative yields allowed per hero per hero turn
CFG_MOVE = 17  # spaces per Move action
CFG_N_NEMESES = 18  # nemeses in the game: heroes without a Scheme card + the Nemesis rule's
CFG_MAX_MAP_BYSTANDERS = 19  # bystanders allowed on the map before placing captures
CFG_FOCUS_CAP = 20
CFG_FOCUS_TO_FLIP = 21
CFG_TOUGHNESS = 22  # damage prevented by a toughness feat
CFG_NEMESIS_POOL = 23  # nemesis cards in the pool (rows of ``nemesis``)
# The Mastermind variant (rules ``villain_agent``, core/mastermind.py); all 0 when it is off.
CFG_VHAND = 24  # villain cards the villain agent holds; 0: no villain agent (the rulebook)
CFG_VSHOWDOWN = 25  # 1: the villain picks the Showdown card from its hand
CFG_VCUNNING = 26  # 1: the villain, not the active hero, chooses scheme or inflict
CFG_VINFLICT = 27  # 1: the villain picks who suffers an inflict among nearby heroes
CFG_VTIES = 28  # 1: the villain breaks enemy target and path ties (core/enemy_ties.py)
# The Two Fronts variant (two villains; content/two_fronts.py, core/two_fronts.py).
CFG_N_VILLAINS = 29  # villains in the game: 1 (the rulebook) or 2
CFG_TF_FLOOR = 30  # the least hero count a villain's per-hero values use (2 villains)
CFG_TF_BLINDSIDE = 31  # damage added when a villain a hero does not face damages it
# The Draft variant (rules ``draft``, core/draft.py, content/draft.py); all 0 when it is off.
# Every row of a draft's stacked tables carries the same values.
CFG_DRAFT_MODE = 32  # DRAFT_*: how the heroes of a game are chosen
CFG_DRAFT_OFFER = 33  # heroes dealt face down to each seat (mode "deal") or player ("pass"), else 0
CFG_DRAFT_POOL = 34  # heroes in the draft pool (rows of ``draft_roster`` in use)
CFG_N_COLS = 35

# Draft modes (CFG_DRAFT_MODE), in the order of content/draft.py's DRAFT_MODES
DRAFT_OFF = 0
DRAFT_RANDOM = 1  # an ordered team drawn when the episode starts (no decisions)
DRAFT_DEAL = 2  # each seat keeps one of its own face-down offer, in seat order
DRAFT_PICK = 3  # each seat picks in seat order from the whole pool, in the open
DRAFT_PASS = 4  # each player (two seats) keeps one of its own offer, passes the rest to the
#                next player, then takes its second hero from what it was passed
SEATS_PER_PLAYER = 2  # mode pass: player p controls seats 2p (its keep) and 2p + 1
MAX_DRAFT_POOL = 16  # heroes a draft pool may hold: the width of the "draft" action segment
MAX_DRAFT_ROWS = 1024  # ordered teams (stacked tables rows) a draft may compile to

# Event counters (the state's ``events`` field, layout.EVENTS) and per-hero counters
# (``hev``, layout.HEV): columns and names. Declared here, beside the fame table that
# weights them, so that the content compiler (content/fame.py) and the engine
# (spec/layout.py imports them) read one definition.
N_EVENTS = 16  # event counter columns (EV_*; the last ones spare)
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
N_HEV = 20  # per-hero counter columns: EV_* (16), then HV_* (4)
# per-hero counters (HEV) beyond the event counters
HV_MINIONS = N_EVENTS  # minions defeated (special minions included)
HV_VILLAIN_DAMAGE = N_EVENTS + 1  # damage dealt to the revealed villain
HV_FINAL_BLOWS = N_EVENTS + 2  # the damage that defeated the villain
HV_REVEALS = N_EVENTS + 3  # solving the Villain card (revealing it)
assert HV_REVEALS + 1 == N_HEV
# The events each hero counts for itself (HEV column = EV_*): the sum over heroes equals
# the team counter. The others (crises, captures, bystanders defeated, villain advances)
# are the villain's doing and stay team-only.
HERO_EVENTS = (EV_DAMAGE_DEALT, EV_JUSTICE, EV_RESCUES, EV_ENEMIES_DEFEATED,
               EV_PROBLEMS_SOLVED, EV_SCHEMES_SOLVED, EV_HERO_DAMAGE, EV_HERO_DEFEATS,
               EV_CLUES, EV_MECH_WRECKS, EV_ALLY_DEFEATS)
# every per-hero counter reported (info "hero_events", the observation): HEV columns, names
HERO_COUNTER_COLS = HERO_EVENTS + (HV_MINIONS, HV_VILLAIN_DAMAGE, HV_FINAL_BLOWS, HV_REVEALS)
HERO_COUNTER_NAMES = tuple(EVENT_NAMES[e] for e in HERO_EVENTS) + (
    "minions_defeated", "villain_damage", "final_blows", "villain_reveals")

# The Fame variant (rules ``fame``, core/fame.py, content/fame.py). Per-hero counters are
# kept in every game; the ``fame`` table says what each is worth and the ``headline`` table
# holds the headline cards a game deals from.
MAX_HEADLINES = 4  # headlines dealt to one game
HEADLINE_POOL = 16  # headline cards a scenario deals from (rows of ``headline``)
HEADLINE_VALUES = 3  # fame values of one headline, best first (later finishers get 0)
FM_ON = 0  # 1: the fame rule is on (observation section, headlines, reward modes)
FM_W = 1  # [N_HEV] fame per unit of each per-hero counter
FM_DMG_PER = FM_W + N_HEV  # end of game: 1 fame per this much villain damage (0: none)
FM_MOST_DAMAGE = FM_DMG_PER + 1  # end of game: fame for the most villain damage (ties: all)
FM_MOST_ENEMIES = FM_DMG_PER + 2  # ... the most enemies and minions defeated
FM_MOST_RESCUES = FM_DMG_PER + 3  # ... the most rescues
FM_HEADLINES = FM_DMG_PER + 4  # headlines dealt per game
FM_POOL = FM_DMG_PER + 5  # rows of ``headline`` in use
FM_MODE = FM_DMG_PER + 6  # reward mode: 0 team, 1 fame, 2 rank
N_FAME = FM_DMG_PER + 7
HL_COUNTER = 0  # headline row: the per-hero counter column it watches
HL_AT_LEAST = 1  # the value that finishes it
HL_VALUE = 2  # [HEADLINE_VALUES] fame for the first, second, third finisher
HL_NCOLS = HL_VALUE + HEADLINE_VALUES


class Tables(NamedTuple):
    """Everything the kernels read about a scenario, as separate arrays.

    The compiler fills a ``Tables`` and packs it with ``pack_tables`` into one numpy
    record: numba passes a record by pointer, while a tuple of arrays costs a reference
    count update per member on every call (measured: ~180 ns vs ~1 ns per call).
    """

    cfg: np.ndarray  # [CFG_N_COLS]
    prog: np.ndarray  # [MAX_PROGS, PROG_LEN, 4] rows (code, a, b, c); code 0 ends
    hero_stat: np.ndarray  # [MAX_HEROES, 2, HS_NCOLS]
    hcard: np.ndarray  # [MAX_HEROES, HERO_DECK, HC_NCOLS]
    vil_stat: np.ndarray  # [VILLAINS, VS_NCOLS]
    vcard: np.ndarray  # [VCARDS, VC_NCOLS]
    icard: np.ndarray  # [IDECK, IC_NCOLS]
    clue: np.ndarray  # [CLUE_DECK, CL_NCOLS]
    panel_prog: np.ndarray  # [MAX_PANELS + 1] scheme effect of panel k (index k), or -1
    space_kind: np.ndarray  # [MAX_SPACES] SP_*
    space_arg: np.ndarray  # [MAX_SPACES] colour (peril) or panel number (scheme), else -1
    adj: np.ndarray  # [MAX_SPACES, 6] neighbours, -1 padded
    dist: np.ndarray  # [MAX_SPACES, MAX_SPACES] map distance (steps), 999 if unreachable
    scheme_space: np.ndarray  # [MAX_PANELS + 1] space of panel k's scheme space (index k), -1
    peril_space: np.ndarray  # [N_COLORS] peril space of each colour
    lackey_space: np.ndarray  # [N_COLORS] scheme space where a lackey of each colour arrives
    dice: np.ndarray  # [6, 3] hero die faces: success, focus, burst counts
    nemesis: np.ndarray  # [NEMESIS_POOL, NM_NCOLS] the nemesis cards a game draws from
    smin: np.ndarray  # [SPECIAL_MINIONS, SM_NCOLS] the special Minion cards in the game
    sby: np.ndarray  # [SPECIAL_BYSTANDERS, SB_NCOLS] the special Bystander cards in the game
    crisis: np.ndarray  # [MAX_CRISES, CR_NCOLS] the crisis cards added to the game
    ally: np.ndarray  # [MAX_HEROES, AL_NCOLS] the Ally card of each hero seat
    hero_roster: np.ndarray  # [MAX_HEROES] each seat's index in the content's roster, or -1
    fame: np.ndarray  # [N_FAME] the Fame variant's scoring (FM_*)
    headline: np.ndarray  # [HEADLINE_POOL, HL_NCOLS] the headline cards (HL_*)
    # [MAX_DRAFT_POOL] the draft pool's heroes as content roster indices, -1 padded
    draft_roster: np.ndarray


TABLE_SHAPES: dict[str, tuple[int, ...]] = {
    "cfg": (CFG_N_COLS,),
    "prog": (MAX_PROGS, PROG_LEN, 4),
    "hero_stat": (MAX_HEROES, 2, HS_NCOLS),
    "hcard": (MAX_HEROES, HERO_DECK, HC_NCOLS),
    "vil_stat": (VILLAINS, VS_NCOLS),
    "vcard": (VCARDS, VC_NCOLS),
    "icard": (IDECK, IC_NCOLS),
    "clue": (CLUE_DECK, CL_NCOLS),
    "panel_prog": (MAX_PANELS + 1,),
    "space_kind": (MAX_SPACES,),
    "space_arg": (MAX_SPACES,),
    "adj": (MAX_SPACES, 6),
    "dist": (MAX_SPACES, MAX_SPACES),
    "scheme_space": (MAX_PANELS + 1,),
    "peril_space": (N_COLORS,),
    "lackey_space": (N_COLORS,),
    "dice": (6, 3),
    "nemesis": (NEMESIS_POOL, NM_NCOLS),
    "smin": (SPECIAL_MINIONS, SM_NCOLS),
    "sby": (SPECIAL_BYSTANDERS, SB_NCOLS),
    "crisis": (MAX_CRISES, CR_NCOLS),
    "ally": (MAX_HEROES, AL_NCOLS),
    "hero_roster": (MAX_HEROES,),
    "fame": (N_FAME,),
    "headline": (HEADLINE_POOL, HL_NCOLS),
    "draft_roster": (MAX_DRAFT_POOL,),
}
TABLES_DTYPE = np.dtype([(name, np.int32, shape) for name, shape in TABLE_SHAPES.items()])


def pack_tables(t: Tables) -> np.record:
    """Pack ``t`` into one read-only numpy record with the same field names.

    Fields read as attributes (``rec.vcard[i, VC_TYPE]``) in Python and in numba alike.
    """
    arr = np.zeros(1, TABLES_DTYPE)
    for name, shape in TABLE_SHAPES.items():
        value = np.asarray(getattr(t, name), np.int32)
        if value.shape != shape:
            raise ValueError(f"table {name!r} has shape {value.shape}, expected {shape}")
        arr[0][name] = value
    arr.flags.writeable = False
    return arr.view(np.recarray)[0]
