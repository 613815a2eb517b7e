"""Bad actions and seeds at every public entry point: refused, named, and nothing changes.

Every front end checks values through ``hon_env.checks``: a value that is not a Python or
numpy integer (bools and integral floats included) is a ``TypeError`` naming it; an
integer out of range is an ``IllegalActionError`` (actions) or a ``ValueError`` (seeds)
naming it and the range. After a refused value the game's state is byte for byte what it
was. The parametrizations below feed a few hundred such values through ``Game``, the
AEC, Parallel and Gymnasium envs, ``VectorEnv`` and ``SB3VecEnv``.
"""

from __future__ import annotations

import decimal
import fractions
from collections.abc import Callable, Iterable, Iterator

import numpy as np
import pytest

from hon_env import Game, IllegalActionError, hour_of_need_v8, vector_env
from hon_env.checks import EPISODE_ROOM, SEED_LIMIT
from hon_env.envs.gym_env import HourOfNeedEnv
from hon_env.envs.sb3 import SB3VecEnv
from hon_env.spec import layout as L

N = L.N_ACTIONS

# not integers: each must be a TypeError naming the value, never coerced
NOT_INTEGERS = [
    2.7, 2.0, 0.0, -1.5, float("nan"), float("inf"), "5", "abc", "", b"1", None, True, False,
    np.bool_(True), np.bool_(False), np.float64(1.0), np.float32(0.0), np.float16(3.0),
    np.float64("nan"), 1 + 0j, np.complex64(1), decimal.Decimal(1), fractions.Fraction(3, 1),
    [1], (1,), {1: 1}, {1}, np.array(1), np.array([1]), object(), np.str_("7"), range(1),
]
# as actions, a 0-d integer array is an integer (Gymnasium's Discrete space holds it); every
# other array, and a 0-d array of any other dtype, is not
NOT_ACTIONS = [v for v in NOT_INTEGERS if not (isinstance(v, np.ndarray) and v.shape == ())] + [
    np.array(1.0), np.array(True), np.array("7"), np.array([[1]]), np.array([], dtype=np.int64),
]
# integers outside [0, N): IllegalActionError naming the value and the range
OUT_OF_RANGE_ACTIONS = [
    -1, N, N + 1, 10**6, -(10**6), 2**63, -(2**63), 10**30, np.int64(-1), np.int8(-5),
    np.uint16(N), np.uint64(2**63), np.int32(1000), np.int64(2**40),
]
BAD_SEEDS_RANGE = [-1, -(2**63), SEED_LIMIT, SEED_LIMIT + 5, 10**30, np.int64(-3)]


def _ids(values: list) -> list[str]:
    return [f"{type(v).__name__}:{str(v)[:12]}" for v in values]


def _named(value: object, message: str) -> bool:
    """The error message names the value (its repr, cut as hon_env.checks cuts it)."""
    return repr(value)[:40] in message


# --------------------------------------------------------------------------- single game

@pytest.fixture(scope="module")
def game_fixture(origin):
    g = Game(origin, seed=5)
    for _ in range(3):
        g.apply(int(g.legal_actions()[0]))
    return g


@pytest.mark.parametrize("value", NOT_ACTIONS, ids=_ids(NOT_ACTIONS))
def test_game_apply_refuses_non_integers(game_fixture, value):
    g = game_fixture
    before = g.state.copy()
    with pytest.raises(TypeError, match=r"must be an integer") as err:
        g.apply(value)
    assert _named(value, str(err.value)) and f"[0, {N})" in str(err.value)
    np.testing.assert_array_equal(g.state, before)


@pytest.mark.parametrize("value", OUT_OF_RANGE_ACTIONS, ids=_ids(OUT_OF_RANGE_ACTIONS))
def test_game_apply_refuses_out_of_range(game_fixture, value):
    g = game_fixture
    before = g.state.copy()
    with pytest.raises(IllegalActionError) as err:
        g.apply(value)
    msg = str(err.value)
    assert f"action {int(value)} " in msg and f"[0, {N})" in msg and "legal:" in msg
    np.testing.assert_array_equal(g.state, before)


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=_ids(NOT_INTEGERS))
def test_game_seed_refuses_non_integers(origin, value):
    with pytest.raises(TypeError, match="seed must be an integer") as err:
        Game(origin, seed=value)
    assert _named(value, str(err.value))


@pytest.mark.parametrize("value", BAD_SEEDS_RANGE, ids=_ids(BAD_SEEDS_RANGE))
def test_game_seed_refuses_out_of_range(origin, value):
    with pytest.raises(ValueError, match=r"seed must be an integer in \[0, ") as err:
        Game(origin, seed=value)
    assert str(int(value)) in str(err.value)


def test_game_accepts_numpy_integers_and_the_largest_seed(origin):
    """Numpy integers are integers: the same game as the Python int."""
    a, b = Game(origin, seed=np.int32(7)), Game(origin, seed=7)
    np.testing.assert_array_equal(a.state, b.state)
    a.apply(np.int64(a.legal_actions()[0]))
    b.apply(int(b.legal_actions()[0]))
    np.testing.assert_array_equal(a.state, b.state)
    assert Game(origin, seed=SEED_LIMIT - 1).seed == SEED_LIMIT - 1


# --------------------------------------------------------------------------- single-game envs

def _aec(origin, wrapped: bool):
    e = hour_of_need_v8.env(scenario=origin) if wrapped else hour_of_need_v8.raw_env(
        scenario=origin)
    e.reset(seed=3)
    return e


def _game_of(env) -> Game:
    return env.unwrapped.game


FRONTS = ["aec", "raw_aec", "parallel", "gym"]


def _front(kind: str, origin, illegal_action: str = "raise"):
    if kind in ("aec", "raw_aec"):
        make = hour_of_need_v8.env if kind == "aec" else hour_of_need_v8.raw_env
        e = make(scenario=origin, illegal_action=illegal_action)
        e.reset(seed=3)
        return e, (lambda a: e.step(a))
    if kind == "parallel":
        e = hour_of_need_v8.parallel_env(scenario=origin, illegal_action=illegal_action)
        e.reset(seed=3)
        return e, (lambda a: e.step({e.agents[0]: a}))
    e = HourOfNeedEnv(scenario=origin, illegal_action=illegal_action)
    e.reset(seed=3)
    return e, (lambda a: e.step(a))


def _refused_steps(env: object, step: Callable[[object], object], values: Iterable[object],
                   exc: type[Exception], match: str | None = None) -> Iterator[tuple[object, str]]:
    """Step with each of ``values``, each raising ``exc`` (matching ``match``): yields the
    value and the error message, then checks that the game state is as before."""
    before = _game_of(env).state.copy()
    for value in values:
        with pytest.raises(exc, match=match) as err:
            step(value)
        yield value, str(err.value)
        np.testing.assert_array_equal(_game_of(env).state, before)


@pytest.mark.parametrize("mode", ["raise", "penalize"])
@pytest.mark.parametrize("kind", FRONTS)
def test_envs_refuse_non_integer_actions(origin, kind, mode):
    """In both modes a non-integer is a TypeError: a bug in the caller, not a policy's
    illegal choice to penalize."""
    env, step = _front(kind, origin, mode)
    for value, msg in _refused_steps(env, step, NOT_ACTIONS, TypeError, "must be an integer"):
        assert _named(value, msg), (value, msg)


@pytest.mark.parametrize("kind", FRONTS)
def test_envs_take_integer_arrays_their_action_space_holds(origin, kind):
    """Of numpy arrays, a front end takes as an action exactly what its Discrete action
    space holds: 0-d integer arrays (what Stable-Baselines3's ``predict`` returns for one
    observation), each playing the same move as its integer."""
    env, step = _front(kind, origin)
    space = env.action_space if kind == "gym" else env.action_space(env.agents[0])
    for value in NOT_ACTIONS:
        if isinstance(value, np.ndarray):
            assert not space.contains(value), value
    legal = int(_game_of(env).legal_actions()[0])
    for value in (np.array(legal), np.array(legal, dtype=np.uint16)):
        env, step = _front(kind, origin)
        twin, twin_step = _front(kind, origin)
        assert space.contains(value), value
        step(value)
        twin_step(legal)
        np.testing.assert_array_equal(_game_of(env).state, _game_of(twin).state)


@pytest.mark.parametrize("kind", FRONTS)
def test_envs_refuse_out_of_range_actions(origin, kind):
    env, step = _front(kind, origin)
    for value, msg in _refused_steps(env, step, OUT_OF_RANGE_ACTIONS, IllegalActionError):
        assert f"action {int(value)} " in msg and f"[0, {N})" in msg


@pytest.mark.parametrize("kind", FRONTS)
def test_envs_refuse_bad_seeds(origin, kind):
    env, _ = _front(kind, origin)
    before = _game_of(env).state.copy()
    for value in NOT_INTEGERS:
        if value is None:
            continue  # reset(seed=None) is the next seed, by the API
        with pytest.raises(TypeError, match="seed must be an integer") as err:
            env.reset(seed=value)
        assert _named(value, str(err.value))
    for value in BAD_SEEDS_RANGE:
        with pytest.raises(ValueError, match="seed must be an integer in") as err:
            env.reset(seed=value)
        assert str(int(value)) in str(err.value)
    np.testing.assert_array_equal(_game_of(env).state, before)


@pytest.mark.parametrize("kind", FRONTS)
def test_envs_take_reset_options_only_as_a_dict(origin, kind):
    """``reset(options=...)`` is None or a dict (ignored: PettingZoo's API test passes
    ``{"options": 1}``); anything else is a TypeError naming it, before the game changes."""
    env, _ = _front(kind, origin)
    before = _game_of(env).state.copy()
    for bad in ([1], "fast", 3, (("a", 1),)):
        with pytest.raises(TypeError, match="reset options must be a dict or None") as err:
            env.reset(seed=9, options=bad)
        assert _named(bad, str(err.value))
        np.testing.assert_array_equal(_game_of(env).state, before)
    env.reset(seed=9, options={"options": 1})
    env.reset(seed=9, options=None)


@pytest.mark.parametrize("wrapped", [True, False])
@pytest.mark.parametrize("parallel", [True, False])
def test_pettingzoo_spaces_name_an_unknown_agent(origin, wrapped, parallel):
    """The space and mask getters answer an unknown agent with one KeyError that lists the
    env's agents (not a bare dictionary key)."""
    make = (hour_of_need_v8.parallel_env if parallel
            else hour_of_need_v8.env if wrapped else hour_of_need_v8.raw_env)
    env = make(scenario=origin)
    env.reset(seed=0)
    calls = [env.observation_space, env.action_space]
    calls += [env.action_mask] if parallel or not wrapped else [env.unwrapped.action_mask]
    for call in calls:
        with pytest.raises(KeyError, match=r"unknown agent 'bogus'; agents are \['majesty'\]"):
            call("bogus")
    assert env.action_space("majesty").n == N


def test_aec_wrapper_errors_come_from_the_project(origin):
    """``env()`` answers misuse with the project's errors, never a bare AssertionError."""
    e = hour_of_need_v8.env(scenario=origin)
    for call in (lambda: e.step(0), lambda: e.observe("majesty"), e.state, e.render):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    e.reset(seed=0)
    with pytest.raises(IllegalActionError, match=rf"action {N} .*out of range"):
        e.step(N)
    with pytest.raises(TypeError, match="must be an integer"):
        e.step(None)  # None is for finished agents only


# --------------------------------------------------------------------------- vector envs

BAD_ACTION_ARRAYS = [
    np.full(4, 0.9), np.zeros(4, np.float32), np.ones(4, bool), np.array(["1"] * 4),
    np.array([1, 2, None, 3], dtype=object), [0.0, 1.0, 2.0, 3.0], [True] * 4,
    np.array([1.5, 2, 3, 4]), np.full(4, np.nan),
]
BAD_ACTION_SHAPES = [
    np.zeros(3, np.int64), np.zeros(5, np.int64), np.zeros((4, 2), np.int64),
    np.zeros((2, 2), np.int64), np.int64(0), np.zeros(0, np.int64),
]


@pytest.fixture()
def venv(origin):
    env = vector_env(4, seed=1, scenario=origin)
    env.reset()
    return env


@pytest.mark.parametrize("actions", BAD_ACTION_ARRAYS, ids=lambda a: str(np.asarray(a).dtype))
def test_vector_step_refuses_non_integer_arrays(venv, actions):
    before = venv.state.copy()
    with pytest.raises(TypeError, match="integer array") as err:
        venv.step(actions)
    assert str(np.asarray(actions).dtype) in str(err.value)
    np.testing.assert_array_equal(venv.state, before)


@pytest.mark.parametrize("actions", BAD_ACTION_SHAPES, ids=lambda a: str(np.shape(a)))
def test_vector_step_refuses_bad_shapes(venv, actions):
    before = venv.state.copy()
    with pytest.raises(ValueError, match=r"shape \(4,\)") as err:
        venv.step(actions)
    assert str(np.shape(actions)) in str(err.value)
    np.testing.assert_array_equal(venv.state, before)


@pytest.mark.parametrize("rng", [0, "x", None, np.random.RandomState(0)])
def test_vector_sample_actions_needs_a_generator(venv, rng):
    """An int seed or the legacy RandomState is not silently coerced: a TypeError names
    what to pass (it was an AttributeError from deep inside)."""
    with pytest.raises(TypeError, match="numpy Generator"):
        venv.sample_actions(rng)


@pytest.mark.parametrize("bad", [-1, N, 2**40, -(2**40)])
def test_vector_step_refuses_out_of_range(venv, bad):
    before = venv.state.copy()
    actions = venv.sample_actions(np.random.default_rng(0))
    actions[2] = bad
    with pytest.raises(IllegalActionError, match=rf"games \[2\]: \[{bad}\].*\[0, {N}\)"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.state, before)


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=_ids(NOT_INTEGERS))
def test_vector_env_refuses_non_integer_seed_and_num_envs(origin, value):
    with pytest.raises(TypeError, match="seed must be an integer") as err:
        vector_env(2, seed=value, scenario=origin)
    assert _named(value, str(err.value))
    with pytest.raises(TypeError, match="num_envs must be an integer") as err:
        vector_env(value, scenario=origin)
    assert _named(value, str(err.value))


@pytest.mark.parametrize("seed", BAD_SEEDS_RANGE + [SEED_LIMIT - 2, SEED_LIMIT - 4 * EPISODE_ROOM
                                                     + 1])
def test_vector_env_seed_leaves_room_for_every_episode(origin, seed):
    """Game i, episode k plays ``seed + i + k * B``: a seed that would run past 2**63 within
    EPISODE_ROOM episodes is refused rather than wrapped."""
    with pytest.raises(ValueError, match=r"seed must be an integer in \[0, ") as err:
        vector_env(4, seed=seed, scenario=origin)
    assert str(int(seed)) in str(err.value)
    env = vector_env(4, seed=0, scenario=origin)
    with pytest.raises(ValueError, match="seed must be an integer in"):
        env.reset(seed=seed)
    largest = SEED_LIMIT - 4 * EPISODE_ROOM
    assert vector_env(4, seed=largest, scenario=origin).seed == largest


@pytest.mark.parametrize("num_envs", [0, -3, np.int64(0), 2**24 + 1, 2**40])
def test_vector_env_refuses_bad_num_envs(origin, num_envs):
    with pytest.raises(ValueError, match=rf"num_envs must be a positive integer at most "
                                         rf"2\*\*24, got {num_envs}$"):
        vector_env(num_envs, scenario=origin)


# --------------------------------------------------------------------------- SB3

@pytest.mark.parametrize("actions", BAD_ACTION_ARRAYS, ids=lambda a: str(np.asarray(a).dtype))
def test_sb3_step_async_refuses_non_integer_arrays(origin, actions):
    env = SB3VecEnv(4, seed=0, scenario=origin)
    env.reset()
    before = env.venv.state.copy()
    with pytest.raises(TypeError, match="integer array"):
        env.step_async(actions)
    np.testing.assert_array_equal(env.venv.state, before)


def test_sb3_accepts_column_actions_and_checks_seeds(origin):
    env = SB3VecEnv(4, seed=0, scenario=origin)
    env.reset()
    actions = env.venv.sample_actions(np.random.default_rng(0))
    env.step(actions[:, None])  # SB3 may hand (B, 1)
    for bad in (-1, 2.0, True, "3"):
        with pytest.raises((TypeError, ValueError), match="seed must be an integer"):
            env.seed(bad)


# --------------------------------------------------------------------------- fuzz

def _random_value(rng: np.random.Generator) -> object:
    """A value of a random kind: integers in and out of range, floats, strings, bools..."""
    kind = int(rng.integers(12))
    n = int(rng.integers(-(2**40), 2**40))
    return [
        lambda: int(rng.integers(-5, N + 5)), lambda: n, lambda: float(rng.normal() * 100),
        lambda: np.int64(rng.integers(-3, N + 3)), lambda: np.float32(rng.integers(0, N)),
        lambda: str(int(rng.integers(0, N))), lambda: bool(rng.integers(2)),
        lambda: None, lambda: [int(rng.integers(0, N))], lambda: float("nan"),
        lambda: np.uint8(rng.integers(0, 256)), lambda: complex(n, 0),
    ][kind]()


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def test_fuzz_every_entry_point(origin):
    """400 random values into each single-value entry point: each is applied (only when it
    is a legal integer) or refused with a TypeError/ValueError that names it, leaving the
    state as it was. No other exception, nothing coerced."""
    rng = np.random.default_rng(12345)
    game = Game(origin, seed=0)
    aec = hour_of_need_v8.env(scenario=origin)
    aec.reset(seed=0)
    gym_env = HourOfNeedEnv(scenario=origin)
    gym_env.reset(seed=0)
    venv = vector_env(2, seed=0, scenario=origin)
    venv.reset()
    targets = {
        "Game.apply": (lambda v: game.apply(v), lambda: game.state),
        "Game.observation": (lambda v: game.observation(v), lambda: game.state),
        "Game(seed=)": (lambda v: Game(origin, seed=v), lambda: game.state),
        "env.step": (lambda v: aec.step(v), lambda: aec.unwrapped.game.state),
        "gym.step": (lambda v: gym_env.step(v), lambda: gym_env.game.state),
        "gym.reset(seed=)": (lambda v: gym_env.reset(seed=v), lambda: gym_env.game.state),
        "vector_env(num_envs=)": (lambda v: vector_env(v, scenario=origin), lambda: venv.state),
        "VectorEnv.step": (lambda v: venv.step(np.array([v, v])), lambda: venv.state),
    }
    refused = accepted = 0
    for name, (call, state) in targets.items():
        for _ in range(50):
            value = _random_value(rng)
            if value is None and name in ("gym.reset(seed=)", "Game.observation"):
                continue  # None means "the default" there, by the API
            if not aec.agents or aec.terminations[aec.agent_selection]:
                aec.reset()
            if gym_env.action_masks().sum() == 0:
                gym_env.reset()
            before = state().copy()
            try:
                call(value)
            except (TypeError, ValueError) as err:  # IllegalActionError is a ValueError
                refused += 1
                text = str(err)
                assert (repr(value)[:40] in text or (_is_int(value) and str(int(value)) in text)
                        or name == "VectorEnv.step"), (name, value, text)
                state_now = state()
                if state_now is not None and state_now.shape == before.shape:
                    np.testing.assert_array_equal(state_now, before, err_msg=f"{name} {value!r}")
                continue
            accepted += 1
            assert _is_int(value) or (name == "VectorEnv.step" and np.asarray(
                [value]).dtype.kind in "iu"), (name, value)  # accepted only as an integer
            if game.is_over:
                game = Game(origin, seed=int(rng.integers(100)))
    assert refused + accepted >= 400 - 10 and refused >= 250, (refused, accepted)


def test_evaluate_checks_its_integers_and_the_policys_actions(origin):
    from agents.evaluation import evaluate
    from agents.random_agent import RandomPolicy

    for kwargs, exc, pattern in [({"games": 2.5}, TypeError, r"games must be an integer.*2\.5"),
                                 ({"games": 0}, ValueError, "games=0"),
                                 ({"games": 2, "batch": True}, TypeError, "batch must be"),
                                 ({"games": 2, "seed": -1}, ValueError, "got -1")]:
        with pytest.raises(exc, match=pattern):
            evaluate(RandomPolicy(0), scenario=origin, **kwargs)

    class FloatPolicy:
        def act(self, observations, masks, seats, engine=None):
            return np.zeros(len(masks), np.float64)  # was cast to int silently

    with pytest.raises(TypeError, match="integer array.*float64"):
        evaluate(FloatPolicy(), scenario=origin, games=2)


@pytest.mark.parametrize("action", [-1, N, 10**6])
def test_penalize_mode_still_refuses_integers_outside_the_action_space(action):
    """``illegal_action="penalize"`` ends the episode on a masked action of the space; an
    integer outside the space is refused as in the other modes, and nothing changes."""
    env = hour_of_need_v8.env(heroes=["majesty"], illegal_action="penalize")
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.unwrapped.state().copy()
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(action)
    assert not env.terminations[agent]
    np.testing.assert_array_equal(env.unwrapped.state(), before)
    masked = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(masked)
    assert env.terminations[agent] and env.rewards[agent] == -1.0


@pytest.mark.parametrize("heroes", [{"majesty": 1}, {"majesty", "stride"}, 7])
def test_heroes_that_seat_no_team_are_refused(heroes):
    """A dict (it iterates its keys), a set (no seat order) or a number seat no team."""
    with pytest.raises(TypeError, match="heroes must be a list of hero ids"):
        Game(heroes=heroes, seed=0)


def test_a_batch_larger_than_memory_is_refused_before_allocating():
    from hon_env.checks import batch_bytes, physical_memory

    have = physical_memory()
    if have is None:
        pytest.skip("the OS does not report its memory")
    too_many = have // batch_bytes(1) + 1
    with pytest.raises(ValueError, match=f"num_envs={too_many:,} needs about"):
        vector_env(int(too_many))
    assert batch_bytes(10, observations=False) < batch_bytes(10)


def test_unknown_state_fields_are_named_with_close_matches():
    g = Game(heroes=["majesty"], seed=0)
    with pytest.raises(KeyError, match="no state field 'vil_damge'.*vil_damage"):
        g.field("vil_damge")
    assert int(g.field("vil_damage")) == 0


# --------------------------------------------------------------------------- names and paths

def test_content_folders_and_scenarios_must_exist_and_be_paths(tmp_path):
    """A mistyped content folder is an error, not an empty catalogue; ``None`` is no
    scenario id."""
    from hon_env import ContentError, list_content, load_scenario

    with pytest.raises(ContentError, match="no such content folder"):
        list_content(tmp_path / "nope")
    with pytest.raises(ContentError, match="no such content folder"):
        load_scenario("origin_story", content_dir=tmp_path / "nope")
    for bad in (3, ["configs"]):
        with pytest.raises(TypeError, match="content_dir must be a folder path or None"):
            list_content(bad)
    for bad in (None, 3, ["origin_story"]):
        with pytest.raises(TypeError, match="scenario must be a scenario id or a path"):
            load_scenario(bad)
    assert "majesty" in list_content()["heroes"]


def test_load_policy_takes_names_and_checkpoint_paths_only():
    from pathlib import Path

    from agents.registry import load_policy, pretrained_path

    for bad in (None, 3, ["random"]):
        with pytest.raises(TypeError, match="a policy is named by a string or a checkpoint"):
            load_policy(bad)
    path = pretrained_path("mappo:duo")
    assert isinstance(path, Path)
    assert type(load_policy(path)) is type(load_policy(str(path)))


# --------------------------------------------------------------------------- play_batch

def test_play_batch_checks_seeds_and_the_policys_actions(origin):
    """``hon_env.rollout.play_batch`` drives the kernels with no env in between: seeds and
    the policy's actions are checked as the vector env checks them, before any game of the
    batch steps."""
    from hon_env.rollout import play_batch, random_policy

    rand = random_policy(np.random.default_rng(0))
    for seeds, exc, match in ((np.array([1.5]), TypeError, "seeds must be an integer array"),
                              (np.array([True]), TypeError, "seeds must be an integer array"),
                              (np.array([[1, 2]]), ValueError, "one-dimensional"),
                              (np.array([3, -1]), ValueError, r"\[0, 2\*\*63\), got \[-1\]"),
                              (np.array([2**64 - 1], np.uint64), ValueError, r"\[0, 2\*\*63\)")):
        with pytest.raises(exc, match=match):
            play_batch(origin, seeds, rand)
    seeds = np.array([4, 5])
    first_illegal = lambda state, masks: np.array(  # noqa: E731
        [int(np.flatnonzero(m == 0)[0]) for m in masks])
    for policy, exc, match in (
            (lambda state, masks: np.zeros(2), TypeError, "integer array"),
            (lambda state, masks: np.zeros(3, np.int64), ValueError, r"shape \(2,\)"),
            (lambda state, masks: np.full(2, N), IllegalActionError, rf"\[{N}, {N}\]"),
            (lambda state, masks: np.full(2, -3), IllegalActionError, r"\[-3, -3\]"),
            (first_illegal, IllegalActionError, r"games \[0, 1\]")):
        with pytest.raises(exc, match=match):
            play_batch(origin, seeds, policy)
    with pytest.raises(RuntimeError, match="illegal actions"):  # what callers caught before
        play_batch(origin, seeds, first_illegal)
    seen = []
    one_illegal = lambda state, masks: np.array(  # noqa: E731  (game 0 legal, game 1 not)
        [int(np.flatnonzero(masks[0])[0]), int(np.flatnonzero(masks[1] == 0)[0])])
    with pytest.raises(IllegalActionError, match=r"games \[1\]"):
        play_batch(origin, seeds, one_illegal,
                   on_step=lambda state, masks: seen.append((state, state.copy())))
    (state, at_reset), = seen  # refused before the step: no game of the batch moved
    np.testing.assert_array_equal(state, at_reset)
    done = play_batch(origin, [7, 8], rand)  # a list of ints is an integer array
    assert (done.outcome != L.OUT_ONGOING).all()
