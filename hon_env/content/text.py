"""Short English phrases for effects, from the YAML as written (names, not compiled numbers).

``effect_text([{op: damage_hero, n: 1, who: each}])`` is ``"deal 1 damage to each hero"``.
The content catalogue (``scripts/catalogue.py``), the text of single cards that the play
front ends show (``content/card_text.py``) and ``Game.snapshot`` (crisis cards) use the
same phrases; an op without a phrase reads as ``name(param=value, ...)``.
"""

from __future__ import annotations

from typing import Any

from hon_env.content.ops import OP_BY_NAME

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


def _within(r: int) -> str:
    return "in your space" if r == 0 else f"within {r}"


def _times(n: int) -> str:
    return "" if n == 1 else f" {n} times"


def _panel(p: Any) -> str:
    if p == "villain":
        return "the villain's panel"
    if p == "all":
        return "each panel"
    return f"panel {p}"


def _extra_dice(verb: str, dice: int, rng: int) -> str:
    text = verb if dice == 0 else f"{verb} with +{plural(dice, 'die', 'dice')}"
    return text if rng == 1 else f"{text} within {rng}"


def op_text(op: dict[str, Any]) -> str:
    """A short phrase for one op, from its name and parameters (defaults filled in)."""
    name = op["op"]
    spec = OP_BY_NAME.get(name)
    p: dict[str, Any] = {}
    if spec is not None:
        p = {prm.name: prm.default for prm in spec.params}
    p.update({k: v for k, v in op.items() if k not in ("op", "then")})
    n = p.get("n")
    match name:
        case "gain_focus":
            return f"gain {n} focus"
        case "draw":
            return f"draw {plural(n, 'card')}"
        case "gain_clue":
            return f"gain {plural(n, 'clue')}"
        case "heal":
            who = "yourself" if p["range"] == 0 else f"a hero within {p['range']}"
            return f"remove up to {n} damage from {who}"
        case "damage_enemy":
            return f"deal {n} damage to an enemy {_within(p['range'])}"
        case "justice":
            return f"place {n} justice on a problem {_within(p['range'])}"
        case "move":
            return f"move up to {n}"
        case "attack":
            return _extra_dice("attack", p["dice"], p["range"])
        case "solve":
            return _extra_dice("solve", p["dice"], p["range"])
        case "place":
            where = "anywhere" if p["range"] == 0 else f"within {p['range']}"
            return f"place your figure {where}"
        case "rescue":
            return f"rescue a bystander {_within(p['range'])}"
        case "exhaust_threat":
            return "exhaust a ready card in your threat area"
        case "prevent":
            return f"prevent {n} damage"
        case "place_minions":
            return f"place {plural(n, 'minion')} in {_panel(p['panel'])}"
        case "place_bystanders":
            if p.get("figure") == "own":
                return f"place {plural(n, 'figure')} of this card (replacing a bystander)"
            return f"place {plural(n, 'bystander')}"
        case "capture_bystanders":
            return f"capture {plural(n, 'bystander')} nearest the villain"
        case "defeat_bystanders":
            return f"defeat {plural(n, 'captured bystander')}"
        case "scheme":
            return f"the villain schemes{_times(n)}"
        case "advance":
            return f"the villain advances{_times(n)}"
        case "villain_inflict":
            return "the villain inflicts the active hero"
        case "damage_hero":
            return f"deal {n} damage to {WHO_WORDS[p['who']]}"
        case "discard_or_damage":
            return f"{WHO_WORDS[p['who']]} discards 1 card or suffers {n} damage"
        case "crisis":
            return "a crisis occurs"
        case "counter_add":
            verb = "add" if n >= 0 else "remove"
            return f"{verb} {abs(n)} {p['counter']}"
        case "heal_villain":
            return f"remove {n} damage from the villain"
        case "villain_move":
            return f"the villain moves {n} toward the nearest {TOWARD_WORDS[p['toward']]}"
        case "enemy_move":
            return f"move {n} toward the nearest {TOWARD_WORDS[p['toward']]}"
        case "inflict":
            bonus = f" +{p['bonus']}" if p["bonus"] else ""
            return f"inflict{bonus} on a nearby hero"
        case "inflict_owner":
            bonus = f" +{p['bonus']}" if p["bonus"] else ""
            return f"inflict{bonus} on the owner"
        case "if":
            count = str(p["count"])
            words = count.split(":", 1)[1] if count.startswith("counter:") else (
                COUNT_WORDS.get(count, count))
            then = effect_text(op.get("then") or [])
            per_hero = " per hero" if op.get("at_least_per_hero") else ""
            if count in FLAG_COUNTS and p["at_least"] == 1 and not per_hero:
                return f"if {words}: {then}"
            return f"if {words} ≥ {p['at_least']}{per_hero}: {then}"
        case "fortify":
            who = "the villain has" if p["target"] == "villain" else "every lackey has"
            return f"until the end of the round {who} +{n} defense"
        case "move_away":
            frm = "the villain" if p["from"] == "villain" else "this figure"
            return f"{WHO_WORDS[p['who']]} moves up to {n} away from {frm}"
        case "board_mech":
            where = "" if p["range"] == 0 else f" (it lands within {p['range']})"
            return f"board your mech{where}"
        case "eject":
            return "leave your mech (back to the pilot)"
        case "ally_move":
            return f"your ally moves up to {n}"
        case "ally_attack":
            return f"your ally attacks a space within {p['range']} of it (attack value, no dice)"
        case "ally_solve":
            return f"your ally solves at a space within {p['range']} of it (solve value, no dice)"
    args = ", ".join(f"{k}={v}" for k, v in op.items() if k != "op")
    return f"{name}({args})"


def effect_text(ops: list[dict[str, Any]] | None) -> str:
    """The ops of an effect as phrases joined by semicolons ("—" when empty)."""
    return "; ".join(op_text(op) for op in ops or []) or "—"
