"""Every card of every deck in the content folder leaves its deck in random-legal play.

A card that random play never draws is either unreachable (a setup or scaling mistake,
a deck that is never drawn from) or so rare that no other test will ever see it resolve.
The test is generic over ``hon_env.list_content()``: heroes, villains and issues added
later are covered without edits.

What counts as "left its deck", read from the state rows after reset and after every step:

- hero cards: any zone but the deck (hand, play, discard, pending, mulligan);
- villain cards: drawn (pending, threat area, attached, discard). Cards that setup removes
  for the hero count sit in ``L_REMOVED`` and do not count;
- issue cards: drawn, or (Scheme cards) dealt into a threat area at setup; the Scheme cards
  setup leaves out are ``L_REMOVED`` and do not count;
- clue cards: gained by a hero (held or discarded).

Special Bystander cards (an optional rule, so no deck) are reached when each effect the card
has resolves: their figures are rescued, captured and defeated in random play (the
``sby_events`` counters).

A villain card drawn and discarded inside one step is still seen, because no reshuffle
happens in the same step except when the deck runs out; across many games that cannot
hide a card for good.
"""

from __future__ import annotations

import itertools
import zlib
from dataclasses import dataclass, field

import numpy as np
import pytest

from hon_env import Scenario, list_content, load_scenario
from hon_env.core.kernels import reset_batch
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L
from hon_env.spec.tables import N_SBE, SB_RESCUED_PROG, VC_SCALING

CONTENT = list_content()
PAIRS = list(itertools.product(CONTENT["villains"], CONTENT["issues"]))
_GONE = (L.L_DECK, L.L_REMOVED)  # zones that do not count as "left the deck"


@dataclass
class SeenCards:
    """Which cards of each deck (by content id and card index) have left their deck.

    ``register`` records a scenario's card names; ``observe`` folds in a batch of state
    rows; ``unreached`` lists the registered cards never seen, by content id and name.
    """

    names: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    seen: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)

    def _deck(self, kind: str, cid: str, names: tuple[str, ...]) -> None:
        key = (kind, cid)
        if key not in self.names:
            self.names[key] = tuple(names)
            self.seen[key] = np.zeros(len(names), bool)

    def register(self, sc: Scenario) -> None:
        for seat, hid in enumerate(sc.hero_ids):
            self._deck("hero", hid, sc.hero_card_names[seat])
        self._deck("villain", sc.villain_id, sc.villain_card_names)
        self._deck("issue", sc.issue_id, sc.issue_card_names)
        self._deck("clues", sc.clues_id, sc.clue_names)

    def observe(self, sc: Scenario, state: np.ndarray) -> None:
        """Fold in ``state[B, STATE_LEN]`` of games of scenario ``sc``."""
        def out_of_deck(zones: np.ndarray) -> np.ndarray:
            return (~np.isin(zones, _GONE)).any(axis=0)  # any game of the batch

        hands = out_of_deck(L.field_view(state, "hcloc"))  # [MAX_HEROES, HERO_DECK]
        for seat, hid in enumerate(sc.hero_ids):
            self.seen["hero", hid] |= hands[seat, :len(self.names["hero", hid])]
        vil = out_of_deck(L.field_view(state, "vloc"))
        self.seen["villain", sc.villain_id] |= vil[:len(sc.villain_card_names)]
        iss = out_of_deck(L.field_view(state, "iloc"))
        self.seen["issue", sc.issue_id] |= iss[:len(sc.issue_card_names)]
        clue = (L.field_view(state, "clue_loc") != -1).any(axis=0)  # -1: in the clue deck
        self.seen["clues", sc.clues_id] |= clue[:len(sc.clue_names)]

    def unreached(self, only: set[tuple[str, str]] | None = None) -> list[str]:
        """``"<kind> <id>: <card name> (card <index>)"`` for each card never seen.

        Empty name slots (unused capacity of the fixed-size decks) are skipped.
        """
        out = []
        for key, names in sorted(self.names.items()):
            if only is not None and key not in only:
                continue
            for i, name in enumerate(names):
                if name and not self.seen[key][i]:
                    out.append(f"{key[0]} {key[1]}: {name} (card {i})")
        return out


def _teams(size: int) -> list[list[str]]:
    """Teams of ``size`` heroes that together seat every hero at least once."""
    heroes = CONTENT["heroes"]
    n = max(1, -(-len(heroes) // size))
    return [[heroes[(k * size + j) % len(heroes)] for j in range(size)] for k in range(n)]


def _play(collector: SeenCards, villain: str, issue: str, team: list[str], seeds: np.ndarray,
          rng: np.random.Generator) -> Scenario:
    sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue)
    collector.register(sc)
    play_batch(sc, seeds, random_policy(rng), on_step=lambda s, m: collector.observe(sc, s))
    return sc


def _expected_keys() -> set[tuple[str, str]]:
    return ({("hero", h) for h in CONTENT["heroes"]}
            | {("villain", v) for v in CONTENT["villains"]}
            | {("issue", i) for i in CONTENT["issues"]}
            | {("clues", c) for c in CONTENT["clues"]})


# --- the collector can fail ------------------------------------------------------------------

def test_collector_reports_cards_still_in_their_decks():
    """Right after setup only the opening hands, the dealt Scheme cards and nothing of the
    villain deck or the clue deck have left their decks; the report names the rest by
    content id and card name."""
    sc = load_scenario("origin_story")  # Majesty vs Dowager in Century Heist
    state = np.zeros((1, L.STATE_LEN), np.int32)
    masks = np.zeros((1, L.N_ACTIONS), np.int8)
    reset_batch(state, sc.tables, np.array([0], np.int64), masks)
    seen = SeenCards()
    seen.register(sc)
    seen.observe(sc, state)
    assert int(seen.seen["hero", "majesty"].sum()) == 4  # the opening hand
    assert int(seen.seen["issue", "century_heist"].sum()) == 1  # one Scheme card per hero
    assert not seen.seen["villain", "dowager"].any()
    assert not seen.seen["clues", "core_clues"].any()
    missing = seen.unreached()
    assert "villain dowager: Hatchet Hollis (card 0)" in missing
    assert any(m.startswith("clues core_clues: Lucky Break") for m in missing)
    n_named = sum(1 for names in seen.names.values() for n in names if n)
    assert len(missing) == n_named - 5


def test_collector_on_a_short_game_misses_cards():
    """Two rounds of one game cannot draw all 20 hero cards, 29 villain cards and 10 issue
    cards: the collector must report unreached cards of every kind."""
    sc = load_scenario("origin_story")
    seen = SeenCards()
    seen.register(sc)
    rng = np.random.default_rng(0)
    policy = random_policy(rng)

    def observe(state, masks):
        seen.observe(sc, state)
        # end the game after round 2 by emptying the issue deck: the round-3 draw loses
        if int(L.field_view(state, "round")[0]) >= 2:
            L.field_view(state, "ideck_n")[0] = 0

    play_batch(sc, np.array([5], np.int64), policy, on_step=observe)
    kinds = {m.split()[0] for m in seen.unreached()}
    assert kinds == {"hero", "villain", "issue", "clues"}
    assert seen.seen["villain", "dowager"].any()  # but it did see the cards it drew


# --- reachability -----------------------------------------------------------------------------

def _covering_runs() -> list[tuple[str, str, list[str]]]:
    """(villain, issue, team) runs that together play every villain, every issue and every
    3-hero team of ``_teams(3)`` at least once: run k takes the k-th of each, cycling."""
    villains, issues, teams = CONTENT["villains"], CONTENT["issues"], _teams(3)
    n = max(len(villains), len(issues), len(teams))
    return [(villains[k % len(villains)], issues[k % len(issues)], teams[k % len(teams)])
            for k in range(n)]


def test_every_card_of_every_deck_is_reached():
    """Random-legal play draws every hero, villain, issue and clue card at least once.

    Each villain, each issue and each hero is played in at least one run of 32 games (3-hero
    teams keep both scaling groups of the villain deck: "one" cards leave only with 1 hero,
    "5-6" cards only with 5 or 6). About 8 games per run already reach every card of the
    current content, so 32 leaves a wide margin for the random draws. The slow test below
    checks every villain x issue pair and team size separately.
    """
    seen = SeenCards()
    for villain, issue, team in _covering_runs():
        rng = np.random.default_rng(zlib.crc32(f"reach/{villain}/{issue}".encode()))
        _play(seen, villain, issue, team, np.arange(32, dtype=np.int64), rng)
    assert set(seen.names) == _expected_keys()
    missing = seen.unreached()
    assert not missing, "cards never left their deck:\n" + "\n".join(missing)


@pytest.mark.slow
@pytest.mark.parametrize("size", [1, 2, 4, 5, 6])
@pytest.mark.parametrize("villain,issue", PAIRS, ids=[f"{v}-{i}" for v, i in PAIRS])
def test_every_card_is_reached_in_each_pair_and_team_size(villain, issue, size):
    """Thorough version: in every pair and team size on its own, every card that setup keeps
    for that hero count (scaling) is drawn at least once."""
    seen = SeenCards()
    scenarios = []
    rng = np.random.default_rng(zlib.crc32(f"reach/{villain}/{issue}/{size}".encode()))
    for k, team in enumerate(_teams(size)):
        seeds = np.arange(32, dtype=np.int64) + 1000 * k
        scenarios.append(_play(seen, villain, issue, team, seeds, rng))
    # cards the scaling rule takes out at this hero count are expected to stay unseen
    scaling = scenarios[0].tables.vcard[:, VC_SCALING]
    removed = (scaling == 1) if size == 1 else (scaling == 5) if size >= 5 else scaling < 0
    seen.seen["villain", villain] |= removed[:len(seen.seen["villain", villain])]
    missing = seen.unreached()
    assert not missing, "cards never left their deck:\n" + "\n".join(missing)


# --- special Bystander cards -------------------------------------------------------------------

SBE_NAMES = ("rescued", "captured", "defeated")  # SBE_* order, the sby_events columns


@pytest.mark.parametrize("card", CONTENT["bystanders"])
def test_every_special_bystander_effect_is_reached(card):
    """Each special Bystander card of the content folder (Special Bystanders rule) comes
    into play: in random-legal games on every villain x issue pair with the card, each of
    its rescued, captured and defeated effects resolves at least once. Every pair plays 16
    one-hero games: only Blackout Gala defeats captives, from its last panel, which the
    villain reaches soonest with one hero (the advance conditions are per hero)."""
    fired = np.zeros(N_SBE, np.int64)
    programs = None
    for villain, issue in PAIRS:
        sc = load_scenario("origin_story", heroes=["majesty"], villain=villain,
                           issue=issue, rules={"special_bystanders": [card]})
        programs = sc.tables.sby[0, SB_RESCUED_PROG:SB_RESCUED_PROG + N_SBE]
        last = {}
        rng = np.random.default_rng(zlib.crc32(f"reach/{card}/{villain}/{issue}".encode()))
        play_batch(sc, np.arange(16, dtype=np.int64), random_policy(rng),
                   on_step=lambda s, m, last=last: last.update(state=s))
        fired += L.field_view(last["state"], "sby_events")[:, 0].sum(axis=0)
    missing = [SBE_NAMES[e] for e in range(N_SBE) if programs[e] >= 0 and fired[e] == 0]
    assert not missing, f"special bystander {card}: effects never resolved: {missing}"
    assert fired[0] > 0 and fired[1] > 0  # its figures were rescued and captured
