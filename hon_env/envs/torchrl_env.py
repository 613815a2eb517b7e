"""``HourOfNeedTorchRLEnv``: the batched engine as a TorchRL ``EnvBase`` (optional extra
``torchrl``).

    >>> from hon_env.envs.torchrl_env import HourOfNeedTorchRLEnv
    >>> env = HourOfNeedTorchRLEnv(num_envs=256, heroes=["majesty", "stride"])
    >>> rollout = env.rollout(100)          # random legal actions, auto-reset
    >>> rollout["next", "heroes", "reward"].shape
    torch.Size([256, 100, 2, 1])

Not a per-game wrapper: the ``num_envs`` games are rows of one numba engine, stepped in
one call (``hon_env.vector_env``). The tensordict follows TorchRL's multi-agent layout
with every hero in one group, ``"heroes"`` (as VMAS and BenchMARL expect), and
TorchRL's convention for turn-based games (its PettingZoo AEC wrapper): each step one
hero per game decides.

- ``("heroes", "observation")`` float32 ``[B, H, OBS_DIM]``: the deciding hero's
  observation in its row, zeros in the other heroes' rows (they do not act this step).
- ``("heroes", "action_mask")`` bool ``[B, H, N_ACTIONS]``: the legal mask in the
  deciding hero's row; the other rows allow every action (their actions are ignored).
- ``("heroes", "mask")`` bool ``[B, H]``: True for the hero who decides.
- ``("heroes", "action")`` int64 ``[B, H]``: the env plays the deciding hero's entry.
- ``("heroes", "reward")`` float32 ``[B, H, 1]``: the team reward, the same for every hero.
- ``"state"`` float32 ``[B, STATE_DIM]``: the global state for centralized critics.
  (``compact=True``, a ``VectorEnv`` option: both cut before the Two Fronts and Draft
  sections where the games play without them; the specs give the widths.)
- ``"done"``, ``"terminated"``, ``"truncated"`` bool ``[B, 1]``: shared by the team.

Every entry is numeric; there are no string infos. Episodes: when a game ends, its
``"next"`` observation is the last one of the ended episode; the engine has already
started the game's next episode (seed ``seed + i + k * num_envs``, the vector env's rule),
which the following ``reset`` (TorchRL's ``_reset`` for that game) returns. Resetting a
game that did not end is refused. ``set_seed(s)`` followed by ``reset()`` plays
``Game(scenario, seed=s + i)`` in game ``i``. The remaining keyword arguments are those of
``hon_env.vector_env`` (scenario, heroes, villain, issue, rules, caps, reward_shaping).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from tensordict import TensorDict, TensorDictBase
from torchrl.data import Categorical, Composite, Unbounded
from torchrl.envs import EnvBase

from hon_env.checks import check_seed, seed_span
from hon_env.envs.vector import VectorEnv, require_heroes_only
from hon_env.spec import layout as L

GROUP = "heroes"


class HourOfNeedTorchRLEnv(EnvBase):
    """``num_envs`` games of one scenario as a batched TorchRL env (see module doc)."""

    def __init__(self, num_envs: int, seed: int = 0, *, device: str | torch.device = "cpu",
                 **kwargs: Any) -> None:
        self.venv = VectorEnv(num_envs, seed, **kwargs)
        require_heroes_only(self.venv.scenario, type(self).__name__)
        super().__init__(batch_size=torch.Size([self.venv.num_envs]), device=device)
        self.n_heroes = self.venv.n_heroes
        self._pending_seed: int | None = None
        self._restarted = np.zeros(self.venv.num_envs, bool)  # ended, next episode ready
        self._views: dict[str, np.ndarray] = {}  # the vector env's live output arrays
        self._make_specs()

    def _make_specs(self) -> None:
        B, H, N = self.venv.num_envs, self.n_heroes, L.N_ACTIONS
        dev = self.device
        self.observation_spec = Composite(
            {GROUP: Composite({
                "observation": Unbounded((B, H, self.venv.observation_dim),
                                         dtype=torch.float32, device=dev),
                "action_mask": Categorical(2, (B, H, N), dtype=torch.bool, device=dev),
                "mask": Categorical(2, (B, H), dtype=torch.bool, device=dev),
            }, shape=(B, H), device=dev),
             "state": Unbounded((B, self.venv.state_dim), dtype=torch.float32, device=dev)},
            shape=(B,), device=dev)
        self.action_spec = Composite(
            {GROUP: Composite({"action": Categorical(N, (B, H), dtype=torch.int64,
                                                     device=dev)}, shape=(B, H), device=dev)},
            shape=(B,), device=dev)
        self.reward_spec = Composite(
            {GROUP: Composite({"reward": Unbounded((B, H, 1), dtype=torch.float32,
                                                   device=dev)}, shape=(B, H), device=dev)},
            shape=(B,), device=dev)
        self.done_spec = Composite(
            {k: Categorical(2, (B, 1), dtype=torch.bool, device=dev)
             for k in ("done", "terminated", "truncated")}, shape=(B,), device=dev)

    # --- TorchRL hooks ------------------------------------------------------------------
    def _set_seed(self, seed: int | None) -> None:
        # checked here, as every front end checks a seed, not coerced ("5", 2.7)
        self._pending_seed = None if seed is None else check_seed(
            seed, seed_span(self.venv.num_envs))

    def _reset(self, tensordict: TensorDictBase | None = None, **kwargs: Any
               ) -> TensorDictBase:
        which = None if tensordict is None else tensordict.get("_reset", None)
        B = self.venv.num_envs
        if which is None or bool(which.all()) or self._pending_seed is not None:
            self._views, _ = self.venv.reset(seed=self._pending_seed)
            self._pending_seed = None
            self._restarted[:] = False
        else:
            games = which.reshape(B).cpu().numpy()
            running = games & ~self._restarted
            if running.any():
                raise ValueError(f"games {np.flatnonzero(running)[:10].tolist()} did not end; "
                                 "the batched engine resets a game only when its episode "
                                 "ends (or every game at once)")
            self._restarted[games] = False
        return self._observe(self._views["observation"])

    def _step(self, tensordict: TensorDictBase) -> TensorDictBase:
        actions = tensordict.get((GROUP, "action")).reshape(self.venv.num_envs, self.n_heroes)
        seat = torch.as_tensor(self.venv.agent, dtype=torch.long, device=actions.device)
        played = actions.gather(1, seat[:, None]).squeeze(1).cpu().numpy()
        self._views, rewards, term, trunc, info = self.venv.step(played)
        ended = info["_final"]
        seen = self._views["observation"]
        if ended.any():
            seen = seen.copy()
            seen[ended] = info["final_observation"][ended]
            self._restarted |= ended
        out = self._observe(seen, np.where(ended, info["final_agent"], self._views["agent"]))
        # copies: the vector env writes the next step's rewards and flags into the same
        # arrays, and a rollout keeps every step's tensors until it stacks them
        out.set((GROUP, "reward"),
                torch.as_tensor(rewards.copy(), device=self.device)[..., None])
        for key, value in (("terminated", term), ("truncated", trunc),
                           ("done", term | trunc)):
            out.set(key, torch.as_tensor(value.copy(), device=self.device)[:, None])
        return out

    # --- helpers ------------------------------------------------------------------------
    def _observe(self, observations: np.ndarray, agent: np.ndarray | None = None
                 ) -> TensorDict:
        """The output tensordict: ``observations`` in the rows of seats ``agent`` (default:
        the seats deciding now), the legal masks and the global state."""
        B, H, dev = self.venv.num_envs, self.n_heroes, self.device
        seat = torch.as_tensor(self._views["agent"] if agent is None else agent,
                               dtype=torch.long)
        deciding = torch.nn.functional.one_hot(seat, H).bool()  # [B, H]
        # one broadcast each (no zero fill then scatter): the deciding row gets the data
        group_obs = torch.from_numpy(observations)[:, None, :] * deciding[..., None]
        legal = torch.from_numpy(self._views["action_mask"].view(bool))
        group_mask = legal[:, None, :] | ~deciding[..., None]
        # the action spec's mask follows the legal masks, so rand_action and
        # check_env_specs sample legal actions (as TorchRL's PettingZoo wrapper does)
        self.input_spec["full_action_spec", GROUP, "action"].update_mask(
            group_mask.to(dev))
        zeros = torch.zeros((B, 1), dtype=torch.bool)
        return TensorDict({
            GROUP: TensorDict({"observation": group_obs, "action_mask": group_mask,
                               "mask": deciding}, batch_size=(B, H)),
            "state": torch.from_numpy(self._views["state"].copy()),
            "done": zeros, "terminated": zeros.clone(), "truncated": zeros.clone(),
        }, batch_size=(B,)).to(dev)
