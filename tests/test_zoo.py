"""The partner zoo (agents/zoo): every member loads by name, plays a whole duo game legally
and as recorded, is reproducible per seed and blind to hidden information; held-out
members stay out of training; the manifest is validated and the docs table matches it."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path

import numba
import numpy as np
import pytest
import yaml

from agents import Policy, load_policy
from agents.zoo import (
    MANIFEST,
    check_sha256,
    list_members,
    load_member,
    member,
    parse_manifest,
    trace_hash,
)
from agents.zoo.noisy import NoisyPolicy
from agents.zoo.styles import CautiousPolicy, RusherPolicy, View
from hon_env import Game
from hon_env.envs.vector import VectorEnv
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec import tables as TB
from hon_env.tasks import get_task

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = list_members()
FINGERPRINTED = [n for n in MEMBERS if member(n).kind != "learned"]
DUO = get_task("duo")


@pytest.fixture(autouse=True, scope="module")
def one_numba_thread():
    """These games are batches of one: waking a parallel kernel's threads costs more than
    the game itself on a shared machine."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@functools.cache
def _learned(name: str, which: int) -> Policy:
    """Copy 0 (``load_member``) or 1 (``load_policy("zoo:NAME")``) of a learned member,
    built once: greedy actors keep no state between calls, and building one costs seconds."""
    return load_member(name) if which == 0 else load_policy(f"zoo:{name}")


def _fresh(name: str, seed: int = 0, which: int = 0) -> Policy:
    """A new copy of member ``name`` with ``seed``, through ``load_member`` (``which`` 0)
    or ``load_policy("zoo:NAME")`` (1); a learned member: its cached copy ``which``."""
    if member(name).kind == "learned":
        return _learned(name, which)
    if which == 0:
        return load_member(name, seed=seed)
    return load_policy(f"zoo:{name}", seed=seed)


def _duo_game(game: int = 0) -> Game:
    return Game(DUO.pool("eval")[0], seed=DUO.eval_seed + game)


def _play(policy: Policy, game: int = 0) -> tuple[int, ...]:
    """The actions ``policy`` plays in every seat of duo evaluation game ``game``, each
    checked against the legal mask, to the end of the game."""
    g = _duo_game(game)
    actions = []
    while not g.is_over:
        mask = g.legal_mask()
        a = int(policy.act(g.observation()[None], mask[None], np.array([g.current_seat]),
                           engine=g.engine)[0])
        assert mask[a], f"{policy.name}: illegal action {a} ({g.decision})"
        actions.append(a)
        g.apply(a)
        assert len(actions) < 5000, "the game does not end"
    assert g.outcome in ("win", "loss"), g.outcome
    return tuple(actions)


@functools.cache
def _trace(name: str, seed: int = 0) -> tuple[int, ...]:
    return _play(_fresh(name, seed))


# --- loading -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MEMBERS)
def test_member_loads_by_name_through_the_registry(name):
    policy = _fresh(name, seed=3, which=1)  # through load_policy("zoo:NAME")
    assert isinstance(policy, Policy)
    assert policy.name == name
    assert type(_fresh(name)) is type(policy)


def test_unknown_member_is_refused_naming_the_members():
    for call in (lambda: member("nobody"), lambda: load_member("nobody"),
                 lambda: load_policy("zoo:nobody")):
        with pytest.raises(ValueError, match="nobody") as err:
            call()
        assert all(n in str(err.value) for n in MEMBERS), str(err.value)
    with pytest.raises(ValueError, match=r"zoo:rusher"):  # the registry lists the zoo too
        load_policy("nobody")


def test_list_members_by_split():
    train, heldout = list_members("train"), list_members("heldout")
    assert sorted(train + heldout) == sorted(MEMBERS)
    assert all(member(n).split == "train" for n in train)
    assert all(member(n).split == "heldout" for n in heldout)
    with pytest.raises(ValueError, match="split"):
        list_members("test")


def test_splits_hold_scripted_and_noisy_members_and_new_styles_in_heldout():
    """Each split has scripted and noisy members; the held-out split has a learned and a
    scripted family that no training member plays."""
    for split in ("train", "heldout"):
        kinds = {member(n).kind for n in list_members(split)}
        assert {"scripted", "noisy"} <= kinds, (split, kinds)
    train_families = {member(n).family for n in list_members("train")}
    new = [member(n) for n in list_members("heldout") if member(n).family not in train_families]
    assert {"learned", "scripted"} <= {m.kind for m in new}, [m.name for m in new]


# --- playing -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MEMBERS)
def test_member_plays_a_full_duo_game_legally_and_the_same_game_per_seed(name):
    """A fresh copy with the same seed replays the same actions (every one legal)."""
    first = _trace(name)
    assert len(first) > 20
    assert _play(_fresh(name, seed=0, which=1)) == first


@pytest.mark.parametrize("name", FINGERPRINTED)
def test_member_plays_as_its_manifest_records(name):
    """The frozen play: a changed fingerprint means a new member version (members.yaml)."""
    m = member(name)
    assert trace_hash(list(_trace(name))) == m.fingerprint, (
        f"{m.label} plays differently from its recorded fingerprint: bump its version and "
        "measure it again (python -m agents.zoo)")


def test_scripted_and_noisy_members_all_play_differently():
    traces = {name: _trace(name) for name in FINGERPRINTED}
    assert len(set(traces.values())) == len(traces)


@pytest.mark.parametrize("name", [n for n in MEMBERS if member(n).kind == "noisy"])
def test_noisy_member_game_depends_on_its_seed(name):
    assert _trace(name, seed=1) != _trace(name)


def test_noisy_policy_replaces_actions_at_rate_epsilon_with_legal_ones():
    class First:
        name = "first"

        def act(self, observations, masks, seats, engine=None):
            return np.argmax(masks, axis=1).astype(np.int64)

    n = 6000
    rng = np.random.default_rng(0)
    masks = (rng.random((n, L.N_ACTIONS)) < 0.05).astype(np.int8)
    masks[:, 7] = 1  # every row: 8+ legal actions, the base answers its first
    obs, seats = np.zeros((n, 1), np.float32), np.zeros(n, np.int64)
    base = First().act(obs, masks, seats)
    a = NoisyPolicy(First(), 0.3, seed=1).act(obs, masks, seats)
    assert masks[np.arange(n), a].all()
    legal = masks.sum(1)
    expected = 0.3 * (1 - 1 / legal).mean()  # a random pick may be the base's own
    assert abs((a != base).mean() - expected) < 0.025
    assert np.array_equal(NoisyPolicy(First(), 0.3, seed=1).act(obs, masks, seats), a)
    assert not np.array_equal(NoisyPolicy(First(), 0.3, seed=2).act(obs, masks, seats), a)
    assert np.array_equal(NoisyPolicy(First(), 0.0, seed=1).act(obs, masks, seats), base)
    with pytest.raises(ValueError, match="epsilon"):
        NoisyPolicy(First(), 1.5)


def _hide_differently(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` [1, STATE_LEN] that differs in what seat ``seat`` cannot see:
    the random generator, the villain, issue, clue and hero deck orders, and which cards
    another hero holds in hand (swapped with cards of that hero's deck)."""
    s = state.copy()
    s[0, L.RNG:L.RNG + 4] = rng.integers(1, 2**31, 4)
    for order, count in ((L.VDECK_ORDER, L.VDECK_N), (L.IDECK_ORDER, L.IDECK_N),
                         (L.CLUE_ORDER, L.CLUE_N)):
        k = s[0, count]
        s[0, order:order + k] = rng.permutation(s[0, order:order + k])
    width = L.FIELDS["hdeck_order"][1][1]
    for h in range(len(DUO.heroes)):
        start, k = L.HDECK_ORDER + h * width, s[0, L.HDECK_N + h]
        deck = s[0, start:start + k]
        s[0, start:start + k] = deck = rng.permutation(deck)
        loc = s[0, L.HCLOC + h * width:L.HCLOC + (h + 1) * width]  # a view
        hand = np.flatnonzero(loc == L.L_HAND)
        if h != seat and hand.size and k:
            c, j = int(rng.choice(hand)), int(rng.integers(k))
            loc[c], loc[deck[j]] = L.L_DECK, L.L_HAND
            s[0, start + j] = c
    return s


@pytest.mark.parametrize("name", MEMBERS)
def test_member_ignores_hidden_information(name):
    """Two copies of a member with one seed, one shown the game and one shown the same game
    with different deck orders, generator and teammate's hand, answer alike (the
    observation, built from each state, is the same: the env hides these)."""
    seen, shown_other = _fresh(name, seed=5), _fresh(name, seed=5, which=1)
    rng = np.random.default_rng(0)
    g = _duo_game(1)
    checked = changed = 0
    while not g.is_over and checked < 60:
        seat, mask = g.current_seat, g.legal_mask()[None]
        a = seen.act(g.observation()[None], mask, np.array([seat]), engine=g.engine)
        other = g.clone()
        other.state[:] = _hide_differently(g.state, seat, rng)
        changed += not np.array_equal(other.state, g.state)
        obs = other.observation()
        np.testing.assert_array_equal(obs, g.observation())
        b = shown_other.act(obs[None], mask, np.array([seat]), engine=other.engine)
        assert a[0] == b[0], (name, g.decision, checked)
        g.apply(int(a[0]))
        checked += 1
    assert checked >= 40 and changed >= checked // 2


# --- the styles prefer what they say ---------------------------------------------------------

def _style_choices(policy: Policy, games: int = 16):
    """Every (decision kind, mask, chosen action) of ``policy`` over duo evaluation games."""
    env = VectorEnv(games, DUO.eval_seed, DUO.pool("eval")[0], global_state=False)
    obs, _ = env.reset()
    done = np.zeros(games, bool)
    out = []
    while not done.all():
        kinds = env.engine[0][:, L.DEC_KIND].copy()
        a = policy.act(obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)
        for i in np.flatnonzero(~done):
            out.append((int(kinds[i]), obs["action_mask"][i].copy(), int(a[i])))
        obs, _, _, _, info = env.step(a)
        done |= info["_final"]
    return out


def _view(kind: int, here: int, legal: list[int], **spaces: dict[int, float]) -> View:
    """A hand-built decision of seat 0 on the duo board: decision ``kind``, the hero at
    space ``here`` with an action left, ``legal`` actions, and space features by name
    (``villain={12: 1}`` puts the villain figure in space 12)."""
    obs = np.zeros(F.OBS_DIM, np.float32)
    obs[F.feature_index("global.decision_kind", element=kind)] = 1
    obs[F.feature_index("global.own_actions")] = 0.5
    obs[F.feature_index("self.health")] = 10 / 20
    obs[F.feature_index("spaces.self_hero", here)] = 1
    for feat, where in spaces.items():
        for sp, value in where.items():
            obs[F.feature_index(f"spaces.{feat}", sp)] = value
    mask = np.zeros(L.N_ACTIONS, np.int8)
    mask[legal] = 1
    return View(obs, mask, 0, np.atleast_1d(DUO.pool("eval")[0].tables)[0])


def test_rusher_attacks_the_revealed_villain_where_the_team_attacks_lackeys():
    here, villain, lackeys = 23, 23, 24
    v = _view(L.D_MAIN, here, [L.A_ATTACK + villain, L.A_ATTACK + lackeys, L.A_DRAW],
              villain={villain: 1}, lackeys={lackeys: 2})
    v.obs[F.feature_index("global.villain_side")] = 1
    assert RusherPolicy().prefer(v, L.A_ATTACK + lackeys) == L.A_ATTACK + villain
    # unwounded, the cautious style leaves the choice to the team; wounded, it defends
    assert CautiousPolicy().prefer(v, L.A_ATTACK + lackeys) == -1
    v.obs[F.feature_index("self.damage")] = 0.8
    assert CautiousPolicy().prefer(v, L.A_ATTACK + villain) == L.A_ATTACK + lackeys


def test_styles_walk_to_their_goal_and_keep_the_teams_free_actions():
    """With nothing to roll on, the rusher steps toward the panel holding issue cards and
    the cautious style toward the bystander token, each by the step nearest its goal; a
    free action of the team (flipping to the Focused side) stays the team's."""
    T = np.atleast_1d(DUO.pool("eval")[0].tables)[0]
    n, here, scheme = int(T.cfg[TB.CFG_N_SPACES]), 23, int(T.scheme_space[1])
    steps = [int(sp) for sp in T.adj[here] if sp >= 0]

    def best_step(goal: int) -> int:
        return L.A_SPACE + min(steps, key=lambda sp: (T.dist[sp, goal], steps.index(sp)))

    # a bystander token 2-4 spaces away, reached by another first step than the panel
    bystander = next(sp for sp in range(n) if 2 <= T.dist[here, sp] <= 4
                     and T.space_kind[sp] not in (TB.SP_NONE, TB.SP_SCHEME)
                     and best_step(sp) != best_step(scheme))
    v = _view(L.D_MAIN, here, [L.A_SPACE + sp for sp in steps] + [L.A_DRAW, L.A_FOCUS],
              scheme_space={scheme: 1}, issue_cards={scheme: 1}, bystander={bystander: 1},
              distance={sp: T.dist[here, sp] / 10 for sp in range(n)})
    assert RusherPolicy().prefer(v, L.A_DRAW) == best_step(scheme)
    assert CautiousPolicy().prefer(v, L.A_DRAW) == best_step(bystander)
    assert RusherPolicy().prefer(v, L.A_FOCUS) == CautiousPolicy().prefer(v, L.A_FOCUS) == -1


def test_cautious_frees_captives_first_and_lets_the_villain_scheme():
    captives = L.target_action(L.T_CAPTURED)
    choices = _style_choices(CautiousPolicy())
    freed = [a for kind, mask, a in choices if kind == L.D_ASSIGN and mask[captives]]
    cunning = [a for kind, mask, a in choices if kind == L.D_CUNNING and mask[L.A_OPTION]]
    assert len(freed) >= 5 and all(a == captives for a in freed)
    assert len(cunning) >= 10 and all(a == L.A_OPTION for a in cunning)


# --- held-out members stay out of training ---------------------------------------------------

@pytest.mark.parametrize("name", list_members("heldout"))
def test_training_refuses_a_heldout_member(name):
    with pytest.raises(ValueError, match="held out of training"):
        load_member(name, purpose="train")
    with pytest.raises(ValueError, match="held out of training"):
        load_policy(f"zoo:{name}", purpose="train")


def test_training_may_load_every_train_member():
    for name in list_members("train"):
        assert load_policy(f"zoo:{name}", purpose="train").name == name
    with pytest.raises(ValueError, match="purpose"):
        load_member("heuristic", purpose="fun")


TRAINING_SOURCES = sorted([*(ROOT / "agents" / "training").rglob("*.py"),
                           *(ROOT / "agents" / "cli").glob("train*.py"),
                           *(ROOT / "scripts").glob("train*.py"),
                           *(ROOT / "configs" / "train").rglob("*.yaml")])


def _names_of(name: str) -> set[str]:
    """Strings that would name member ``name`` in a source: its zoo name and, when no
    training member is built from it too, the policy spec and checkpoint file it wraps."""
    m = member(name)
    names = {m.name, f"zoo:{m.name}"}
    spec = m.build.get("policy")
    if spec and spec not in {member(n).build.get("policy") for n in list_members("train")}:
        names |= {spec, spec.replace(":", "_")}
    return names


def _named(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w.:-]){re.escape(word)}(?![\w.-])", text) is not None


def test_no_training_source_names_a_heldout_member():
    texts = {p.relative_to(ROOT).as_posix(): p.read_text() for p in TRAINING_SOURCES}
    assert "agents/training/mappo.py" in texts and "agents/cli/train_mappo.py" in texts
    # the scan finds a member a trainer does use: the coordinated team it kickstarts from
    assert _named("heuristic", texts["agents/cli/train_mappo.py"])
    found = [(word, path) for name in list_members("heldout") for word in _names_of(name)
             for path, text in texts.items() if _named(word, text)]
    assert not found, f"training sources name held-out zoo members: {found}"


# --- the manifest ----------------------------------------------------------------------------

def test_manifest_rejects_unknown_keys_and_bad_values():
    data = yaml.safe_load(MANIFEST.read_text())
    assert set(parse_manifest(data)) == set(MEMBERS)

    def bad(edit, match):
        d = copy.deepcopy(data)
        edit(d["members"])
        with pytest.raises(ValueError, match=match):
            parse_manifest(d)

    bad(lambda ms: ms[0].update(colour="red"), "colour")
    bad(lambda ms: ms[0].update(split="test"), "split")
    bad(lambda ms: ms[0].update(version=0), "version")
    bad(lambda ms: ms[0].update(fingerprint="abc"), "fingerprint")
    bad(lambda ms: ms[0].update(duo_self_play={"games": 10, "wins": 11}), "duo_self_play")
    bad(lambda ms: ms.append(copy.deepcopy(ms[0])), "name")
    noisy = next(i for i, m in enumerate(data["members"])
                 if m["kind"] == "noisy" and m["split"] == "train")
    bad(lambda ms: ms[noisy]["build"].update(base="glory_all"), "held-out")
    bad(lambda ms: ms[noisy]["build"].update(epsilon=1.5), "epsilon")


def test_learned_member_refuses_a_checkpoint_that_is_not_the_frozen_one(tmp_path):
    m = member("mappo_duo")
    path = tmp_path / "mappo_duo.pt"
    path.write_bytes(b"another checkpoint")
    with pytest.raises(ValueError, match="sha256"):
        check_sha256(path, m.build["sha256"], m.name)


def test_docs_table_matches_the_manifest():
    text = (ROOT / "docs" / "benchmark.md").read_text()
    section = text.split("## The partner zoo", 1)[1].split("\n## ", 1)[0]
    for name in MEMBERS:
        m = member(name)
        row = next((ln for ln in section.splitlines() if ln.startswith(f"| `{name}` |")), "")
        assert m.split in row and f"{m.duo_win_rate:.3f}" in row, (name, row)
        assert f"{m.duo_self_play['games']} games" in row, (name, row)
