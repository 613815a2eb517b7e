"""Small helpers shared by the rulebook tests (tests/test_rules_*.py).

They only read and write state through the public ``Game`` facade, ``hon_env.positions``
and the layout constants, so every expected value in the tests is stated in rulebook terms.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pytest

from hon_env import ContentError, Game, Scenario, load_scenario
from hon_env import positions as P
from hon_env.core import interp
from hon_env.core.invariants import violations
from hon_env.spec import layout as L
from hon_env.spec.tables import (
    CFG_N_PANELS,
    CFG_N_SPACES,
    HERO_DECK,
    IC_PANEL,
    IC_TYPE,
    IT_SCHEME,
    SP_BYSTANDER,
    SP_PLAIN,
)

PASS = L.A_PASS

# die faces of the default rule (positions.py): 0 blank, 1/2 success, 3 success+focus,
# 4 focus, 5 burst (success + one more die)
BLANK, SUCCESS, SUCCESS_FOCUS, FOCUS, BURST = 0, 1, 3, 4, 5


def sp(g: Game, where: str | int) -> int:
    """Space index of a label (``"D4"``) or ``"panel K"``."""
    return P.space(g, where)


def dist(g: Game, a: str | int, b: str | int) -> int:
    return int(g.scenario.tables.dist[sp(g, a), sp(g, b)])


def neighbours(g: Game, where: str | int) -> set[int]:
    T = g.scenario.tables
    return {int(x) for x in T.adj[sp(g, where)] if x >= 0}


def label(g: Game, space: int) -> str:
    return g.scenario.space_labels[space]


def vcard(g: Game, name: str) -> int:
    return g.scenario.villain_card_names.index(name)


def icard(g: Game, name: str) -> int:
    return g.scenario.issue_card_names.index(name)


def hcard(g: Game, name: str, seat: int = 0) -> int:
    return P.hero_card_index(g, seat, name)


def clue_index(g: Game, name: str) -> int:
    return g.scenario.clue_names.index(name)


def hand(g: Game, seat: int = 0) -> list[int]:
    return [int(c) for c in np.flatnonzero(g.field("hcloc")[seat] == L.L_HAND)]


def hand_names(g: Game, seat: int = 0) -> list[str]:
    names = g.scenario.hero_card_names[seat]
    return sorted(names[c] for c in hand(g, seat))


def clues_held(g: Game, seat: int = 0) -> int:
    return int(np.sum(g.field("clue_loc") == seat))


def event(g: Game, name: str) -> int:
    return int(g.field("events")[L.EVENT_NAMES.index(name)])


def n_schemes(g: Game) -> int:
    T = g.scenario.tables
    return sum(1 for i in range(L.IDECK) if T.icard[i, IC_TYPE] == IT_SCHEME
               and g.scenario.issue_card_names[i])


def scheme_space_of(g: Game, i: int) -> int:
    T = g.scenario.tables
    return int(T.scheme_space[T.icard[i, IC_PANEL]])


def remove_schemes(g: Game) -> None:
    """Take every Scheme card out of the threat areas (out of the game)."""
    P.remove_schemes(g)


def set_scheme(g: Game, seat: int, name: str) -> int:
    """Give ``seat`` exactly the named Scheme card (Scheme side up) in their threat area."""
    P.remove_schemes(g, seat)
    return P.put_issue_card(g, name, seat)


def put_issue_in_threat(g: Game, seat: int, name: str, where: str | int) -> int:
    """Put a (staying) issue card from the issue deck into ``seat``'s threat area."""
    return P.put_issue_card(g, name, seat, where)


def bystander_spaces(g: Game) -> list[int]:
    T = g.scenario.tables
    return [s for s in range(len(g.scenario.space_labels)) if T.space_kind[s] == SP_BYSTANDER]


def put_bystander(g: Game, where: str | int) -> None:
    """Take a bystander from the supply and put it on a map space."""
    P.put_bystander(g, where)


def put_minions(g: Game, panel: int, n: int) -> None:
    P.put_minions(g, panel, n)


def capture(g: Game, panel: int, n: int) -> None:
    P.put_bystander(g, f"panel {panel}", n)


def legal(g: Game) -> set[int]:
    return {int(a) for a in g.legal_actions()}


def moves_at_turn_start(scenario: Scenario, here: str, other: str) -> set[str]:
    """The labels of the spaces seat 0 may move to at the start of its turn, standing in
    ``here`` with a figure (the other seat's hero, or a pilot token) in ``other``."""
    g = heroes_at(scenario, here, other)
    P.jump(g, "hero_turn")
    assert g.current_seat == 0
    return {label(g, a - L.A_SPACE) for a in legal(g)
            if L.A_SPACE <= a < L.A_SPACE + L.MAX_SPACES}


def step(g: Game, where: str | int) -> None:
    """A Move step (first step from the main menu or the next step of a Move)."""
    g.apply(L.A_SPACE + sp(g, where))


def pass_while(g: Game, decision: str) -> None:
    """Answer PASS while the pending decision is ``decision``."""
    while not g.is_over and g.decision == decision and PASS in legal(g):
        g.apply(PASS)


def suffer(g: Game) -> None:
    """Suffer pending damage without preventing it."""
    pass_while(g, "damage")


def hero_stat(g: Game, seat: int = 0) -> dict:
    return g.snapshot()["heroes"][seat]


def setup(scenario, where="C3", cards=("Throne Breaker",), seed=0, seat=0) -> Game:
    """Cleared board, no Scheme cards, hero ``seat`` at ``where`` holding only ``cards``."""
    g = Game(scenario, seed=seed)
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, seat, where)
    P.empty_hand(g, seat)
    if cards:
        P.give_cards(g, seat, list(cards))
    return g


def heroes_at(scenario: Scenario, *where: str | int, keep_schemes: bool = True,
              cards: tuple[str, ...] | None = None, seed: int = 0) -> Game:
    """Cleared board with hero ``k`` on ``where[k]`` (Scheme cards taken out unless
    ``keep_schemes``); with ``cards``, each placed hero holds exactly those cards."""
    g = Game(scenario, seed=seed)
    P.clear_board(g)
    if not keep_schemes:
        remove_schemes(g)
    for seat, place in enumerate(where):
        P.place_hero(g, seat, place)
    if cards is not None:
        for seat in range(len(where)):
            P.empty_hand(g, seat)
            P.give_cards(g, seat, list(cards))
    return g


def roll_attack(g: Game, where: str | int, faces: list[int]) -> None:
    """Force the next dice to ``faces``, jump to the hero turn and Attack ``where``."""
    P.force_dice(g, faces)
    P.jump(g, "hero_turn")
    g.apply(L.A_ATTACK + sp(g, where))


def stop_at_next_villain_turn(g: Game) -> None:
    """Stack Inside Man on the issue deck and A Word in the Right Ear on the villain deck."""
    P.stack_issue_deck(g, ["Inside Man"])
    P.stack_villain_deck(g, ["A Word in the Right Ear"])


def roll_solve(g: Game, where: str | int, faces: list[int]) -> None:
    """Force the next dice to ``faces``, jump to the hero turn and Solve at ``where``."""
    P.force_dice(g, faces)
    P.jump(g, "hero_turn")
    g.apply(L.A_SOLVE + sp(g, where))


def move_one(g: Game, where: str | int) -> None:
    """A Move action of a single step, then stop."""
    step(g, where)
    if g.decision == "move":
        g.apply(PASS)


def every_front_end(**kw: object) -> tuple:
    """A Game, the PettingZoo AEC env, the ``gym.make`` env and a 4-game vector env built from
    the same options ``kw``, each reset with seed 0: ``(game, aec, single, vec)``."""
    import gymnasium as gym

    from hon_env import hour_of_need_v8, vector_env

    g = Game(seed=0, **kw)
    aec = hour_of_need_v8.env(**kw)
    aec.reset(seed=0)
    single = gym.make("hon_env/HourOfNeed-v8", **kw)
    single.reset(seed=0)
    vec = vector_env(4, seed=0, **kw)
    vec.reset()
    return g, aec, single, vec


def move_twice_into_threat_phase(g: Game, first: str | int, second: str | int) -> None:
    """``stop_at_next_villain_turn``, jump to the hero turn and spend both actions on
    one-step Moves to ``first`` then ``second`` (the threat phase follows)."""
    stop_at_next_villain_turn(g)
    P.jump(g, "hero_turn")
    move_one(g, first)
    move_one(g, second)


def invariant_checker(sc: Scenario, tag: object = None) -> Callable[..., None]:
    """A ``play_batch`` ``on_step`` callback asserting that no invariant of ``sc`` is violated
    (the failure shows the problems, or ``(tag, problems)`` when ``tag`` is given)."""
    def check(state: np.ndarray, masks: np.ndarray) -> None:
        problems = violations(state, sc.tables, masks)
        assert not problems, problems if tag is None else (tag, problems)
    return check


# --- helpers of the per-card scenario tests (tests/test_cards_*.py) --------------------------

@functools.cache
def scenario(heroes: tuple[str, ...] = ("majesty",), villain: str = "dowager",
             issue: str = "century_heist"):
    """A compiled scenario with the named content (loaded once per test session)."""
    return load_scenario("origin_story", heroes=list(heroes), villain=villain, issue=issue)


def run_op(g: Game, code: int, a: int = 0, b: int = 0, c: int = 0, hero: int = 0,
           src: int = -1) -> None:
    """Run one content op for ``hero`` on top of the pending decision, as an effect would."""
    g.field("dec_kind")[...] = L.D_NONE
    g.field("choice")[...] = -1
    interp.push(g.state, 0, code, a, b, c, hero, src)
    g.refresh()


def run_program(g: Game, pid: int, hero: int = 0, src: int = -1) -> None:
    """Run compiled effect ``pid`` (e.g. a card's Showdown effect) on top of the pending
    decision, its ops first to last, as ``interp.push_ops`` pushes them (without the effect
    scope of ``push_prog``, so every crisis cause in it counts)."""
    assert pid >= 0, "the card has no such effect"
    prog = g.scenario.tables.prog[pid]
    ops = [row for row in prog if row[0] != 0]
    g.field("dec_kind")[...] = L.D_NONE
    g.field("choice")[...] = -1
    for code, a, b, c in reversed([tuple(int(x) for x in row[:4]) for row in ops]):
        interp.push(g.state, 0, code, a, b, c, hero, src)
    g.refresh()


def space_at(g: Game, frm: str | int, d: int, exclude: tuple = ()) -> int:
    """The lowest-index plain empty space exactly ``d`` spaces from ``frm``."""
    T = g.scenario.tables
    skip = {sp(g, x) for x in exclude}
    origin = sp(g, frm)
    for s in range(int(T.cfg[CFG_N_SPACES])):
        if (T.space_kind[s] == SP_PLAIN and int(T.dist[origin, s]) == d and s not in skip
                and s not in {int(x) for x in g.field("hloc") if x >= 0}
                and s not in {int(x) for x in g.field("vpos") if x >= 0}):
            return s
    raise AssertionError(f"no plain space {d} from {frm}")


def step_toward(g: Game, target: str | int) -> None:
    """Take the legal step (Move decision or main menu) that gets nearest ``target``."""
    T = g.scenario.tables
    goal = sp(g, target)
    steps = [a - L.A_SPACE for a in legal(g) if L.A_SPACE <= a < L.A_ATTACK]
    assert steps, f"no step is legal in decision {g.decision}"
    g.apply(L.A_SPACE + min(steps, key=lambda s: (int(T.dist[s, goal]), s)))


def walk_toward(g: Game, target: str | int, n: int) -> None:
    """Take ``n`` steps toward ``target`` in the pending Move, then stop moving."""
    for _ in range(n):
        step_toward(g, target)
    if g.decision == "move":
        g.apply(PASS)


def answer_damage(g: Game) -> None:
    """Suffer every pending damage (and take damage instead of discarding)."""
    while not g.is_over and g.decision in ("damage", "discard_or_damage") and PASS in legal(g):
        g.apply(PASS)


def card_in(g: Game, name: str, zone: int, seat: int = 0) -> int:
    """Index of ``seat``'s hero card ``name`` now in ``zone`` (the first copy)."""
    names = g.scenario.hero_card_names[seat]
    zones = g.field("hcloc")[seat]
    for c, n in enumerate(names):
        if n == name and zones[c] == zone:
            return c
    raise AssertionError(f"{name!r} is not in zone {L.ZONE_NAMES[zone]}")


def play(g: Game, name: str, seat: int = 0) -> int:
    """Play hero card ``name`` from the hand; returns its index."""
    c = card_in(g, name, L.L_HAND, seat)
    g.apply(L.A_PLAY + c)
    return c


def use(g: Game, name: str | None = None, seat: int = 0) -> int:
    """Use the ability of card ``name`` in play (None: the Hero card); returns the index."""
    i = HERO_DECK if name is None else card_in(g, name, L.L_PLAY, seat)
    g.apply(L.A_USE + i)
    return i


def dice_rolled(g: Game, roll, queued: int = 24, face: int = BLANK) -> int:
    """Dice rolled by ``roll(g)``: queue ``queued`` forced faces and count those used."""
    P.force_dice(g, [face] * queued)
    roll(g)
    used = queued - int(g.field("dice_n"))
    g.field("dice_n")[...] = 0
    return used


def summary(g: Game) -> dict:
    """The countable public state a card effect changes (for before/after comparisons)."""
    f = g.field
    T = g.scenario.tables
    n_panels = int(T.cfg[CFG_N_PANELS])
    out = {f"minions{k}": int(f("minions")[k]) for k in range(1, n_panels + 1)}
    out["captured"] = int(f("captured").sum())  # per panel: read the field
    out["bystanders_on_map"] = int(f("bystander_on").sum())
    out["minion_supply"] = int(f("minion_supply"))
    out["bystander_supply"] = int(f("bystander_supply"))
    out["bystanders_defeated"] = int(f("bystanders_defeated"))
    for k, name in enumerate(g.scenario.counter_names):
        out[name] = int(f("counters")[k])
    for h in range(g.scenario.n_heroes):
        out[f"damage{h}"] = int(f("hdmg")[h])
        out[f"hero{h}"] = label(g, int(f("hloc")[h])) if f("hloc")[h] >= 0 else None
        out[f"hand{h}"] = len(hand(g, h))
        out[f"clues{h}"] = clues_held(g, h)
        out[f"focus{h}"] = int(f("hfocus")[h])
    out["villain"] = label(g, int(f("vil_loc")))
    out["villain_damage"] = int(f("vil_damage"))
    out["def_bonus_villain"] = int(f("def_bonus")[0])
    out["def_bonus_lackeys"] = int(f("def_bonus")[1])
    out["crises"] = event(g, "crises")
    return out


def changes(before: dict, after: dict) -> dict:
    """What differs: numbers as deltas, other values (positions) as the new value."""
    out = {}
    for k, v in after.items():
        if before[k] != v:
            out[k] = v - before[k] if isinstance(v, int) and isinstance(before[k], int) else v
    return out


def threat_phase_changes(g: Game, seat: int = 0) -> dict:
    """Jump to the hero turn, end ``seat``'s actions so their threat phase runs, suffer all
    damage, and return what changed (``changes``). The issue deck is emptied first, so the
    game ends at the issue turn and nothing but the threat phase touches the state, apart
    from the card each hero draws at the end of the hero turn (left out of the result)."""
    P.jump(g, "hero_turn")
    before = summary(g)
    P.discard_from_deck(g, "issue")
    P.set_hero(g, seat, actions=0)
    g.refresh()  # with no card to play, ending the actions is the only answer: taken now
    if not g.is_over and g.decision == "main":
        g.apply(PASS)
    answer_damage(g)
    assert g.outcome == "loss" and g.loss_reason == "issue_deck_empty"
    got = changes(before, summary(g))
    for h in range(g.scenario.n_heroes):
        assert got.pop(f"hand{h}", 0) == 1
    return got


def answer_until(g: Game, stop=lambda g: False) -> list[tuple[str, int, int]]:
    """Answer the pending questions until ``stop(g)`` or the hero-turn menu: a cunning icon
    inflicts, damage is suffered, discard-or-damage discards the first card in hand.

    Returns the questions seen as (decision, seat, DEC_A).
    """
    seen = []
    while not g.is_over and not stop(g) and g.decision != "main":
        seat, kind, a = g.current_seat, g.decision, int(g.field("dec_a"))
        seen.append((kind, seat, a))
        options = legal(g)
        if kind == "cunning":
            g.apply(L.A_OPTION + 1)  # the villain inflicts
        elif kind == "discard_or_damage" and options - {PASS}:
            g.apply(min(options - {PASS}))
        elif PASS in options:
            g.apply(PASS)
        else:
            raise AssertionError(f"unexpected decision {kind}")
    return seen


def edited_content(tmp_path, edits: dict[str, tuple[str, str]]):
    """Copy ``configs/content`` and ``configs/scenarios`` under ``tmp_path`` and insert text
    into content files: ``{"issues/x.yaml": (anchor, text)}`` puts ``text`` right after the
    first ``anchor`` line (which must exist). Returns the copied content directory."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "configs"
    shutil.copytree(root / "content", tmp_path / "content")
    shutil.copytree(root / "scenarios", tmp_path / "scenarios")
    for rel, (anchor, text) in edits.items():
        path = tmp_path / "content" / rel
        body = path.read_text()
        assert anchor in body, (rel, anchor)
        path.write_text(body.replace(anchor, anchor + text, 1))
    return tmp_path / "content"


def bad_switch_values(kind: str, a: str, b: str, single: str) -> list[tuple[object, str]]:
    """Bad values of the switch of special ``kind`` cards (rule ``special_<kind>s``) and
    what each error says: an unknown id, three ids, one id twice (``a`` and ``b`` are real
    ids), the id ``single`` not in a list, a number in the list."""
    unknown = f"no_such_{kind}s"
    return [([unknown], f"no {kind} '{unknown}'"), ([a, b, a], "at most 2"),
            ([b, b], "listed twice"), (single, "expected a list"), ([3], "expected")]


def assert_switch_refused(rule: str, value: object, message: str) -> None:
    """Rule ``rule`` set to ``value`` on origin_story is a load error saying ``message`` and
    naming the rule."""
    with pytest.raises(ContentError, match=message) as err:
        load_scenario("origin_story", rules={rule: value})
    assert rule in str(err.value)


def special_cards_reach_every_front_end(kind: str, card: str, name: str, table: str) -> object:
    """Check that the special ``kind`` card ``card`` (rule ``special_<kind>s``) reaches the
    scenario from Game, the PettingZoo and Gymnasium envs alike (it is ``name``, the first
    row of the compiled table ``table``) and that an unknown id is refused up front; returns
    the vector env built with it (``every_front_end``), whose supply the caller checks."""
    from hon_env import hour_of_need_v8

    rule, names = f"special_{kind}s", f"special_{kind}_names"
    g, aec, single, vec = every_front_end(heroes=["majesty"], rules={rule: [card]})
    assert getattr(g.scenario, names) == (name,)
    assert getattr(aec.unwrapped.game.scenario.tables, table)[0, 0] == 1
    assert getattr(single.unwrapped.game.scenario, names) == (name,)
    with pytest.raises(ContentError, match=f"no {kind}"):
        hour_of_need_v8.env(rules={rule: ["nobody"]})
    return vec
