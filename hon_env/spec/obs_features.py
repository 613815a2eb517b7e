"""The observation as a table of named features, declared once.

Every float of the observation vector belongs to one feature of one section. A section
is either a single block (``global``, ``self``) or ``rows`` identical rows, one per entity
(``spaces``: one row per board space, ``villain_cards``: one per villain deck card...). A
feature has a name, a size (1 for a number, more for a one-hot or a multi-hot), the scale
that maps the game value into the float, and a description.

The encoder (``hon_env.core.observe``) writes through the integer constants defined here
(``G_ROUND``, ``SPACE_SELF_HERO``, ...): numba freezes them at compile time, so naming a
feature costs nothing. Tests and users look features up by name with ``feature_index``;
``observation_spec()`` returns the whole table, and ``docs/observation.md`` is generated
from it (``python scripts/catalogue.py``).

Row features hold offsets *within a row*; the absolute index of feature ``f`` of row ``r``
of a section is ``OFF_<SECTION> + r * <SECTION>_FEATS + f``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hon_env.spec.layout import HERO_COUNTER_NAMES, IDECK, VDECK
from hon_env.spec.ops import HERO_OPS
from hon_env.spec.tables import (
    CLUE_LIST,
    FEAT_NAMES,
    HERO_DECK,
    MAX_CRISES,
    MAX_DRAFT_POOL,
    MAX_HEADLINES,
    MAX_HEROES,
    MAX_PANELS,
    MAX_ROSTER,
    MAX_SPACES,
    NEMESES,
    SPECIAL_BYSTANDERS,
    SPECIAL_MINIONS,
)


@dataclass(frozen=True)
class Feature:
    """One named feature of the observation (or of the global state)."""

    section: str  # the section it belongs to
    name: str  # unique within its section
    offset: int  # offset of its first float within a row of the section
    size: int  # floats it spans in each row
    rows: int  # rows of the section (1 for a single block)
    section_offset: int  # index of the section's first float in the vector
    row_width: int  # floats per row of the section
    scale: str  # how the game value maps to the float
    description: str

    @property
    def key(self) -> str:
        return f"{self.section}.{self.name}"

    def index(self, row: int = 0, element: int = 0) -> int:
        """Absolute index of ``element`` of this feature in row ``row``."""
        if not 0 <= row < self.rows:
            raise IndexError(f"{self.key}: row {row} outside [0, {self.rows})")
        if not 0 <= element < self.size:
            raise IndexError(f"{self.key}: element {element} outside [0, {self.size})")
        return self.section_offset + row * self.row_width + self.offset + element


class _Section:
    """Collects the features of one section while it is declared (see ``_Spec.section``)."""

    def __init__(self, spec: _Spec, name: str, rows: int, row: str) -> None:
        self.spec, self.name, self.rows, self.row = spec, name, rows, row
        self.base = spec.size
        self.width = 0
        self._pending: list[tuple[str, int, int, str, str]] = []

    def feat(self, name: str, size: int = 1, scale: str = "0/1", doc: str = "") -> int:
        """Declare the next ``size`` floats of each row; returns their offset in the row."""
        off = self.width
        self._pending.append((name, off, size, scale, doc))
        self.width += size
        return off

    def reserve(self, size: int = 1) -> None:
        """Floats kept unused so that the layout of later features does not move."""
        self.feat(f"reserved_{self.width}", size, "always 0", "unused")

    def __enter__(self) -> _Section:
        return self

    def __exit__(self, *exc: object) -> None:
        for name, off, size, scale, doc in self._pending:
            self.spec.features.append(Feature(self.name, name, off, size, self.rows,
                                              self.base, self.width, scale, doc))
        self.spec.sections.append((self.name, self.base, self.rows, self.width, self.row))
        self.spec.size += self.rows * self.width


class _Spec:
    def __init__(self) -> None:
        self.features: list[Feature] = []
        self.sections: list[tuple[str, int, int, int, str]] = []
        self.size = 0

    def section(self, name: str, rows: int = 1, row: str = "") -> _Section:
        return _Section(self, name, rows, row)


_OBS = _Spec()

with _OBS.section("global") as s:
    G_ROUND = s.feat("round", scale="/ round cap", doc="the round number")
    G_TURN = s.feat("turn", 5, "one-hot", "the part of the round running (setup, "
                    "villain, hero, issue, over)")
    G_N_HEROES = s.feat("n_heroes", scale="/ 6", doc="heroes in the game")
    G_VILLAIN_SIDE = s.feat("villain_side", doc="1 once the villain card is revealed")
    G_VILLAIN_HIDDEN = s.feat("villain_hidden", scale="/ 6", doc="hidden tokens left")
    G_VILLAIN_JUSTICE = s.feat("villain_justice", scale="fraction of danger",
                               doc="justice on the hidden villain")
    G_VILLAIN_DAMAGE = s.feat("villain_damage", scale="fraction of health",
                              doc="damage on the revealed villain")
    G_VILLAIN_IN_PANEL = s.feat("villain_in_panel", doc="the villain figure stands in a "
                                "scheme panel")
    G_VILLAIN_PANEL = s.feat("villain_panel", 6, "one-hot", "the panel the villain schemes "
                             "in, 1-6 (its own, else the nearest); all zero while the figure "
                             "is off the map")
    s.reserve()
    G_MINION_SUPPLY = s.feat("minion_supply", scale="/ 10", doc="minions in the supply")
    G_BYSTANDER_SUPPLY = s.feat("bystander_supply", scale="/ 8",
                                doc="bystanders in the supply")
    G_BYSTANDERS_DEFEATED = s.feat("bystanders_defeated", scale="/ 8",
                                   doc="bystanders defeated")
    G_COUNTERS = s.feat("counters", 4, "/ loss threshold", "the issue's counters")
    G_ISSUE_DECK = s.feat("issue_deck", scale="/ issue deck size", doc="issue cards left")
    G_VILLAIN_DECK = s.feat("villain_deck", scale="/ villain deck size",
                            doc="villain cards left to draw")
    G_CLUE_DECK = s.feat("clue_deck", scale="/ clue list size", doc="clue cards left")
    G_OWN_ACTIONS = s.feat("own_actions", scale="/ 2", doc="actions self has left")
    G_OWN_YIELDS = s.feat("own_yields", scale="fraction of the yield cap",
                          doc="initiative yields self has used")
    G_DECIDING = s.feat("deciding", doc="self owns the pending decision")
    G_NEMESES = s.feat("nemeses_in_play", scale="/ 2",
                       doc="nemeses in play (the villain cannot fall while any is)")
    G_CRISIS_AREA = s.feat("crisis_area", scale="/ 4",
                           doc="deck cards with the Crisis trait in the issue play area")
    s.reserve()
    G_ROLL_KIND = s.feat("roll_kind", 2, "one-hot", "the roll in progress: attack, solve")
    G_ROLL_SUCCESSES = s.feat("roll_successes", scale="/ 10", doc="successes so far")
    G_ROLL_FOCUS = s.feat("roll_focus", scale="/ 10", doc="focus spent on the roll")
    G_ROLL_DICE = s.feat("roll_dice", scale="/ 10", doc="dice in the roll")
    G_DECISION_A = s.feat("decision_a", scale="/ 10", doc="first context number of the "
                          "pending decision (docs/engine.md, Decisions)")
    G_DECISION_B = s.feat("decision_b", scale="/ 10", doc="second context number")
    G_DECISION_KIND = s.feat("decision_kind", 16, "one-hot",
                             "kind of the pending decision "
                             "(layout.DECISION_NAMES)")
    G_SEAT = s.feat("seat", MAX_HEROES, "one-hot", "self's seat")

with _OBS.section("spaces", MAX_SPACES, "board space") as s:
    SPACE_ON_MAP = s.feat("on_map", doc="the space exists on this issue's board")
    SPACE_START = s.feat("start_space")
    SPACE_PERIL_SPACE = s.feat("peril_space")
    SPACE_BYSTANDER_SPACE = s.feat("bystander_space")
    SPACE_SCHEME_SPACE = s.feat("scheme_space")
    SPACE_SELF_HERO = s.feat("self_hero", scale="count", doc="self stands here")
    SPACE_OTHER_HEROES = s.feat("other_heroes", scale="count", doc="other heroes here")
    SPACE_BYSTANDER = s.feat("bystander", doc="a bystander (or a bystander character) here")
    SPACE_PERIL = s.feat("peril", doc="a Peril card's token here")
    SPACE_LACKEYS = s.feat("lackeys", scale="count", doc="lackey figures here")
    SPACE_LACKEY_DAMAGE = s.feat("lackey_damage", scale="fraction of health",
                                 doc="most damaged lackey here")
    SPACE_VILLAIN = s.feat("villain", doc="the villain figure stands here")
    SPACE_ISSUE_CARDS = s.feat("issue_cards", scale="count", doc="issue cards placed here")
    SPACE_MINIONS = s.feat("minions", scale="/ 5",
                           doc="minions (normal and special) in this space's panel")
    SPACE_CAPTIVES = s.feat("captives", scale="/ 4", doc="captives in this space's panel "
                            "(a bystander character on a scheme space adds 0.25)")
    SPACE_DISTANCE = s.feat("distance", scale="/ 10", doc="steps from self")
    SPACE_NEMESES = s.feat("nemeses", scale="count", doc="nemesis figures here")
    SPACE_CRISIS_TOKENS = s.feat("crisis_tokens", scale="count",
                                 doc="crisis tokens here (Crisis Cards rule)")

with _OBS.section("self") as s:
    SELF_ON_BOARD = s.feat("on_board", doc="self's figure is on the map")
    SELF_DAMAGE = s.feat("damage", scale="fraction of health")
    SELF_HEALTH = s.feat("health", scale="/ 20")
    SELF_FOCUS = s.feat("focus", scale="/ 5")
    SELF_SIDE = s.feat("side", doc="1 when the Hero card is flipped")
    SELF_ATTACK_DICE = s.feat("attack_dice", scale="/ 6")
    SELF_SOLVE_DICE = s.feat("solve_dice", scale="/ 6")
    SELF_DECK = s.feat("deck", scale="/ hero deck size", doc="cards left in the hero deck")
    SELF_EXHAUSTED = s.feat("hero_card_exhausted")
    SELF_THREATS = s.feat("threats", scale="/ 6", doc="cards in self's threat area")
    SELF_ARMOR = s.feat("armor", scale="/ 3")
    SELF_MOVE_BONUS = s.feat("move_bonus", scale="/ 3")
    SELF_THREAT_DONE = s.feat("threat_phase_done")
    SELF_PILOT = s.feat("pilot", doc="on the map as the pilot token (hero forms)")
    SELF_MECH = s.feat("mech", doc="inside the mech (hero forms)")
    SELF_PILOT_DAMAGE = s.feat("pilot_damage", scale="fraction of the pilot's health")
    SELF_HAND = s.feat("hand", HERO_DECK, "multi-hot", "hero deck cards in hand")
    SELF_PLAY = s.feat("play_area", HERO_DECK, "multi-hot", "cards in the play area")
    SELF_PLAY_EXHAUSTED = s.feat("play_area_exhausted", HERO_DECK, "multi-hot",
                                 "exhausted cards in the play area")
    SELF_DISCARD = s.feat("discard", HERO_DECK, "multi-hot", "cards in the discard pile")
    SELF_CLUES = s.feat("clues", CLUE_LIST, "count", "clue cards held, per clue list entry")

with _OBS.section("others", MAX_HEROES - 1, "other seat, in seat order after self") as s:
    OTHER_PRESENT = s.feat("present", doc="the seat exists")
    OTHER_ON_BOARD = s.feat("on_board")
    OTHER_DAMAGE = s.feat("damage", scale="fraction of health")
    OTHER_FOCUS = s.feat("focus", scale="/ 5")
    OTHER_SIDE = s.feat("side")
    OTHER_ACTIONS = s.feat("actions", scale="/ 2")
    OTHER_HAND_SIZE = s.feat("hand_size", scale="/ 10")
    OTHER_CLUES = s.feat("clues", scale="/ 5")
    OTHER_THREATS = s.feat("threats", scale="/ 6")
    OTHER_THREAT_DONE = s.feat("threat_phase_done")
    OTHER_DISTANCE = s.feat("distance", scale="/ 10")
    OTHER_DECIDING = s.feat("deciding")
    OTHER_PILOT = s.feat("pilot")
    OTHER_MECH = s.feat("mech")
    OTHER_PILOT_DAMAGE = s.feat("pilot_damage", scale="fraction of the pilot's health")

with _OBS.section("villain_cards", VDECK, "villain deck card") as s:
    VCARD_OWN_THREAT = s.feat("own_threat_area")
    VCARD_OTHER_THREAT = s.feat("other_threat_area")
    VCARD_DISCARD = s.feat("discard")
    VCARD_DAMAGE = s.feat("damage", scale="fraction of health")
    VCARD_JUSTICE = s.feat("justice", scale="fraction of danger")
    VCARD_EXHAUSTED = s.feat("exhausted")
    VCARD_ASIDE = s.feat("in_play_elsewhere", doc="pending, attached or in the issue area")
    VCARD_DISTANCE = s.feat("distance", scale="/ 10")

with _OBS.section("issue_cards", IDECK, "issue deck card") as s:
    ICARD_OWN_THREAT = s.feat("own_threat_area")
    ICARD_OTHER_THREAT = s.feat("other_threat_area")
    ICARD_FLIPPED = s.feat("flipped")
    ICARD_DAMAGE = s.feat("damage", scale="/ 5")
    ICARD_JUSTICE = s.feat("justice", scale="fraction of danger")
    ICARD_EXHAUSTED = s.feat("exhausted")
    ICARD_REMOVED = s.feat("removed")
    ICARD_DISTANCE = s.feat("distance", scale="/ 10")

with _OBS.section("nemeses", NEMESES, "nemesis slot") as s:
    NEM_OWN_THREAT = s.feat("own_threat_area")
    NEM_OTHER_THREAT = s.feat("other_threat_area")
    NEM_ENEMY = s.feat("enemy_side", doc="the nemesis is on its enemy side")
    NEM_DAMAGE = s.feat("damage", scale="fraction of health")
    NEM_JUSTICE = s.feat("justice", scale="fraction of danger")
    NEM_EXHAUSTED = s.feat("exhausted")
    NEM_DEFEATED = s.feat("defeated")
    NEM_DISTANCE = s.feat("distance", scale="/ 10")
    NEM_LEFT = s.feat("left_to_overcome", scale="/ 10", doc="danger or health left")
    NEM_INFLICT = s.feat("inflict", scale="/ 5")

with _OBS.section("special_minions", SPECIAL_MINIONS, "special Minion card") as s:
    SMIN_PRESENT = s.feat("present")
    SMIN_HEALTH = s.feat("health", scale="/ 5")
    SMIN_INFLICT = s.feat("inflict", scale="/ 5")
    SMIN_SUPPLY = s.feat("supply", scale="/ 5", doc="figures in the supply")
    SMIN_PANEL_FIGURES = s.feat("panel_figures", MAX_PANELS, "/ 5", "figures per panel 1-6")
    SMIN_PANEL_DAMAGE = s.feat("panel_damage", MAX_PANELS, "fraction of health",
                               "damage on the wounded figure per panel 1-6")

with _OBS.section("allies", MAX_HEROES, "seat, self first, then in seat order") as s:
    ALLY_PRESENT = s.feat("present", doc="the seat has an Ally card")
    ALLY_ON_MAP = s.feat("on_map")
    ALLY_DAMAGE = s.feat("damage", scale="fraction of health")
    ALLY_HEALTH = s.feat("health", scale="/ 10")
    ALLY_ATTACK = s.feat("attack", scale="/ 5")
    ALLY_SOLVE = s.feat("solve", scale="/ 5")
    ALLY_EXHAUSTED = s.feat("exhausted")
    ALLY_DISTANCE = s.feat("distance", scale="/ 10")

with _OBS.section("ally_figures") as s:
    ALLY_PLANE = s.feat("plane", MAX_SPACES, "0/1 per space", "spaces with an ally figure")

with _OBS.section("crises", MAX_CRISES, "crisis card slot, in the order added") as s:
    CRISIS_PRESENT = s.feat("present")
    CRISIS_HAS_DANGER = s.feat("has_danger")
    CRISIS_SOLVED = s.feat("solved")
    CRISIS_DANGER = s.feat("danger", scale="/ 10")
    CRISIS_JUSTICE = s.feat("justice", scale="fraction of danger")
    CRISIS_NEEDED = s.feat("justice_needed", scale="/ 10")
    CRISIS_DISTANCE = s.feat("distance", scale="/ 10", doc="steps to its crisis token")
    CRISIS_SOLVABLE = s.feat("solvable_here", doc="self can solve it from where it stands")

with _OBS.section("special_bystanders", SPECIAL_BYSTANDERS, "special Bystander card") as s:
    SBY_PRESENT = s.feat("present")
    SBY_HAS_RESCUED = s.feat("has_rescued_effect")
    SBY_HAS_CAPTURED = s.feat("has_captured_effect")
    SBY_HAS_DEFEATED = s.feat("has_defeated_effect")
    SBY_SUPPLY = s.feat("supply", scale="/ 4", doc="its figures in the supply")
    SBY_ON_MAP = s.feat("on_map", scale="/ 4")
    SBY_CAPTURED = s.feat("captured", scale="/ 4")
    SBY_DEFEATED = s.feat("defeated", scale="/ 4")
    SBY_PANEL_CAPTIVES = s.feat("panel_captives", MAX_PANELS, "/ 4", "captives per panel 1-6")
    SBY_PLANE = s.feat("plane", MAX_SPACES, "0/1 per space", "spaces with one of its figures")

# Who each hero is, not only where it sits: a shared actor needs it to read the hand
# multi-hot (card c is the c-th card of *this* hero's deck). Appended last so that every
# earlier offset stays as it was in v2.
with _OBS.section("hero_identity", MAX_HEROES, "seat, self first, then in seat order") as s:
    HERO_ID = s.feat("hero", MAX_ROSTER, "one-hot", "the hero's index in the content's hero "
                     "roster (`Scenario.hero_roster`: the content directory's hero ids, "
                     "sorted); all zero for an empty seat")
# The Mastermind variant (rules villain_agent): all zeros in the rulebook's game. Heroes
# see the villain's hand size only; the villain's own view adds its hand.
with _OBS.section("villain_agent") as s:
    VA_ON = s.feat("on", doc="the villain is an agent (Mastermind variant)")
    VA_OBSERVER = s.feat("observer_is_villain", doc="this is the villain's own view")
    VA_HAND_SIZE = s.feat("hand_size", scale="/ 10", doc="villain cards in the villain's hand")
    VA_HAND_CAP = s.feat("hand_cap", scale="/ 10", doc="cards the villain's hand holds")
    VA_DECIDING = s.feat("villain_deciding", doc="the villain decides now")
    VA_PLAY = s.feat("villain_play", doc="the pending decision is the villain's card choice")
    VA_SHOWDOWN = s.feat("showdown", doc="that choice answers an attack (dice step 5)")
    VA_CARD_FOR = s.feat("card_for", MAX_HEROES, "one-hot", "the hero the villain's card "
                         "resolves against: egocentric seat for a hero, seat for the villain")
    VA_HAND = s.feat("hand", VDECK, "multi-hot", "villain deck cards in the villain's hand "
                     "(the villain's own view only)")
    VA_HERO_HANDS = s.feat("hero_hand_sizes", MAX_HEROES, "/ 10", "cards in each seat's "
                           "hand (the villain's own view only; a hero sees them in others)")
# The Fame variant (rules fame): all zeros with the rule off. Everything in it is public.
N_FAME_COUNTERS = len(HERO_COUNTER_NAMES)
with _OBS.section("fame") as s:
    FA_ON = s.feat("on", doc="the Fame variant is on: each hero keeps its own score")
    FA_MODE = s.feat("reward_mode", 3, "one-hot", "the reward mode: team, fame, rank")
    FA_HEADLINES = s.feat("headlines", scale="/ 4", doc="headlines dealt in this game")
with _OBS.section("fame_seats", MAX_HEROES, "seat, self first, then in seat order") as s:
    FS_FAME = s.feat("fame", scale="/ 10", doc="the hero's fame so far when positive (end-of-"
                     "game awards included once the game is over)")
    FS_FAME_BELOW = s.feat("fame_below_zero", scale="/ 10", doc="minus the hero's fame when "
                           "negative (defeats cost fame; the observation stays >= 0)")
    FS_LEADER = s.feat("leader", doc="the hero leads on fame (ties: villain damage, then the "
                       "highest seat), who would win the rank mode now")
    FS_COUNTERS = s.feat("counters", N_FAME_COUNTERS, "/ 10", "what the hero did so far, "
                         "in `layout.HERO_COUNTER_NAMES` order: " + ", ".join(HERO_COUNTER_NAMES))
with _OBS.section("fame_headlines", MAX_HEADLINES, "headline slot") as s:
    FH_PRESENT = s.feat("present", doc="a headline is dealt in this slot")
    FH_COUNTER = s.feat("counter", N_FAME_COUNTERS, "one-hot", "the counter it watches "
                        "(`layout.HERO_COUNTER_NAMES`)")
    FH_AT_LEAST = s.feat("at_least", scale="/ 10", doc="the count that finishes it")
    FH_NEXT_VALUE = s.feat("next_value", scale="/ 3", doc="fame the next hero to finish it earns")
    FH_FINISHERS = s.feat("finishers", scale="/ 6", doc="heroes who finished it")
    FH_MINE = s.feat("finished_by_self", doc="self has finished it")
    FH_OWN = s.feat("own_progress", scale="fraction of at_least, at most 1",
                    doc="self's count on its counter")
    FH_BEST_OTHER = s.feat("best_other_progress", scale="fraction of at_least, at most 1",
                           doc="the highest count of another hero")
# Enemy movement ties the villain breaks (rules villain_agent, enemy_ties "villain"): all
# zeros unless the option is on. Public: every seat sees it.
with _OBS.section("enemy_ties") as s:
    ET_ON = s.feat("on", doc="the villain breaks enemy movement ties in this game")
    ET_TARGET = s.feat("target_choice", doc="pending: the villain picks which of the targets "
                       "tied for nearest an enemy moves toward (`enemy_target`)")
    ET_STEP = s.feat("step_choice", doc="pending: the villain picks the moving enemy's next "
                     "space among tied shortest paths (`enemy_step`)")
    ET_VILLAIN = s.feat("mover_is_villain", doc="the moving figure is the villain (it passes "
                        "figures)")
    ET_STEPS = s.feat("steps_left", scale="/ 10", doc="spaces the moving figure may still move")
    ET_MOVER = s.feat("mover_space", MAX_SPACES, "one-hot", "the moving figure's space now")
    ET_DEST = s.feat("target_space", MAX_SPACES, "one-hot", "the space of the target it moves "
                     "toward (a step choice)")
# What each card of self's deck is, so that one policy can play any hero (the hand, play
# area and discard multi-hots of ``self`` index these slots). Constant for a hero.
with _OBS.section("own_cards", HERO_DECK, "self's hero deck card, in the slots of the "
                  "`self` multi-hots") as s:
    OC_CONSTANT = s.feat("constant", doc="a Constant card (stays in play); else an Instant")
    OC_ACTION = s.feat("action", doc="playing it costs an action")
    OC_UNIQUE = s.feat("unique", doc="one copy in play at most")
    OC_FEATS = s.feat("feats", len(FEAT_NAMES), "multi-hot", "feat keywords it can be "
                      "discarded for: " + ", ".join(FEAT_NAMES))
    OC_PASSIVE = s.feat("passive", 5, "/ 3", "while in play: extra attack dice, solve dice, "
                        "move, armor, pierce")
    OC_ABILITY = s.feat("ability", 3, "one-hot", "its ability while in play: an action, an "
                        "exhaust or a passive one (none: all 0)")
    OC_PLAY_FX = s.feat("play_effect", len(HERO_OPS), "/ 3", "what playing it does, per hero "
                        "op (" + ", ".join(HERO_OPS) + "): the op's amount (n; 1 + extra dice "
                        "for attack and solve; 1 for the others), summed")
    OC_ABILITY_FX = s.feat("ability_effect", len(HERO_OPS), "/ 3", "the same for its "
                           "ability's effect")
# The Two Fronts variant (two villains): all zeros with one villain. Everything is public.
with _OBS.section("two_fronts") as s:
    TF_ON = s.feat("on", doc="two villains on the board (the Two Fronts variant)")
    TF_SIDE = s.feat("villain2_side", doc="1 once the second Villain card is revealed")
    TF_HIDDEN = s.feat("villain2_hidden", scale="/ 6", doc="hidden tokens on the second "
                       "Villain card")
    TF_JUSTICE = s.feat("villain2_justice", scale="fraction of danger",
                        doc="justice on the hidden second villain")
    TF_DAMAGE = s.feat("villain2_damage", scale="fraction of health",
                       doc="damage on the revealed second villain")
    TF_IN_PANEL = s.feat("villain2_in_panel", doc="the second villain's figure stands in a "
                         "scheme panel")
    TF_PANEL = s.feat("villain2_panel", 6, "one-hot", "the panel the second villain schemes "
                      "in, 1-6; all zero while its figure is off the map or it is defeated")
    TF_DECK = s.feat("villain2_deck", scale="/ villain deck size",
                     doc="the second villain's cards left to draw")
    TF_DEFEATED = s.feat("defeated", 2, "multi-hot", "each villain (first, second) is defeated")
    TF_HERO_COUNT = s.feat("hero_count", 2, "/ 6", "the hero count of each villain's per-hero "
                           "values (the heroes facing it, at least the floor)")
    TF_MAY_TURN = s.feat("self_may_turn", doc="self may turn around (given an action left): "
                         "another hero faces the villain self faces")
with _OBS.section("two_fronts_seats", MAX_HEROES, "seat, self first, then in seat order") as s:
    TS_FACES = s.feat("faces", 2, "one-hot", "the villain the hero faces (first, second)")
with _OBS.section("two_fronts_spaces", MAX_SPACES, "board space") as s:
    TP_VILLAIN2 = s.feat("villain2", doc="the second villain's figure stands here")
    TP_LACKEYS2 = s.feat("lackeys2", scale="count", doc="the second villain's lackey "
                         "figures here")
    TP_LACKEY2_DAMAGE = s.feat("lackey2_damage", scale="fraction of health",
                               doc="most damaged of the second villain's lackeys here")
    TP_PERIL2 = s.feat("peril2", doc="a token of the second villain's Peril card here")
with _OBS.section("villain2_cards", VDECK, "the second villain's deck card") as s:
    # the row layout of ``villain_cards`` (the encoder writes both with one function)
    for _name, _doc in (("own_threat_area", ""), ("other_threat_area", ""), ("discard", ""),
                        ("damage", ""), ("justice", ""), ("exhausted", ""),
                        ("in_play_elsewhere", "pending, attached or in the issue area"),
                        ("distance", "")):
        s.feat(_name, scale={"damage": "fraction of health", "justice": "fraction of danger",
                             "distance": "/ 10"}.get(_name, "0/1"), doc=_doc)
# The Draft variant (rules draft): all zeros without it. While the seats draft, no game is
# set up yet and every other section is zero. Hidden: in modes deal and pass a seat sees
# only its own (its player's) offer, and the others' picks once the game is set up.
DRAFT_MODE_NAMES = ("random", "deal", "pick")
with _OBS.section("draft") as s:
    DR_ON = s.feat("on", doc="the heroes are drafted (Draft variant)")
    DR_MODE = s.feat("mode", len(DRAFT_MODE_NAMES), "one-hot", "the draft mode: "
                     + ", ".join(DRAFT_MODE_NAMES))
    DR_DRAFTING = s.feat("drafting", doc="the draft is under way (no game set up yet)")
    DR_DECIDING = s.feat("deciding", doc="self picks now")
    DR_PICKED = s.feat("picks_made", scale="/ 6", doc="seats that have picked")
    DR_SEAT = s.feat("seat", MAX_HEROES, "one-hot", "self's seat (seats pick in seat order)")
DRAFT_WHERE_NAMES = ("offered_to_self", "open", "unavailable")
with _OBS.section("draft_pool", MAX_DRAFT_POOL, "hero of the draft pool, in the pool's "
                  "order (`Scenario.rules['draft']['pool']`)") as s:
    DP_PRESENT = s.feat("present", doc="a pool hero is in this slot")
    DP_HERO = s.feat("hero", MAX_ROSTER, "one-hot", "the hero's index in the content's hero "
                     "roster")
    DP_WHERE = s.feat("where", len(DRAFT_WHERE_NAMES), "one-hot", "untaken and dealt or "
                      "passed to self (deal, pass: to either seat of self's player) / "
                      "untaken in the open pool (pick) / not takeable by self: dealt face "
                      "down to another seat, left the game, or taken by a seat whose pick "
                      "is still hidden (deal, pass)")
    DP_TAKEN_BY = s.feat("taken_by", MAX_HEROES, "one-hot", "the seat that took it, self first "
                         "then in seat order (deal: another seat's pick shows once the game "
                         "is set up)")
# The Draft variant's mode pass (env v7): each player plays two seats; all zeros otherwise.
# ``draft.mode`` stays zero in this mode (its one-hot predates it).
with _OBS.section("draft_pass") as s:
    DS_ON = s.feat("on", doc="the heroes are drafted in mode pass (deal, keep one, pass the "
                   "rest to the next player, take a second)")
    DS_PLAYER = s.feat("player", MAX_HEROES // 2, "one-hot", "self's player (seats 2p and "
                       "2p + 1 belong to player p)")
    DS_SECOND = s.feat("second_seat", doc="self is its player's second hero (it takes from "
                       "what was passed)")
    DS_PASSED = s.feat("passed", doc="every player has kept a hero and passed the rest on")
    DS_PASSED_ON = s.feat("passed_on", MAX_DRAFT_POOL, "multi-hot", "pool heroes self's "
                          "player passed on (in the pool's order)")

OBS_FEATURES: tuple[Feature, ...] = tuple(_OBS.features)
OBS_SECTIONS: tuple[tuple[str, int, int, int, str], ...] = tuple(_OBS.sections)
OBS_DIM = _OBS.size

# section bases and row widths, the numbers the encoder's loops need
_BASE = {name: (base, width) for name, base, _, width, _ in OBS_SECTIONS}
OFF_GLOBAL, N_GLOBAL = _BASE["global"]
OFF_SPACES, SPACE_FEATS = _BASE["spaces"]
OFF_SELF, N_SELF = _BASE["self"]
OFF_OTHERS, OTHER_FEATS = _BASE["others"]
OFF_VCARDS, CARD_FEATS = _BASE["villain_cards"]
OFF_ICARDS = _BASE["issue_cards"][0]
OFF_NEMESES, NEM_FEATS = _BASE["nemeses"]
OFF_SMIN, SMIN_FEATS = _BASE["special_minions"]
OFF_ALLIES, ALLY_FEATS = _BASE["allies"]
OFF_ALLY_PLANE = _BASE["ally_figures"][0]
OFF_CRISES, CRISIS_FEATS = _BASE["crises"]
OFF_SBY, SBY_FEATS = _BASE["special_bystanders"]
OFF_HERO_ID, HERO_ID_FEATS = _BASE["hero_identity"]
OFF_VA = _BASE["villain_agent"][0]
OFF_FAME = _BASE["fame"][0]
OFF_FAME_SEATS, FAME_SEAT_FEATS = _BASE["fame_seats"]
OFF_FAME_HEADLINES, FAME_HEADLINE_FEATS = _BASE["fame_headlines"]
OFF_ET = _BASE["enemy_ties"][0]
OFF_OWN_CARDS, OWN_CARD_FEATS = _BASE["own_cards"]
OFF_TWO_FRONTS = _BASE["two_fronts"][0]
OFF_TF_SEATS, TF_SEAT_FEATS = _BASE["two_fronts_seats"]
OFF_TF_SPACES, TF_SPACE_FEATS = _BASE["two_fronts_spaces"]
OFF_VCARDS2 = _BASE["villain2_cards"][0]
assert _BASE["villain2_cards"][1] == CARD_FEATS  # both villains' cards share a row layout
OFF_DRAFT = _BASE["draft"][0]
OFF_DRAFT_POOL, DRAFT_POOL_FEATS = _BASE["draft_pool"]
OFF_DRAFT_PASS = _BASE["draft_pass"][0]
assert _BASE["issue_cards"][1] == CARD_FEATS  # villain and issue cards share a row layout

# The global state: seat 0's observation, then every seat's hand.
_STATE = _Spec()
_STATE.size = OBS_DIM
_STATE.sections.append(("observation", 0, 1, OBS_DIM, "seat 0's observation"))
with _STATE.section("hands", MAX_HEROES, "seat") as s:
    STATE_HAND = s.feat("hand", HERO_DECK, "multi-hot", "hero deck cards in the seat's hand")
OFF_HANDS = _STATE.sections[-1][1]
with _STATE.section("villain_hand") as s:
    STATE_VHAND = s.feat("hand", VDECK, "multi-hot", "villain deck cards in the villain "
                         "agent's hand (Mastermind variant)")
OFF_STATE_VHAND = _STATE.sections[-1][1]
STATE_FEATURES: tuple[Feature, ...] = tuple(_STATE.features)
STATE_DIM = _STATE.size
STATE_TAIL = STATE_DIM - OBS_DIM  # the state's floats after seat 0's observation

_BY_KEY = {f.key: f for f in OBS_FEATURES}
_STATE_BY_KEY = {f.key: f for f in STATE_FEATURES}


def observation_spec() -> tuple[Feature, ...]:
    """Every feature of the observation vector, in order (``float32[OBS_DIM]``)."""
    return OBS_FEATURES


def state_spec() -> tuple[Feature, ...]:
    """The global state's own features after seat 0's observation (``float32[STATE_DIM]``).

    ``state[:OBS_DIM]`` is seat 0's observation (``observation_spec``).
    """
    return STATE_FEATURES


def feature(key: str) -> Feature:
    """The feature named ``"section.name"`` (e.g. ``"spaces.crisis_tokens"``)."""
    found = _BY_KEY.get(key) or _STATE_BY_KEY.get(key)
    if found is None:
        sections = sorted({f.section for f in OBS_FEATURES + STATE_FEATURES})
        raise KeyError(f"no observation feature {key!r}; features are 'section.name' with "
                       f"section one of {sections}")
    return found


def feature_index(key: str, row: int = 0, element: int = 0) -> int:
    """Absolute index of ``element`` of feature ``key`` in row ``row``.

    >>> from hon_env.spec.obs_features import feature_index
    >>> feature_index("global.round")
    0
    """
    return feature(key).index(row, element)


def feature_slice(key: str, row: int = 0) -> slice:
    """The slice of the vector that feature ``key`` spans in row ``row``."""
    f = feature(key)
    start = f.index(row)
    return slice(start, start + f.size)


def read(vector, key: str, row: int = 0):
    """The value of feature ``key`` in row ``row`` of an observation or state vector: a
    float for a one-float feature, else the feature's slice (a view).

    >>> import numpy as np
    >>> read(np.arange(OBS_DIM, dtype=np.float32), "global.seat").shape
    (6,)
    """
    f = feature(key)
    if f.size == 1:
        return float(vector[f.index(row)])
    return vector[feature_slice(key, row)]


def read_row(vector, section: str, row: int = 0) -> dict:
    """Every feature of row ``row`` of ``section``, by name (``read`` of each)."""
    feats = [f for f in OBS_FEATURES + STATE_FEATURES
             if f.section == section and not f.name.startswith("reserved_")]
    if not feats:
        feature(f"{section}.?")  # raises, listing the sections
    return {f.name: read(vector, f.key, row) for f in feats}


def spec_markdown() -> str:
    """``docs/observation.md``: the observation and state tables, generated from the spec."""
    lines = ["# Observation and state features", "",
             "Generated by `python scripts/catalogue.py` from "
             "`hon_env/spec/obs_features.py`; do not edit by hand.", "",
             f"The observation is `float32[{OBS_DIM}]`, egocentric: the observing hero is "
             "*self*. The global state (`state()`) is `float32"
             f"[{STATE_DIM}]`: seat 0's observation followed by the sections below it. "
             "Look a feature up with `hon_env.feature_index(\"section.name\", row)`. "
             "`vector_env(..., compact=True)` cuts both vectors before the Two Fronts and "
             "Draft sections where the games play without those rules "
             "(`hon_env/spec/compact.py`).", ""]
    for title, feats, sections in (("Observation", OBS_FEATURES, OBS_SECTIONS),
                                   ("State", STATE_FEATURES, _STATE.sections[1:])):
        lines += [f"## {title}", ""]
        for name, base, rows, width, row in sections:
            shape = f"{rows} x {width}" if rows > 1 else f"{width}"
            per = f", one row per {row}" if row else ""
            lines += [f"### `{name}` (offset {base}, {shape} floats{per})", "",
                      "| offset in row | feature | size | scale | meaning |",
                      "|---|---|---|---|---|"]
            for f in feats:
                if f.section == name:
                    lines.append(f"| {f.offset} | `{f.name}` | {f.size} | {f.scale} | "
                                 f"{f.description} |")
            lines.append("")
    return "\n".join(lines)
