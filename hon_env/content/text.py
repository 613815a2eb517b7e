"""Short English phrases for effects, from the YAML as written (names, not compiled numbers).

``effect_text([{op: damage_hero, n: 1, who: each}])`` is ``"deal 1 damage to each hero"``.
The content catalogue (``scripts/catalogue.py``), the text of single cards that the play
front ends show (``content/card_text.py``) and ``Game.snapshot`` (crisis cards) use the
same phrases; an op without a phrase reads as ``name(param=value, ...)``.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from hon_env.spec.ops import OP_BY_NAME

COUNT_WORDS = {
    "minions_in_villain_panel": "minions in the villain's panel",
    "minions_total": "minions on the board",
    "captured_total": "captured bystanders",
    "bystanders_on_map": "bystanders on the map",
    "minion_supply": "minions in the supply",
    "bystander_supply": "bystanders in the supply",
    "villain_hidden_tokens": "villain hidden tokens",
    "active_hero_threats": "cards in the active hero's threat area",
    "active_hero_damage": "damage on the active hero",
    "villain_panel": "the villain's panel number",
    "round": "the round",
    "active_hero_piloting": "you are on your pilot side",
    "active_hero_in_mech": "you are in your mech",
}
# conditions that read as a yes/no question rather than a number (``at_least: 1``)
FLAG_COUNTS = {"active_hero_piloting", "active_hero_in_mech"}

WHO_WORDS = {"active": "the active hero", "each": "each hero",
             "near_villain": "each hero near the villain"}
TOWARD_WORDS = {"any": "hero or bystander", "hero": "hero", "bystander": "bystander"}

def plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _within(r: int, p: dict[str, Any]) -> str:
    return "in your space" if r == 0 else f"within {r}"


def _panel(v: Any, p: dict[str, Any]) -> str:
    if v == "villain":
        return "the villain's panel"
    if v == "all":
        return "each panel"
    return f"panel {v}"


def _figures(n: int, p: dict[str, Any]) -> str:
    if p.get("figure") == "own":
        return f"{plural(n, 'figure')} of this card (replacing a bystander)"
    return plural(n, "bystander")


# the words a phrase template (``OpSpec.phrase``) names after a colon: each renders a
# parameter's value (and may read the op's other parameters); ``s:WORD`` or
# ``s:WORD:PLURAL`` renders the value and the word, plural unless the value is 1
WORDS: dict[str, Callable[[Any, dict[str, Any]], str]] = {
    "within": _within,
    "beyond_near": lambda r, p: "" if r == 1 else f" within {r}",
    "anywhere": lambda r, p: "anywhere" if r == 0 else f"within {r}",
    "hero_in_range": lambda r, p: "yourself" if r == 0 else f"a hero within {r}",
    "lands_within": lambda r, p: "" if r == 0 else f" (it lands within {r})",
    "extra_dice": lambda d, p: "" if d == 0 else f" with +{plural(d, 'die', 'dice')}",
    "times": lambda n, p: "" if n == 1 else f" {n} times",
    "panel": _panel,
    "who": lambda v, p: WHO_WORDS[v],
    "toward": lambda v, p: TOWARD_WORDS[v],
    "bonus": lambda b, p: f" +{b}" if b else "",
    "add_or_remove": lambda n, p: f"{'add' if n >= 0 else 'remove'} {abs(n)}",
    "bystanders_or_figures": _figures,
    "fortified": lambda v, p: "the villain has" if v == "villain" else "every lackey has",
    "away_from": lambda v, p: "the villain" if v == "villain" else "this figure",
}


class _PhraseFormatter(string.Formatter):
    """Fills an ``OpSpec.phrase`` from one op's parameters (``WORDS`` after a colon)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def format_field(self, value: Any, spec: str) -> str:
        if spec.startswith("s:"):
            return plural(value, *spec[2:].split(":"))
        if spec:
            return WORDS[spec](value, self.params)
        return str(value)


def _if_text(op: dict[str, Any], p: dict[str, Any]) -> str:
    count = str(p["count"])
    words = count.split(":", 1)[1] if count.startswith("counter:") else (
        COUNT_WORDS.get(count, count))
    then = effect_text(op.get("then") or [])
    per_hero = " per hero" if op.get("at_least_per_hero") else ""
    if count in FLAG_COUNTS and p["at_least"] == 1 and not per_hero:
        return f"if {words}: {then}"
    return f"if {words} ≥ {p['at_least']}{per_hero}: {then}"


def op_text(op: dict[str, Any]) -> str:
    """A short phrase for one op, from its name and parameters (defaults filled in): the
    op's ``OpSpec.phrase``; an ``if`` reads its condition and its then-effect."""
    name = op["op"]
    spec = OP_BY_NAME.get(name)
    p: dict[str, Any] = {}
    if spec is not None:
        p = {prm.name: prm.default for prm in spec.params}
    p.update({k: v for k, v in op.items() if k not in ("op", "then")})
    if name == "if":
        return _if_text(op, p)
    if spec is not None and spec.phrase:
        return _PhraseFormatter(p).vformat(spec.phrase, (), p)
    args = ", ".join(f"{k}={v}" for k, v in op.items() if k != "op")
    return f"{name}({args})"


def effect_text(ops: list[dict[str, Any]] | None) -> str:
    """The ops of an effect as phrases joined by semicolons ("—" when empty)."""
    return "; ".join(op_text(op) for op in ops or []) or "—"
