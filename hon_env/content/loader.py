"""Read and validate content YAML (heroes, villains, issues, clues, nemeses, special
minions, special bystanders, crisis cards, allies, scenarios).

Files live under a content directory laid out as the repository's ``configs/`` (an
installed wheel carries it as package data, ``hon_env/configs``; any other folder laid
out the same way is passed as ``content_dir``)::

    configs/content/heroes/ID.yaml      kind: hero
    configs/content/villains/ID.yaml    kind: villain
    configs/content/issues/ID.yaml      kind: issue (with its board)
    configs/content/clues/ID.yaml       kind: clues
    configs/content/nemeses/ID.yaml     kind: nemesis (one double-sided nemesis card)
    configs/content/minions/ID.yaml     kind: minion (a special Minion reference card)
    configs/content/bystanders/ID.yaml  kind: bystander (a special Bystander reference card)
    configs/content/crises/ID.yaml      kind: crisis (an optional crisis card)
    configs/content/allies/ID.yaml      kind: ally (an Ally card and its figure)
    configs/scenarios/ID.yaml           a scenario (next to the content directory)

The format is ``docs/content_format.md``. Every field is checked (unknown keys, types,
ranges, deck sizes, references); the result is plain frozen dataclasses. Numbers are kept
as the tables encode them (ABIL_*, VT_*, colour indices, DASH for ``"-"``), effects as
validated ``Effect`` lists; ``compile.py`` turns them into tables.

Defaults for optional fields: ``count`` 1, booleans false, ``defense`` 0, ``scaling``
none, passive numbers 0, an absent effect is empty, a Hero card side's ``form`` is
``figure``.
"""

from __future__ import annotations

import importlib.resources
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from hon_env.content.board import Board, parse_board, resolve_location
from hon_env.content.cache import parsed_once, record_listing
from hon_env.content.effects import Effect, Op, empty_effect, parse_effect
from hon_env.content.errors import (
    ContentError,
    Where,
    as_list,
    as_mapping,
    check_keys,
    check_str,
    read_bool,
    read_int,
    read_str,
)
from hon_env.content.text import effect_text
from hon_env.content.two_fronts import villain_ids
from hon_env.spec.ops import COUNT_NAMES, FORM_COUNTS, FORM_OPS, MAX_COUNTERS
from hon_env.spec.tables import (
    ABIL_ACTION,
    ABIL_EXHAUST,
    ABIL_PASSIVE,
    ATTACH_NAMES,
    BACK_ENEMY,
    BACK_NONE,
    BACK_PROBLEM,
    CLUE_LIST,
    COLOR_NAMES,
    FEAT_NAMES,
    FORM_FIGURE,
    FORM_MECH,
    FORM_NAMES,
    FORM_PILOT,
    HERO_DECK,
    IDECK,
    MAX_HEROES,
    MAX_PANELS,
    MAX_PLOYS,
    PLOY_BYSTANDER,
    PLOY_CUNNING,
    PLOY_SPECIAL,
    VDECK,
    VT_LACKEY,
    VT_PERIL,
    VT_PLOY,
)

REPO_ROOT = Path(__file__).resolve().parents[2]


def _configs_dir() -> Path:
    """Where the shipped ``configs/`` lives: the installed package data, else the checkout.

    The repository keeps ``configs/`` at the top level; a built wheel carries the same
    files as ``hon_env/configs/`` (``pyproject.toml`` maps the folder into the package), so
    an installed copy reads them through ``importlib.resources``.
    """
    packaged = importlib.resources.files("hon_env") / "configs"
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return REPO_ROOT / "configs"


CONFIGS_DIR = _configs_dir()
DEFAULT_CONTENT_DIR = CONFIGS_DIR / "content"
TRAIN_CONFIGS_DIR = CONFIGS_DIR / "train"
FORMAT_VERSIONS = (1,)
KIND_DIRS = {"hero": "heroes", "villain": "villains", "issue": "issues", "clues": "clues",
             "nemesis": "nemeses", "minion": "minions", "bystander": "bystanders",
             "crisis": "crises", "ally": "allies"}
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
MIN_SCHEMES = 4
# a location tag (resolved against a board by ``board.resolve_location``)
LOCATION_RE = re.compile(
    rf"^(start|panel_[1-{MAX_PANELS}]|peril_({'|'.join(COLOR_NAMES)}))$")
T = TypeVar("T")

# bounds of the numbers the rulebook leaves to us
MAX_HEALTH = 99  # health and danger values (or "-")
MAX_STAT = 20  # attack, solve, defense, inflict
MAX_BONUS_DICE = 6  # passive / clue bonus dice, passive move
MAX_ARMOR = 5

ABILITY_KINDS = {"action": ABIL_ACTION, "exhaust": ABIL_EXHAUST, "passive": ABIL_PASSIVE}
PASSIVE_KEYS = {"attack_dice": MAX_BONUS_DICE, "solve_dice": MAX_BONUS_DICE,
                "move": MAX_BONUS_DICE, "armor": MAX_ARMOR, "pierce": MAX_ARMOR}
VILLAIN_TYPES = {"lackey": VT_LACKEY, "peril": VT_PERIL, "ploy": VT_PLOY}
SCALINGS = {"none": 0, "one": 1, "five_six": 5}
PLOY_NAMES = {**{f"minion_{k}": k for k in range(1, MAX_PANELS + 1)},
              "cunning": PLOY_CUNNING, "bystander": PLOY_BYSTANDER, "special": PLOY_SPECIAL}
BACK_TYPES = {"none": BACK_NONE, "problem": BACK_PROBLEM, "enemy": BACK_ENEMY}
BYSTANDER_EVENTS = ("rescued", "captured", "defeated")  # a special bystander's effects


# --------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True)
class Ability:
    """An ability of a hero side or a constant card."""

    name: str
    kind: int  # ABIL_*
    effect: Effect  # empty for passive abilities
    attack_dice: int = 0  # passive numbers
    solve_dice: int = 0
    move: int = 0
    armor: int = 0
    pierce: int = 0  # defense taken off the enemies this hero attacks


@dataclass(frozen=True)
class HeroSide:
    """One side (normal or focused) of a Hero character card."""

    health: int
    attack: int
    solve: int
    ability: Ability | None
    form: int = FORM_FIGURE  # FORM_*: the hero's figure, pilot token or mech on this side


@dataclass(frozen=True)
class HeroCard:
    """One entry of a hero deck (``count`` copies)."""

    name: str
    count: int
    constant: bool
    action: bool
    unique: bool
    feats: int  # FEAT_* bitmask
    effect: Effect
    ability: Ability | None
    attack_dice: int  # passive numbers while in play (constants)
    solve_dice: int
    move: int
    armor: int
    pierce: int
    passive_form: int = FORM_FIGURE  # FORM_PILOT/FORM_MECH: passives count only in that form


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    style: str
    normal: HeroSide
    focused: HeroSide
    cards: tuple[HeroCard, ...]
    file: str

    @property
    def has_forms(self) -> bool:
        """True for a hero with a pilot side and a mech side (rulebook: Micro-guy)."""
        return self.normal.form == FORM_PILOT


@dataclass(frozen=True)
class VillainCharacter:
    """The double-sided Villain card."""

    danger: int
    danger_per_hero: bool
    scheming_inflict: int
    health: int
    health_per_hero: bool
    defense: int
    showdown_inflict: int
    activate: Effect


@dataclass(frozen=True)
class VillainCard:
    """One entry of a villain deck (``count`` copies)."""

    name: str
    count: int
    type: int  # VT_*
    color: int  # colour index, -1 for ploy cards
    health: int
    health_per_hero: bool
    defense: int
    inflict: int
    danger: int
    danger_per_hero: bool
    activate: Effect
    special: Effect
    showdown: Effect
    ploys: tuple[int, ...]  # PLOY_* codes, minion_K as K
    scaling: int  # 0, 1 or 5
    where: Where
    attach: int = 0  # ATTACH_*: a Ploy card that stays attached to a lackey or the villain
    attach_defense: int = 0  # defense the attached card adds to its host
    crisis: Effect | None = None  # the Crisis trait: its Crisis effect (then it stays in play)


@dataclass(frozen=True)
class Villain:
    id: str
    name: str
    character: VillainCharacter
    lackey_colors: tuple[int, ...]
    cards: tuple[VillainCard, ...]
    file: str


@dataclass(frozen=True)
class EnemySide:
    """The enemy stats a card side shows: a nemesis's enemy side, a Scheme card's back (0
    health and inflict on a back that is no enemy)."""

    health: int
    health_per_hero: bool
    defense: int
    inflict: int
    activate: Effect


@dataclass(frozen=True)
class SchemeBack(EnemySide):
    """The other side of a Scheme card."""

    name: str
    type: int  # BACK_*
    danger: int
    danger_per_hero: bool
    location: int  # space index; the panel's scheme space unless given


@dataclass(frozen=True)
class SchemeCard:
    name: str
    panel: int
    danger: int
    danger_per_hero: bool
    back: SchemeBack


@dataclass(frozen=True)
class IssueCard:
    """One entry of the issue deck besides Scheme cards (``count`` copies)."""

    name: str
    count: int
    effect: Effect
    stays: bool
    danger: int
    danger_per_hero: bool
    location: int  # space index, -1 unless it stays
    activate: Effect
    bystander: bool = False  # a bystander character: its token replaces a bystander
    rescued: Effect | None = None  # bystander character: for the hero who rescues it
    captured: Effect | None = None  # bystander character: when it is captured
    crisis: Effect | None = None  # the Crisis trait: its Crisis effect (then it stays in play)


@dataclass(frozen=True)
class Issue:
    id: str
    name: str
    counters: tuple[str, ...]
    loss_counter: int  # index into counters, or -1
    loss_at_least: int  # per hero when loss_per_hero (the compiled threshold multiplies)
    setup: Effect
    crisis: Effect
    board: Board
    schemes: tuple[SchemeCard, ...]
    cards: tuple[IssueCard, ...]
    file: str
    loss_per_hero: bool = False


@dataclass(frozen=True)
class ClueCard:
    name: str
    count: int
    effect: Effect
    attack_dice: int
    solve_dice: int


@dataclass(frozen=True)
class Clues:
    id: str
    name: str
    cards: tuple[ClueCard, ...]
    file: str


@dataclass(frozen=True)
class NemesisScheme:
    """The Scheme side of a nemesis card."""

    name: str
    danger: int
    danger_per_hero: bool
    activate: Effect  # resolved in the owner's threat phase while the nemesis schemes


@dataclass(frozen=True)
class NemesisEnemy(EnemySide):
    """The enemy side of a nemesis card."""

    name: str


@dataclass(frozen=True)
class Nemesis:
    """A double-sided nemesis card (rulebook: Nemeses) and its optional Setup effect."""

    id: str
    name: str
    style: str
    setup: Effect
    scheme: NemesisScheme
    enemy: NemesisEnemy
    file: str


@dataclass(frozen=True)
class SpecialMinion:
    """A special Minion reference card (optional rule: Special Minions) and its five
    minion figures."""

    id: str
    name: str
    style: str
    health: int  # of each of its minions
    inflict: int  # of each of its minions
    setup: Effect  # resolved once during setup (villain context)
    defeated: Effect  # resolved each time one is defeated, for the defeating hero
    file: str


@dataclass(frozen=True)
class SpecialBystander:
    """A special Bystander reference card (optional rule: Special Bystanders) and its four
    bystander figures."""

    id: str
    name: str
    style: str
    setup: Effect  # resolved once during setup (villain context)
    rescued: Effect  # each time one is rescued, for the rescuing hero (hero context)
    captured: Effect  # each time one is captured (villain context)
    defeated: Effect  # each time one is defeated (villain context)
    file: str


@dataclass(frozen=True)
class CrisisCard:
    """An optional crisis card (optional rule: Crisis Cards): it stays in the issue play
    area for the whole game, unless it has a danger value and the heroes solve it at its
    crisis token."""

    id: str
    name: str
    style: str
    setup: Effect  # resolved once during setup (villain context)
    crisis: Effect  # resolved at every crisis, after the Issue Overview's Crisis effect
    file: str
    danger: int = 0  # 0: no danger value (not a problem card)
    danger_per_hero: bool = False
    token: str = ""  # location tag of its crisis token (with a danger value), e.g. "peril_red"
    token_where: Where | None = None  # where ``token`` was written, for board errors
    solved: Effect | None = None  # resolved for the solving hero once solved (villain context)
    text: str = ""  # its effects as phrases ("Setup: ... Crisis: ... Solved: ...")


@dataclass(frozen=True)
class AllyCard:
    """An Ally card (optional rule: Allies): a character that helps the hero controlling
    it, with a figure on the map that enemies treat as a hero."""

    id: str
    name: str
    style: str
    health: int
    attack: int
    solve: int
    ability: Ability  # an action or exhaust ability in the ``ally`` effect context
    file: str


@dataclass(frozen=True)
class ScenarioSpec:
    """A scenario file as written (references not yet resolved)."""

    id: str
    heroes: tuple[str, ...]
    villain: tuple[str, ...]  # one id, or two (the Two Fronts variant)
    issue: str
    clues: str
    nemeses: tuple[str, ...] | None  # the nemesis pool; None: every nemesis in the content
    rules: dict[str, Any]
    caps: dict[str, Any]
    where: Where  # the file, for errors about its fields


# --------------------------------------------------------------------------- files


def content_root(content_dir: str | Path | None = None) -> Path:
    """The content directory: ``content_dir`` or the shipped ``configs/content``.

    Raises:
        TypeError: ``content_dir`` is neither None, a string nor a path.
        ContentError: ``content_dir`` is not a directory (so a mistyped folder is not read
            as one that holds no content).
    """
    if content_dir is None:
        return DEFAULT_CONTENT_DIR
    if not isinstance(content_dir, (str, os.PathLike)):
        raise TypeError(f"content_dir must be a folder path or None, got {content_dir!r} "
                        f"({type(content_dir).__name__})")
    root = Path(content_dir)
    if not root.is_dir():
        raise ContentError(str(root), "-", "", "no such content folder")
    return root


def scenarios_root(content_dir: str | Path | None = None) -> Path:
    """The scenarios directory: ``scenarios/`` next to the content directory."""
    return content_root(content_dir).parent / "scenarios"


def display_path(path: Path) -> str:
    """``path`` as shown in errors: relative to the repository when inside it."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return str(resolved)


def list_content(content_dir: str | Path | None = None) -> dict[str, list[str]]:
    """The ids of every content file, by kind.

    Returns:
        ``{"heroes": [...], "villains": [...], "issues": [...], "clues": [...],
        "nemeses": [...], "minions": [...], "bystanders": [...], "crises": [...],
        "allies": [...], "scenarios": [...]}``, each sorted (file stems of ``*.yaml``).
    """
    root = content_root(content_dir)
    out = {sub: _ids_in(root / sub) for sub in KIND_DIRS.values()}
    out["scenarios"] = _ids_in(scenarios_root(content_dir))
    return out


def _ids_in(folder: Path) -> list[str]:
    """Sorted stems of the ``*.yaml`` files in ``folder`` (empty when it does not exist)."""
    names = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    record_listing(folder, names)
    return names


# libyaml's parser when PyYAML was built with it (about 10x faster on content files; the
# constructor, and so the duplicate-key check below, stays Python)
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SAFE_LOADER):  # type: ignore[misc,valid-type]
    """A safe YAML loader that rejects duplicate mapping keys."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:
            duplicate = False  # an unhashable key is reported later as a type error
        if duplicate:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
    return loader.construct_mapping(node, deep=True)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


MAX_NESTING = 40  # mappings and lists inside each other; the content needs about 10


def read_yaml(path: Path) -> tuple[dict[str, Any], Where]:
    """Parse one YAML file; returns its top-level mapping and its file-level location.

    Errors name the file: unreadable, not UTF-8, invalid YAML, nested deeper than
    ``MAX_NESTING`` (naming the field where the limit is passed).
    """
    where = Where(display_path(path))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise where.error(f"cannot read the file ({exc.strerror})") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise where.error(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at offset "
                          f"{exc.start} (line {line})") from None
    try:
        data = yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(exc):  # libyaml's own limit
            raise where.error(f"nested deeper than the parser allows (content nests at "
                              f"most {MAX_NESTING} levels)") from None
        raise where.error(f"invalid YAML: {' '.join(str(exc).split())}") from exc
    except RecursionError:
        raise where.error(f"nested deeper than the parser allows (content nests at most "
                          f"{MAX_NESTING} levels)") from None
    _check_nesting(data, where)
    return as_mapping(data, where), where


def _check_nesting(data: object, where: Where) -> None:
    """Refuse mappings/lists nested deeper than ``MAX_NESTING``, naming the field."""
    stack: list[tuple[object, Where, int]] = [(data, where, 0)]
    while stack:
        value, at, depth = stack.pop()
        if isinstance(value, dict):
            children = [(v, at.key(k if isinstance(k, (str, int)) else repr(k)))
                        for k, v in value.items()]
        elif isinstance(value, list):
            children = [(v, at.index(i)) for i, v in enumerate(value)]
        else:
            continue
        if depth >= MAX_NESTING:
            raise at.error(f"nested deeper than {MAX_NESTING} levels of mappings and lists")
        stack.extend((v, w, depth + 1) for v, w in children)


def find_file(kind: str, content_id: object, content_dir: str | Path | None, ref: Where) -> Path:
    """The file of ``kind`` with id ``content_id``; a missing one is an error at ``ref``."""
    folder = content_root(content_dir) / KIND_DIRS[kind]
    ident = check_str(content_id, ref)
    path = folder / f"{ident}.yaml"
    if not ID_RE.match(ident) or not path.is_file():
        known = ", ".join(_ids_in(folder)) or "none"
        raise ref.error(f"no {kind} {ident!r} in {display_path(folder)} (known: {known})")
    return path


def _header(data: dict[str, Any], where: Where, path: Path, kind: str | None) -> str:
    """Check ``format_version``, ``id`` (= file stem) and ``kind``; returns the id."""
    version = data.get("format_version")
    if "format_version" not in data:
        raise where.key("format_version").error("missing required key")
    if version not in FORMAT_VERSIONS or isinstance(version, bool):
        raise where.key("format_version").error(
            f"unsupported format_version {version!r} (supported: {FORMAT_VERSIONS})"
        )
    ident = read_str(data, "id", where)
    if not ID_RE.match(ident):
        raise where.key("id").error(f"{ident!r} is not lower_snake_case")
    if ident != path.stem:
        raise where.key("id").error(f"{ident!r} does not match the file name {path.name!r}")
    if kind is not None:
        read_str(data, "kind", where, choices=(kind,))
    elif "kind" in data:
        read_str(data, "kind", where, choices=("scenario",))
    return ident


# Each kind of content file, declared once: its top-level keys besides format_version, id
# and kind (required, then optional). ``read_content`` checks them and the header;
# ``load`` finds a file of the kind by id and parses it with the kind's parser (PARSERS).
FILE_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "hero": (("name", "hero_card", "cards"), ("style",)),
    "villain": (("name", "villain_card", "cards"), ("lackey_colors",)),
    "issue": (("name", "board", "schemes", "cards"), ("counters", "loss", "overview")),
    "clues": (("cards",), ("name",)),
    "nemesis": (("name", "scheme", "enemy"), ("style", "setup")),
    "minion": (("name", "health", "inflict"), ("style", "setup", "defeated")),
    "bystander": (("name",), ("style", "setup", *BYSTANDER_EVENTS)),
    "crisis": (("name", "crisis"),
               ("style", "setup", "danger", "danger_per_hero", "token", "solved")),
    "ally": (("name", "health", "attack", "solve", "ability"), ("style",)),
}


def read_content(path: Path, kind: str) -> tuple[dict[str, Any], Where, str]:
    """A content file of ``kind``: its data, where it is, and its id, with the header and
    the top-level keys (``FILE_KEYS``) checked."""
    data, where = read_yaml(path)
    required, optional = FILE_KEYS[kind]
    check_keys(data, where, ("format_version", "id", "kind", *required), optional)
    return data, where, _header(data, where, path, kind)


def load(kind: str, content_id: str, content_dir: str | Path | None = None,
         ref: Where | None = None) -> Any:
    """Load and validate the ``kind`` file ``<folder>/<content_id>.yaml`` (``KIND_DIRS``)
    with the kind's parser; ``ref`` is where the id was named (the error of a missing file
    points there)."""
    if kind not in PARSERS:
        raise ValueError(f"unknown content kind {kind!r} (kinds: {', '.join(PARSERS)})")
    path = find_file(kind, content_id, content_dir,
                     ref or Where(f"load_{kind}()", "-", f"{kind}_id"))
    return PARSERS[kind](path)


def _card_where(file_where: Where, raw: object, label: str) -> Where:
    """The location of a card entry, named by its ``name`` when it has one."""
    name = raw.get("name") if isinstance(raw, dict) else None
    return file_where.for_card(name, label)


def _deck_entries(data: dict[str, Any], key: str, where: Where) -> list[Any]:
    """The non-empty list ``data[key]`` of card entries."""
    if key not in data:
        raise where.key(key).error("missing required key")
    entries = as_list(data[key], where.key(key))
    if not entries:
        raise where.key(key).error("the list is empty")
    return entries


def _parse_entries(
    data: dict[str, Any], key: str, where: Where, prefix: str, parse: Callable[[Any, Where], T]
) -> tuple[tuple[T, ...], list[Where]]:
    """Parse each entry of the list ``data[key]`` with ``parse``; returns them and their
    card locations (labelled ``#N``, or ``PREFIX #N``)."""
    entries = _deck_entries(data, key, where)
    label = f"{prefix} #" if prefix else "#"
    wheres = [_card_where(where, raw, f"{label}{i + 1}") for i, raw in enumerate(entries)]
    return tuple(parse(raw, w) for raw, w in zip(entries, wheres, strict=True)), wheres


def _check_deck_size(total: int, expected: int, where: Where, what: str) -> None:
    """Deck sizes count copies (``count``)."""
    if total != expected:
        raise where.error(f"{what} has {total} cards after count, needs exactly {expected}")


def _check_unique_names(names: list[str], wheres: list[Where]) -> None:
    """Two entries of one deck may not share a name (use ``count`` for copies)."""
    seen: set[str] = set()
    for name, where in zip(names, wheres, strict=True):
        if name in seen:
            raise where.key("name").error(
                f"another entry is already named {name!r} (use count for copies)"
            )
        seen.add(name)


def _effect(data: dict[str, Any], key: str, context: str, where: Where,
            counters: tuple[str, ...] | None = None, exhaust: bool = False) -> Effect:
    """The effect ``data[key]`` (empty when absent)."""
    if key not in data:
        return empty_effect(where.key(key))
    return parse_effect(data[key], context, where.key(key), counters, exhaust)


def _color(data: dict[str, Any], key: str, where: Where) -> int:
    """A colour name as its index in COLOR_NAMES."""
    return COLOR_NAMES.index(read_str(data, key, where, choices=COLOR_NAMES))


# --------------------------------------------------------------------------- heroes


@parsed_once
def parse_hero(path: Path) -> Hero:
    """Validate a hero file; returns the ``Hero``."""
    data, where, ident = read_content(path, "hero")
    name = read_str(data, "name", where)
    style = read_str(data, "style", where, default="")
    card_where = where.for_card(name, "hero card").key("hero_card")
    sides = as_mapping(data["hero_card"], card_where)
    check_keys(sides, card_where, ("normal", "focused"))
    normal = _hero_side(sides["normal"], card_where.key("normal"))
    focused = _hero_side(sides["focused"], card_where.key("focused"))
    _check_side_forms(normal, focused, card_where)
    cards, wheres = _parse_entries(data, "cards", where, "", _hero_card)
    _check_unique_names([c.name for c in cards], wheres)
    _check_deck_size(sum(c.count for c in cards), HERO_DECK, where.key("cards"), "the hero deck")
    hero = Hero(ident, name, style, normal, focused, cards, where.file)
    if not hero.has_forms:
        _check_no_form_rules(hero, wheres)
    return hero


def _hero_side(raw: object, where: Where) -> HeroSide:
    """One side of the Hero card: health, attack, solve, optional ability and form."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("health", "attack", "solve"), ("ability", "form"))
    ability = _ability(data["ability"], where.key("ability")) if "ability" in data else None
    return HeroSide(
        health=read_int(data, "health", where, 1, MAX_HEALTH),
        attack=read_int(data, "attack", where, 0, MAX_STAT),
        solve=read_int(data, "solve", where, 0, MAX_STAT),
        ability=ability,
        form=FORM_NAMES[read_str(data, "form", where, default="figure", choices=FORM_NAMES)],
    )


def _check_side_forms(normal: HeroSide, focused: HeroSide, where: Where) -> None:
    """Forms come as a pair: the normal side is the pilot, the Focused side the mech.

    The rulebook's Micro-guy starts as his pilot token with the card on its pilot side, and
    every Hero card starts normal side up, so the pilot is the normal side; boarding the mech
    is flipping to the other side.
    """
    if normal.form == FORM_FIGURE and focused.form == FORM_FIGURE:
        return
    if normal.form != FORM_PILOT:
        raise where.key("normal").key("form").error(
            "a Hero card with forms has form 'pilot' on its normal side")
    if focused.form != FORM_MECH:
        raise where.key("focused").key("form").error(
            "a Hero card with forms has form 'mech' on its Focused side")


def _form_uses(ops: tuple[Op, ...]) -> Iterator[Op]:
    """The ops (``if`` branches included) that refer to pilot and mech forms."""
    form_counts = {COUNT_NAMES[name] for name in FORM_COUNTS}
    for op in ops:
        if op.spec.name in FORM_OPS or (op.spec.name == "if" and op.args[0] in form_counts):
            yield op
        yield from _form_uses(op.then)


def _form_key(op: Op) -> Where:
    """Where a form rule is written: an ``if``'s ``count``, else the op name."""
    return op.where.key("count" if op.spec.name == "if" else "op")


def _check_no_form_rules(hero: Hero, wheres: list[Where]) -> None:
    """A hero without a pilot and a mech side may not use form ops, counts or passives."""
    effects = [side.ability.effect for side in (hero.normal, hero.focused) if side.ability]
    for card, where in zip(hero.cards, wheres, strict=True):
        if card.passive_form != FORM_FIGURE:
            raise where.key("passive").key("form").error(
                f"{hero.name} has no pilot and mech forms (form on the Hero card)")
        effects.append(card.effect)
        if card.ability is not None:
            effects.append(card.ability.effect)
    for effect in effects:
        for op in _form_uses(effect.ops):
            raise _form_key(op).error(
                f"{op.spec.name!r} refers to pilot and mech forms, but {hero.name}'s Hero "
                "card has none (give its sides form: pilot / form: mech)")


def _ability(raw: object, where: Where, context: str = "hero") -> Ability:
    """``{name?, kind, effect?}``; passive abilities carry passive numbers instead.

    ``context`` is the effect context of the ability (``ally`` on an Ally card)."""
    data = as_mapping(raw, where)
    kind_name = read_str(data, "kind", where, choices=ABILITY_KINDS)
    if kind_name == "passive":
        check_keys(data, where, ("kind",), ("name", *PASSIVE_KEYS))
        numbers = {k: read_int(data, k, where, 0, hi, default=0) for k, hi in PASSIVE_KEYS.items()}
        return Ability(read_str(data, "name", where, default=""), ABIL_PASSIVE,
                       empty_effect(where.key("effect")), **numbers)
    check_keys(data, where, ("kind", "effect"), ("name",))
    effect = parse_effect(data["effect"], context, where.key("effect"),
                          exhaust=kind_name == "exhaust")
    if not effect:
        raise where.key("effect").error(f"an {kind_name} ability needs at least one op")
    return Ability(read_str(data, "name", where, default=""), ABILITY_KINDS[kind_name], effect)


def _hero_card(raw: object, where: Where) -> HeroCard:
    """One hero deck entry; abilities, passives and ``unique`` only on constants."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("name", "type"),
               ("count", "action", "unique", "feats", "effect", "ability", "passive"))
    constant = read_str(data, "type", where, choices=("instant", "constant")) == "constant"
    if not constant:
        for key in ("unique", "ability", "passive"):
            if key in data:
                raise where.key(key).error("only constant cards have this key")
    ability = _ability(data["ability"], where.key("ability")) if "ability" in data else None
    passive = _card_passive(data, ability, where)
    return HeroCard(
        name=read_str(data, "name", where),
        count=read_int(data, "count", where, 1, HERO_DECK, default=1),
        constant=constant,
        action=read_bool(data, "action", where, default=False),
        unique=read_bool(data, "unique", where, default=False),
        feats=_feats(data, where),
        effect=_effect(data, "effect", "hero", where),
        ability=ability,
        **passive,
    )


def _card_passive(data: dict[str, Any], ability: Ability | None, where: Where) -> dict[str, int]:
    """Passive numbers of a constant: its ``passive`` block plus a passive ability's.

    ``form: pilot | mech`` in the block limits all of them to that form of the hero.
    """
    block = as_mapping(data.get("passive", {}), where.key("passive"))
    check_keys(block, where.key("passive"), (), (*PASSIVE_KEYS, "form"))
    numbers = {k: read_int(block, k, where.key("passive"), 0, hi, default=0)
               for k, hi in PASSIVE_KEYS.items()}
    form = FORM_FIGURE
    if "form" in block:
        form = FORM_NAMES[read_str(block, "form", where.key("passive"),
                                   choices=("pilot", "mech"))]
    if ability is not None and ability.kind == ABIL_PASSIVE:
        for k in PASSIVE_KEYS:
            extra = getattr(ability, k)
            if extra and k in block:
                raise where.key("ability").key(k).error(
                    f"{k} is given both here and under passive; give it once"
                )
            numbers[k] += extra
    if form != FORM_FIGURE and not any(numbers.values()):
        raise where.key("passive").key("form").error("a form needs passive numbers to limit")
    return {**numbers, "passive_form": form}


def _feats(data: dict[str, Any], where: Where) -> int:
    """The ``feats`` list as a FEAT_* bitmask."""
    mask = 0
    for i, raw in enumerate(as_list(data.get("feats", []), where.key("feats"))):
        name = check_str(raw, where.key("feats").index(i), FEAT_NAMES)
        if mask & FEAT_NAMES[name]:
            raise where.key("feats").index(i).error(f"feat {name!r} is listed twice")
        mask |= FEAT_NAMES[name]
    return mask


# --------------------------------------------------------------------------- villains


@parsed_once
def parse_villain(path: Path) -> Villain:
    """Validate a villain file; returns the ``Villain``."""
    data, where, ident = read_content(path, "villain")
    name = read_str(data, "name", where)
    character = _villain_character(
        data["villain_card"], where.for_card(name, "villain card").key("villain_card")
    )
    colors_where = where.key("lackey_colors")
    colors = tuple(COLOR_NAMES.index(check_str(c, colors_where.index(i), COLOR_NAMES))
                   for i, c in enumerate(as_list(data.get("lackey_colors", []), colors_where)))
    cards, wheres = _parse_entries(data, "cards", where, "", _villain_card)
    _check_unique_names([c.name for c in cards], wheres)
    _check_deck_size(sum(c.count for c in cards), VDECK, where.key("cards"), "the villain deck")
    return Villain(ident, name, character, colors, cards, where.file)


def _villain_character(raw: object, where: Where) -> VillainCharacter:
    """The Villain card: ``scheming`` and ``showdown`` sides."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("scheming", "showdown"))
    sch_where, sd_where = where.key("scheming"), where.key("showdown")
    sch = as_mapping(data["scheming"], sch_where)
    check_keys(sch, sch_where, ("danger", "inflict"), ("danger_per_hero",))
    sd = as_mapping(data["showdown"], sd_where)
    check_keys(sd, sd_where, ("health", "inflict"), ("health_per_hero", "defense", "activate"))
    return VillainCharacter(
        danger=read_int(sch, "danger", sch_where, 1, MAX_HEALTH),
        danger_per_hero=read_bool(sch, "danger_per_hero", sch_where, default=False),
        scheming_inflict=read_int(sch, "inflict", sch_where, 0, MAX_STAT),
        health=read_int(sd, "health", sd_where, 1, MAX_HEALTH),
        health_per_hero=read_bool(sd, "health_per_hero", sd_where, default=False),
        defense=read_int(sd, "defense", sd_where, 0, MAX_STAT, default=0),
        showdown_inflict=read_int(sd, "inflict", sd_where, 0, MAX_STAT),
        activate=_effect(sd, "activate", "activate", sd_where),
    )


_VILLAIN_COMMON = ("count", "ploys", "special", "showdown", "scaling")
_VILLAIN_KEYS = {
    "lackey": (("name", "type", "color", "health", "inflict"),
               ("health_per_hero", "defense", "activate", *_VILLAIN_COMMON)),
    "peril": (("name", "type", "color", "danger"),
              ("danger_per_hero", "activate", *_VILLAIN_COMMON)),
    "ploy": (("name", "type", "ploys"),
             ("count", "special", "showdown", "scaling", "attach", "crisis")),
}


def _villain_card(raw: object, where: Where) -> VillainCard:
    """One villain deck entry; the keys allowed depend on ``type``."""
    data = as_mapping(raw, where)
    kind = read_str(data, "type", where, choices=VILLAIN_TYPES)
    required, optional = _VILLAIN_KEYS[kind]
    check_keys(data, where, required, optional)
    lackey, peril = kind == "lackey", kind == "peril"
    ploys = _ploys(data, where)
    special = _effect(data, "special", "villain", where)
    _check_special(ploys, special, where)
    return VillainCard(
        name=read_str(data, "name", where),
        count=read_int(data, "count", where, 1, VDECK, default=1),
        type=VILLAIN_TYPES[kind],
        color=_color(data, "color", where) if lackey or peril else -1,
        health=read_int(data, "health", where, 1, MAX_HEALTH, dash=True) if lackey else 0,
        health_per_hero=read_bool(data, "health_per_hero", where, default=False),
        defense=read_int(data, "defense", where, 0, MAX_STAT, default=0),
        inflict=read_int(data, "inflict", where, 0, MAX_STAT) if lackey else 0,
        danger=read_int(data, "danger", where, 1, MAX_HEALTH, dash=True) if peril else 0,
        danger_per_hero=read_bool(data, "danger_per_hero", where, default=False),
        activate=_effect(data, "activate", "activate", where),
        special=special,
        showdown=_effect(data, "showdown", "villain", where),
        ploys=ploys,
        scaling=SCALINGS[read_str(data, "scaling", where, default="none", choices=SCALINGS)],
        where=where,
        crisis=_crisis_trait(data, where),
        **_attach(data, where),
    )


def _crisis_trait(data: dict[str, Any], where: Where) -> Effect:
    """``crisis: [ops]`` on a Ploy or issue card: the Crisis trait (rulebook: Crisis Cards).
    After resolving, the card stays in the issue play area and its Crisis effect (villain
    context) resolves at every crisis. It cannot also attach, stay or be a bystander."""
    crisis = _effect(data, "crisis", "villain", where)
    if "crisis" in data:
        if not crisis:
            raise where.key("crisis").error("a Crisis card needs at least one op")
        for key in ("attach", "stays", "bystander"):
            if data.get(key):
                raise where.key(key).error("a card with the Crisis trait stays in the issue "
                                           "play area; it cannot also have this")
    return crisis


def _attach(data: dict[str, Any], where: Where) -> dict[str, int]:
    """``attach: {to: lackey|villain, defense: N}`` of a Ploy card (rulebook: Attaching
    Cards); an absent key means the card is discarded after it resolves."""
    if "attach" not in data:
        return {}
    block = as_mapping(data["attach"], where.key("attach"))
    check_keys(block, where.key("attach"), ("to",), ("defense",))
    to = read_str(block, "to", where.key("attach"), choices=ATTACH_NAMES)
    return {"attach": ATTACH_NAMES[to],
            "attach_defense": read_int(block, "defense", where.key("attach"), 0, MAX_STAT,
                                       default=0)}


def _ploys(data: dict[str, Any], where: Where) -> tuple[int, ...]:
    """The ``ploys`` icon names as PLOY_* codes, left to right."""
    icons = as_list(data.get("ploys", []), where.key("ploys"))
    if len(icons) > MAX_PLOYS:
        raise where.key("ploys").error(f"{len(icons)} ploy icons, at most {MAX_PLOYS}")
    if "ploys" in data and not icons and data.get("type") == "ploy":
        raise where.key("ploys").error("a ploy card needs at least one ploy icon")
    return tuple(PLOY_NAMES[check_str(icon, where.key("ploys").index(i), PLOY_NAMES)]
                 for i, icon in enumerate(icons))


def _check_special(ploys: tuple[int, ...], special: Effect, where: Where) -> None:
    """A ``special`` icon needs a ``special`` effect, and the effect needs an icon."""
    if PLOY_SPECIAL in ploys and not special:
        raise where.key("special").error("the card has a 'special' ploy icon but no special "
                                         "effect")
    if special and PLOY_SPECIAL not in ploys:
        raise where.key("special").error("a special effect needs a 'special' ploy icon to "
                                         "trigger it")


# --------------------------------------------------------------------------- issues


@parsed_once
def parse_issue(path: Path) -> Issue:
    """Validate an issue file (with its board); returns the ``Issue``."""
    data, where, ident = read_content(path, "issue")
    name = read_str(data, "name", where)
    counters = _counters(data, where)
    loss_counter, loss_at_least, loss_per_hero = _loss(data, where, counters)
    setup, crisis = _overview(data, where.for_card(name, "issue overview"), counters)
    board = parse_board(data["board"], where.key("board"), counters)
    schemes, scheme_wheres = _parse_entries(
        data, "schemes", where, "schemes", lambda raw, w: _scheme_card(raw, w, board, counters)
    )
    _check_scheme_panels(schemes, scheme_wheres)
    cards, wheres = _parse_entries(
        data, "cards", where, "", lambda raw, w: _issue_card(raw, w, board, counters)
    )
    _check_unique_names([c.name for c in (*schemes, *cards)], scheme_wheres + wheres)
    if len(schemes) < MIN_SCHEMES:
        raise where.key("schemes").error(
            f"{len(schemes)} Scheme cards, the issue deck needs at least {MIN_SCHEMES}"
        )
    total = len(schemes) + sum(c.count for c in cards)
    _check_deck_size(total, IDECK, where.key("cards"), "the issue deck (schemes + cards)")
    return Issue(ident, name, counters, loss_counter, loss_at_least, setup, crisis, board,
                 schemes, cards, where.file, loss_per_hero)


def _counters(data: dict[str, Any], where: Where) -> tuple[str, ...]:
    """The issue's counter names (at most MAX_COUNTERS, distinct, lower_snake_case)."""
    loc = where.key("counters")
    names = as_list(data.get("counters", []), loc)
    if len(names) > MAX_COUNTERS:
        raise loc.error(f"{len(names)} counters, at most {MAX_COUNTERS}")
    out: list[str] = []
    for i, raw in enumerate(names):
        name = check_str(raw, loc.index(i))
        if not ID_RE.match(name):
            raise loc.index(i).error(f"{name!r} is not lower_snake_case")
        if name in out:
            raise loc.index(i).error(f"counter {name!r} is declared twice")
        out.append(name)
    return tuple(out)


def _loss(data: dict[str, Any], where: Where, counters: tuple[str, ...]
          ) -> tuple[int, int, bool]:
    """``loss: {counter, at_least, at_least_per_hero}`` as (counter index, threshold, per
    hero), or (-1, 0, False)."""
    if "loss" not in data:
        return -1, 0, False
    loc = where.key("loss")
    loss = as_mapping(data["loss"], loc)
    check_keys(loss, loc, ("counter", "at_least"), ("at_least_per_hero",))
    name = read_str(loss, "counter", loc)
    if name not in counters:
        raise loc.key("counter").error(
            f"unknown counter {name!r} (declared: {', '.join(counters) or 'none'})"
        )
    return (counters.index(name), read_int(loss, "at_least", loc, 1, MAX_HEALTH),
            read_bool(loss, "at_least_per_hero", loc, default=False))


def _overview(data: dict[str, Any], where: Where, counters: tuple[str, ...]
              ) -> tuple[Effect, Effect]:
    """The Issue Overview's Setup and Crisis effects (villain context)."""
    loc = where.key("overview")
    overview = as_mapping(data.get("overview", {}), loc)
    check_keys(overview, loc, (), ("setup", "crisis"))
    return (_effect(overview, "setup", "villain", loc, counters),
            _effect(overview, "crisis", "villain", loc, counters))


def _scheme_card(raw: object, where: Where, board: Board, counters: tuple[str, ...]
                 ) -> SchemeCard:
    """A double-sided Scheme card: Scheme side (panel, danger) and its ``back``."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("name", "panel", "danger"), ("danger_per_hero", "back"))
    panel = read_int(data, "panel", where, 1, len(board.panels))
    back_raw = data.get("back", {"name": read_str(data, "name", where), "type": "none"})
    return SchemeCard(
        name=read_str(data, "name", where),
        panel=panel,
        danger=read_int(data, "danger", where, 1, MAX_HEALTH, dash=True),
        danger_per_hero=read_bool(data, "danger_per_hero", where, default=False),
        back=_scheme_back(back_raw, where.key("back"), board, panel, counters),
    )


_BACK_KEYS = {
    "none": (("name", "type"), ()),
    "problem": (("name", "type", "danger"), ("danger_per_hero", "location", "activate")),
    "enemy": (("name", "type", "health", "inflict"),
              ("health_per_hero", "defense", "activate")),
}


def _scheme_back(raw: object, where: Where, board: Board, panel: int,
                 counters: tuple[str, ...]) -> SchemeBack:
    """The solved side of a Scheme card: none, a problem or an enemy."""
    data = as_mapping(raw, where)
    kind = read_str(data, "type", where, choices=BACK_TYPES)
    check_keys(data, where, *_BACK_KEYS[kind])
    problem, enemy = kind == "problem", kind == "enemy"
    location = -1
    if problem or enemy:
        location = int(board.scheme_space[panel])
    if "location" in data:
        location = resolve_location(board, data["location"], where.key("location"))
    return SchemeBack(
        name=read_str(data, "name", where),
        type=BACK_TYPES[kind],
        danger=read_int(data, "danger", where, 1, MAX_HEALTH, dash=True) if problem else 0,
        danger_per_hero=read_bool(data, "danger_per_hero", where, default=False),
        location=location,
        **_enemy_side(data, where, counters, enemy=enemy),
    )


def _enemy_side(data: dict[str, Any], where: Where, counters: tuple[str, ...] | None = None,
                enemy: bool = True) -> dict[str, Any]:
    """The ``EnemySide`` fields of card side ``data``, read in field order; a side that is
    no enemy (``enemy`` false) has 0 health and inflict whatever it says."""
    return {
        "health": read_int(data, "health", where, 1, MAX_HEALTH, dash=True) if enemy else 0,
        "health_per_hero": read_bool(data, "health_per_hero", where, default=False),
        "defense": read_int(data, "defense", where, 0, MAX_STAT, default=0),
        "inflict": read_int(data, "inflict", where, 0, MAX_STAT) if enemy else 0,
        "activate": _effect(data, "activate", "activate", where, counters),
    }


def _check_scheme_panels(schemes: tuple[SchemeCard, ...], wheres: list[Where]) -> None:
    """Each scheme panel has at most one Scheme card."""
    seen: set[int] = set()
    for scheme, where in zip(schemes, wheres, strict=True):
        if scheme.panel in seen:
            raise where.key("panel").error(f"another Scheme card is already on panel "
                                           f"{scheme.panel}")
        seen.add(scheme.panel)


def _issue_card(raw: object, where: Where, board: Board, counters: tuple[str, ...]
                ) -> IssueCard:
    """An issue card: an effect when drawn, optionally ``stays`` as a problem."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("name",),
               ("count", "effect", "stays", "bystander", "rescued", "captured", "crisis"))
    bystander = read_bool(data, "bystander", where, default=False)
    for key in ("rescued", "captured"):
        if key in data and not bystander:
            raise where.key(key).error("only a bystander character (bystander: true) has this")
    if "effect" not in data and "stays" not in data and not bystander:
        raise where.key("effect").error("an issue card needs an effect, stays or bystander")
    if bystander and "stays" in data:
        raise where.key("stays").error("a bystander character cannot also stay as a problem")
    effect = _effect(data, "effect", "villain", where, counters)
    stays = "stays" in data
    danger, danger_ph, location = 0, False, -1
    activate = empty_effect(where.key("stays").key("activate"))
    if stays:
        loc = where.key("stays")
        block = as_mapping(data["stays"], loc)
        check_keys(block, loc, ("danger", "location"), ("danger_per_hero", "activate"))
        danger = read_int(block, "danger", loc, 1, MAX_HEALTH, dash=True)
        danger_ph = read_bool(block, "danger_per_hero", loc, default=False)
        location = resolve_location(board, block["location"], loc.key("location"))
        activate = _effect(block, "activate", "activate", loc, counters)
    return IssueCard(
        name=read_str(data, "name", where),
        count=read_int(data, "count", where, 1, IDECK, default=1),
        effect=effect,
        stays=stays,
        danger=danger,
        danger_per_hero=danger_ph,
        location=location,
        activate=activate,
        bystander=bystander,
        rescued=_check_rescued(_effect(data, "rescued", "hero", where)),
        captured=_effect(data, "captured", "villain", where, counters),
        crisis=_crisis_trait(data, where),
    )


def _check_rescued(rescued: Effect) -> Effect:
    """A bystander's ``rescued`` effect (hero context, "you" is the rescuer) resolves right
    after the op that rescued it, which may be a roll in progress: no Attack, Solve or form
    ops. Returns it unchanged."""
    for op in _ops_in(rescued.ops):
        if op.spec.name in NO_ROLL_OPS | FORM_OPS:
            raise op.where.key("op").error(
                f"op {op.spec.name!r} cannot be used in a rescued effect")
    for op in _form_uses(rescued.ops):
        raise _form_key(op).error("a bystander has no pilot and mech forms")
    return rescued


# --------------------------------------------------------------------------- clues


@parsed_once
def parse_clues(path: Path) -> Clues:
    """Validate a clue deck file; returns the ``Clues``."""
    data, where, ident = read_content(path, "clues")
    cards, wheres = _parse_entries(data, "cards", where, "", _clue_card)
    _check_unique_names([c.name for c in cards], wheres)
    for card in cards:
        # the clue deck is shared by every hero; form rules belong on a hero's own cards
        for op in _form_uses(card.effect.ops):
            raise _form_key(op).error(
                f"{op.spec.name!r} refers to pilot and mech forms; clue cards cannot use it")
    _check_deck_size(sum(c.count for c in cards), CLUE_LIST, where.key("cards"), "the clue deck")
    return Clues(ident, read_str(data, "name", where, default=ident), cards, where.file)


def _clue_card(raw: object, where: Where) -> ClueCard:
    """A clue card: bonus ``dice`` and/or a text ``effect`` (hero context)."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("name",), ("count", "dice", "effect"))
    if "dice" not in data and "effect" not in data:
        raise where.key("effect").error("a clue card needs dice or an effect")
    dice = as_mapping(data.get("dice", {}), where.key("dice"))
    check_keys(dice, where.key("dice"), (), ("attack", "solve"))
    attack = read_int(dice, "attack", where.key("dice"), 0, MAX_BONUS_DICE, default=0)
    solve = read_int(dice, "solve", where.key("dice"), 0, MAX_BONUS_DICE, default=0)
    if "dice" in data and attack + solve == 0:
        raise where.key("dice").error("bonus dice need attack or solve above 0")
    return ClueCard(
        name=read_str(data, "name", where),
        count=read_int(data, "count", where, 1, CLUE_LIST, default=1),
        effect=_effect(data, "effect", "hero", where),
        attack_dice=attack,
        solve_dice=solve,
    )


# --------------------------------------------------------------------------- nemeses


@parsed_once
def parse_nemesis(path: Path) -> Nemesis:
    """Validate a nemesis file; returns the ``Nemesis``.

    Its effects are checked against the op vocabulary now; issue counters they name are
    checked when a scenario compiles them (as for villain cards).
    """
    data, where, ident = read_content(path, "nemesis")
    name = read_str(data, "name", where)
    card = where.for_card(name, "nemesis card")
    loc = card.key("scheme")
    side = as_mapping(data["scheme"], loc)
    check_keys(side, loc, ("name", "danger"), ("danger_per_hero", "activate"))
    scheme = NemesisScheme(
        name=read_str(side, "name", loc),
        danger=read_int(side, "danger", loc, 1, MAX_HEALTH, dash=True),
        danger_per_hero=read_bool(side, "danger_per_hero", loc, default=False),
        activate=_effect(side, "activate", "activate", loc),
    )
    loc = card.key("enemy")
    side = as_mapping(data["enemy"], loc)
    check_keys(side, loc, ("name", "health", "inflict"),
               ("health_per_hero", "defense", "activate"))
    enemy = NemesisEnemy(name=read_str(side, "name", loc), **_enemy_side(side, loc))
    return Nemesis(ident, name, read_str(data, "style", where, default=""),
                   _effect(data, "setup", "villain", card), scheme, enemy, where.file)


# --------------------------------------------------------------------------- special minions

MAX_MINION_HEALTH = 5  # health of a special minion (damage below it is kept per panel)
MAX_MINION_INFLICT = 5


@parsed_once
def parse_minion(path: Path) -> SpecialMinion:
    """Validate a special Minion card file; returns the ``SpecialMinion``.

    ``setup`` and ``defeated`` are villain-context effects; in ``defeated`` the active hero
    is the hero whose Attack defeated the minion.
    """
    data, where, ident = read_content(path, "minion")
    name = read_str(data, "name", where)
    card = where.for_card(name, "minion card")
    return SpecialMinion(
        id=ident,
        name=name,
        style=read_str(data, "style", where, default=""),
        health=read_int(data, "health", card, 1, MAX_MINION_HEALTH),
        inflict=read_int(data, "inflict", card, 0, MAX_MINION_INFLICT),
        setup=_effect(data, "setup", "villain", card),
        defeated=_effect(data, "defeated", "villain", card),
        file=where.file,
    )


# --------------------------------------------------------------------------- special bystanders

# hero ops a rescued effect may not use: it can resolve in the middle of a dice roll (a
# forced move during a Showdown effect), and rolls do not nest
NO_ROLL_OPS = frozenset({"attack", "solve"})


@parsed_once
def parse_bystander(path: Path) -> SpecialBystander:
    """Validate a special Bystander card file; returns the ``SpecialBystander``.

    ``rescued`` is a hero-context effect ("you" is the rescuing hero; no Attack or Solve,
    no form ops); ``setup``, ``captured`` and ``defeated`` are villain-context effects whose
    active hero is the hero the capturing or defeating effect resolves for. Each may use
    ``place_bystanders`` with ``figure: own`` for the card's own figures. At least one of
    ``rescued``, ``captured`` and ``defeated`` is needed.
    """
    data, where, ident = read_content(path, "bystander")
    name = read_str(data, "name", where)
    card = where.for_card(name, "bystander card")

    def effect(key: str, context: str) -> Effect:
        if key not in data:
            return empty_effect(card.key(key))
        return parse_effect(data[key], context, card.key(key), own_figures=True)

    rescued = _check_rescued(effect("rescued", "hero"))
    captured, defeated = effect("captured", "villain"), effect("defeated", "villain")
    if not (rescued or captured or defeated):
        raise card.error("a special Bystander card needs a rescued, captured or defeated "
                         "effect")
    return SpecialBystander(ident, name, read_str(data, "style", where, default=""),
                            effect("setup", "villain"), rescued, captured, defeated,
                            where.file)


def _ops_in(ops: tuple[Op, ...]) -> Iterator[Op]:
    """Every op of an effect, those inside ``if`` branches included."""
    for op in ops:
        yield op
        yield from _ops_in(op.then)


# --------------------------------------------------------------------------- crisis cards


@parsed_once
def parse_crisis(path: Path) -> CrisisCard:
    """Validate a crisis card file; returns the ``CrisisCard``.

    Its effects are villain-context effects: in ``setup`` and ``crisis`` the active hero is
    the one the crisis happened to, in ``solved`` the hero who solved the card. ``danger``
    makes it a problem card: it then needs ``token: {at: LOCATION}``, the space of its
    crisis token (``start``, ``panel_K`` or ``peril_COLOUR``, checked against the board when
    a scenario compiles), and may have a ``solved`` effect.
    """
    data, where, ident = read_content(path, "crisis")
    name = read_str(data, "name", where)
    card = where.for_card(name, "crisis card")
    crisis = _effect(data, "crisis", "villain", card)
    if not crisis:
        raise card.key("crisis").error("a crisis card needs a Crisis effect")
    danger, token, token_where = 0, "", None
    if "danger" in data:
        danger = read_int(data, "danger", card, 1, MAX_HEALTH)
        if "token" not in data:
            raise card.key("token").error(
                "a crisis card with a danger value needs a crisis token: token: {at: LOCATION}")
        block = as_mapping(data["token"], card.key("token"))
        check_keys(block, card.key("token"), ("at",))
        token_where = card.key("token").key("at")
        token = check_str(block["at"], token_where)
        if not LOCATION_RE.match(token):
            raise token_where.error(f"{token!r} is not a location (start, panel_1..panel_"
                                    f"{MAX_PANELS}, peril_{'/'.join(COLOR_NAMES)})")
    else:
        for key in ("danger_per_hero", "token", "solved"):
            if key in data:
                raise card.key(key).error("only a crisis card with a danger value has this key")
    return CrisisCard(ident, name, read_str(data, "style", where, default=""),
                      _effect(data, "setup", "villain", card), crisis, where.file,
                      danger=danger,
                      danger_per_hero=read_bool(data, "danger_per_hero", card, default=False),
                      token=token, token_where=token_where,
                      solved=_effect(data, "solved", "villain", card), text=crisis_text(data))


def crisis_text(data: dict[str, Any]) -> str:
    """A crisis card's text from its (validated) YAML: its effects as phrases."""
    parts = [f"{label}: {effect_text(data[key])}." for key, label in
             (("setup", "Setup"), ("crisis", "Crisis"), ("solved", "Solved")) if data.get(key)]
    return " ".join(parts)


# --------------------------------------------------------------------------- allies


@parsed_once
def parse_ally(path: Path) -> AllyCard:
    """Validate an Ally card file; returns the ``AllyCard``.

    The ability is an action or exhaust ability; its effect may use every hero op and the
    ``ally_*`` ops. A passive ability has no meaning on an ally and is rejected.
    """
    data, where, ident = read_content(path, "ally")
    name = read_str(data, "name", where)
    card = where.for_card(name, "ally card")
    raw = as_mapping(data["ability"], card.key("ability"))
    if raw.get("kind") == "passive":
        raise card.key("ability").key("kind").error(
            "an ally's ability is an action or exhaust ability, not passive")
    ability = _ability(raw, card.key("ability"), "ally")
    for op in _form_uses(ability.effect.ops):
        raise _form_key(op).error("pilot and mech forms belong to heroes, not allies")
    return AllyCard(
        id=ident,
        name=name,
        style=read_str(data, "style", where, default=""),
        health=read_int(data, "health", card, 1, MAX_STAT),
        attack=read_int(data, "attack", card, 0, MAX_STAT),
        solve=read_int(data, "solve", card, 0, MAX_STAT),
        ability=ability,
        file=where.file,
    )


# --------------------------------------------------------------------------- scenarios


def scenario_path(scenario: str | Path, content_dir: str | Path | None = None) -> Path:
    """The file of a scenario given by id (in ``scenarios/``) or by path; a ``TypeError``
    for anything else (``None`` is not the id ``'None'``)."""
    if not isinstance(scenario, (str, os.PathLike)):
        raise TypeError(f"scenario must be a scenario id or a path, got {scenario!r} "
                        f"({type(scenario).__name__})")
    text = str(scenario)
    if isinstance(scenario, Path) or text.endswith((".yaml", ".yml")) or "/" in text:
        path = Path(scenario)
        if not path.is_file():
            raise Where(display_path(path)).error("no such scenario file")
        return path
    folder = scenarios_root(content_dir)
    path = folder / f"{text}.yaml"
    if not ID_RE.match(text) or not path.is_file():
        known = ", ".join(_ids_in(folder)) or "none"
        raise Where("load_scenario()", "-", "scenario").error(
            f"no scenario {text!r} in {display_path(folder)} (known: {known})"
        )
    return path


@parsed_once
def parse_scenario(path: Path) -> ScenarioSpec:
    """Validate a scenario file's own fields; returns the ``ScenarioSpec``."""
    data, where = read_yaml(path)
    check_keys(data, where, ("format_version", "id", "heroes", "villain", "issue", "clues"),
               ("kind", "nemeses", "rules", "caps"))
    ident = _header(data, where, path, None)
    return ScenarioSpec(
        id=ident,
        heroes=check_hero_ids(data["heroes"], where.key("heroes")),
        villain=villain_ids(data["villain"], where.key("villain")),
        issue=read_str(data, "issue", where),
        clues=read_str(data, "clues", where),
        nemeses=(check_nemesis_ids(data["nemeses"], where.key("nemeses"))
                 if "nemeses" in data else None),
        rules=dict(as_mapping(data.get("rules", {}), where.key("rules"))),
        caps=dict(as_mapping(data.get("caps", {}), where.key("caps"))),
        where=where,
    )


def _loader(kind: str) -> Callable[..., Any]:
    """``load_<kind>(content_id, content_dir=None, ref=None)``: ``load`` for one kind (its
    result type is annotated where it is bound)."""

    def load_kind(content_id: str, content_dir: str | Path | None = None,
                  ref: Where | None = None) -> Any:
        return load(kind, content_id, content_dir, ref)

    load_kind.__name__ = load_kind.__qualname__ = f"load_{kind}"
    load_kind.__doc__ = (f"Load and validate ``{KIND_DIRS[kind]}/<id>.yaml`` (``load``); "
                         f"``ref`` is where the id was named.")
    return load_kind


load_hero: Callable[..., Hero] = _loader("hero")
load_villain: Callable[..., Villain] = _loader("villain")
load_issue: Callable[..., Issue] = _loader("issue")
load_clues: Callable[..., Clues] = _loader("clues")
load_nemesis: Callable[..., Nemesis] = _loader("nemesis")
load_minion: Callable[..., SpecialMinion] = _loader("minion")
load_bystander: Callable[..., SpecialBystander] = _loader("bystander")
load_crisis: Callable[..., CrisisCard] = _loader("crisis")
load_ally: Callable[..., AllyCard] = _loader("ally")


# the parser of each kind of content file (``load``)
PARSERS: dict[str, Callable[[Path], Any]] = {
    "hero": parse_hero,
    "villain": parse_villain,
    "issue": parse_issue,
    "clues": parse_clues,
    "nemesis": parse_nemesis,
    "minion": parse_minion,
    "bystander": parse_bystander,
    "crisis": parse_crisis,
    "ally": parse_ally,
}
assert set(PARSERS) == set(FILE_KEYS), "every kind of file needs its keys and its parser"


def check_hero_ids(raw: object, where: Where) -> tuple[str, ...]:
    """A list of 1..MAX_HEROES hero ids (repeats allowed)."""
    ids = as_list(raw, where)
    if not 1 <= len(ids) <= MAX_HEROES:
        raise where.error(f"{len(ids)} heroes, a game needs 1..{MAX_HEROES}")
    return tuple(check_str(h, where.index(i)) for i, h in enumerate(ids))


def check_nemesis_ids(raw: object, where: Where) -> tuple[str, ...]:
    """A list of distinct nemesis ids (each nemesis card exists once)."""
    ids = tuple(check_str(n, where.index(i)) for i, n in enumerate(as_list(raw, where)))
    for i, ident in enumerate(ids):
        if ident in ids[:i]:
            raise where.index(i).error(f"nemesis {ident!r} is listed twice")
    return ids


__all__ = [
    "ContentError",
    "list_content",
    "load",
    "load_ally",
    "load_bystander",
    "load_clues",
    "load_crisis",
    "load_hero",
    "load_issue",
    "load_minion",
    "load_nemesis",
    "load_villain",
    "parse_scenario",
    "scenario_path",
]
