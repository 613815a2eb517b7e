"""
# Hour of Need

| Import             | `from hon_env import hour_of_need_v8` (this module)            |
|--------------------|----------------------------------------------------------------|
| Creation           | `hour_of_need_v8.env()` / `.parallel_env()` / `.raw_env()`     |
| Actions            | Discrete, masked                                               |
| Parallel API       | Yes (`parallel_env`, implemented directly on the engine)       |
| Manual Control     | Yes: `hon-play` (terminal) and `hon-play --web` (browser)      |
| Agents             | one per hero seat, e.g. `['majesty']`, `['majesty', 'majesty_2']` |
| Number of agents   | 1 to 6 heroes, plus `"villain"` with the Mastermind variant     |
| Action Shape       | `()`                                                           |
| Action Values      | `Discrete(456)`                                                |
| Observation Shape  | `{"observation": (4450,), "action_mask": (456,)}`              |
| Observation Values | observation float32 in `[0, inf)`; action_mask int8 in {0, 1}  |
| State Shape        | `(4599,)` float32 in `[0, inf)`                                |

*Hour of Need* is a cooperative superhero board game: 1 to 6 heroes fight a villain's
schemes on a hex map while an issue deck runs down. Every hero is an agent; the heroes win
or lose together. Under the hood is the batched numba rules engine at batch size 1
(`hon_env.Game`): there is no second implementation of the rules.

### Agents and turn order

Agent names are the hero ids of the scenario's seats; a repeated hero gets a suffix
(`"majesty"`, `"majesty_2"`...). Agents do **not** take turns in a fixed cycle: every
decision point of the game (a hero's turn menu, the steps of a Move, a card's target, a
damage reaction, a mulligan) is owned by exactly one hero, and that hero decides. In the
AEC env `agent_selection` is that hero, so one agent often acts several times in a row.
With the Draft variant (`rules={"draft": ...}`, `docs/variants.md`) the heroes change from
game to game, so the agents are the seats, `hero_0` ... `hero_{n-1}`, who first pick their
heroes in seat order (`draft` decisions); `infos[agent]["hero"]` names the hero a seat
drafted (None before; its roster index, -1 before, with `numeric_info`).

### Observation Space

`observe(agent)` returns `{"observation": float32 [4450], "action_mask": int8 [456]}`.
The observation is egocentric (the agent's own hero first) and free of hidden information
(other heroes' hands are sizes, deck orders are not visible). Its named sections (global,
spaces, self, others, villain cards, issue cards, nemeses, special minions, allies, crisis
cards, special bystanders, hero identity, ..., own cards, draft) are a table of named features
(`hon_env.observation_spec()`, `hon_env.feature_index("section.name")`, listed in
`docs/observation.md`); the agent's seat is the one-hot feature `global.seat`, and which
hero sits in each seat (self first) is a one-hot over the content's hero roster
(`hero_identity.hero`, roster `Scenario.hero_roster`). `state()` is the global state for
centralized critics: seat 0's observation followed by every seat's hand
(`float32 [4599]`).

#### Legal Actions Mask

`action_mask[a] == 1` iff action `a` is legal now for that agent. The deciding agent's
mask is never empty while the game runs.

- AEC: agents other than `agent_selection` get an all-zero mask (PettingZoo classic habit).
- Parallel: agents that do not decide get a mask with only index 0 (`A_PASS`): they must
  submit 0, a no-op that is ignored.
- Once the episode is over every mask is all zeros.

### Action Space

One flat `Discrete(456)` for every hero: pass/yield (0), draw (1), move to a space
(2-65), attack a space (66-129), solve at a space (130-193), play hand card (194-213), use
a card ability (214-235), heroic feats (236-295), clues (296-315), become focused (316),
choose option (317-324), choose target (325-382), choose hero (383-388), choose hand card
(389-408); with two villains (Two Fronts), the second villain's cards (409-438) and turning
around (439); take pool hero i of a draft in the Draft variant (440-455).
`hon_env.action_meanings(scenario)` names every index and
`env.game.action_to_string(a)` describes an action in the current position.

### Rewards

A team reward, the same for every agent at every step: `+1` when the heroes win, `-1`
when they lose, `0` when the episode is truncated, plus the optional shaping
`sum(reward_shaping[e] * increase of event counter e)` over the step (off by default).
In the AEC env each step's reward goes to every live agent; `last()` returns the reward
accumulated since that agent last acted (`_cumulative_rewards`).

### Episode end

Terminated at a win or a loss (issue deck empty, villain objective); truncated at the
scenario caps (`caps={"max_rounds": ..., "max_decisions": ...}`), outcome `"truncated"`.
All agents end together. In the AEC env every agent then gets one `step(None)` (the
`_was_dead_step` protocol), starting with the agent that made the last decision.

### Infos

`infos[agent]` (a fresh dict per agent): `"events"` (dict event name -> count so far this
episode, `layout.EVENT_NAMES`), `"fames"` (dict hero agent -> fame), the agent's own
`"fame"` and `"hero_events"` (dict `layout.HERO_COUNTER_NAMES` -> count: what this hero
did; kept in every game, see docs/variants.md), `"acting_hero"` (the agent who
decides now, None at the end), `"decision"` (the pending decision kind,
`layout.DECISION_NAMES`, `"none"` at the end) and, once the episode is over, `"outcome"`
(`"win"`, `"loss"`, `"truncated"`) and `"loss_reason"` (`layout.LOSS_REASON_NAMES`,
`"illegal_action"` for a penalized illegal action, None for a win).

With `numeric_info=True` every info entry is a number and the keys are the same at every
step, for wrappers that turn infos into tensors (TorchRL's `PettingZooWrapper`, RLlib):
`"events"` (int64 array in `layout.EVENT_NAMES` order), `"acting_seat"` (-1 at the end),
`"decision"` (`layout.D_*`), `"outcome"` (`layout.OUT_*`, `OUT_ONGOING` until the end),
`"loss_reason"` (`layout.LOSS_*`, `LOSS_ILLEGAL` for a penalized illegal action),
`"fames"` (int64 per hero), `"fame"` and `"hero_events"` (int64 array).

### Arguments

``` python
hour_of_need_v8.env(scenario="origin_story", heroes=None, villain=None, issue=None,
                    n_heroes=None, nemeses=None, rules=None, caps=None, max_cycles=None,
                    reward_shaping=None, villain_reward_shaping=None,
                    illegal_action="raise", render_mode=None, numeric_info=False)
```

These are the options of every front end, defined and validated once in
`hon_env.options` (`Game` takes the game options, the envs all of them, the vector envs
all but a `render_mode` other than None): the same names, the same defaults and the same
error for the same bad value everywhere.

- `scenario`: scenario id (`configs/scenarios/<id>.yaml`), path to a scenario YAML file,
  or a compiled `hon_env.Scenario` (then without the overrides below).
- `heroes`, `villain`, `issue`: content ids replacing the scenario's (`heroes`: one id per
  seat, repeats allowed).
- `n_heroes`: number of seats when `heroes` is not given: the scenario's hero list is
  repeated (or cut) to that length, so for Origin Story `n_heroes=2` means two Majesty
  seats. With `heroes` it must equal `len(heroes)`.
- `nemeses`: nemesis ids, the pool a game's nemeses are drawn from (default: every
  nemesis of the content). Games with 5 or 6 heroes deal one to each hero without a Scheme
  card; `rules={"nemeses": n}` adds `n` more to any game (the Nemesis optional rule).
- `rules`, `caps`: overrides of `hon_env.content.compile.DEFAULT_RULES` / `DEFAULT_CAPS`
  (among them `nemeses`, `extra_clues`, a second copy of the clue deck, and the optional
  rules' card lists `special_minions`, `special_bystanders` and `crisis_cards`).
- `max_cycles`: PettingZoo's usual name for the episode length: an alias of
  `caps={"max_decisions": max_cycles}`, i.e. the episode is truncated after that many
  decisions (parallel steps, or AEC steps of live agents summed over all heroes). With one
  hero this is exactly PettingZoo's "cycles".
- `reward_shaping`: `{event name: weight}`; unknown names are a `ValueError`.
- `villain_reward_shaping`: the same for the villain agent's reward (Mastermind variant,
  docs/mastermind.md; the game is then no longer zero-sum); refused without the villain
  agent.
- `illegal_action`: `"raise"` (default): a masked-out action raises
  `hon_env.IllegalActionError` naming the action and the legal ones, and nothing changes.
  `"penalize"`: the episode ends for everyone, terminated, reward `-1`, `loss_reason
  "illegal_action"`. Non-integer actions and malformed action dicts always raise.
- `render_mode`: None, `"human"` (prints the text board to stdout at every reset and
  step), `"ansi"` (`render()` returns the text board) or `"rgb_array"` (`render()` returns
  an `[750, 1300, 3]` uint8 image) (`hon_env.render`); both show the pending decision
  and, after the first action, the last action in words.
- `numeric_info`: infos as numbers only (see Infos).

Every episode is recorded: `env.unwrapped.replay(players)` returns it as a
`hon_env.replay.Replay` (seed, scenario, actions), `save_replay(path)` writes its
JSON, and `hon-replay FILE` shows it as an HTML page. Manual control: `hon-play` plays a
game in the terminal, `hon-play --web` in the browser, next to the scripted team or any
checkpoint.

Unknown keyword arguments are a `TypeError`. `reset(seed=s)` plays the game of seed `s`
(`hon_env.Game(scenario, seed=s)`); `reset()` without a seed plays the next seed after
the previous episode's (`s + 1`, `s + 2`...), and on a fresh env starts at seed 0.
`reset(options=...)` takes a dict (or None), accepted and ignored; another type is a
`TypeError`.

`env()` wraps `raw_env()` in `OrderEnforcing`, PettingZoo's `OrderEnforcingWrapper`
with the project's errors (`RuntimeError` for a step, observe, state or render before
`reset()`). Actions are checked by the env itself, the same way in every front end
(`hon_env.checks`): an action that is not a Python or numpy integer or a 0-d integer
array (a `bool`, a float even if integral, a string, None for a live agent) is a
`TypeError`, an integer outside `[0, 456)` an `IllegalActionError` naming it and the
range (or a penalty with `illegal_action="penalize"`). PettingZoo's
`AssertOutOfBoundsWrapper` is not used: it answers with a bare `AssertionError`. Nor is
`TerminateIllegalWrapper`: the env handles illegal actions itself (`illegal_action`), and
that wrapper would swallow them with a warning, set both terminated and truncated, and
reward only the offending agent.

`metadata["is_parallelizable"]` is True because the game has a native parallel form
(`parallel_env`). Use that rather than `pettingzoo.utils.aec_to_parallel(raw_env())`:
the generic converter expects agents to act in a fixed cycle, which holds only with one
hero.

### Version History

* v8: Rules of two variants follow their seeds more closely; the spaces are unchanged.
  Two Fronts: the blindside bonus (003 §BLINDSIDE) is added to every damage a card or
  the Villain card of the villain a hero does not face deals (a lackey's inflict, also
  when another hero picks who suffers it; `damage_hero` and `discard_or_damage` in
  activation, Showdown and special effects), where v7 added it to `inflict_owner` only.
  Fame: a lone hero gets neither the most-villain-damage nor the most-enemies award at
  the end (001 §Solo and Campaign Mode). The rulebook's game and every other scenario are
  unchanged (golden replays pass; `two_fronts_seed7` re-recorded), and v3 to v7 MAPPO
  policies play v8 as they played v7.
* v7: The Draft gains mode `pass` (seed 002: each player is dealt heroes face down, keeps
  one, passes the rest to the next player and takes its second hero from those passed to
  it). In that mode one agent, `player_p`, plays two seats (`2p` and `2p + 1`): it observes
  as the seat it moves, and `infos[agent]["heroes"]` lists its two heroes. A
  `draft_pass` section (22 floats, zeros outside the mode) is appended: the observation
  grows from 4428 to 4450 floats (the state from 4577 to 4599); the actions are unchanged.
  Every other mode and game is unchanged, so v3 to v6 MAPPO policies play v7 by the
  observation's prefix (`agents.checkpoints.PREFIX_VERSIONS`).
* v6: Two variants. Two Fronts (two villains, `villain=[a, b]`): sections `two_fronts`,
  `two_fronts_seats`, `two_fronts_spaces` and `villain2_cards` (all zeros with one
  villain), action segments `target2` (the second villain's cards, 30) and `turn` (turn
  around, 1), decision kind `face`. The Draft (`rules={"draft": ...}`): sections `draft`
  and `draft_pool` (zeros without the rule), a `draft` action segment (16 actions, "take
  pool hero i") and decision kind `draft`; with the rule the agents are named by seat,
  `hero_0` ... `hero_{n-1}`, and `infos[agent]["hero"]` names the hero the seat drafted
  (None before). The observation grows from 3481 to 4428 floats (the state from 3630 to
  4577) and the actions from 409 to 456. The base game is unchanged (golden replays pass),
  so v3, v4 and v5 MAPPO policies play v6 by reading the observation's prefix and the
  first 409 actions (`agents.checkpoints.PREFIX_VERSIONS`).
* v5: The observation grows from 2448 to 3481 floats (the state from 2597 to 3630): an
  `enemy_ties` section (all zeros unless the Mastermind variant's `enemy_ties: "villain"`)
  tells every seat that the villain is breaking an enemy movement tie, which kind, and
  the moving figure's space, steps left and target; an `own_cards` section describes each
  card of the observing hero's deck (attributes and what its effects do), so that one
  policy can play heroes it was not trained with. Decision kinds `enemy_target` and
  `enemy_step` are new (the villain's, with that option only). The game itself is
  unchanged (golden replays pass). Every earlier offset and the 409 actions are
  unchanged, so v3 and v4 MAPPO policies play v5 by reading the observation's prefix
  (`agents.checkpoints.PREFIX_VERSIONS`).
* v4: The observation grows from 2247 to 2448 floats (the state from 2396 to 2597): the
  Fame variant's sections `fame`, `fame_seats` and `fame_headlines` (each hero's fame,
  own counters and the headlines; zeros apart from the per-hero counters unless
  `rules={"fame": ...}`), and infos carry each hero's fame and own counters in every game.
  The game itself is unchanged (golden replays pass). Every earlier offset and the 409
  actions are unchanged, so a v3 MAPPO policy plays v4 by reading the first 2247 floats
  (`agents.checkpoints.PREFIX_VERSIONS`).
* v3: The observation grows from 2103 to 2247 floats (the state from 2223 to 2396):
  a `hero_identity` section says which hero sits in each seat, self first, as a one-hot
  over the content's hero roster (16 slots), so that one shared actor can tell whose deck
  its hand multi-hot indexes; a `villain_agent` section (all zeros unless the Mastermind
  variant is on) and, in the state, the villain's hand. With `rules={"villain_agent":
  ...}` a `"villain"` agent joins the heroes (`docs/mastermind.md`).
  `global.villain_panel` no longer writes its no-panel case onto
  `global.villain_in_panel`. Every earlier offset is unchanged; v2 checkpoints do not load
  (input size).
* v2: Same spaces (2103 floats, 409 actions, state 2223); the games change: rule fixes
  (one crisis per card or effect, a villain goes on moving after a capture, the hero about
  to suffer damage may become focused, a defeated hero's threat phase follows the effect
  that defeated it), per-hero loss and advance thresholds on every issue, and infos
  optionally numeric (`numeric_info`). v1 checkpoints load, but were trained on the old
  games.
* v1: The observation grows from 1608 to 2103 floats and the action space from 398 to
  409 actions for nemeses, hero forms, special minions, allies (an Ally card USE slot
  and ally targets for inflicts), crisis cards with a danger value (crisis targets) and
  special bystanders; the state from 1728 to 2223. Checkpoints trained on v0 do not load.
* v0: Initial version (hon_env 0.1.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from hon_env.checks import as_action, check_reset_options
from hon_env.core.observe import OBS_DIM, STATE_DIM
from hon_env.envs.session import Session, SessionViews
from hon_env.options import RENDER_MODES, EnvOptions
from hon_env.spec import layout as L

__all__ = ["env", "parallel_env", "raw_env"]

METADATA: dict[str, Any] = {
    "name": "hour_of_need_v8",
    "render_modes": list(RENDER_MODES),
    "is_parallelizable": True,
    "render_fps": 2,
}


def observation_space() -> spaces.Dict:
    """The per-agent observation space (a new object: each agent seeds its own)."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, np.inf, shape=(OBS_DIM,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(L.N_ACTIONS,), dtype=np.int8),
    })


def state_space() -> spaces.Box:
    """The space of ``state()``."""
    return spaces.Box(0.0, np.inf, shape=(STATE_DIM,), dtype=np.float32)


class _Front(SessionViews):
    """What the AEC and Parallel envs share: options, spaces, rendering, state()."""

    metadata = METADATA

    def __init__(self, **options: Any) -> None:
        opts = EnvOptions.build(**options)
        self._session = Session(opts)
        self.render_mode: str | None = opts.render_mode
        self.possible_agents: list[str] = list(self._session.agents)
        self._seats = {a: self._session.scenario.agent_seat(a) for a in self.possible_agents}
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(L.N_ACTIONS) for a in self.possible_agents}
        self.state_space = state_space()

    def __getstate__(self) -> dict[str, Any]:
        """The whole env, running episode included: ``copy.deepcopy`` and ``pickle`` give a
        true copy that continues identically (not a fresh env built from the options)."""
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        """``agent``, or a ``KeyError`` that lists the env's agents."""
        if agent not in self._seats:
            raise KeyError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return agent

    def state(self) -> np.ndarray:
        """float32 [STATE_DIM] global state (``Game.global_state``)."""
        return self._session.require_game().global_state()

    def action_mask(self, agent: str) -> np.ndarray:
        """int8 [N_ACTIONS] legal mask of ``agent`` now, as in its observation (no encoding)."""
        raise NotImplementedError

    def _observation(self, agent: str, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": self._session.observation(self._session.view_seat(agent)),
                "action_mask": mask}


class raw_env(_Front, AECEnv):
    """Hour of Need as a PettingZoo AEC env (see the module documentation)."""

    def __init__(self, **kwargs: Any) -> None:
        AECEnv.__init__(self)
        _Front.__init__(self, **kwargs)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode (``seed``: see the module documentation; ``options`` ignored)."""
        check_reset_options(options)
        self._session.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = self._infos()
        # the engine runs setup to the first decision, so somebody always decides here
        self.agent_selection = self._session.current_agent
        self._skip_agent_selection = None
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation dict; the mask is all zeros unless ``agent`` decides now."""
        return self._observation(agent, self.action_mask(agent))

    def action_mask(self, agent: str) -> np.ndarray:
        """int8 [N_ACTIONS]: the legal mask for ``agent_selection``, zeros for the others."""
        if self._known(agent) == self._session.current_agent:
            return self._session.legal_mask()
        return np.zeros(L.N_ACTIONS, np.int8)

    def step(self, action: int | None) -> None:
        """Answer the pending decision of ``agent_selection`` (None for a finished agent)."""
        if not hasattr(self, "agent_selection"):
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"agent {agent!r} has finished its episode: its only valid "
                                 f"action is None, got {action!r}")
            self._was_dead_step(action)
            return
        # apply first: a raised IllegalActionError must leave the env exactly as it was
        reward = self._session.step(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self._session.agent_rewards(reward)
        decider = self._session.current_agent
        if decider is None:
            # everyone ends together; agent_selection stays on the hero who decided last,
            # who is the first to take its step(None)
            self.terminations = dict.fromkeys(self.agents, self._session.terminated)
            self.truncations = dict.fromkeys(self.agents, self._session.truncated)
        else:
            self.agent_selection = decider
        self.infos = self._infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _infos(self) -> dict[str, dict[str, Any]]:
        # one info per agent: the shared part and the agent's own fame and counters
        return self._session.agent_infos(self.agents)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the project's errors: using the env
    before ``reset()`` is a ``RuntimeError`` saying so (PettingZoo's raises a bare
    ``AssertionError``); actions are checked by ``raw_env`` itself."""

    def _require_reset(self, what: str) -> None:
        if not self._has_reset:
            raise RuntimeError(f"call reset() before {what}")

    def step(self, action: int | None) -> None:
        self._require_reset("step()")
        super().step(action)

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        self._require_reset("observe()")
        return super().observe(agent)

    def state(self) -> np.ndarray:
        self._require_reset("state()")
        return super().state()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # after reset, straight to the env: PettingZoo's version reads five attributes
        # through the wrappers' __getattr__, on every turn of a play loop
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def render(self) -> str | np.ndarray | None:
        self._require_reset("render()")
        return super().render()

    def agent_iter(self, max_iter: int = 2**63):  # noqa: ANN201 (PettingZoo's iterable)
        self._require_reset("agent_iter()")
        return super().agent_iter(max_iter)


def env(**kwargs: Any) -> AECEnv:
    """``raw_env(**kwargs)`` in ``OrderEnforcing`` (see the module documentation)."""
    return OrderEnforcing(raw_env(**kwargs))


class parallel_env(_Front, ParallelEnv):
    """Hour of Need as a PettingZoo Parallel env (see the module documentation).

    Every step is one decision. Every live agent submits an action: the deciding hero
    its answer, every other hero 0 (``A_PASS``, its only legal action, which is ignored).
    A missing or unknown agent key, or a non-integer action, is a ``ValueError`` /
    ``TypeError`` in both ``illegal_action`` modes.
    """

    def __init__(self, **kwargs: Any) -> None:
        _Front.__init__(self, **kwargs)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start an episode; returns (observations, infos) for every agent."""
        check_reset_options(options)
        self._session.reset(seed)
        self.agents = self.possible_agents[:]
        if self.render_mode == "human":
            self.render()
        return self._observations(), self._infos()

    def step(self, actions: Mapping[str, int]) -> tuple[
            dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict[str, Any]]]:
        """One decision: ``actions`` has one entry per live agent (see the class doc).

        Returns:
            (observations, rewards, terminations, truncations, infos), each keyed by every
            agent that was live before the step. Once the episode ends ``agents`` is empty.
        """
        if not self.agents:
            raise RuntimeError("no live agents: call reset() to start an episode")
        if not isinstance(actions, Mapping):
            raise TypeError(f"actions must be a dict agent -> action, got "
                            f"{type(actions).__name__}")
        missing = [a for a in self.agents if a not in actions]
        unknown = [a for a in actions if a not in self.agents]
        if missing or unknown:
            raise ValueError(f"actions must have exactly one entry per live agent "
                             f"{self.agents}; missing {missing}, unknown {unknown}")
        decider = self._session.current_agent
        values = {a: as_action(actions[a]) for a in self.agents}
        waiting = {a: v for a, v in values.items() if a != decider and v != L.A_PASS}
        if waiting:
            agent, value = next(iter(waiting.items()))
            reward = self._session.illegal(
                f"agent {agent!r} does not decide now ({decider!r} does): its only legal "
                f"action is {L.A_PASS} (a no-op), got {value}", self._seats[agent])
        else:
            reward = self._session.step(values[decider])
        live = self.agents
        observations = self._observations()
        rewards = self._session.agent_rewards(reward)
        terminations = dict.fromkeys(live, self._session.terminated)
        truncations = dict.fromkeys(live, self._session.truncated)
        infos = self._infos()
        if self._session.over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def action_mask(self, agent: str) -> np.ndarray:
        """int8 [N_ACTIONS]: the decider's legal mask, ``A_PASS`` only for the others, all
        zeros once the episode is over."""
        self._known(agent)
        decider = self._session.current_agent
        if agent == decider:
            return self._session.legal_mask()
        mask = np.zeros(L.N_ACTIONS, np.int8)
        if decider is not None:
            mask[L.A_PASS] = 1
        return mask

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self._observation(a, self.action_mask(a)) for a in self.possible_agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        return self._session.agent_infos(self.possible_agents)
