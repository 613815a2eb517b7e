"""The observation as named features: the table covers the vector, the encoder writes every
feature it declares, and the docs page is generated from the table."""

from pathlib import Path

import numpy as np
import pytest
from rules_helpers import put_issue_in_threat

import hon_env
from hon_env import Game
from hon_env.spec import layout as L
from hon_env.spec.obs_features import (
    OBS_DIM,
    STATE_DIM,
    feature,
    feature_index,
    observation_spec,
    read,
    read_row,
    spec_markdown,
    state_spec,
)

DOC = Path(__file__).resolve().parents[1] / "docs" / "observation.md"


def _cover(features, start, stop):
    owner = np.full(stop - start, -1)
    for k, f in enumerate(features):
        for row in range(f.rows):
            i = f.index(row) - start
            assert (owner[i:i + f.size] == -1).all(), f"{f.key} overlaps another feature"
            owner[i:i + f.size] = k
    return owner


def test_features_tile_the_vectors_without_gaps_or_overlaps():
    assert (_cover(observation_spec(), 0, OBS_DIM) >= 0).all()
    assert (_cover(state_spec(), OBS_DIM, STATE_DIM) >= 0).all()
    keys = [f.key for f in observation_spec() + state_spec()]
    assert len(keys) == len(set(keys))


def test_sizes_match_the_environments():
    env = hon_env.hour_of_need_v8.env()
    assert env.observation_space(env.possible_agents[0])["observation"].shape == (OBS_DIM,)
    assert env.state_space.shape == (STATE_DIM,)


def test_lookup_by_name_and_clear_errors():
    assert feature_index("global.round") == 0
    f = feature("spaces.distance")
    assert feature_index("spaces.distance", row=3) == f.section_offset + 3 * f.row_width + f.offset
    with pytest.raises(KeyError, match="no observation feature 'spaces.nope'"):
        feature("spaces.nope")
    with pytest.raises(IndexError, match="row 64"):
        feature_index("spaces.distance", row=64)
    with pytest.raises(IndexError, match="element 6"):
        feature_index("global.seat", element=6)
    with pytest.raises(KeyError):
        read_row(np.zeros(OBS_DIM), "nowhere")


def test_the_seat_and_deciding_features_say_who_observes():
    """Egocentric encoding: each seat sees itself in the seat one-hot, and only the
    decider sees ``deciding``."""
    g = Game(heroes=["majesty", "stride"], seed=0)
    for seat in (0, 1):
        obs = g.observation(seat)
        assert np.flatnonzero(read(obs, "global.seat")).tolist() == [seat]
        assert read(obs, "global.deciding") == float(seat == g.current_seat)


def test_hero_identity_names_each_seats_hero_self_first():
    """Each seat's hero is a one-hot over the content's sorted hero roster, self first,
    then the other seats in seat order; empty seats stay zero. A repeated hero is the same
    one-hot in both seats (the seat one-hot tells them apart)."""
    g = Game(heroes=["stride", "majesty", "stride"], seed=0)
    roster = g.scenario.hero_roster
    assert list(roster) == hon_env.list_content()["heroes"]
    obs = g.observation(1)
    rows = [np.flatnonzero(read(obs, "hero_identity.hero", r)).tolist() for r in range(6)]
    assert rows == [[roster.index("majesty")], [roster.index("stride")],
                    [roster.index("stride")], [], [], []]
    assert read(g.observation(0), "hero_identity.hero", 0).tolist() == \
        read(obs, "hero_identity.hero", 1).tolist()
    state = g.global_state()  # seat 0's observation first: seat 1 is its row 1
    assert read(state, "hero_identity.hero", 1)[roster.index("majesty")] == 1.0


def test_a_villain_in_no_panel_sets_no_panel_feature():
    """``villain_panel`` is empty and ``villain_in_panel`` 0 while the villain figure is
    off the map (no panel to scheme in; it used to set ``villain_in_panel``); in a panel
    both say which (rulebook: Villain Schemes)."""
    g = Game(heroes=["majesty"], seed=0)
    g.field("vil_loc")[...] = -1
    g.field("vil_in_panel")[...] = 0
    obs = g.observation(0)
    assert read(obs, "global.villain_in_panel") == 0.0
    assert not read(obs, "global.villain_panel").any()
    T = g.scenario.tables
    space = int(T.scheme_space[2])
    g.field("vil_loc")[...] = space
    g.field("vil_in_panel")[...] = 1
    obs = g.observation(0)
    assert read(obs, "global.villain_in_panel") == 1.0
    assert np.flatnonzero(read(obs, "global.villain_panel")).tolist() == [1]


def _scripted_views(steps: int = 400):
    """Observations (of the deciding hero and, through the state, of seat 0) while the
    scripted team plays scenarios that use every section: it reveals and fights villains
    and nemeses, which random play rarely does."""
    from agents import HeuristicPolicy
    from agents.random_agent import RandomPolicy
    from agents.villains import VersusPolicy

    rules = {"allies": ["lox_lee", "crabman"], "crisis_cards": ["cinderwicks_chemical_fire"],
             "special_bystanders": ["foremans_crew", "panicked_tourists"],
             "special_minions": ["phase_ii_brinkbots"]}
    configs = [dict(heroes=["majesty", "stride", "guerilla", "cipher", "vigil"],
                    villain="refuser", issue="dockside_smuggling"),
               dict(heroes=["microguy", "stride"], villain="dowager", issue="rooftop_relay",
                    rules=rules),
               dict(heroes=["majesty"], villain="dowager", issue="century_heist"),
               # the villain agent (Mastermind variant): its rows show the villain's view
               dict(scenario="mastermind",
                    rules={"villain_agent": {"inflict_victim": "villain",
                                             "enemy_ties": "villain"}}),
               # the Fame variant: the fame sections
               dict(scenario="fame_race"),
               # the Two Fronts variant: the second villain's sections
               dict(heroes=["majesty", "stride", "guerilla"], villain=["refuser", "dowager"],
                    issue="century_heist"),
               # the Draft variant: the draft sections
               dict(scenario="draft_deal"),
               # its mode pass: the draft_pass section
               dict(scenario="draft_pass")]
    policy = VersusPolicy(HeuristicPolicy(), RandomPolicy(0))
    for kw in configs:
        env = hon_env.vector_env(16, seed=0, **kw)
        obs, _ = env.reset()
        for _ in range(steps):
            yield obs["observation"]
            yield obs["state"][:, :OBS_DIM]
            a = policy.act(obs["observation"], obs["action_mask"], obs["agent"],
                           engine=env.engine)
            obs, _, _, _, _ = env.step(a)


# Set by events too rare for a few hundred scripted steps (or, for crisis_area, that no
# shipped deck causes: no shipped card has the Crisis trait); the next test sets each one.
RARE = {"global.crisis_area", "global.bystanders_defeated", "global.own_yields",
        "issue_cards.exhausted", "special_bystanders.defeated", "fame_seats.fame_below_zero",
        "villain2_cards.exhausted"}


def test_the_encoder_writes_every_declared_feature():
    """Each declared feature is non-zero somewhere in a few hundred scripted-team steps
    over scenarios that use every section; reserved floats stay zero."""
    seen = np.zeros(OBS_DIM, bool)
    for views in _scripted_views():
        seen |= (views != 0).any(axis=0)
    never = set()
    for f in observation_spec():
        hit = any(seen[f.index(r):f.index(r) + f.size].any() for r in range(f.rows))
        if f.name.startswith("reserved_"):
            assert not hit, f"{f.key} is reserved but written"
        elif not hit:
            never.add(f.key)
    assert never <= RARE, f"features never written: {sorted(never - RARE)}"


def test_rare_features_follow_their_state_fields():
    """The features of ``RARE``, each read from a state field set by hand."""
    g = Game("origin_story", seed=0, rules={"special_bystanders": ["foremans_crew"]})
    i = put_issue_in_threat(g, 0, "Laser Grid", "panel 3")
    g.field("iexh")[i] = 1
    g.field("bystanders_defeated")[...] = 3
    g.field("hyields")[0] = 1
    g.field("sby_defeated")[0] = 2
    g.field("crisis_area_n")[...] = 1
    obs = g.observation(0)
    assert read(obs, "issue_cards.exhausted", i) == 1.0
    assert read(obs, "global.bystanders_defeated") == pytest.approx(3 / 8)
    assert read(obs, "global.own_yields") > 0
    assert read_row(obs, "special_bystanders", 0)["defeated"] == pytest.approx(2 / 4)
    assert read(obs, "global.crisis_area") == pytest.approx(1 / 4)
    g = Game("fame_race", seed=0)
    g.field("fame")[0] = -3
    assert read_row(g.observation(0), "fame_seats", 0)["fame_below_zero"] == pytest.approx(0.3)
    g = Game("origin_story", seed=0, heroes=["majesty", "stride"],
             villain=["refuser", "dowager"])
    c = L.VDECK + 3  # the second villain's fourth card, exhausted in seat 0's threat area
    g.field("vloc")[c], g.field("vowner")[c], g.field("vexh")[c] = L.L_THREAT, 0, 1
    assert read_row(g.observation(0), "villain2_cards", 3)["exhausted"] == 1.0


def test_docs_page_is_generated_from_the_table():
    assert DOC.read_text() == spec_markdown(), (
        "docs/observation.md is stale: re-run `python scripts/catalogue.py`")


def test_own_cards_describe_each_slot_of_selfs_deck():
    """``own_cards``: row c describes the card in self's deck slot c (the slot the ``self``
    multi-hots index) from the content: its Constant/action/unique flags, feats, passive
    numbers, ability kind and what its effects do; two heroes' rows differ, the same hero's
    are the same whatever its seat."""
    from hon_env.spec.ops import HERO_OPS, OP_BY_NAME
    from hon_env.spec.tables import (
        FEAT_NAMES,
        HC_ACTION,
        HC_CONSTANT,
        HC_FEATS,
        HC_PLAY_PROG,
        HERO_DECK,
    )

    g = Game(heroes=["majesty", "stride"], seed=0)
    T = g.scenario.tables
    for seat in (0, 1):
        obs = g.observation(seat)
        for c in range(HERO_DECK):
            row = T.hcard[seat, c]
            assert read(obs, "own_cards.constant", c) == row[HC_CONSTANT]
            assert read(obs, "own_cards.action", c) == row[HC_ACTION]
            feats = read(obs, "own_cards.feats", c)
            assert [bool(row[HC_FEATS] & (1 << k)) for k in range(len(FEAT_NAMES))] == \
                [bool(x) for x in feats]
            fx = read(obs, "own_cards.play_effect", c)
            pid = int(row[HC_PLAY_PROG])
            codes = ({int(T.prog[pid, i, 0]) for i in range(T.prog.shape[1])} if pid >= 0
                     else set())
            hero_codes = {OP_BY_NAME[n].code: k for k, n in enumerate(HERO_OPS)}
            want = {hero_codes[code] for code in codes if code in hero_codes}
            assert set(np.flatnonzero(fx).tolist()) == want
    a = read_row(g.observation(0), "own_cards", 0)
    b = read_row(g.observation(1), "own_cards", 0)
    assert any(not np.array_equal(a[k], b[k]) for k in a)  # Majesty's first card is not Stride's
    swapped = Game(heroes=["stride", "majesty"], seed=0)
    np.testing.assert_array_equal(
        [read(swapped.observation(0), "own_cards.play_effect", c) for c in range(HERO_DECK)],
        [read(g.observation(1), "own_cards.play_effect", c) for c in range(HERO_DECK)])
    assert sum(read(g.observation(0), "own_cards.play_effect", c).sum()
               for c in range(HERO_DECK)) > 0
