"""Compile a scenario (heroes, villain, issue, clues, nemeses, rules) into the engine's ``Tables``.

``load_scenario("origin_story")`` reads ``configs/scenarios/origin_story.yaml`` and the
content files it names, validates everything (``loader.py``), compiles every effect into one
shared program table (``effects.py``) and fills the fixed-capacity int32 arrays described in
``tables.py``. The returned ``Scenario`` also carries the names humans need (cards, panels,
spaces) in the same order as the tables.

Rules and caps that the rulebook leaves to us are in ``DEFAULT_RULES`` / ``DEFAULT_CAPS``;
a scenario's ``rules:``/``caps:`` and the keyword arguments override them key by key.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

import numpy as np

from hon_env.content import cache
from hon_env.content.board import Board, resolve_location
from hon_env.content.draft import (
    PLAYER_AGENT,
    SEAT_AGENT,
    SEATS_PER_PLAYER,
    DraftRule,
    check_draft,
    draft_mode_code,
    draft_teams,
    resolve_draft,
)
from hon_env.content.effects import Effect, ProgramStore
from hon_env.content.errors import Where, as_list, as_mapping, check_int, check_str, type_name
from hon_env.content.fame import (
    FameRule,
    Headline,
    check_fame,
    fame_mode,
    fame_table,
    headline_table,
    load_headlines,
)
from hon_env.content.loader import (
    KIND_DIRS,
    Ability,
    AllyCard,
    Clues,
    CrisisCard,
    Hero,
    HeroCard,
    HeroSide,
    Issue,
    IssueCard,
    Nemesis,
    SchemeCard,
    SpecialBystander,
    SpecialMinion,
    Villain,
    VillainCard,
    check_hero_ids,
    check_nemesis_ids,
    content_root,
    display_path,
    list_content,
    load_ally,
    load_bystander,
    load_clues,
    load_crisis,
    load_hero,
    load_issue,
    load_minion,
    load_nemesis,
    load_villain,
    parse_scenario,
    scenario_path,
)
from hon_env.content.two_fronts import (
    check_two_fronts,
    resolve_villains,
    two_fronts_cfg,
    villain_ids,
)
from hon_env.content.villain_agent import (
    VILLAIN_AGENT,
    check_villain_agent,
    villain_agent_cfg,
)
from hon_env.spec.tables import (
    ABIL_NONE,
    AL_ABILITY,
    AL_ABILITY_PROG,
    AL_ATTACK,
    AL_HEALTH,
    AL_NCOLS,
    AL_PRESENT,
    AL_SOLVE,
    BACK_NONE,
    CFG_BYSTANDERS,
    CFG_CRISIS_PROG,
    CFG_DRAFT_MODE,
    CFG_DRAFT_OFFER,
    CFG_DRAFT_POOL,
    CFG_FOCUS_CAP,
    CFG_FOCUS_TO_FLIP,
    CFG_HAND_SIZE,
    CFG_LOSS_AT_LEAST,
    CFG_LOSS_COUNTER,
    CFG_MAX_DECISIONS,
    CFG_MAX_MAP_BYSTANDERS,
    CFG_MAX_ROUNDS,
    CFG_MAX_YIELDS,
    CFG_MINION_HEALTH,
    CFG_MINION_INFLICT,
    CFG_MINIONS,
    CFG_MOVE,
    CFG_N_COLS,
    CFG_N_HEROES,
    CFG_N_NEMESES,
    CFG_N_PANELS,
    CFG_N_SCHEMES,
    CFG_N_SPACES,
    CFG_N_VILLAINS,
    CFG_NEMESIS_POOL,
    CFG_SETUP_PROG,
    CFG_START_SPACE,
    CFG_TOUGHNESS,
    CFG_VHAND,
    CL_ATTACK_DICE,
    CL_NCOLS,
    CL_PRESENT,
    CL_PROG,
    CL_SOLVE_DICE,
    CLUE_COPIES,
    CLUE_DECK,
    CLUE_LIST,
    COLOR_NAMES,
    CR_CRISIS_PROG,
    CR_DANGER,
    CR_DANGER_PH,
    CR_NCOLS,
    CR_PRESENT,
    CR_SETUP_PROG,
    CR_SOLVED_PROG,
    CR_TOKEN,
    DECK_CRISES,
    HC_ABILITY,
    HC_ABILITY_PROG,
    HC_ACTION,
    HC_ARMOR,
    HC_ATTACK_DICE,
    HC_CONSTANT,
    HC_FEATS,
    HC_FORM,
    HC_MOVE,
    HC_NAME_ID,
    HC_NCOLS,
    HC_PIERCE,
    HC_PLAY_PROG,
    HC_SOLVE_DICE,
    HC_UNIQUE,
    HERO_DECK,
    HS_ABILITY,
    HS_ABILITY_PROG,
    HS_ARMOR,
    HS_ATTACK,
    HS_ATTACK_DICE,
    HS_FORM,
    HS_HEALTH,
    HS_MOVE,
    HS_NCOLS,
    HS_PIERCE,
    HS_SOLVE,
    HS_SOLVE_DICE,
    IC_ACTIVATE_PROG,
    IC_BACK,
    IC_BACK_ACTIVATE_PROG,
    IC_BACK_DANGER,
    IC_BACK_DANGER_PH,
    IC_BACK_DEFENSE,
    IC_BACK_HEALTH,
    IC_BACK_HEALTH_PH,
    IC_BACK_INFLICT,
    IC_BYSTANDER,
    IC_CAPTURED_PROG,
    IC_CRISIS_PROG,
    IC_DANGER,
    IC_DANGER_PH,
    IC_EFFECT_PROG,
    IC_LOCATION,
    IC_NCOLS,
    IC_PANEL,
    IC_PRESENT,
    IC_RESCUED_PROG,
    IC_STAYS,
    IC_TYPE,
    IDECK,
    IT_ISSUE,
    IT_SCHEME,
    MAX_CRISES,
    MAX_DRAFT_POOL,
    MAX_HEROES,
    MAX_PANELS,
    MAX_PLOYS,
    MAX_ROSTER,
    MAX_SPACES,
    NEMESES,
    NEMESIS_POOL,
    NM_ACTIVATE_PROG,
    NM_DANGER,
    NM_DANGER_PH,
    NM_DEFENSE,
    NM_HEALTH,
    NM_HEALTH_PH,
    NM_INFLICT,
    NM_NCOLS,
    NM_PRESENT,
    NM_SCHEME_PROG,
    NM_SETUP_PROG,
    SB_CAPTURED_PROG,
    SB_DEFEATED_PROG,
    SB_NCOLS,
    SB_PRESENT,
    SB_RESCUED_PROG,
    SB_SETUP_PROG,
    SM_DEFEAT_PROG,
    SM_HEALTH,
    SM_INFLICT,
    SM_NCOLS,
    SM_PRESENT,
    SM_SETUP_PROG,
    SP_BYSTANDER,
    SPECIAL_BYSTANDER_TOKENS,
    SPECIAL_BYSTANDERS,
    SPECIAL_MINION_TOKENS,
    SPECIAL_MINIONS,
    TABLES_DTYPE,
    VC_ACTIVATE_PROG,
    VC_ATTACH,
    VC_ATTACH_DEFENSE,
    VC_COLOR,
    VC_CRISIS_PROG,
    VC_DANGER,
    VC_DANGER_PH,
    VC_DEFENSE,
    VC_HEALTH,
    VC_HEALTH_PH,
    VC_INFLICT,
    VC_NCOLS,
    VC_NPLOYS,
    VC_PLOY0,
    VC_PRESENT,
    VC_SCALING,
    VC_SHOWDOWN_PROG,
    VC_SPECIAL_PROG,
    VC_TYPE,
    VCARDS,
    VDECK,
    VILLAIN_SEAT,
    VILLAINS,
    VS_ACTIVATE_PROG,
    VS_DANGER,
    VS_DANGER_PH,
    VS_DEFENSE,
    VS_HEALTH,
    VS_HEALTH_PH,
    VS_NCOLS,
    VS_SCHEMING_INFLICT,
    VS_SHOWDOWN_INFLICT,
    VT_LACKEY,
    VT_PERIL,
    Tables,
    pack_tables,
)

# Rules the rulebook leaves open (or that we make switchable), with their defaults.
DEFAULT_RULES: dict[str, Any] = {
    # Hero die: one [success, focus, burst] triple per face, 6 faces. Our own faces, since
    # the rulebook shows the icons but not the distribution: blank, success, success,
    # success+focus, focus, success+burst.
    "dice_faces": [[0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 1]],
    # Minion tokens in the supply at setup; running out causes a crisis.
    "minions": 10,
    # Bystander tokens in the game: setup puts one on each bystander space of the map, the
    # rest form the supply (so there must be at least one per bystander space).
    "bystanders": 8,
    # Health of a normal minion ("Normal minions have ... 1 health").
    "minion_health": 1,
    # Inflict value of a normal minion ("minions have a base inflict value of 1").
    "minion_inflict": 1,
    # Cards in the opening hand (setup step 1d: "Draw 4 cards").
    "hand_size": 4,
    # Initiative yields allowed per hero per hero turn; bounds the turn so every round ends.
    "max_yields": 2,
    # Spaces per Move action.
    "move": 3,
    # Bystanders allowed on the map; a further one is captured instead (rulebook: 4).
    "max_map_bystanders": 4,
    # Focus tokens a hero may keep.
    "focus_cap": 5,
    # Focus spent to flip the Hero card to its Focused side.
    "focus_to_flip": 5,
    # Damage prevented by discarding a card for its toughness feat.
    "toughness": 3,
    # The Nemesis optional rule: nemeses added to the game, on top of those that 5-6 hero
    # games deal to heroes without a Scheme card (each adds a hidden token; the villain
    # cannot be defeated while one remains).
    "nemeses": 0,
    # "Additional Clue Cards": a second, identical copy of the clue deck (40 cards).
    "extra_clues": False,
    # The Special Minions optional rule: ids of at most 2 special Minion cards
    # (``configs/content/minions/``); each turns 5 of the supply's minions into its own.
    "special_minions": [],
    # The Special Bystanders optional rule: ids of at most 2 special Bystander cards
    # (``configs/content/bystanders/``); each turns 4 of the bystander tokens into its own.
    "special_bystanders": [],
    # The Crisis Cards optional rule: ids of crisis cards (``configs/content/crises/``) added
    # to the issue play area, in order; their Crisis effects follow the issue's.
    "crisis_cards": [],
    # The Allies optional rule: ids of Ally cards (``configs/content/allies/``), one per
    # hero in seat order (the first ally helps seat 0); at most one ally per hero.
    "allies": [],
    # The Mastermind variant: the villain as an agent with a hidden hand of villain cards
    # (``content/villain_agent.py``: True for its defaults, or a mapping of settings).
    "villain_agent": False,
    # The Fame variant: each hero's own score and the reward modes team/fame/rank
    # (``content/fame.py``: True for its defaults, or a mapping of settings).
    "fame": False,
    # The Two Fronts variant: a second villain on the board (``content/two_fronts.py``):
    # its settings, or the second villain's id when the scenario names one villain. Two
    # villains in the scenario's ``villain`` list switch it on with the defaults.
    "two_fronts": False,
    # The Draft variant: heroes chosen inside the episode (``content/draft.py``: a mapping
    # with ``mode`` random/deal/pick, ``pool`` and ``offer``).
    "draft": False,
}

# Inclusive ranges of the integer rules.
RULE_RANGES: dict[str, tuple[int, int]] = {
    "minions": (0, 60),
    "bystanders": (0, 60),
    "minion_health": (1, 10),
    "minion_inflict": (0, 10),
    "hand_size": (0, HERO_DECK),
    "max_yields": (0, 10),
    "move": (1, 12),
    "max_map_bystanders": (0, MAX_SPACES),
    "focus_cap": (0, 20),
    "focus_to_flip": (0, 20),
    "toughness": (0, 10),
    "nemeses": (0, NEMESES),
}
BOOL_RULES = ("extra_clues",)
DIE_FACES = 6
MAX_FACE_COUNT = 3  # successes (or focus, bursts) on one face

# Episode truncation caps.
DEFAULT_CAPS: dict[str, int] = {
    # Rounds (villain, hero and issue turns) before an episode is truncated.
    "max_rounds": 30,
    # Decisions (steps) before an episode is truncated.
    "max_decisions": 5000,
}
CAP_RANGES: dict[str, tuple[int, int]] = {"max_rounds": (1, 10_000),
                                         "max_decisions": (1, 10_000_000)}

_RULE_CFG = {
    "minions": CFG_MINIONS,
    "bystanders": CFG_BYSTANDERS,
    "minion_health": CFG_MINION_HEALTH,
    "minion_inflict": CFG_MINION_INFLICT,
    "hand_size": CFG_HAND_SIZE,
    "max_yields": CFG_MAX_YIELDS,
    "move": CFG_MOVE,
    "max_map_bystanders": CFG_MAX_MAP_BYSTANDERS,
    "focus_cap": CFG_FOCUS_CAP,
    "focus_to_flip": CFG_FOCUS_TO_FLIP,
    "toughness": CFG_TOUGHNESS,
}
_CAP_CFG = {"max_rounds": CFG_MAX_ROUNDS, "max_decisions": CFG_MAX_DECISIONS}

AddEffect = Callable[[Effect], int]


class _Counted(Protocol):
    count: int


C = TypeVar("C", bound=_Counted)
Card = TypeVar("Card")  # a loaded optional card (special minion, crisis card, ally...)


@dataclass(frozen=True)
class Scenario:
    """A compiled scenario: the engine's tables plus the names humans read.

    Immutable, so one object is safely shared (``load_scenario`` caches them): the tables
    are a read-only array, names are tuples, ``rules``/``caps`` read-only mappings (lists
    in them become tuples). Pickling and ``copy.deepcopy`` rebuild the tables record.
    """

    id: str
    tables: np.record  # packed Tables (spec/tables.py pack_tables)
    hero_ids: tuple[str, ...]  # per seat
    hero_names: tuple[str, ...]  # per seat
    hero_roster: tuple[str, ...]  # the content directory's hero ids, sorted: the hero one-hot
    hero_card_names: tuple[tuple[str, ...], ...]  # per seat, HERO_DECK names in hcard order
    villain_id: str
    villain_name: str
    villain_card_names: tuple[str, ...]  # names in vcard order: VDECK, or VCARDS (2 villains)
    issue_id: str
    issue_name: str
    issue_card_names: tuple[str, ...]  # IDECK names in icard order (Scheme cards first)
    clues_id: str
    clue_names: tuple[str, ...]  # names in clue table order (20, or 40 with extra_clues)
    nemesis_ids: tuple[str, ...]  # the nemesis pool, in Tables.nemesis row order
    nemesis_names: tuple[str, ...]  # per pool row: the nemesis (its figure)
    nemesis_side_names: tuple[tuple[str, str], ...]  # per pool row: (Scheme side, enemy side)
    special_minion_names: tuple[str, ...]  # per Tables.smin row (Special Minions rule)
    crisis_card_names: tuple[str, ...]  # per Tables.crisis row (Crisis Cards rule)
    special_bystander_names: tuple[str, ...]  # per Tables.sby row (Special Bystanders rule)
    ally_names: tuple[str, ...]  # per seat, "" for a hero without an ally (Allies rule)
    crisis_card_texts: tuple[str, ...]  # per Tables.crisis row: its effects as phrases
    panel_names: tuple[str, ...]  # index k: panel k; index 0 is ""
    space_labels: tuple[str, ...]  # per space, e.g. "C2"
    space_rowcol: tuple[tuple[int, int], ...]  # per space, (row, col) in the map text
    counter_names: tuple[str, ...]  # issue counters by index
    rules: dict[str, Any]  # resolved rules (DEFAULT_RULES keys)
    caps: dict[str, int]  # resolved caps (DEFAULT_CAPS keys)
    # every villain of the game, first first: one, or two (the Two Fronts variant); the
    # ``villain_id``/``villain_name`` fields above are the first's
    villain_ids: tuple[str, ...] = ()
    villain_names: tuple[str, ...] = ()
    # the Draft variant (rule ``draft``): one scenario per ordered team of the pool, in the
    # order of ``content/draft.draft_teams`` (the rows of ``draft_tables``); () without it
    draft_pool: tuple[Scenario, ...] = ()
    # the content folder the scenario was compiled from, resolved; None: the shipped one
    # (card text, replays and renderers read the files again from here)
    content_dir: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", _frozen(self.rules))
        object.__setattr__(self, "caps", _frozen(self.caps))

    def __reduce__(self) -> tuple[Callable[..., Scenario], tuple[dict[str, Any]]]:
        # an np.record does not survive pickling as the kernels need it (a view of a
        # one-element array): send the packed bytes and rebuild the record from them
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        state["tables"] = self.tables.base.view(np.ndarray).tobytes()
        state["rules"], state["caps"] = _thawed(self.rules), _thawed(self.caps)
        return _rebuild_scenario, (state,)

    @property
    def n_heroes(self) -> int:
        return len(self.hero_ids)

    @property
    def drafted(self) -> bool:
        """The heroes are chosen inside the episode (the Draft variant, rule ``draft``)."""
        return self.draft_rule is not None

    @functools.cached_property
    def draft_rule(self) -> DraftRule | None:
        """The Draft variant's settings, decoded (None: the rule is off)."""
        return DraftRule.decode(self.rules["draft"])

    @property
    def draft_heroes(self) -> tuple[str, ...]:
        """The hero ids of the draft pool, in pool order (() without the Draft variant)."""
        return self.draft_rule.pool if self.draft_rule is not None else ()

    @functools.cached_property
    def fame_rule(self) -> FameRule | None:
        """The Fame variant's settings, decoded (None: the rule is off)."""
        return FameRule.decode(self.rules["fame"])

    @functools.cached_property
    def engine_tables(self) -> np.ndarray:
        """The tables array the kernels take and index by the ``team`` state field: this
        scenario's tables as a one-element array, or with the draft rule every ordered
        team's row of the draft pool, stacked (read-only)."""
        if not self.draft_pool:
            return self.tables.base.view(np.ndarray)
        out = np.stack([sc.tables.base.view(np.ndarray)[0] for sc in self.draft_pool])
        out.flags.writeable = False
        return out

    @functools.cached_property
    def seat_names(self) -> tuple[str, ...]:
        """Names by seat: hero ids, suffixed ``_2``, ``_3``... for repeated heroes; with the
        draft rule ``hero_0``, ``hero_1``... (the heroes change)."""
        if self.drafted:
            return tuple(SEAT_AGENT.format(k) for k in range(self.n_heroes))
        seen: dict[str, int] = {}
        names = []
        for hid in self.hero_ids:
            seen[hid] = seen.get(hid, 0) + 1
            names.append(hid if seen[hid] == 1 else f"{hid}_{seen[hid]}")
        return tuple(names)

    @property
    def seats_per_agent(self) -> int:
        """Hero seats each hero agent plays: 2 in the Draft variant's mode pass (seed 002's
        players control two heroes), else 1."""
        draft = self.draft_rule
        return SEATS_PER_PLAYER if draft is not None and draft.mode == "pass" else 1

    @functools.cached_property
    def agent_names(self) -> tuple[str, ...]:
        """The hero agents: one per seat, named as ``seat_names``; in the Draft variant's
        mode pass one per player, ``player_0``... (seats ``2p`` and ``2p + 1``)."""
        if self.seats_per_agent == 1:
            return self.seat_names
        return tuple(PLAYER_AGENT.format(p)
                     for p in range(self.n_heroes // self.seats_per_agent))

    @property
    def villain_agent(self) -> bool:
        """The villain is an agent (the Mastermind variant, rule ``villain_agent``)."""
        return int(self.tables.cfg[CFG_VHAND]) > 0

    @property
    def possible_agents(self) -> tuple[str, ...]:
        """Every agent of a game: the heroes by seat, then ``"villain"`` when the villain is
        an agent."""
        return self.agent_names + ((VILLAIN_AGENT,) if self.villain_agent else ())

    def agent_seats(self, agent: str) -> tuple[int, ...]:
        """Seats ``agent`` plays (``(layout.VILLAIN_SEAT,)`` for the villain); KeyError if
        unknown."""
        if agent == VILLAIN_AGENT and self.villain_agent:
            return (VILLAIN_SEAT,)
        try:
            k = self.agent_names.index(agent)
        except ValueError:
            raise KeyError(f"unknown agent {agent!r}; agents are "
                           f"{list(self.possible_agents)}") from None
        per = self.seats_per_agent
        return tuple(range(k * per, (k + 1) * per))

    def agent_seat(self, agent: str) -> int:
        """First seat of ``agent`` (``layout.VILLAIN_SEAT`` for the villain; see
        ``agent_seats``); KeyError if unknown."""
        return self.agent_seats(agent)[0]

    def seat_agent(self, seat: int) -> str:
        """Agent name of ``seat`` (a hero's seat, or ``layout.VILLAIN_SEAT``)."""
        if seat == VILLAIN_SEAT and self.villain_agent:
            return VILLAIN_AGENT
        if not 0 <= seat < self.n_heroes:
            raise ValueError(f"no agent sits at seat {seat}")
        return self.agent_names[seat // self.seats_per_agent]

    @property
    def n_villains(self) -> int:
        """Villains on the board: 1, or 2 in the Two Fronts variant."""
        return max(1, int(self.tables.cfg[CFG_N_VILLAINS]))

    @property
    def two_fronts(self) -> bool:
        """Two villains on one board (the Two Fronts variant, ``docs/variants.md``)."""
        return self.n_villains == 2

    @property
    def fame_mode(self) -> str:
        """The Fame variant's reward mode: "team" (also with the rule off), "fame" or
        "rank" (``docs/variants.md``)."""
        return fame_mode(self.fame_rule)

    @property
    def n_nemeses(self) -> int:
        """Nemeses dealt in each game (heroes without a Scheme card + the Nemesis rule)."""
        return int(self.tables.cfg[CFG_N_NEMESES])


def _frozen(value: Any) -> Any:
    """``value`` with dicts as read-only mappings and lists as tuples, all the way down."""
    if isinstance(value, (dict, MappingProxyType)):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def _thawed(value: Any) -> Any:
    """The plain-``dict`` form of a ``_frozen`` mapping (for pickling)."""
    if isinstance(value, MappingProxyType):
        return {k: _thawed(v) for k, v in value.items()}
    return value


def tables_record(packed: bytes) -> np.record:
    """The read-only tables record (as ``pack_tables`` makes it) from its packed bytes."""
    if len(packed) != TABLES_DTYPE.itemsize:
        raise ValueError(f"packed tables of {len(packed)} bytes; this engine's tables are "
                         f"{TABLES_DTYPE.itemsize} bytes (saved by another hon_env version?)")
    arr = np.frombuffer(packed, TABLES_DTYPE).copy()
    arr.flags.writeable = False
    return arr.view(np.recarray)[0]


def _rebuild_scenario(state: dict[str, Any]) -> Scenario:
    """Unpickle a ``Scenario`` (see ``Scenario.__reduce__``)."""
    return Scenario(**{**state, "tables": tables_record(state["tables"])})


def load_scenario(
    scenario: str | Path = "origin_story",
    *,
    heroes: Sequence[str] | None = None,
    villain: str | Sequence[str] | None = None,
    issue: str | None = None,
    clues: str | None = None,
    nemeses: Sequence[str] | None = None,
    rules: dict[str, Any] | None = None,
    caps: dict[str, Any] | None = None,
    content_dir: str | Path | None = None,
) -> Scenario:
    """Load, validate and compile a scenario.

    Args:
        scenario: a scenario id (``configs/scenarios/<id>.yaml``) or a path to a YAML file.
        heroes: hero ids, one per seat (1..6; repeats allowed); replaces the scenario's.
        villain, issue, clues: content ids replacing the scenario's. ``villain`` may be a
            list of two different villains: the Two Fronts variant (``docs/variants.md``).
        nemeses: nemesis ids, the pool the game's nemeses are drawn from (replaces the
            scenario's ``nemeses``; default: every nemesis of the content). A game uses
            one nemesis per hero without a Scheme card (5-6 heroes) plus ``rules["nemeses"]``;
            when the pool holds exactly that many they are dealt in the order listed, else
            drawn at random per game.
        rules, caps: keys of ``DEFAULT_RULES`` / ``DEFAULT_CAPS`` overriding the scenario's.
        content_dir: the content directory (default: the shipped ``configs/content``);
            scenarios by id are looked up in ``scenarios/`` next to it.

    Returns:
        The ``Scenario``; raises ``ContentError`` naming file, card and field on bad content.
        Compiled scenarios are cached (``content/cache.py``): the same arguments return the
        same (immutable) object while none of the files it was built from changed.
    """
    path = scenario_path(scenario, content_dir)
    overrides = {"heroes": heroes, "villain": villain, "issue": issue, "clues": clues,
                 "nemeses": nemeses, "rules": rules, "caps": caps}
    try:
        key = (path.resolve(), content_root(content_dir).resolve(), cache.freeze(overrides))
    except TypeError:  # an unhashable override: validated (and refused) by the full load
        key = None
    if key is not None and (hit := cache.SCENARIOS.get(key)) is not None:
        return hit
    with cache.recording() as deps:
        compiled = _load_scenario(path, content_dir, **overrides)
    return compiled if key is None else cache.SCENARIOS.put(key, deps, compiled)


def _load_scenario(path: Path, content_dir: str | Path | None, *,
                   heroes: Sequence[str] | None, villain: str | Sequence[str] | None,
                   issue: str | None,
                   clues: str | None, nemeses: Sequence[str] | None,
                   rules: dict[str, Any] | None, caps: dict[str, Any] | None) -> Scenario:
    """``load_scenario`` without the cache: read, validate and compile every file."""
    spec = parse_scenario(path)
    args = Where("load_scenario() arguments")
    ref = spec.where
    hero_ref, villain_ref, issue_ref, clues_ref = (ref.key(k) for k in
                                                   ("heroes", "villain", "issue", "clues"))
    hero_ids = spec.heroes
    if heroes is not None:
        hero_ref = args.key("heroes")
        hero_ids = check_hero_ids(list(heroes) if isinstance(heroes, tuple) else heroes,
                                  hero_ref)
    villain_list = spec.villain
    if villain is not None:
        villain_ref = args.key("villain")
        villain_list = villain_ids(list(villain) if isinstance(villain, tuple) else villain,
                                   villain_ref)
    if issue is not None:
        issue_ref = args.key("issue")
    if clues is not None:
        clues_ref = args.key("clues")
    loaded: dict[str, Hero] = {}
    for i, hero_id in enumerate(hero_ids):
        if hero_id not in loaded:
            loaded[hero_id] = load_hero(hero_id, content_dir, hero_ref.index(i))
    if nemeses is not None:
        pool_ref = args.key("nemeses")
        if isinstance(nemeses, str):
            raise pool_ref.error(f"expected a list of nemesis ids, got {type_name(nemeses)}")
        pool_ids = check_nemesis_ids(list(nemeses), pool_ref)
    elif spec.nemeses is not None:
        pool_ref, pool_ids = ref.key("nemeses"), spec.nemeses
    else:
        pool_ref = Where(display_path(content_root(content_dir) / KIND_DIRS["nemesis"]))
        pool_ids = tuple(list_content(content_dir)["nemeses"])
    if len(pool_ids) > NEMESIS_POOL:
        raise pool_ref.error(f"{len(pool_ids)} nemeses, a pool holds at most {NEMESIS_POOL}")
    pool = [load_nemesis(n, content_dir, pool_ref.index(i)) for i, n in enumerate(pool_ids)]
    resolved = resolve_rules(spec.rules, rules, ref.key("rules"), args.key("rules"))

    def rule_ref(key: str) -> Where:
        """Where rule ``key`` was set: the ``rules`` argument, else the scenario."""
        return (args if rules and key in rules else ref).key("rules").key(key)

    check_rule_pairs(resolved, rule_ref, (spec.rules or {}, rules or {}))
    villain_list, villain_refs = resolve_villains(
        villain_list, villain_ref, resolved["two_fronts"], rule_ref("two_fronts"),
        len(hero_ids), hero_ref)
    if len(villain_list) == 2:
        if not resolved["two_fronts"]:
            resolved["two_fronts"] = check_two_fronts(True, rule_ref("two_fronts"))
        if resolved["villain_agent"]:
            raise rule_ref("villain_agent").error(
                "the villain agent (Mastermind) plays one villain; it cannot be combined "
                "with two villains (Two Fronts)")
    villains = [load_villain(v, content_dir, at) for v, at in
                zip(villain_list, villain_refs, strict=True)]
    issue_data = load_issue(spec.issue if issue is None else issue, content_dir, issue_ref)
    count_ref = rule_ref("nemeses") if resolved["nemeses"] else hero_ref
    _check_nemesis_count(len(hero_ids), issue_data, len(pool), resolved["nemeses"], count_ref,
                         pool_ref if nemeses is not None or spec.nemeses is not None
                         else count_ref)

    def rule_cards(key: str, load: Callable[[str, Any, Where], Card]) -> list[Card]:
        """The content cards list rule ``key`` names, loaded and validated."""
        return [load(c, content_dir, rule_ref(key).index(i)) for i, c in enumerate(resolved[key])]

    specials = rule_cards("special_minions", load_minion)
    if SPECIAL_MINION_TOKENS * len(specials) > resolved["minions"]:
        raise rule_ref("special_minions").error(
            f"{len(specials)} special Minion cards replace {SPECIAL_MINION_TOKENS} minion "
            f"tokens each, but the supply has {resolved['minions']} (rule 'minions')")
    bystanders = rule_cards("special_bystanders", load_bystander)
    if SPECIAL_BYSTANDER_TOKENS * len(bystanders) > resolved["bystanders"]:
        raise rule_ref("special_bystanders").error(
            f"{len(bystanders)} special Bystander cards replace {SPECIAL_BYSTANDER_TOKENS} "
            f"bystander tokens each, but the game has {resolved['bystanders']} "
            "(rule 'bystanders')")
    spaces = int((issue_data.board.space_kind == SP_BYSTANDER).sum())
    if resolved["bystanders"] < spaces:
        raise rule_ref("bystanders").error(
            f"bystanders {resolved['bystanders']} is fewer than the {spaces} bystander spaces "
            f"of issue {issue_data.id!r}, each of which gets one at setup (allowed: "
            f"{spaces}..{RULE_RANGES['bystanders'][1]} with this issue)")
    crises = rule_cards("crisis_cards", load_crisis)
    if len(resolved["allies"]) > len(hero_ids):
        raise rule_ref("allies").error(
            f"{len(resolved['allies'])} allies for {len(hero_ids)} heroes: each hero has at "
            "most one ally")
    allies = rule_cards("allies", load_ally)
    headlines: tuple[Headline, ...] = ()
    roster = tuple(list_content(content_dir)["heroes"])
    draft_ids: tuple[str, ...] = ()
    if resolved["draft"]:
        draft_ids = resolve_draft(resolved["draft"], roster, len(hero_ids),
                                  rule_ref("draft"))
        resolved["draft"] = {**resolved["draft"], "pool": draft_ids}
        for i, hero_id in enumerate(draft_ids):
            if hero_id not in loaded:
                loaded[hero_id] = load_hero(hero_id, content_dir,
                                            rule_ref("draft").key("pool").index(i))
    if resolved["fame"]:
        headlines = load_headlines(resolved["fame"]["headline_cards"], content_root(content_dir),
                                   rule_ref("fame").key("headline_cards"))
    if len(roster) > MAX_ROSTER:
        raise Where(display_path(content_root(content_dir) / KIND_DIRS["hero"])).error(
            f"{len(roster)} heroes in the content directory; the observation's hero one-hot "
            f"holds at most {MAX_ROSTER} (MAX_ROSTER)")
    clue_data = load_clues(spec.clues if clues is None else clues, content_dir, clues_ref)
    resolved_caps = resolve_caps(spec.caps, caps, ref.key("caps"), args.key("caps"))

    def compile_team(team: Sequence[str]) -> Scenario:
        return compile_scenario(spec.id, [loaded[h] for h in team], villains[0], issue_data,
                                clue_data, resolved, resolved_caps, pool, specials, crises,
                                allies, bystanders, roster, headlines,
                                villains[1] if len(villains) == 2 else None)

    compiled = compile_team(hero_ids)
    if draft_ids:
        teams = tuple(compile_team([draft_ids[i] for i in team])
                      for team in draft_teams(draft_ids, len(hero_ids)))
        compiled = dataclasses.replace(compiled, draft_pool=teams)
    if content_dir is not None and content_root(content_dir).resolve() != \
            content_root().resolve():
        compiled = dataclasses.replace(compiled, content_dir=str(content_root(content_dir)
                                                                 .resolve()))
    return compiled


def nemeses_needed(n_heroes: int, issue: Issue, added: int) -> int:
    """Nemeses a game deals: one per hero left without a Scheme card (5-6 players step 1)
    plus ``added`` by the Nemesis optional rule."""
    return max(0, n_heroes - len(issue.schemes)) + added


def _check_nemesis_count(n_heroes: int, issue: Issue, pool_size: int, added: int,
                         count_ref: Where, pool_ref: Where) -> None:
    """The game's nemeses fit the slots (NEMESES) and the pool has enough cards.

    ``count_ref`` is where the count came from (the Nemesis rule, else the heroes),
    ``pool_ref`` where the pool was named.
    """
    need = nemeses_needed(n_heroes, issue, added)
    why = (f"{need - added} for heroes without one of the {len(issue.schemes)} Scheme "
           f"cards, {added} from the Nemesis rule")
    if need > NEMESES:
        raise count_ref.error(f"{need} nemeses ({why}), a game holds at most {NEMESES}")
    if need > pool_size:
        raise pool_ref.error(f"the game needs {need} nemeses ({why}) but the nemesis pool "
                             f"has {pool_size}")


def resolve_rules(from_file: dict[str, Any], from_args: dict[str, Any] | None,
                  file_where: Where, args_where: Where) -> dict[str, Any]:
    """DEFAULT_RULES overridden by the scenario's ``rules`` then by the ``rules`` argument."""
    out = copy.deepcopy(DEFAULT_RULES)
    for source, where in ((from_file, file_where), (from_args, args_where)):
        for key, value in as_mapping(source or {}, where).items():
            if key not in DEFAULT_RULES:
                raise where.key(key).error(
                    f"unknown rule (known: {', '.join(sorted(DEFAULT_RULES))})"
                )
            if key == "dice_faces":
                out[key] = _check_dice(value, where.key(key))
            elif key == "special_minions":
                out[key] = _check_ids(value, where.key(key), "special minion",
                                      SPECIAL_MINIONS)
            elif key == "special_bystanders":
                out[key] = _check_ids(value, where.key(key), "special bystander",
                                      SPECIAL_BYSTANDERS)
            elif key == "crisis_cards":
                out[key] = _check_ids(value, where.key(key), "crisis", MAX_CRISES)
            elif key == "allies":
                out[key] = _check_ids(value, where.key(key), "ally", MAX_HEROES)
            elif key == "villain_agent":
                out[key] = check_villain_agent(value, where.key(key))
            elif key == "fame":
                out[key] = check_fame(value, where.key(key))
            elif key == "two_fronts":
                out[key] = check_two_fronts(value, where.key(key))
            elif key == "draft":
                out[key] = check_draft(value, where.key(key))
            elif key in BOOL_RULES:
                if not isinstance(value, bool):
                    raise where.key(key).error(f"expected true or false, got {type_name(value)}")
                out[key] = value
            else:
                out[key] = check_int(value, where.key(key), *RULE_RANGES[key])
    return out


# Pairs of integer rules (low, high) where ``low`` must not exceed ``high``, with why.
RULE_ORDER: tuple[tuple[str, str, str], ...] = (
    ("focus_to_flip", "focus_cap",
     "a hero could never hold the focus that flipping to the Focused side costs"),
)


def check_rule_pairs(rules: dict[str, Any], where: Callable[[str], Where],
                     given: Sequence[Collection[str]] = ()) -> None:
    """Refuse resolved rules that contradict each other (each alone is in its range).

    ``where(key)`` locates rule ``key``; ``given`` lists the keys each source set, the
    latest source last (the scenario file, then the ``rules`` argument). The error names
    the rule of the pair set by the latest source (the first of the pair on a tie) and the
    range that rule may take given the other.
    """
    def latest(key: str) -> int:
        return max((k + 1 for k, keys in enumerate(given) if key in keys), default=0)

    for low, high, why in RULE_ORDER:
        if rules[low] <= rules[high]:
            continue
        if latest(high) > latest(low):
            raise where(high).error(
                f"{high} {rules[high]} is less than {low} {rules[low]}: {why} (allowed: "
                f"{rules[low]}..{RULE_RANGES[high][1]} with {low} {rules[low]})")
        raise where(low).error(
            f"{low} {rules[low]} is more than {high} {rules[high]}: {why} (allowed: "
            f"{RULE_RANGES[low][0]}..{rules[high]} with {high} {rules[high]})")


def _check_ids(raw: object, where: Where, what: str, most: int) -> list[str]:
    """A list of at most ``most`` distinct content ids (a switch naming optional cards)."""
    if isinstance(raw, str):
        raise where.error(f"expected a list of {what} ids, got {type_name(raw)}")
    ids = [check_str(v, where.index(i)) for i, v in enumerate(as_list(raw, where))]
    if len(ids) > most:
        raise where.error(f"{len(ids)} {what} cards, a game uses at most {most}")
    for i, ident in enumerate(ids):
        if ident in ids[:i]:
            raise where.index(i).error(f"{what} {ident!r} is listed twice")
    return ids


def _check_dice(raw: object, where: Where) -> list[list[int]]:
    """Six [success, focus, burst] faces of small non-negative integers."""
    faces = as_list(raw, where)
    if len(faces) != DIE_FACES:
        raise where.error(f"{len(faces)} faces, a die has {DIE_FACES}")
    out = []
    for i, face in enumerate(faces):
        triple = as_list(face, where.index(i))
        if len(triple) != 3:
            raise where.index(i).error("a face is [success, focus, burst]")
        out.append([check_int(v, where.index(i).index(j), 0, MAX_FACE_COUNT)
                    for j, v in enumerate(triple)])
    bursts = sum(face[2] for face in out)
    if bursts >= DIE_FACES:
        # each die would add one die or more on average: a roll might never end
        raise where.error(
            f"the faces hold {bursts} bursts in all, so a roll might never end (each burst "
            f"rolls one more die); allowed: at most {DIE_FACES - 1} bursts over the "
            f"{DIE_FACES} faces")
    return out


def resolve_caps(from_file: dict[str, Any], from_args: dict[str, Any] | None,
                 file_where: Where, args_where: Where) -> dict[str, int]:
    """DEFAULT_CAPS overridden by the scenario's ``caps`` then by the ``caps`` argument."""
    out = dict(DEFAULT_CAPS)
    for source, where in ((from_file, file_where), (from_args, args_where)):
        for key, value in as_mapping(source or {}, where).items():
            if key not in DEFAULT_CAPS:
                raise where.key(key).error(
                    f"unknown cap (known: {', '.join(sorted(DEFAULT_CAPS))})"
                )
            out[key] = check_int(value, where.key(key), *CAP_RANGES[key])
    return out


def compile_scenario(scenario_id: str, heroes: list[Hero], villain: Villain, issue: Issue,
                     clues: Clues, rules: dict[str, Any], caps: dict[str, int],
                     nemeses: Sequence[Nemesis] = (),
                     specials: Sequence[SpecialMinion] = (),
                     crises: Sequence[CrisisCard] = (),
                     allies: Sequence[AllyCard] = (),
                     bystanders: Sequence[SpecialBystander] = (),
                     roster: Sequence[str] = (),
                     headlines: Sequence[Headline] = (),
                     second_villain: Villain | None = None) -> Scenario:
    """Fill the ``Tables`` of validated content; returns the ``Scenario``.

    ``nemeses`` is the pool; ``load_scenario`` has checked that it can supply the game.
    ``specials`` are the special Minion cards of the Special Minions rule (at most 2),
    ``crises`` the crisis cards of the Crisis Cards rule (at most MAX_CRISES), in order,
    ``allies`` the Ally cards of the Allies rule, one per seat from seat 0,
    ``bystanders`` the special Bystander cards of the Special Bystanders rule (at most 2),
    ``roster`` the hero ids of the content directory, sorted (the observation's hero
    one-hot indexes it; a hero outside it has index -1, an all-zero one-hot),
    ``headlines`` the headline cards of the Fame variant (rule ``fame``),
    ``second_villain`` the other villain of a Two Fronts game (its deck takes vcard rows
    ``[VDECK, VCARDS)``), None for the rulebook's one villain.
    """
    board = issue.board
    store = ProgramStore(len(heroes))
    n_panels = len(board.panels)

    def add(effect: Effect) -> int:
        return store.add(effect, issue.counters, n_panels)

    villains = [villain] + ([second_villain] if second_villain is not None else [])
    for v in villains:
        _check_villain_fits(v, issue)
    if len(villains) == 2 and n_panels < 2:
        raise Where(issue.file).error(
            f"issue {issue.id!r} has {n_panels} scheme panel; Two Fronts puts the second "
            "villain in panel 2")
    hero_stat, hcard = _hero_tables(heroes, add)
    icard = _issue_table(issue, add)
    vcard = _villain_table(villains, add)
    n_crisis = int((vcard[:, VC_CRISIS_PROG] >= 0).sum() + (icard[:, IC_CRISIS_PROG] >= 0).sum())
    if n_crisis > DECK_CRISES:
        files = " + ".join(v.file for v in villains)
        raise Where(f"{files} + {issue.file}").error(
            f"{n_crisis} cards with the Crisis trait in the villain and issue decks, the "
            f"issue play area holds at most {DECK_CRISES}")
    panel_prog = np.full(MAX_PANELS + 1, -1, dtype=np.int32)
    for panel in board.panels:
        panel_prog[panel.number] = add(panel.scheme)
    cfg = _cfg(len(heroes), issue, rules, caps, add)
    cfg[CFG_N_NEMESES] = nemeses_needed(len(heroes), issue, rules["nemeses"])
    cfg[CFG_NEMESIS_POOL] = len(nemeses)
    for index, value in two_fronts_cfg(rules["two_fronts"], len(villains)).items():
        cfg[index] = value
    draft_roster = np.full(MAX_DRAFT_POOL, -1, dtype=np.int32)
    if rules["draft"]:
        draft_ids = rules["draft"]["pool"]
        cfg[CFG_DRAFT_MODE] = draft_mode_code(rules["draft"])
        deals = rules["draft"]["mode"] in ("deal", "pass")
        cfg[CFG_DRAFT_OFFER] = rules["draft"]["offer"] if deals else 0
        cfg[CFG_DRAFT_POOL] = len(draft_ids)
        draft_roster[:len(draft_ids)] = [roster.index(h) for h in draft_ids]
    copies = CLUE_COPIES if rules["extra_clues"] else 1
    tables = Tables(
        cfg=cfg,
        prog=store.prog,
        hero_stat=hero_stat,
        hcard=hcard,
        vil_stat=_villain_rows(villains, add),
        vcard=vcard,
        icard=icard,
        clue=_clue_table(clues, add, copies),
        panel_prog=panel_prog,
        space_kind=board.space_kind,
        space_arg=board.space_arg,
        adj=board.adj,
        dist=board.dist,
        scheme_space=board.scheme_space,
        peril_space=board.peril_space,
        lackey_space=board.lackey_space,
        dice=np.asarray(rules["dice_faces"], dtype=np.int32),
        nemesis=_nemesis_table(nemeses, add),
        smin=_special_minion_table(specials, add),
        crisis=_crisis_table(crises, add, board),
        ally=_ally_table(allies, add),
        hero_roster=np.array([roster.index(h.id) if h.id in roster else -1 for h in heroes]
                             + [-1] * (MAX_HEROES - len(heroes)), dtype=np.int32),
        fame=fame_table(FameRule.decode(rules["fame"]), len(headlines)),
        headline=headline_table(tuple(headlines)),
        draft_roster=draft_roster,
        sby=_special_bystander_table(
            bystanders, lambda effect, row: store.add(effect, issue.counters, n_panels, row)),
    )
    return Scenario(
        id=scenario_id,
        tables=pack_tables(tables),
        hero_ids=tuple(h.id for h in heroes),
        hero_names=tuple(h.name for h in heroes),
        hero_roster=tuple(roster),
        hero_card_names=tuple(tuple(c.name for _, c in _expand(h.cards)) for h in heroes),
        villain_id=villain.id,
        villain_name=villain.name,
        villain_card_names=tuple(c.name for v in villains for _, c in _expand(v.cards)),
        issue_id=issue.id,
        issue_name=issue.name,
        issue_card_names=tuple(s.name for s in issue.schemes)
        + tuple(c.name for _, c in _expand(issue.cards)),
        clues_id=clues.id,
        clue_names=tuple(c.name for _, c in _expand(clues.cards)) * copies,
        nemesis_ids=tuple(n.id for n in nemeses),
        nemesis_names=tuple(n.name for n in nemeses),
        nemesis_side_names=tuple((n.scheme.name, n.enemy.name) for n in nemeses),
        special_minion_names=tuple(m.name for m in specials),
        crisis_card_names=tuple(c.name for c in crises),
        ally_names=tuple(allies[k].name if k < len(allies) else "" for k in range(len(heroes))),
        crisis_card_texts=tuple(c.text for c in crises),
        special_bystander_names=tuple(c.name for c in bystanders),
        panel_names=("",) + tuple(p.name for p in board.panels),
        space_labels=board.labels,
        space_rowcol=board.rowcol,
        counter_names=issue.counters,
        rules=rules,
        caps=caps,
        villain_ids=tuple(v.id for v in villains),
        villain_names=tuple(v.name for v in villains),
    )


def _expand(cards: Iterable[C]) -> list[tuple[int, C]]:
    """(entry index, card) for every copy of every entry (``count``), in file order."""
    return [(i, card) for i, card in enumerate(cards) for _ in range(card.count)]


def _check_villain_fits(villain: Villain, issue: Issue) -> None:
    """Villain decks are issue-agnostic; check the board has what this deck refers to."""
    board: Board = issue.board
    n_panels = len(board.panels)
    for card in villain.cards:
        for i, icon in enumerate(card.ploys):
            if icon <= MAX_PANELS and icon > n_panels:
                raise card.where.key("ploys").index(i).error(
                    f"minion_{icon} names panel {icon}, but issue {issue.id!r} has "
                    f"{n_panels} panels"
                )
        color = COLOR_NAMES[card.color] if card.color >= 0 else ""
        if card.type == VT_LACKEY and board.lackey_space[card.color] < 0:
            raise card.where.key("color").error(
                f"issue {issue.id!r} has no {color} scheme panel for this lackey to arrive at"
            )
        if card.type == VT_PERIL and board.peril_space[card.color] < 0:
            raise card.where.key("color").error(
                f"issue {issue.id!r} has no {color} peril space for this peril"
            )


# --------------------------------------------------------------------------- rows


def _cfg(n_heroes: int, issue: Issue, rules: dict[str, Any], caps: dict[str, int],
         add: AddEffect) -> np.ndarray:
    """The scalar configuration vector cfg[CFG_N_COLS]."""
    cfg = np.zeros(CFG_N_COLS, dtype=np.int32)
    cfg[CFG_N_HEROES] = n_heroes
    cfg[CFG_N_SPACES] = issue.board.n_spaces
    cfg[CFG_N_PANELS] = len(issue.board.panels)
    cfg[CFG_START_SPACE] = issue.board.start
    cfg[CFG_N_SCHEMES] = len(issue.schemes)
    cfg[CFG_SETUP_PROG] = add(issue.setup)
    cfg[CFG_CRISIS_PROG] = add(issue.crisis)
    cfg[CFG_LOSS_COUNTER] = issue.loss_counter
    cfg[CFG_LOSS_AT_LEAST] = issue.loss_at_least * (n_heroes if issue.loss_per_hero else 1)
    for key, index in _RULE_CFG.items():
        cfg[index] = rules[key]
    for key, index in _CAP_CFG.items():
        cfg[index] = caps[key]
    for index, value in villain_agent_cfg(rules["villain_agent"]).items():
        cfg[index] = value
    return cfg


def _hero_tables(heroes: list[Hero], add: AddEffect) -> tuple[np.ndarray, np.ndarray]:
    """hero_stat [MAX_HEROES, 2, HS_NCOLS] and hcard [MAX_HEROES, HERO_DECK, HC_NCOLS]."""
    hero_stat = np.zeros((MAX_HEROES, 2, HS_NCOLS), dtype=np.int32)
    hcard = np.zeros((MAX_HEROES, HERO_DECK, HC_NCOLS), dtype=np.int32)
    for seat, hero in enumerate(heroes):
        hero_stat[seat, 0] = _hero_side_row(hero.normal, add)
        hero_stat[seat, 1] = _hero_side_row(hero.focused, add)
        for slot, (name_id, card) in enumerate(_expand(hero.cards)):
            hcard[seat, slot] = _hero_card_row(card, name_id, add)
    return hero_stat, hcard


def _ability_cols(ability: Ability | None, add: AddEffect
                  ) -> tuple[int, int, int, int, int, int, int]:
    """(kind, program, attack_dice, solve_dice, move, armor, pierce) of an optional ability."""
    if ability is None:
        return ABIL_NONE, -1, 0, 0, 0, 0, 0
    return (ability.kind, add(ability.effect), ability.attack_dice, ability.solve_dice,
            ability.move, ability.armor, ability.pierce)


def _hero_side_row(side: HeroSide, add: AddEffect) -> np.ndarray:
    """One hero_stat row."""
    row = np.zeros(HS_NCOLS, dtype=np.int32)
    row[HS_HEALTH], row[HS_ATTACK], row[HS_SOLVE] = side.health, side.attack, side.solve
    kind, prog, attack_dice, solve_dice, move, armor, pierce = _ability_cols(side.ability, add)
    row[HS_ABILITY], row[HS_ABILITY_PROG] = kind, prog
    row[HS_ATTACK_DICE], row[HS_SOLVE_DICE] = attack_dice, solve_dice
    row[HS_MOVE], row[HS_ARMOR], row[HS_PIERCE] = move, armor, pierce
    row[HS_FORM] = side.form
    return row


def _hero_card_row(card: HeroCard, name_id: int, add: AddEffect) -> np.ndarray:
    """One hcard row; passive numbers already include a passive ability's."""
    row = np.zeros(HC_NCOLS, dtype=np.int32)
    row[HC_CONSTANT], row[HC_ACTION], row[HC_UNIQUE] = card.constant, card.action, card.unique
    row[HC_FEATS] = card.feats
    row[HC_PLAY_PROG] = add(card.effect)
    kind, prog, *_ = _ability_cols(card.ability, add)
    row[HC_ABILITY], row[HC_ABILITY_PROG] = kind, prog
    row[HC_ATTACK_DICE], row[HC_SOLVE_DICE] = card.attack_dice, card.solve_dice
    row[HC_MOVE], row[HC_ARMOR], row[HC_PIERCE] = card.move, card.armor, card.pierce
    row[HC_NAME_ID] = name_id
    row[HC_FORM] = card.passive_form
    return row


def _villain_rows(villains: Sequence[Villain], add: AddEffect) -> np.ndarray:
    """vil_stat [VILLAINS, VS_NCOLS]: one row per villain, zeros past the game's."""
    rows = np.zeros((VILLAINS, VS_NCOLS), dtype=np.int32)
    for v, villain in enumerate(villains):
        rows[v] = _villain_row(villain, add)
    return rows


def _villain_row(villain: Villain, add: AddEffect) -> np.ndarray:
    """One vil_stat row [VS_NCOLS]."""
    ch = villain.character
    row = np.zeros(VS_NCOLS, dtype=np.int32)
    row[VS_DANGER], row[VS_DANGER_PH] = ch.danger, ch.danger_per_hero
    row[VS_SCHEMING_INFLICT] = ch.scheming_inflict
    row[VS_HEALTH], row[VS_HEALTH_PH] = ch.health, ch.health_per_hero
    row[VS_DEFENSE], row[VS_SHOWDOWN_INFLICT] = ch.defense, ch.showdown_inflict
    row[VS_ACTIVATE_PROG] = add(ch.activate)
    return row


def _villain_table(villains: Sequence[Villain], add: AddEffect) -> np.ndarray:
    """vcard [VCARDS, VC_NCOLS]: villain v's deck in rows from ``v * VDECK``; unused ploy
    slots are -1."""
    vcard = np.zeros((VCARDS, VC_NCOLS), dtype=np.int32)
    vcard[:, VC_CRISIS_PROG] = -1
    for v, villain in enumerate(villains):
        for slot, (_, card) in enumerate(_expand(villain.cards)):
            vcard[v * VDECK + slot] = _villain_card_row(card, add)
    return vcard


def _villain_card_row(card: VillainCard, add: AddEffect) -> np.ndarray:
    """One vcard row."""
    row = np.zeros(VC_NCOLS, dtype=np.int32)
    row[VC_PRESENT], row[VC_TYPE], row[VC_SCALING] = 1, card.type, card.scaling
    row[VC_COLOR] = card.color
    row[VC_HEALTH], row[VC_HEALTH_PH] = card.health, card.health_per_hero
    row[VC_DEFENSE], row[VC_INFLICT] = card.defense, card.inflict
    row[VC_DANGER], row[VC_DANGER_PH] = card.danger, card.danger_per_hero
    row[VC_ACTIVATE_PROG] = add(card.activate)
    row[VC_SPECIAL_PROG] = add(card.special)
    row[VC_SHOWDOWN_PROG] = add(card.showdown)
    row[VC_NPLOYS] = len(card.ploys)
    row[VC_PLOY0: VC_PLOY0 + MAX_PLOYS] = -1
    row[VC_PLOY0: VC_PLOY0 + len(card.ploys)] = card.ploys
    row[VC_ATTACH], row[VC_ATTACH_DEFENSE] = card.attach, card.attach_defense
    row[VC_CRISIS_PROG] = add(card.crisis) if card.crisis is not None else -1
    return row


def _issue_table(issue: Issue, add: AddEffect) -> np.ndarray:
    """icard [IDECK, IC_NCOLS]: the Scheme cards first, then the issue cards."""
    rows = [_scheme_row(s, add) for s in issue.schemes]
    rows += [_issue_card_row(c, add) for _, c in _expand(issue.cards)]
    icard = np.zeros((IDECK, IC_NCOLS), dtype=np.int32)
    icard[:, IC_RESCUED_PROG] = icard[:, IC_CAPTURED_PROG] = icard[:, IC_CRISIS_PROG] = -1
    if rows:
        icard[: len(rows)] = rows
    return icard


def _scheme_row(scheme: SchemeCard, add: AddEffect) -> np.ndarray:
    """One icard row for a double-sided Scheme card."""
    back = scheme.back
    row = np.zeros(IC_NCOLS, dtype=np.int32)
    row[IC_PRESENT], row[IC_TYPE], row[IC_PANEL] = 1, IT_SCHEME, scheme.panel
    row[IC_DANGER], row[IC_DANGER_PH] = scheme.danger, scheme.danger_per_hero
    row[IC_BACK] = back.type
    row[IC_BACK_DANGER], row[IC_BACK_DANGER_PH] = back.danger, back.danger_per_hero
    row[IC_BACK_HEALTH], row[IC_BACK_HEALTH_PH] = back.health, back.health_per_hero
    row[IC_BACK_DEFENSE], row[IC_BACK_INFLICT] = back.defense, back.inflict
    row[IC_BACK_ACTIVATE_PROG] = add(back.activate)
    row[IC_EFFECT_PROG], row[IC_STAYS], row[IC_ACTIVATE_PROG] = -1, 0, -1
    row[IC_RESCUED_PROG] = row[IC_CAPTURED_PROG] = row[IC_CRISIS_PROG] = -1
    row[IC_LOCATION] = back.location
    return row


def _issue_card_row(card: IssueCard, add: AddEffect) -> np.ndarray:
    """One icard row for an issue card."""
    row = np.zeros(IC_NCOLS, dtype=np.int32)
    row[IC_PRESENT], row[IC_TYPE], row[IC_PANEL] = 1, IT_ISSUE, 0
    row[IC_DANGER], row[IC_DANGER_PH] = card.danger, card.danger_per_hero
    row[IC_BACK], row[IC_BACK_ACTIVATE_PROG] = BACK_NONE, -1
    row[IC_EFFECT_PROG] = add(card.effect)
    row[IC_STAYS] = card.stays
    row[IC_ACTIVATE_PROG] = add(card.activate)
    row[IC_LOCATION] = card.location
    row[IC_BYSTANDER] = card.bystander
    for col, effect in ((IC_RESCUED_PROG, card.rescued), (IC_CAPTURED_PROG, card.captured),
                        (IC_CRISIS_PROG, card.crisis)):
        row[col] = add(effect) if effect is not None else -1
    return row


def _clue_table(clues: Clues, add: AddEffect, copies: int = 1) -> np.ndarray:
    """clue [CLUE_DECK, CL_NCOLS]: the deck, then ``copies - 1`` identical copies of it
    (rulebook: Additional Clue Cards); card ``i + CLUE_LIST`` is a copy of card ``i``."""
    assert 1 <= copies <= CLUE_COPIES and CLUE_LIST * copies <= CLUE_DECK
    table = np.zeros((CLUE_DECK, CL_NCOLS), dtype=np.int32)
    for slot, (_, card) in enumerate(_expand(clues.cards)):
        for copy_ in range(copies):
            row = slot + copy_ * CLUE_LIST
            table[row, CL_PRESENT] = 1
            table[row, CL_PROG] = add(card.effect)
            table[row, CL_ATTACK_DICE] = card.attack_dice
            table[row, CL_SOLVE_DICE] = card.solve_dice
    return table


def _nemesis_table(nemeses: Sequence[Nemesis], add: AddEffect) -> np.ndarray:
    """nemesis [NEMESIS_POOL, NM_NCOLS]: one row per card of the pool, in pool order."""
    table = np.zeros((NEMESIS_POOL, NM_NCOLS), dtype=np.int32)
    for row, nem in enumerate(nemeses):
        sch, en = nem.scheme, nem.enemy
        table[row, NM_PRESENT] = 1
        table[row, NM_DANGER], table[row, NM_DANGER_PH] = sch.danger, sch.danger_per_hero
        table[row, NM_SCHEME_PROG] = add(sch.activate)
        table[row, NM_HEALTH], table[row, NM_HEALTH_PH] = en.health, en.health_per_hero
        table[row, NM_DEFENSE], table[row, NM_INFLICT] = en.defense, en.inflict
        table[row, NM_ACTIVATE_PROG] = add(en.activate)
        table[row, NM_SETUP_PROG] = add(nem.setup)
    return table


def _special_minion_table(specials: Sequence[SpecialMinion], add: AddEffect) -> np.ndarray:
    """smin [SPECIAL_MINIONS, SM_NCOLS]: one row per special Minion card, in rule order."""
    table = np.zeros((SPECIAL_MINIONS, SM_NCOLS), dtype=np.int32)
    table[:, SM_SETUP_PROG] = -1
    table[:, SM_DEFEAT_PROG] = -1
    for row, card in enumerate(specials):
        table[row, SM_PRESENT] = 1
        table[row, SM_HEALTH], table[row, SM_INFLICT] = card.health, card.inflict
        table[row, SM_SETUP_PROG] = add(card.setup)
        table[row, SM_DEFEAT_PROG] = add(card.defeated)
    return table


def _crisis_table(crises: Sequence[CrisisCard], add: AddEffect, board: Board) -> np.ndarray:
    """crisis [MAX_CRISES, CR_NCOLS]: one row per crisis card, in the order added.

    A crisis card with a danger value gets the space of its crisis token on this board
    (crisis cards are issue-agnostic, so a location the board lacks is an error here).
    """
    table = np.zeros((MAX_CRISES, CR_NCOLS), dtype=np.int32)
    table[:, CR_SETUP_PROG] = -1
    table[:, CR_CRISIS_PROG] = -1
    table[:, CR_TOKEN] = -1
    table[:, CR_SOLVED_PROG] = -1
    for row, card in enumerate(crises):
        table[row, CR_PRESENT] = 1
        table[row, CR_SETUP_PROG] = add(card.setup)
        table[row, CR_CRISIS_PROG] = add(card.crisis)
        if card.danger > 0:
            where = card.token_where or Where(card.file, card.name, "token.at")
            table[row, CR_DANGER] = card.danger
            table[row, CR_DANGER_PH] = card.danger_per_hero
            table[row, CR_TOKEN] = resolve_location(board, card.token, where)
            if card.solved is not None:
                table[row, CR_SOLVED_PROG] = add(card.solved)
    return table


def _ally_table(allies: Sequence[AllyCard], add: AddEffect) -> np.ndarray:
    """ally [MAX_HEROES, AL_NCOLS]: row k is the Ally card of seat k (zeros: no ally)."""
    table = np.zeros((MAX_HEROES, AL_NCOLS), dtype=np.int32)
    table[:, AL_ABILITY_PROG] = -1
    for seat, card in enumerate(allies):
        table[seat, AL_PRESENT] = 1
        table[seat, AL_HEALTH], table[seat, AL_ATTACK] = card.health, card.attack
        table[seat, AL_SOLVE] = card.solve
        table[seat, AL_ABILITY] = card.ability.kind
        table[seat, AL_ABILITY_PROG] = add(card.ability.effect)
    return table


def _special_bystander_table(cards: Sequence[SpecialBystander],
                             add: Callable[[Effect, int], int]) -> np.ndarray:
    """sby [SPECIAL_BYSTANDERS, SB_NCOLS]: one row per special Bystander card, in rule order.

    ``add(effect, row)`` compiles an effect of the card in ``row`` (``figure: own`` becomes
    row + 1)."""
    table = np.zeros((SPECIAL_BYSTANDERS, SB_NCOLS), dtype=np.int32)
    cols = (SB_SETUP_PROG, SB_RESCUED_PROG, SB_CAPTURED_PROG, SB_DEFEATED_PROG)
    table[:, cols] = -1
    for row, card in enumerate(cards):
        table[row, SB_PRESENT] = 1
        for col, effect in zip(cols, (card.setup, card.rescued, card.captured, card.defeated),
                               strict=True):
            table[row, col] = add(effect, row)
    return table
