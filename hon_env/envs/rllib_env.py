"""``HourOfNeedRLlibEnv``: one game as an RLlib ``MultiAgentEnv`` (optional extra ``rllib``).

    >>> from hon_env.envs.rllib_env import HourOfNeedRLlibEnv
    >>> env = HourOfNeedRLlibEnv({"n_heroes": 2})
    >>> obs, infos = env.reset(seed=0)          # {deciding hero: {...}}
    >>> hero = next(iter(obs))
    >>> action = env.get_action_space(hero).sample()   # a legal action
    >>> obs, rewards, terminateds, truncateds, infos = env.step({hero: action})

RLlib's new API stack, turn-based as in RLlib's own board-game examples: each step only
the hero who decides gets an observation and must send the one action; RLlib keeps the
other heroes' pending actions until they next observe. Agents are the hero seats
(``possible_agents``, the PettingZoo env's names); ``agents`` is the same list for the
whole episode (all heroes play to the end).

- **Observations** ``{"observations": float32 [OBS_DIM], "action_mask": float32
  [N_ACTIONS]}``, the two keys RLlib's action-masking RL module reads
  (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``); the mask is 1.0 for a
  legal action. When the episode ends every hero gets a last observation (all-zero mask),
  which RLlib needs to close each hero's trajectory and to bootstrap truncated ones.
- **Actions** ``Discrete(N_ACTIONS)`` per hero, as in every front end. Its ``sample()``
  draws among the deciding hero's legal actions (0, the no-op, for a hero who does not
  decide), so RLlib's env check and random exploration play legal games. Illegal actions
  follow ``illegal_action`` (``"raise"`` by default).
- **Rewards** the team reward of each step is divided evenly among the heroes who have
  decided at least once this episode (every hero, after the first round). RLlib's episode
  return, the sum over agents, is therefore the team return, counted once; each hero's own
  return is its share of it. The reward itself is the PettingZoo env's (+1 win, -1 loss,
  0 truncated, plus ``reward_shaping``).
- **Infos** numeric only (``numeric_info=True`` of the PettingZoo env: ``events``
  array, ``acting_seat``, ``decision``, ``outcome``, ``loss_reason`` as ``layout``
  codes, ``fames`` of every hero, the hero's own ``fame`` and ``hero_events``), one per
  observed hero. The Fame variant's ``fame`` and ``rank`` reward modes (a reward per hero)
  are refused: this env splits one team reward.
- **Seeds** ``reset(seed=s)`` plays ``Game(scenario, seed=s)``. ``reset()`` without a seed
  plays the next game of this env's own stream: ``seed + j * 2**32 + k`` for its ``k``-th
  unseeded episode, where ``seed`` is the ``env_config`` key (default 0) and ``j`` numbers
  the env copies (``worker_index * 2**16`` plus the copy's creation order in its process).
  So every env runner and every vector copy plays different games. RLlib seeds only a
  copy's first reset (with ``config.debugging(seed=s)``: ``s + worker_index + copy
  index``, which can repeat across runners); every later episode follows the streams.

``config`` (RLlib's ``env_config``, an ``EnvContext``) holds the keyword arguments of the
PettingZoo env (``scenario``, ``heroes``, ``n_heroes``, ``reward_shaping``, ``caps``,
``illegal_action``, ``render_mode``...; ``hon_env.options``) plus ``seed``;
``numeric_info`` may only be True.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from hon_env.checks import EPISODE_ROOM, SEED_LIMIT, check_int, check_reset_options, check_seed
from hon_env.core.observe import OBS_DIM
from hon_env.envs.session import Session, SessionViews
from hon_env.envs.vector import require_heroes_only, require_team_reward
from hon_env.options import RENDER_MODES, EnvOptions
from hon_env.spec import layout as L

__all__ = ["COPIES_PER_WORKER", "HourOfNeedRLlibEnv", "LegalDiscrete", "observation_space"]

COPIES_PER_WORKER = 2**16  # env copies one env runner process may create (stream numbers)
_created = itertools.count()  # env copies created in this process


def observation_space() -> spaces.Dict:
    """One hero's observation space (the keys of RLlib's action-masking module)."""
    return spaces.Dict({
        "observations": spaces.Box(0.0, np.inf, shape=(OBS_DIM,), dtype=np.float32),
        "action_mask": spaces.Box(0.0, 1.0, shape=(L.N_ACTIONS,), dtype=np.float32),
    })


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws from ``legal``, the mask the
    env keeps up to date for its hero (all zeros: ``sample()`` gives 0, the no-op).

    It equals ``Discrete(n)`` for every other purpose (``==``, ``contains``, ``n``).
    """

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.legal = np.zeros(n, np.int8)

    def sample(self, mask: np.ndarray | None = None,
               probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None:
            mask = self.legal
        if probability is None:
            return super().sample(mask)
        return super().sample(mask, probability)


class HourOfNeedRLlibEnv(SessionViews, MultiAgentEnv):
    """One game, turn-based: the deciding hero observes and acts (see the module doc)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        options = dict(config or {})
        base_seed = check_seed(options.pop("seed", 0))
        if options.get("numeric_info", True) is not True:
            raise ValueError("numeric_info must be True for RLlib (its episodes and "
                             f"connectors expect numbers), got {options['numeric_info']!r}")
        options["numeric_info"] = True
        self._session = Session(EnvOptions.build(**options))
        require_heroes_only(self._session.scenario, type(self).__name__)
        require_team_reward(self._session.scenario, type(self).__name__)
        self.render_mode = self._session.options.render_mode
        self.possible_agents = list(self._session.agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: LegalDiscrete(L.N_ACTIONS) for a in self.possible_agents}
        self._seen: list[str] = []  # heroes observed this episode, in order
        worker = check_int(getattr(config, "worker_index", 0) or 0, "worker_index")
        stream = worker * COPIES_PER_WORKER + next(_created) % COPIES_PER_WORKER
        self._next_seed = base_seed + stream * EPISODE_ROOM
        if self._next_seed >= SEED_LIMIT:
            raise ValueError(f"seed {base_seed} with env copy {stream} passes 2**63; use a "
                             "smaller seed")

    # --- inspection (``scenario`` and ``game``: SessionViews) --------------------------
    @property
    def seed(self) -> int | None:
        """Seed of the running episode (None before the first reset)."""
        return self._session.seed

    # --- episodes -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start an episode (``seed``: see the module doc; ``options`` is ignored).

        Returns ``({decider: observation}, {decider: info})``.
        """
        check_reset_options(options)
        if seed is None:
            seed = self._next_seed
            self._next_seed += 1
        self._session.reset(check_seed(seed))
        self._seen = []
        if self.render_mode == "human":
            self.render()
        decider = self._session.current_agent
        return self._observe([decider]), self._infos([decider])

    def step(self, action_dict: Mapping[str, Any]) -> tuple[
            dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict[str, Any]]]:
        """Play the deciding hero's action; ``action_dict`` must be ``{decider: action}``.

        Returns RLlib's five dicts: the next decider's observation (every hero's at the
        end), the step's team reward shared among the heroes seen so far, ``"__all__"``
        flags (per-hero flags too at the end) and the observed heroes' numeric infos.
        """
        decider = self._session.current_agent
        if decider is None:
            raise RuntimeError("the episode is over (or never started): call reset()")
        if not isinstance(action_dict, Mapping):
            raise TypeError(f"action_dict must be a dict agent -> action, got "
                            f"{type(action_dict).__name__}")
        if list(action_dict) != [decider]:
            raise ValueError(f"only {decider!r} decides now: action_dict must hold its "
                             f"action alone, got the keys {sorted(action_dict)}")
        reward = self._session.step(action_dict[decider])
        rewards = {a: reward / len(self._seen) for a in self._seen}
        if self._session.over:
            ended = list(self.possible_agents)
            terminated, truncated = self._session.terminated, self._session.truncated
            terminateds = {a: terminated for a in ended} | {"__all__": terminated}
            truncateds = {a: truncated for a in ended} | {"__all__": truncated}
        else:
            ended = [self._session.current_agent]
            terminateds, truncateds = {"__all__": False}, {"__all__": False}
        if self.render_mode == "human":
            self.render()
        return self._observe(ended), rewards, terminateds, truncateds, self._infos(ended)

    # --- helpers ------------------------------------------------------------------------
    def _observe(self, agents: list[str]) -> dict[str, dict[str, np.ndarray]]:
        """Observations of ``agents``; updates every hero's ``LegalDiscrete.legal``."""
        decider = self._session.current_agent
        legal = self._session.legal_mask()
        for agent, space in self.action_spaces.items():
            space.legal[:] = legal if agent == decider else 0
        if decider is not None and decider not in self._seen:
            self._seen.append(decider)
        out = {}
        for agent in agents:
            mask = legal if agent == decider else np.zeros(L.N_ACTIONS, np.int8)
            out[agent] = {"observations": self._session.observation(self._session.view_seat(agent)),
                          "action_mask": mask.astype(np.float32)}
        return out

    def _infos(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        return self._session.agent_infos(agents)
