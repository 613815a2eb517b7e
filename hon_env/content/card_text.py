"""What a card does, in words: one card at a time, from the content YAML as written.

Two layers, both built on the op phrases of ``hon_env.content.text``:

- Pieces per card of each kind (``hero_card_parts``, ``villain_card_parts``, ...), from a
  card's YAML mapping. The content catalogue (``scripts/catalogue.py``) lays them out as
  tables; ``card_text`` joins them into one line.
- ``card_text(scenario, kind, index)``: the rules text of one card of a compiled scenario,
  addressed as the ``Scenario`` names it (``kind`` below, ``index`` into the tuple named).
  The front ends (``hon-play`` in the terminal and the browser, ``hon-replay``) show it
  beside a card's name; ``card_name`` gives that name.

    kind               index                                      names
    hero_card          card of seat ``seat``'s deck (hcard order)  hero_card_names[seat]
    hero               seat: its Hero card, both sides             hero_names
    draft              hero of the draft pool (Draft variant)      Scenario.draft_heroes
    villain_card       villain deck card (vcard order)             villain_card_names
    villain            villain: its Villain card, both sides       villain_names
    issue_card         issue deck card (Scheme cards first)        issue_card_names
    clue               clue card (clue table order)                clue_names
    nemesis            nemesis pool row, both sides                nemesis_names
    special_minion     special Minion card (Tables.smin row)       special_minion_names
    special_bystander  special Bystander card (Tables.sby row)     special_bystander_names
    crisis             crisis card (Tables.crisis row)             crisis_card_names
    ally               seat: its Ally card                         ally_names

A ``Scenario`` keeps ids and names, not text: ``card_text`` reads the card's file again
(parsed once per file, ``content/cache.py``) from ``content_dir`` (default: the shipped
content) and checks that the card found there has the scenario's name for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hon_env.content.cache import parsed_once
from hon_env.content.errors import Where
from hon_env.content.loader import find_file, read_yaml
from hon_env.content.text import effect_text, plural
from hon_env.spec.tables import VDECK

if TYPE_CHECKING:
    from hon_env.content.compile import Scenario

FORM_WORDS = {"pilot": "while piloting", "mech": "while in the mech"}
PASSIVE_WORDS = {"attack_dice": "attack die", "solve_dice": "solve die", "move": "move",
                 "armor": "armor", "pierce": "pierce"}
NONE = "—"  # an empty effect or cell, as ``effect_text`` writes it


class CardRef(NamedTuple):
    """One card of a compiled scenario: ``kind`` and ``index`` as in the module table;
    ``seat`` only for ``hero_card``."""

    kind: str
    index: int
    seat: int = 0


# --------------------------------------------------------------------------- pieces


def per_hero(value: Any, per_hero: bool) -> str:
    """A number as printed: ``"3"``, or ``"3 per hero"``."""
    return f"{value} per hero" if per_hero else str(value)


def passive_text(data: dict[str, Any]) -> str:
    """Passive numbers (``attack_dice: 1, armor: 1``) as ``"+1 attack die, armor 1"``."""
    parts = []
    for key, word in PASSIVE_WORDS.items():
        v = data.get(key, 0)
        if v:
            parts.append(f"+{v} {word}" if key in ("attack_dice", "solve_dice", "move")
                         else f"{word} {v}")
    return ", ".join(parts)


def ability_text(ab: dict[str, Any] | None, mark: str = "") -> str:
    """An ability: ``Name (kind): effect``; ``mark`` goes around the name (``**``: bold
    in Markdown)."""
    if not ab:
        return NONE
    name = f"{mark}{ab['name']}{mark} " if ab.get("name") else ""
    body = passive_text(ab) if ab["kind"] == "passive" else effect_text(ab.get("effect"))
    return f"{name}({ab['kind']}): {body or NONE}"


def hero_card_parts(c: dict[str, Any], mark: str = "") -> list[str]:
    """What a hero deck card does: its effect, its ability, its passive numbers."""
    parts = []
    if c.get("effect"):
        parts.append(effect_text(c["effect"]))
    if c.get("ability"):
        parts.append(ability_text(c["ability"], mark))
    if c.get("passive") and passive_text(c["passive"]):
        when = FORM_WORDS.get(c["passive"].get("form", ""), "")
        parts.append(f"while in play{' and ' + when if when else ''}: "
                     + passive_text(c["passive"]))
    return parts


def hero_side_text(side: str, s: dict[str, Any]) -> str:
    """One side of a Hero card: ``normal: health 11, attack 3, solve 2; Ability (...)``."""
    form = f" ({s['form']})" if s.get("form", "figure") != "figure" else ""
    ability = f"; {ability_text(s['ability'])}" if s.get("ability") else ""
    return (f"{side}{form}: health {s['health']}, attack {s['attack']}, "
            f"solve {s['solve']}{ability}")


def villain_numbers(c: dict[str, Any]) -> str:
    """A lackey's health, defense and inflict, a peril's danger ("" for a ploy)."""
    if c["type"] == "lackey":
        return (f"health {per_hero(c['health'], c.get('health_per_hero', False))}, "
                f"defense {c.get('defense', 0)}, inflict {c.get('inflict', 0)}")
    if c["type"] == "peril":
        return f"danger {per_hero(c['danger'], c.get('danger_per_hero', False))}"
    return ""


def villain_card_parts(c: dict[str, Any]) -> list[str]:
    """A villain deck card's effects: activate, special, showdown, attachment, Crisis."""
    parts = []
    for key in ("activate", "special", "showdown"):
        if c.get(key):
            parts.append(f"{key}: {effect_text(c[key])}")
    if c.get("attach"):
        a = c["attach"]
        parts.append(f"attach to the {a['to']}: +{a.get('defense', 0)} defense")
    if c.get("crisis"):
        parts.append(f"Crisis trait, stays in the issue play area: {effect_text(c['crisis'])}")
    return parts


def scheming_numbers(sch: dict[str, Any]) -> str:
    """The Villain card's scheming side: danger and inflict."""
    return (f"danger {per_hero(sch['danger'], sch.get('danger_per_hero', False))}, "
            f"inflict {sch.get('inflict', 0)}")


def enemy_numbers(e: dict[str, Any]) -> str:
    """An enemy's health, defense and inflict (a showdown villain, a nemesis)."""
    return (f"health {per_hero(e['health'], e.get('health_per_hero', False))}, "
            f"defense {e.get('defense', 0)}, inflict {e.get('inflict', 0)}")


def scheme_back_text(b: dict[str, Any], mark: str = "") -> str:
    """The other side of a Scheme card: its name, type, numbers and activate effect."""
    kind = b.get("type", "none")
    text = f"{mark}{b['name']}{mark} ({kind})"
    if kind == "problem":
        text += f": danger {b.get('danger')}"
        if b.get("location"):
            text += f" at {b['location']}"
    elif kind == "enemy":
        text += (f": health {b.get('health')}, defense {b.get('defense', 0)}, "
                 f"inflict {b.get('inflict', 0)}")
    if b.get("activate"):
        text += f"; activate: {effect_text(b['activate'])}"
    return text


def issue_card_parts(c: dict[str, Any]) -> list[str]:
    """An issue deck card (not a Scheme card): bystander character, Crisis trait, effect,
    the problem it stays as."""
    parts = []
    if c.get("bystander"):
        parts.append("bystander character: its token replaces a bystander")
        if c.get("rescued"):
            parts.append(f"when rescued (for the rescuer): {effect_text(c['rescued'])}")
        if c.get("captured"):
            parts.append(f"when captured: {effect_text(c['captured'])}")
    if c.get("crisis"):
        parts.append(f"Crisis trait, stays in the issue play area: {effect_text(c['crisis'])}")
    if c.get("effect"):
        parts.append(effect_text(c["effect"]))
    if c.get("stays"):
        s = c["stays"]
        stay = f"stays as a problem: danger {s.get('danger')}"
        if s.get("location"):
            stay += f" at {s['location']}"
        if s.get("activate"):
            stay += f"; activate: {effect_text(s['activate'])}"
        parts.append(stay)
    return parts


def clue_parts(c: dict[str, Any]) -> list[str]:
    """A clue card: its bonus dice, its effect."""
    parts = []
    dice = c.get("dice") or {}
    for key in ("attack", "solve"):
        if dice.get(key):
            parts.append(f"+{plural(dice[key], key + ' die', key + ' dice')}")
    if c.get("effect"):
        parts.append(effect_text(c["effect"]))
    return parts


def minion_lines(d: dict[str, Any]) -> list[str]:
    """A special Minion card: its minions' numbers, setup, when one is defeated."""
    return [f"Each of its 5 minions: health {d['health']}, inflict {d['inflict']}",
            f"Setup: {effect_text(d.get('setup'))}",
            f"When one is defeated (for the hero who defeated it): "
            f"{effect_text(d.get('defeated'))}"]


def bystander_lines(d: dict[str, Any]) -> list[str]:
    """A special Bystander card: its figures, setup, rescued, captured, defeated."""
    return ["4 bystander figures, replacing 4 normal bystander tokens",
            f"Setup: {effect_text(d.get('setup'))}",
            f"When one is rescued (for the rescuing hero): {effect_text(d.get('rescued'))}",
            f"When one is captured: {effect_text(d.get('captured'))}",
            f"When one is defeated: {effect_text(d.get('defeated'))}"]


def crisis_lines(d: dict[str, Any]) -> list[str]:
    """A crisis card: setup, crisis, and for one with a danger value its token and what
    solving it gives."""
    out = [f"Setup: {effect_text(d.get('setup'))}", f"Crisis: {effect_text(d.get('crisis'))}"]
    if "danger" in d:  # a problem card, solved at its crisis token
        out.append(f"Danger {per_hero(d['danger'], d.get('danger_per_hero', False))}, "
                   f"crisis token at {d['token']['at']}")
        out.append(f"Solved (for the solver, after its clue): {effect_text(d.get('solved'))}")
    return out


def ally_lines(d: dict[str, Any], mark: str = "") -> list[str]:
    """An Ally card: its numbers and its ability."""
    return [f"Health {d['health']}, attack {d['attack']}, solve {d['solve']}",
            f"Ability: {ability_text(d['ability'], mark)}"]


# --------------------------------------------------------------------------- whole cards


def hero_card_text(c: dict[str, Any]) -> str:
    """A hero deck card in one line: what it does, then (type, action icon, unique;
    feats)."""
    tags = [c["type"]] + ["action"] * bool(c.get("action")) + ["unique"] * bool(c.get("unique"))
    feats = f"; feats: {', '.join(c['feats'])}" if c.get("feats") else ""
    return f"{'; '.join(hero_card_parts(c)) or NONE} ({', '.join(tags)}{feats})"


def hero_text(d: dict[str, Any]) -> str:
    """A Hero card in one line: both sides."""
    return " | ".join(hero_side_text(side, s) for side, s in d["hero_card"].items())


def villain_card_text(c: dict[str, Any]) -> str:
    """A villain deck card in one line: type and colour, numbers, effects, ploy icons."""
    head = c["type"] + (f" ({c['color']})" if c.get("color") else "")
    numbers = villain_numbers(c)
    parts = [f"{head}: {numbers}" if numbers else head] + villain_card_parts(c)
    if c.get("ploys"):
        parts.append(f"ploy icons: {', '.join(c['ploys'])}")
    if c.get("scaling", "none") != "none":
        parts.append(f"scaling: {c['scaling']}")
    return "; ".join(parts)


def villain_text(d: dict[str, Any]) -> str:
    """A Villain card in one line: its scheming side, then its showdown side."""
    sch, sd = d["villain_card"]["scheming"], d["villain_card"]["showdown"]
    return (f"scheming: {scheming_numbers(sch)}{_activate(sch)} | "
            f"showdown: {enemy_numbers(sd)}{_activate(sd)}")


def _activate(side: dict[str, Any]) -> str:
    """``"; activate: ..."`` for a side with an activate effect, else ``""``."""
    return f"; activate: {effect_text(side['activate'])}" if side.get("activate") else ""


def scheme_card_text(s: dict[str, Any]) -> str:
    """A Scheme card in one line: panel and danger, then its other side."""
    return (f"Scheme card at panel {s['panel']}: danger "
            f"{per_hero(s['danger'], s.get('danger_per_hero', False))} | other side: "
            f"{scheme_back_text(s['back'])}")


def nemesis_text(d: dict[str, Any]) -> str:
    """A nemesis card in one line: setup, its Scheme side, its enemy side."""
    sch, en = d["scheme"], d["enemy"]
    setup = f"setup: {effect_text(d['setup'])} | " if d.get("setup") else ""
    return (f"{setup}scheme side {sch['name']}: danger "
            f"{per_hero(sch['danger'], sch.get('danger_per_hero', False))}{_activate(sch)} | "
            f"enemy side {en['name']}: {enemy_numbers(en)}{_activate(en)}")


def _lines_text(lines: list[str]) -> str:
    """Reference-card lines in one line, leaving out the empty ones (``Setup: —``)."""
    return "; ".join(x for x in lines if not x.endswith(f": {NONE}")) or NONE


# --------------------------------------------------------------------------- by scenario

KINDS = ("hero_card", "hero", "draft", "villain_card", "villain", "issue_card", "clue",
         "nemesis", "special_minion", "special_bystander", "crisis", "ally")


@parsed_once
def _card_file(path: Path) -> dict[str, Any]:
    """The YAML mapping of one content file (validated when the scenario compiled)."""
    return read_yaml(path)[0]


def _data(kind: str, ident: str, content_dir: str | Path | None) -> dict[str, Any]:
    return _card_file(find_file(kind, ident, content_dir, Where("card_text()", "-", kind)))


def _expanded(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every copy of every deck entry (``count``), in file order: the compiled order."""
    return [c for c in cards for _ in range(c.get("count", 1))]


def _pick(items: list[Any], index: int, what: str) -> Any:
    if not 0 <= index < len(items):
        raise IndexError(f"{what} {index} does not exist: 0..{len(items) - 1}")
    return items[index]


def card_name(scenario: Scenario, kind: str, index: int, seat: int = 0) -> str:
    """The name of card ``index`` of ``kind`` (module table) as the scenario names it.

    Raises:
        ValueError: ``kind`` is not one of ``KINDS``; IndexError: no such card.
    """
    sc = scenario
    names: dict[str, tuple[str, ...]] = {
        "hero": sc.hero_names, "villain_card": sc.villain_card_names,
        "villain": sc.villain_names or (sc.villain_name,),
        "issue_card": sc.issue_card_names, "clue": sc.clue_names,
        "nemesis": sc.nemesis_names, "special_minion": sc.special_minion_names,
        "special_bystander": sc.special_bystander_names, "crisis": sc.crisis_card_names,
        "ally": sc.ally_names,
    }
    if kind == "hero_card":
        return _pick(list(_pick(list(sc.hero_card_names), seat, "seat")), index, "hero card")
    if kind == "draft":
        pool = sc.draft_heroes
        return _pick(list(pool), index, "draft pool hero")
    if kind not in names:
        raise ValueError(f"unknown card kind {kind!r}; kinds: {', '.join(KINDS)}")
    name = _pick(list(names[kind]), index, kind.replace("_", " "))
    if not name:  # a seat without an Ally card
        raise IndexError(f"seat {index} has no {kind}")
    return name


def card_text(scenario: Scenario, kind: str, index: int, seat: int = 0,
              content_dir: str | Path | None = None) -> str:
    """The rules text of one card of ``scenario``, in one line (without its name).

    Args:
        scenario: the compiled scenario the card belongs to.
        kind, index: which card (the module table); ``seat`` for ``hero_card`` only.
        content_dir: the content folder the scenario was compiled from (default: the
            shipped ``configs/content``).

    Returns:
        e.g. ``"attack with +2 dice (instant, action; feats: strength)"``.

    Raises:
        ValueError: an unknown ``kind``, or the card in ``content_dir`` is not the one the
            scenario names (compiled from another content folder).
        IndexError: no card ``index`` of that kind.
    """
    sc = scenario
    if content_dir is None:
        content_dir = sc.content_dir
    name = card_name(sc, kind, index, seat)
    if kind == "hero_card":
        data = _data("hero", sc.hero_ids[seat], content_dir)
        card = _expanded(data["cards"])[index]
        return _checked(hero_card_text(card), card["name"], name, kind)
    if kind in ("hero", "draft"):
        ident = sc.hero_ids[index] if kind == "hero" else name
        data = _data("hero", ident, content_dir)
        return _checked(hero_text(data), data["name"] if kind == "hero" else ident, name, kind)
    if kind in ("villain_card", "villain"):
        v = index // VDECK if kind == "villain_card" else index
        data = _data("villain", (sc.villain_ids or (sc.villain_id,))[v], content_dir)
        if kind == "villain":
            return _checked(villain_text(data), data["name"], name, kind)
        card = _expanded(data["cards"])[index % VDECK]
        return _checked(villain_card_text(card), card["name"], name, kind)
    if kind == "issue_card":
        data = _data("issue", sc.issue_id, content_dir)
        schemes = data["schemes"]
        if index < len(schemes):
            return _checked(scheme_card_text(schemes[index]), schemes[index]["name"], name, kind)
        card = _expanded(data.get("cards", []))[index - len(schemes)]
        return _checked("; ".join(issue_card_parts(card)) or NONE, card["name"], name, kind)
    if kind == "clue":
        cards = _expanded(_data("clues", sc.clues_id, content_dir)["cards"])
        card = cards[index % len(cards)]  # the extra_clues rule repeats the deck
        return _checked("; ".join(clue_parts(card)) or NONE, card["name"], name, kind)
    if kind == "nemesis":
        data = _data("nemesis", sc.nemesis_ids[index], content_dir)
        return _checked(nemesis_text(data), data["name"], name, kind)
    rule, file_kind, lines = {
        "special_minion": ("special_minions", "minion", minion_lines),
        "special_bystander": ("special_bystanders", "bystander", bystander_lines),
        "crisis": ("crisis_cards", "crisis", crisis_lines),
        "ally": ("allies", "ally", ally_lines),
    }[kind]
    data = _data(file_kind, sc.rules[rule][index], content_dir)
    return _checked(_lines_text(lines(data)), data["name"], name, kind)


def _checked(text: str, found: str, expected: str, kind: str) -> str:
    """``text`` when the card read is the one the scenario names, else an error."""
    if found != expected:
        raise ValueError(f"the {kind.replace('_', ' ')} read from the content is {found!r}, "
                         f"the scenario names {expected!r}: pass the content_dir the "
                         "scenario was compiled from")
    return text
