"""Rulebook chapters: Ally Cards and Figures, and the Allies optional rule.

The switch is ``rules={"allies": [id, ...]}``: Ally cards from ``configs/content/allies/``,
the first for seat 0, the next for seat 1 and so on (at most one per hero). Gameplay tests
build positions by hand on a cleared board with ``positions.place_ally``.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import (
    capture,
    clues_held,
    event,
    legal,
    neighbours,
    put_bystander,
    run_op,
    setup,
    sp,
    space_at,
    suffer,
)

from hon_env import ContentError, Game, list_content, load_scenario
from hon_env import positions as P
from hon_env.content.loader import parse_ally
from hon_env.core import interp
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec.obs_features import read, read_row
from hon_env.spec.tables import AL_ATTACK, AL_HEALTH, AL_SOLVE, SP_SCHEME

USE_ALLY = L.A_USE + L.USE_ALLY_CARD
ALLIES = ["crabman", "dr_vivian_graham", "ji_yoo_rhee", "lox_lee"]


def ally_scenario(*allies: str, heroes=("majesty",)):
    return load_scenario("origin_story", heroes=list(heroes), rules={"allies": list(allies)})


@pytest.fixture(scope="module")
def lox():
    return ally_scenario("lox_lee")


@pytest.fixture(scope="module")
def jiyoo():
    return ally_scenario("ji_yoo_rhee")


def ally_problems(g: Game) -> list[str]:
    """Invariant violations about allies (hand-built positions break unrelated ones)."""
    return [v for v in violations(g.state, g.scenario.tables) if "ally" in v or "allies" in v]


def lackey(g: Game, name: str, where: str | int) -> int:
    return P.add_villain_card(g, name, 0, where)


def answer(g: Game, decision: str, action: int) -> None:
    """Answer ``decision`` with ``action``, unless the engine already did (a decision with
    a single legal answer is answered automatically)."""
    if g.decision == decision:
        assert action in legal(g)
        g.apply(action)


# --- content and the switch ---------------------------------------------------------------

def test_ally_cards_are_a_content_kind():
    """Rulebook: Ally Cards and Figures — Ally cards are content like heroes and villains;
    the four character tokens Lox Lee, Crabman, Ji-Yoo Rhee and Dr. Vivian Graham are
    allies."""
    assert sorted(list_content()["allies"]) == ALLIES


@pytest.mark.parametrize("value,message", [
    (["nobody"], "no ally 'nobody'"),
    (["lox_lee", "lox_lee"], "listed twice"),
    (["lox_lee", "crabman"], "2 allies for 1 heroes"),
    ("lox_lee", "expected a list"),
])
def test_allies_switch_is_validated(value, message):
    """Rulebook: Allies — at most one ally per hero; each Ally card exists once; a bad
    switch is a load error naming the rule."""
    with pytest.raises(ContentError, match=message) as err:
        load_scenario("origin_story", heroes=["majesty"], rules={"allies": value})
    assert "allies" in str(err.value)


@pytest.mark.parametrize("edit,field,message", [
    ({"speed": 3}, "speed", "unknown key"),
    ({"attack": -1}, "attack", "below the minimum 0"),
    ({"ability": {"kind": "passive", "armor": 1}}, "ability.kind", "not passive"),
    ({"ability": {"kind": "exhaust", "effect": [{"op": "eject"}]}}, "ability.effect[0].op",
     "belong to heroes"),
    ({"ability": {"kind": "exhaust", "effect": [{"op": "ally_fly"}]}}, "ability.effect[0].op",
     "unknown op"),
])
def test_broken_ally_file_names_file_card_and_field(tmp_path, edit, field, message):
    """A broken Ally card fails to load with the file, the card and the field named (a key
    unknown at the top of the file is named with the file, as for every content kind)."""
    import yaml

    from hon_env.content.loader import DEFAULT_CONTENT_DIR

    data = yaml.safe_load((DEFAULT_CONTENT_DIR / "allies" / "lox_lee.yaml").read_text())
    data.update(edit)
    path = tmp_path / "lox_lee.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ContentError) as err:
        parse_ally(path)
    text = str(err.value)
    assert "lox_lee.yaml" in text and field in text and message in text
    assert "Lox Lee" in text or field == "speed"


def test_ally_ops_only_on_ally_cards(tmp_path):
    """The ally ops have no meaning on a hero card: the loader refuses them there."""
    from hon_env.content.effects import parse_effect
    from hon_env.content.errors import Where

    with pytest.raises(ContentError, match="cannot be used in a hero effect"):
        parse_effect([{"op": "ally_attack"}], "hero", Where("x.yaml"))


# --- setup ------------------------------------------------------------------------------------

def test_setup_places_each_ally_next_to_its_hero():
    """Rulebook: Allies — during setup each ally figure goes in a space adjacent to its
    hero's figure; a hero without an Ally card has no figure."""
    sc = ally_scenario("lox_lee", "crabman", heroes=("majesty", "stride", "guerilla"))
    for seed in range(5):
        g = Game(sc, seed=seed)
        T = sc.tables
        locs = g.field("ally_loc")
        for h in (0, 1):
            assert int(locs[h]) in neighbours(g, int(g.field("hloc")[h]))
            assert T.space_kind[int(locs[h])] != SP_SCHEME
        assert int(locs[2]) == -1
        assert locs[0] != locs[1]
        assert not ally_problems(g)
    assert g.snapshot()["heroes"][0]["ally"]["name"] == "Lox Lee"
    assert g.snapshot()["heroes"][2]["ally"] is None


# --- the ally acts -----------------------------------------------------------------------------

def test_exhaust_ability_moves_the_ally_and_attacks_without_dice(lox):
    """Rulebook: Ally Cards and Figures — an ally Attack deals its attack value as damage
    to an enemy in the target space, less defense; no dice are rolled and no action is
    spent (Lox Lee's ability is an Exhaust ability). Its hero gains the clue for the
    defeat."""
    g = setup(lox, "C3")
    P.place_ally(g, 0, space_at(g, "C3", 2))
    target = space_at(g, P.space(g, int(g.field("ally_loc")[0])), 3)
    i = lackey(g, "Chauffeur Vance", target)  # health 3, defense 0
    P.jump(g, "hero_turn")
    assert USE_ALLY in legal(g)
    g.apply(USE_ALLY)
    assert g.decision == "place" and int(g.field("dec_b")) == 1
    here = int(g.field("ally_loc")[0])
    T = lox.tables
    for a in legal(g):
        dest = a - L.A_SPACE
        assert T.dist[here, dest] <= 2 and T.space_kind[dest] != SP_SCHEME
    near = [a - L.A_SPACE for a in legal(g) if T.dist[a - L.A_SPACE, target] == 1]
    g.apply(L.A_SPACE + near[0])
    answer(g, "attack_space", L.A_ATTACK + target)  # the only enemy in its reach
    assert int(g.field("vdmg")[i]) == T.ally[0, AL_ATTACK] == 2
    assert int(g.field("hactions")[0]) == 2  # a free ability
    assert bool(g.field("ally_exh")[0]) and USE_ALLY not in legal(g)
    assert int(g.field("ally_loc")[0]) == near[0]
    assert not ally_problems(g)


def test_ally_attack_applies_defense_and_credits_the_hero(lox):
    """Rulebook: Ally Cards and Figures — defense reduces an ally's damage as normal; the
    hero controlling the ally gains the clue for the defeat."""
    g = setup(lox, "C3")
    target = space_at(g, "C3", 4)
    P.place_ally(g, 0, space_at(g, target, 1, exclude=("C3",)))
    i = lackey(g, "Hatchet Hollis", target)  # health 4, defense 1
    P.set_card(g, "Hatchet Hollis", damage=3)
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    g.apply(L.A_SPACE + int(g.field("ally_loc")[0]))  # stay
    answer(g, "attack_space", L.A_ATTACK + target)
    assert int(g.field("vloc")[i]) != L.L_THREAT  # 2 - 1 defense = 1: the fourth damage
    assert clues_held(g) == 1
    assert event(g, "enemies_defeated") == 1


def test_ally_solve_places_justice_and_ignores_nearby_enemies(jiyoo):
    """Rulebook: Ally Cards and Figures — an ally Solve places its solve value as justice on
    a problem in the target space, and nearby enemies do not inflict afterwards."""
    g = setup(jiyoo, "C3")
    peril_sp = space_at(g, "C3", 4)
    P.place_ally(g, 0, space_at(g, peril_sp, 1, exclude=("C3",)))
    i = P.add_villain_card(g, "Gala Firebomb", 0, peril_sp)  # danger 3
    lackey(g, "Chauffeur Vance", space_at(g, peril_sp, 1,
                                          exclude=("C3", int(g.field("ally_loc")[0]))))
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    g.apply(L.A_SPACE + int(g.field("ally_loc")[0]))
    answer(g, "solve_space", L.A_SOLVE + peril_sp)
    assert int(g.field("vjust")[i]) == jiyoo.tables.ally[0, AL_SOLVE] == 2
    assert g.decision == "main" and int(g.field("ally_dmg")[0]) == 0
    assert int(g.field("hdmg")[0]) == 0


def test_ally_solve_rescues_captives_but_not_panel_problems(jiyoo):
    """Rulebook: Ally Cards and Figures — allies can rescue captured bystanders with a
    Solve; a problem that only a hero in its scheme panel can solve is out of their reach
    (Scheme cards, Rulebook: Problem Cards)."""
    from rules_helpers import set_scheme

    g = setup(jiyoo, "C3")
    i = set_scheme(g, 0, "Hostages at the Counter")
    panel = sp(g, "panel 2")
    P.place_ally(g, 0, space_at(g, panel, 1))
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    g.apply(L.A_SPACE + int(g.field("ally_loc")[0]))  # stays next to the panel
    assert g.decision == "main" and int(g.field("ijust")[i]) == 0  # no Solve: no target
    P.jump(g, "hero_turn")
    capture(g, 2, 2)
    g.refresh()
    g.apply(USE_ALLY)
    g.apply(L.A_SPACE + int(g.field("ally_loc")[0]))
    answer(g, "solve_space", L.A_SOLVE + panel)
    answer(g, "assign", L.A_TARGET + L.T_CAPTURED)
    assert int(g.field("captured")[2]) == 0
    assert clues_held(g) == 2 and event(g, "rescues") == 2


def test_ally_moving_onto_a_bystander_rescues_it(jiyoo):
    """Interpretation #38 — an ally figure that moves onto a bystander's space rescues it
    for its hero (the hero gains the clue)."""
    g = setup(jiyoo, "C3")
    P.place_ally(g, 0, space_at(g, "C3", 3))
    dest = space_at(g, int(g.field("ally_loc")[0]), 2, exclude=("C3",))
    put_bystander(g, dest)
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    g.apply(L.A_SPACE + dest)
    assert not g.field("bystander_on")[dest] and clues_held(g) == 1


def test_ally_card_readies_with_the_hero_turn(lox):
    """Rulebook: Exhausted Cards — an exhausted Ally card readies at the start of the next
    hero turn, like the hero's other cards."""
    g = setup(lox, "C3")
    P.jump(g, "hero_turn")
    P.exhaust(g, "ally")
    assert USE_ALLY not in legal(g)
    P.jump(g, "hero_turn")
    assert int(g.field("ally_exh")[0]) == 0


def test_action_ability_of_an_ally_costs_an_action():
    """Rulebook: Ally Cards and Figures / Card Abilities — Dr. Vivian Graham's ability is
    an Action: it spends an action token, heals her hero, then she Solves."""
    sc = ally_scenario("dr_vivian_graham")
    g = setup(sc, "C3")
    P.set_hero(g, 0, damage=3)
    peril_sp = space_at(g, "C3", 3)
    P.place_ally(g, 0, space_at(g, peril_sp, 1, exclude=("C3",)))
    i = P.add_villain_card(g, "Gala Firebomb", 0, peril_sp)
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    assert int(g.field("hactions")[0]) == 1
    answer(g, "pick_hero", L.A_HERO)
    assert int(g.field("hdmg")[0]) == 1
    answer(g, "solve_space", L.A_SOLVE + peril_sp)
    assert int(g.field("vjust")[i]) == 1
    assert USE_ALLY in legal(g)  # not exhausted: Action abilities can be used again


def test_crabman_steps_in_and_hits_for_three():
    """Crabman's Hydraulic Claws: he moves 1 and Attacks for 3 (Big Bertram: health 5,
    defense 0)."""
    g = setup(ally_scenario("crabman"), "C3")
    P.place_ally(g, 0, space_at(g, "C3", 3))
    here = int(g.field("ally_loc")[0])
    target = space_at(g, here, 2, exclude=("C3",))
    i = lackey(g, "Big Bertram", target)
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    T = g.scenario.tables
    assert all(T.dist[here, a - L.A_SPACE] <= 1 for a in legal(g))
    step_to = next(a - L.A_SPACE for a in sorted(legal(g)) if T.dist[a - L.A_SPACE, target] == 1)
    g.apply(L.A_SPACE + step_to)
    answer(g, "attack_space", L.A_ATTACK + target)
    assert int(g.field("vdmg")[i]) == 3


@pytest.mark.parametrize("ally", list_content()["allies"])
def test_every_ally_ability_does_what_its_numbers_say(ally):
    """Each Ally card of the content folder (new ones included): with an enemy and a
    problem next to the figure, its ability deals its attack value and places its solve
    value, as its ops say."""
    from hon_env.content.loader import load_ally

    card = load_ally(ally)
    names = {op.spec.name for op in card.ability.effect.ops}
    expected = ((card.attack if "ally_attack" in names else 0)
                + (card.solve if "ally_solve" in names else 0))
    g = setup(ally_scenario(ally), "C3")
    P.set_hero(g, 0, damage=1)
    P.place_ally(g, 0, space_at(g, "C3", 3))
    here = int(g.field("ally_loc")[0])
    around = sorted(neighbours(g, here) - {sp(g, "C3")})
    T = g.scenario.tables
    around = [s for s in around if T.space_kind[s] != SP_SCHEME]
    lackey(g, "Big Bertram", around[0])  # health 5, defense 0
    P.add_villain_card(g, "Gala Firebomb", 0, around[1])  # danger 3
    P.jump(g, "hero_turn")
    g.apply(USE_ALLY)
    for _ in range(10):
        if g.decision == "main":
            break
        choices = sorted(legal(g))
        if g.decision == "place":
            g.apply(L.A_SPACE + here)  # stay next to both
        else:
            g.apply(choices[0])
    assert g.decision == "main"
    assert event(g, "damage_dealt") + event(g, "justice_placed") == expected > 0


# --- enemies and allies ---------------------------------------------------------------------

def test_enemies_move_toward_an_ally_figure_as_toward_a_hero(lox):
    """Rulebook: Ally Cards and Figures — enemies treat ally figures as heroes for
    movement: a lackey heads for the nearest hero or ally."""
    g = setup(lox, "C3")
    far = space_at(g, "C3", 6)
    i = lackey(g, "Chauffeur Vance", far)  # moves 3 toward the nearest hero
    P.place_ally(g, 0, space_at(g, far, 4, exclude=("C3",)))
    ally = int(g.field("ally_loc")[0])
    T = lox.tables
    assert T.dist[far, ally] < T.dist[far, sp(g, "C3")]
    before = T.dist[far, ally]
    run_op(g, interp.F_ACTIVATE, a=L.T_V0 + i, hero=0)
    after = int(g.field("vpos")[i])
    assert T.dist[after, ally] == before - 3 or T.dist[after, ally] == 1


def test_inflict_may_go_to_an_ally_and_defeats_it(lox):
    """Rulebook: Ally Cards and Figures — enemies treat ally figures as heroes for inflict
    effects, so the heroes may choose the ally; an ally defeated by damage leaves the game
    and its card is no longer usable."""
    g = setup(lox, "C3")
    P.place_ally(g, 0, space_at(g, "C3", 2), damage=2)
    between = [s for s in neighbours(g, "C3") & neighbours(g, int(g.field("ally_loc")[0]))
               if lox.tables.space_kind[s] != SP_SCHEME]
    i = lackey(g, "Hatchet Hollis", between[0])  # inflict 2
    run_op(g, ops.OP_INFLICT, hero=0, src=L.T_V0 + i)
    assert g.decision == "pick_hero"
    assert legal(g) == {L.A_HERO, L.A_TARGET + L.T_ALLY0}
    g.apply(L.A_TARGET + L.T_ALLY0)
    assert int(g.field("ally_loc")[0]) == -1
    assert int(g.field("ally_dmg")[0]) == lox.tables.ally[0, AL_HEALTH]
    assert event(g, "ally_defeats") == 1 and int(g.field("hdmg")[0]) == 0
    P.jump(g, "hero_turn")
    assert USE_ALLY not in legal(g)
    assert g.snapshot()["heroes"][0]["ally"]["location"] is None
    assert not ally_problems(g)


def test_effects_aimed_at_heroes_leave_allies_alone(lox):
    """Rulebook: Ally Cards and Figures — allies are not heroes: "each hero suffers"
    effects do not touch them."""
    g = setup(lox, "C3")
    P.place_ally(g, 0, space_at(g, "C3", 1))
    run_op(g, ops.OP_DAMAGE_HERO, a=2, b=1, hero=0)  # who: each
    suffer(g)
    assert int(g.field("hdmg")[0]) == 2 and int(g.field("ally_dmg")[0]) == 0


def test_ally_figure_blocks_movement_like_a_figure(lox):
    """Rulebook: Ally Cards and Figures — the ally is a figure on the map: a hero cannot
    step into its space."""
    g = setup(lox, "C3")
    nb = sorted(neighbours(g, "C3"))[0]
    P.place_ally(g, 0, nb)
    P.jump(g, "hero_turn")
    assert L.A_SPACE + nb not in legal(g)


# --- observation, front ends, random play ------------------------------------------------------

def test_observation_shows_allies(lox):
    """The allies section: card present, figure on the map, damage, numbers, and the
    figure's space on the plane."""
    g = setup(lox, "C3")
    where = space_at(g, "C3", 2)
    P.place_ally(g, 0, where, damage=1)
    obs = g.observation(0)
    mine = read_row(obs, "allies", 0)
    assert mine["present"] == 1.0 and mine["on_map"] == 1.0
    assert mine["damage"] == pytest.approx(1 / 4)
    assert mine["distance"] == pytest.approx(0.2)
    assert np.flatnonzero(read(obs, "ally_figures.plane")).tolist() == [where]


def test_allies_through_every_front_end():
    """``rules={"allies": [...]}`` reaches the scenario from Game, the PettingZoo env and
    the vector env alike, and the actions are named."""
    from hon_env import hour_of_need_v8, vector_env

    kw = {"heroes": ["majesty", "stride"], "rules": {"allies": ["crabman"]}}
    aec = hour_of_need_v8.env(**kw)
    aec.reset(seed=0)
    assert aec.unwrapped.game.scenario.ally_names == ("Crabman", "")
    vec = vector_env(4, seed=0, **kw)
    vec.reset()
    assert (L.field_view(vec.state, "ally_loc")[:, 0] >= 0).all()
    assert (L.field_view(vec.state, "ally_loc")[:, 1] == -1).all()
    from hon_env.describe import action_meanings

    names = action_meanings(Game(seed=0, **kw).scenario)
    assert names[USE_ALLY] == "use ally card ability"
    assert names[L.A_TARGET + L.T_ALLY0] == "target Crabman (ally)"


@pytest.mark.parametrize("team", [("majesty",), ("stride", "guerilla", "cipher")])
def test_random_play_with_allies_keeps_invariants(team):
    """Random legal play with the Allies rule ends every game with the invariants intact
    at every step; allies act and some are defeated."""
    rng = np.random.default_rng(3)
    sc = ally_scenario(*ALLIES[:len(team)], heroes=team)
    used = np.zeros(2, np.int64)

    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems
        used[0] += int((L.field_view(state, "ally_exh") > 0).sum())
        used[1] = max(used[1], int(L.field_view(state, "events")[:, L.EV_ALLY_DEFEATS].sum()))

    res = play_batch(sc, np.arange(24, dtype=np.int64), random_policy(rng), on_step=check)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
    assert used[0] > 0 and used[1] > 0


def test_scripted_team_plays_with_allies():
    """The scripted team answers every ally decision legally and uses its allies."""
    from agents.scripted import HeuristicPolicy
    from hon_env import vector_env

    env = vector_env(64, seed=0, heroes=["majesty", "stride"],
                     rules={"allies": ["lox_lee", "ji_yoo_rhee"]})
    policy = HeuristicPolicy()
    obs, _ = env.reset()
    used = 0
    for _ in range(400):
        actions = policy.act(obs["observation"], obs["action_mask"], obs["agent"],
                             engine=env.engine)
        assert obs["action_mask"][np.arange(len(actions)), actions].all()
        used += int((actions == USE_ALLY).sum())
        obs, *_ = env.step(actions)
    assert used > 0


def test_text_render_shows_allies(lox):
    """The text board marks the ally figure and lists the ally under its hero."""
    from hon_env.render import render_ansi

    g = setup(lox, "C3")
    P.place_ally(g, 0, space_at(g, "C3", 2))
    text = render_ansi(g)
    assert "ally: Lox Lee at" in text and "a ally" in text


@pytest.mark.slow
def test_random_play_with_allies_on_every_pair():
    """Every villain x issue pair with allies for teams of 1 to 4 (each ally in turn):
    random legal play keeps the invariants and ends every game."""
    rng = np.random.default_rng(13)
    content = list_content()
    for k, (villain, issue) in enumerate((v, i) for v in content["villains"]
                                         for i in content["issues"]):
        n = 1 + k % 4
        team = list(rng.choice(content["heroes"], size=n))
        allies = [ALLIES[(k + j) % len(ALLIES)] for j in range(n)]
        sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue,
                           rules={"allies": allies})

        def check(state, masks, sc=sc, team=team):
            problems = violations(state, sc.tables, masks)
            assert not problems, (team, problems)

        res = play_batch(sc, np.arange(24, dtype=np.int64) + 100 * k, random_policy(rng),
                         on_step=check)
        assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
