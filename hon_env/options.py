"""The keyword arguments every front end takes, defined and validated once.

``Game``, ``hour_of_need_v8.env`` / ``parallel_env`` / ``raw_env``, the Gymnasium
``HourOfNeedEnv``, ``vector_env`` / ``VectorEnv`` and ``SB3VecEnv`` all forward their
keyword arguments here, so they accept the same ones and refuse the same bad ones with the
same message:

- the game (``scenario_from``; ``Game`` takes only these): ``scenario``, ``heroes``,
  ``villain``, ``issue``, ``n_heroes``, ``nemeses``, ``rules``, ``caps``, ``max_cycles``;
- the episode (``EnvOptions.build``; every environment): ``reward_shaping``,
  ``villain_reward_shaping`` (the villain agent's, Mastermind variant),
  ``illegal_action``, ``render_mode`` (single-game envs render; the vector envs take only
  ``render_mode=None``), ``numeric_info`` (infos as numbers only).

An unknown keyword is a ``TypeError`` naming it and listing the known ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hon_env.checks import check_int
from hon_env.content import Scenario, load_scenario
from hon_env.content.loader import parse_scenario, scenario_path
from hon_env.rewards import reward_params, shaping_weights
from hon_env.spec.tables import MAX_HEROES

ILLEGAL_ACTION_MODES = ("raise", "penalize")
RENDER_MODES = ("human", "ansi", "rgb_array")
_OVERRIDES = "heroes/villain/issue/n_heroes/nemeses/rules/caps/max_cycles"
GAME_OPTIONS = ("scenario", *_OVERRIDES.split("/"))
EPISODE_OPTIONS = ("reward_shaping", "villain_reward_shaping", "illegal_action",
                   "render_mode", "numeric_info")


def check_option_names(unknown: Mapping[str, Any], known: Sequence[str]) -> None:
    """``TypeError`` naming the first keyword of ``unknown`` and listing ``known`` (Python's
    own message, which names an internal function, says neither what is allowed)."""
    if unknown:
        name = next(iter(unknown))
        raise TypeError(f"unexpected keyword argument {name!r} (options every front end "
                        f"of this kind takes: {', '.join(known)})")


def scenario_from(scenario: str | Path | Scenario = "origin_story", *,
                  heroes: Sequence[str] | None = None,
                  villain: str | Sequence[str] | None = None,
                  issue: str | None = None, n_heroes: int | None = None,
                  nemeses: Sequence[str] | None = None,
                  rules: Mapping[str, Any] | None = None,
                  caps: Mapping[str, Any] | None = None,
                  max_cycles: int | None = None, **unknown: Any) -> Scenario:
    """The compiled ``Scenario`` the game options ask for (cached: ``load_scenario``).

    Args:
        scenario: a scenario id (``configs/scenarios/<id>.yaml``), a path to a scenario
            YAML file, or a compiled ``Scenario`` (then without any of the overrides).
        heroes, villain, issue: content ids replacing the scenario's (``heroes``: one id per
            seat, repeats allowed; ``villain``: one id, or two for the Two Fronts variant).
        n_heroes: number of seats when ``heroes`` is not given: the scenario's hero list
            repeated (or cut) to this length; with ``heroes`` it must equal their number.
        nemeses: nemesis ids, the pool the game's nemeses come from.
        rules, caps: overrides of ``content.compile.DEFAULT_RULES`` / ``DEFAULT_CAPS``.
        max_cycles: PettingZoo's name for the episode length, an alias of
            ``caps={"max_decisions": max_cycles}``.

    Raises:
        TypeError: a value of the wrong type, or an unknown keyword (named, with the
            known ones).
        ValueError: conflicting values (``n_heroes`` against ``heroes``, ``max_cycles``
            against ``caps``, overrides with a compiled ``Scenario``).
        ContentError: content the overrides name is missing or invalid.
    """
    check_option_names(unknown, GAME_OPTIONS)
    caps = _merge_max_cycles(caps, max_cycles)
    heroes = _seat_heroes(scenario, heroes, n_heroes)
    for name, value in (("nemeses", nemeses), ("heroes", heroes)):
        kind = "hero" if name == "heroes" else "nemesis"
        if isinstance(value, str):
            raise TypeError(f"{name} must be a list of {kind} ids, got the string {value!r}")
        if value is not None and (isinstance(value, Mapping) or not isinstance(value, Iterable)):
            raise TypeError(f"{name} must be a list of {kind} ids, got "
                            f"{type(value).__name__} {value!r}")
    for name, value in (("rules", rules), ("caps", caps)):
        if value is not None and not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a dict, got {value!r} ({type(value).__name__})")
    if isinstance(scenario, Scenario):
        if any(x is not None for x in (heroes, villain, issue, nemeses, rules, caps)):
            raise ValueError(f"{_OVERRIDES} go with a scenario id or path, not with a "
                             "compiled Scenario")
        return scenario
    if not isinstance(scenario, (str, Path)):
        raise TypeError(f"scenario must be a scenario id, a path or a Scenario, got "
                        f"{scenario!r} ({type(scenario).__name__})")
    return load_scenario(scenario, heroes=heroes, villain=villain, issue=issue,
                         nemeses=None if nemeses is None else list(nemeses),
                         rules=None if rules is None else dict(rules),
                         caps=None if caps is None else dict(caps))


@dataclass(frozen=True)
class EnvOptions:
    """Validated keyword arguments of an environment (see the module documentation)."""

    scenario: Scenario
    # float64 [N_REWARD_PARAMS]: shaping weight per event counter for the heroes, then for
    # the villain agent, then the Fame variant's reward mode and parameters
    # (``core/episode.py``, ``rewards.reward_params``)
    weights: np.ndarray
    illegal_action: str  # "raise" or "penalize"
    render_mode: str | None
    numeric_info: bool = False  # infos as numbers only (``Session.info``)

    @classmethod
    def build(cls, scenario: str | Path | Scenario = "origin_story", *,
              reward_shaping: Mapping[str, float] | None = None,
              villain_reward_shaping: Mapping[str, float] | None = None,
              illegal_action: str = "raise", render_mode: str | None = None,
              render_modes: Sequence[str] = RENDER_MODES, numeric_info: bool = False,
              **game_options: Any) -> EnvOptions:
        """Check every option and compile the scenario, before any game starts.

        Args:
            scenario, **game_options: the game options of ``scenario_from``.
            reward_shaping: ``{event name: weight}`` (names: ``layout.EVENT_NAMES``).
            villain_reward_shaping: the same for the villain agent's reward (Mastermind
                variant; the game is then no longer zero-sum); needs the villain agent.
            illegal_action: ``"raise"`` or ``"penalize"``.
            render_mode: None or one of ``render_modes`` (the front end's).
            numeric_info: infos as numbers only (``Session.info``), for wrappers that turn
                infos into tensors (TorchRL, RLlib).

        Raises:
            TypeError / ValueError naming the option and the value; ``ContentError``.
        """
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got "
                             f"{illegal_action!r}")
        check_render_mode(render_mode, render_modes)
        check_option_names({k: v for k, v in game_options.items() if k not in GAME_OPTIONS},
                           (*GAME_OPTIONS, *EPISODE_OPTIONS))
        if not isinstance(numeric_info, (bool, np.bool_)):
            raise TypeError(f"numeric_info must be True or False, got {numeric_info!r}")
        weights = shaping_weights(reward_shaping)
        villain_weights = shaping_weights(villain_reward_shaping, "villain_reward_shaping")
        compiled = scenario_from(scenario, **game_options)
        if villain_reward_shaping and not compiled.villain_agent:
            raise ValueError(f"villain_reward_shaping shapes the villain agent's reward, but "
                             f"scenario {compiled.id!r} has no villain agent (rules "
                             "villain_agent)")
        params = reward_params(weights, compiled.fame_rule, villain_weights)
        return cls(compiled, params, illegal_action, render_mode, bool(numeric_info))


def check_render_mode(render_mode: str | None, render_modes: Sequence[str]) -> None:
    """``ValueError`` unless ``render_mode`` is None or one of the front end's modes."""
    if render_mode is not None and render_mode not in render_modes:
        if not render_modes:
            raise ValueError(f"render_mode must be None: this front end does not render, "
                             f"got {render_mode!r}")
        raise ValueError(f"render_mode must be None or one of {tuple(render_modes)}, got "
                         f"{render_mode!r}")


def _merge_max_cycles(caps: Mapping[str, Any] | None, max_cycles: int | None
                      ) -> Mapping[str, Any] | None:
    """Fold the PettingZoo-style ``max_cycles`` into ``caps["max_decisions"]``."""
    if max_cycles is None:
        return caps
    max_cycles = check_int(max_cycles, "max_cycles")
    if max_cycles < 1:
        raise ValueError(f"max_cycles must be a positive number of decisions, got {max_cycles}")
    if caps is not None and not isinstance(caps, Mapping):
        raise TypeError(f"caps must be a dict, got {caps!r} ({type(caps).__name__})")
    merged = dict(caps or {})
    if "max_decisions" in merged and merged["max_decisions"] != max_cycles:
        raise ValueError(f"max_cycles={max_cycles} conflicts with "
                         f"caps['max_decisions']={merged['max_decisions']}")
    merged["max_decisions"] = max_cycles
    return merged


def _seat_heroes(scenario: str | Path | Scenario, heroes: Sequence[str] | None,
                 n_heroes: int | None) -> list[str] | None:
    """The ``heroes`` override implied by ``heroes`` and ``n_heroes`` (None: keep the file's)."""
    if isinstance(heroes, str) and heroes == "random" or (
            isinstance(heroes, Sequence) and not isinstance(heroes, str)
            and any(isinstance(h, Sequence) and not isinstance(h, str) for h in heroes)):
        raise ValueError(f"heroes={heroes!r} draws a team per game: the batched front ends "
                         "take it (vector_env, SB3VecEnv, the TorchRL env; hon_env/envs/"
                         "pool.py); a single game seats one team, a list of hero ids")
    if isinstance(heroes, str):
        raise TypeError(f"heroes must be a list of hero ids, got the string {heroes!r}")
    if heroes is not None and (isinstance(heroes, (Mapping, set, frozenset))
                               or not isinstance(heroes, Iterable)):
        # a dict iterates its keys and a set has no seat order: neither seats a team
        raise TypeError(f"heroes must be a list of hero ids, one per seat, got "
                        f"{type(heroes).__name__} {heroes!r}")
    if n_heroes is None:
        return None if heroes is None else list(heroes)
    n_heroes = check_int(n_heroes, "n_heroes")
    if not 1 <= n_heroes <= MAX_HEROES:
        raise ValueError(f"n_heroes must be in [1, {MAX_HEROES}], got {n_heroes}")
    if heroes is not None:
        if len(heroes) != n_heroes:
            raise ValueError(f"n_heroes={n_heroes} but {len(heroes)} heroes were given")
        return list(heroes)
    if isinstance(scenario, Scenario):
        if scenario.n_heroes != n_heroes:
            raise ValueError(f"the compiled Scenario has {scenario.n_heroes} heroes, not "
                             f"n_heroes={n_heroes}; pass a scenario id or path instead")
        return None
    base = list(parse_scenario(scenario_path(scenario)).heroes)
    return [base[i % len(base)] for i in range(n_heroes)]
