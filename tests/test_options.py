"""One options object: every front end takes the same keyword arguments and refuses the
same bad ones with the same message (``hon_env.options``)."""

from __future__ import annotations

import gymnasium
import pytest

import hon_env  # noqa: F401  (registers the Gymnasium id)
from hon_env import ContentError, Game, VectorEnv, hour_of_need_v8, vector_env
from hon_env.envs.gym_env import HourOfNeedEnv
from hon_env.envs.sb3 import SB3VecEnv


def _scenario_of(front) -> hon_env.Scenario:
    inner = getattr(front, "unwrapped", front)
    return getattr(inner, "venv", inner).scenario


# every front end, built from keyword options only; True: it takes the episode options
FRONTS = {
    "Game": (lambda **kw: Game(**kw), False),
    "env": (hour_of_need_v8.env, True),
    "raw_env": (hour_of_need_v8.raw_env, True),
    "parallel_env": (hour_of_need_v8.parallel_env, True),
    "HourOfNeedEnv": (HourOfNeedEnv, True),
    "gymnasium.make": (lambda **kw: gymnasium.make("hon_env/HourOfNeed-v8", **kw), True),
    "vector_env": (lambda **kw: vector_env(2, **kw), True),
    "VectorEnv": (lambda **kw: VectorEnv(2, **kw), True),
    "SB3VecEnv": (lambda **kw: SB3VecEnv(2, **kw), True),
}

GOOD = [
    ({"n_heroes": 2}, ("majesty", "majesty"), {}),
    ({"heroes": ["cipher", "stride"], "villain": "refuser"}, ("cipher", "stride"), {}),
    ({"max_cycles": 40}, ("majesty",), {"max_decisions": 40}),
    ({"caps": {"max_rounds": 5}, "n_heroes": 1}, ("majesty",), {"max_rounds": 5}),
    ({"scenario": "origin_story", "rules": {"extra_clues": True}}, ("majesty",), {}),
]
EPISODE_GOOD = [{"reward_shaping": {"rescues": 0.5}}, {"illegal_action": "penalize"}]

BAD = [
    ({"bogus": 1}, TypeError,
     r"unexpected keyword argument 'bogus' \(options .*: scenario, heroes, .*max_cycles"),
    ({"n_heroes": 7}, ValueError, r"n_heroes must be in \[1, 6\], got 7"),
    ({"n_heroes": 2.0}, TypeError, "n_heroes must be an integer"),
    ({"n_heroes": True}, TypeError, "n_heroes must be an integer"),
    ({"n_heroes": 2, "heroes": ["majesty"] * 3}, ValueError, "n_heroes=2 but 3 heroes"),
    ({"heroes": "majesty"}, TypeError, "heroes must be a list of hero ids"),
    ({"nemeses": "rampart"}, TypeError, "nemeses must be a list of nemesis ids"),
    ({"nemeses": 3}, TypeError, "nemeses must be a list of nemesis ids, got int 3"),
    ({"nemeses": {"rampart": 1}}, TypeError, "nemeses must be a list of nemesis ids, got dict"),
    ({"max_cycles": "10"}, TypeError, "max_cycles must be an integer"),
    ({"max_cycles": 0}, ValueError, "max_cycles must be a positive number of decisions, got 0"),
    ({"max_cycles": -5}, ValueError, "max_cycles must be a positive number of decisions, got -5"),
    ({"max_cycles": 10, "caps": {"max_decisions": 11}}, ValueError, "conflicts"),
    ({"rules": [1]}, TypeError, "rules must be a dict"),
    ({"caps": 3}, TypeError, "caps must be a dict"),
    ({"scenario": 3}, TypeError, "scenario must be a scenario id"),
    ({"scenario": "no_such_scenario"}, ContentError, "no_such_scenario"),
    ({"heroes": ["nobody"]}, ContentError, "nobody"),
    ({"rules": {"focus_cap": "x"}}, ContentError, "focus_cap"),
]
EPISODE_BAD = [
    ({"illegal_action": "ignore"}, ValueError, "illegal_action must be one of"),
    ({"reward_shaping": {"gold": 1.0}}, ValueError, "unknown reward_shaping event 'gold'"),
]


@pytest.mark.parametrize("front", FRONTS)
def test_every_front_end_takes_the_same_options(front):
    make, episode = FRONTS[front]
    for kwargs, heroes, caps in GOOD:
        sc = _scenario_of(make(**kwargs))
        assert sc.hero_ids == heroes, (front, kwargs)
        assert all(sc.caps[k] == v for k, v in caps.items()), (front, kwargs)
    for kwargs in EPISODE_GOOD if episode else []:
        make(**kwargs)


@pytest.mark.parametrize("front", FRONTS)
def test_every_front_end_refuses_the_same_options_with_the_same_message(front):
    make, episode = FRONTS[front]
    messages = []
    for kwargs, exc, pattern in BAD + (EPISODE_BAD if episode else []):
        with pytest.raises(exc, match=pattern) as err:
            make(**kwargs)
        messages.append(str(err.value))
    reference = []
    # a Game takes the game options only, and its refusal lists only those
    check = hon_env.options.EnvOptions.build if episode else hon_env.options.scenario_from
    for kwargs, exc, _ in BAD + (EPISODE_BAD if episode else []):
        with pytest.raises(exc) as err:
            check(**kwargs)
        reference.append(str(err.value))
    # gymnasium.make appends where a TypeError came from; the message itself is ours
    assert all(m.startswith(r) for m, r in zip(messages, reference, strict=True)), messages


def test_listed_options_are_the_keywords_the_front_ends_take():
    """The names an unknown-keyword error lists are the keyword parameters of
    ``scenario_from`` and ``EnvOptions.build`` (the latter less ``render_modes``, which
    each front end passes itself)."""
    import inspect

    from hon_env.options import EPISODE_OPTIONS, GAME_OPTIONS, EnvOptions, scenario_from

    def keywords(fn) -> list[str]:
        return [n for n, q in inspect.signature(fn).parameters.items()
                if q.kind not in (q.VAR_KEYWORD, q.VAR_POSITIONAL) and n != "cls"]

    assert list(GAME_OPTIONS) == keywords(scenario_from)
    assert [*GAME_OPTIONS[:1], *EPISODE_OPTIONS] == [
        n for n in keywords(EnvOptions.build) if n != "render_modes"]


def test_episode_options_do_not_apply_to_a_game():
    with pytest.raises(TypeError, match="unexpected keyword argument 'reward_shaping'") as err:
        Game(reward_shaping={"rescues": 1.0})
    assert str(err.value).endswith("caps, max_cycles)")  # the game options, listed


def test_render_mode_per_front_end():
    """Single-game envs render; a batch does not (the SB3 adapter only as images), and
    says so."""
    assert hour_of_need_v8.env(render_mode="ansi").unwrapped.render_mode == "ansi"
    assert HourOfNeedEnv(render_mode="rgb_array").render_mode == "rgb_array"
    for make in (hour_of_need_v8.env, HourOfNeedEnv):
        with pytest.raises(ValueError, match=r"render_mode must be None or one of"):
            make(render_mode="video")
    with pytest.raises(ValueError, match="render_mode must be None: this front end does "
                                         "not render, got 'ansi'"):
        vector_env(2, render_mode="ansi")
    # the SB3 adapter draws frames for SB3's VecVideoRecorder, and nothing else
    assert SB3VecEnv(2, render_mode="rgb_array").render_mode == "rgb_array"
    with pytest.raises(ValueError, match=r"render_mode must be None or one of \('rgb_array',\), "
                                         "got 'ansi'"):
        SB3VecEnv(2, render_mode="ansi")
