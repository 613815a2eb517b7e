"""MaskablePPO's rollout buffer without the copies that cost more than the network.

SB3 flattens each rollout array env-major (``swapaxes(0, 1)`` then ``reshape``), which
copies the whole observation buffer once per update (1024 games x 32 steps x 4,450
floats: 583 MB), allocates that buffer afresh for every rollout (its pages then fault in
one by one as the rollout writes them), copies each step's observations twice on the way
in (``np.array``, then into the buffer) and every minibatch twice on the way out (a fancy
index, then ``torch.tensor``).

Which sample sits where in the flat arrays does not matter to PPO: the minibatches are a
random permutation of all of them, and every array is flattened the same way. So this
buffer keeps one observation array for the whole run, copies each step in once, flattens
step-major (a free view of the contiguous arrays), and hands the indexed (already fresh)
minibatch arrays to torch without another copy. The samples and their distribution are
SB3's; only the permutation's order over them differs. The legal masks are kept as bools
(SB3: float32), which is what the masked distribution reads.

``live_observations()`` narrows the rollout's observations to the columns that are not 0
in some step of it (about a fifth of them), for a first layer that reads only those
(``agents.networks.sb3.LiveInputFeatures.reading``): each minibatch then gathers a fifth
of the bytes."""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from agents.networks.mlp import live_columns


class FlatMaskableRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` flattened step-major (a view) with copy-free minibatches,
    one observation array reused by every rollout, and the rollout's live columns."""

    _obs_store: np.ndarray | None = None

    def reset(self) -> None:
        super().reset()  # its fresh zeros are never touched, so never paged in
        self.action_masks = np.ones(self.action_masks.shape, dtype=bool)
        if self._obs_store is None:
            self._obs_store = self.observations
        # every row is written before it is read; the last update's minibatches were copies
        self.observations = self._obs_store
        self.live = np.zeros(self.obs_shape[0], dtype=bool)  # per column, in this rollout

    def add(self, obs: np.ndarray, action: np.ndarray, reward: np.ndarray,
            episode_start: np.ndarray, value: torch.Tensor, log_prob: torch.Tensor,
            action_masks: np.ndarray | None = None) -> None:
        """SB3's ``add`` (``MaskableRolloutBuffer`` over ``RolloutBuffer``) for a flat
        observation and a discrete action, each array copied in once; it also marks the
        step's live columns."""
        if action_masks is not None:
            self.action_masks[self.pos] = action_masks.reshape((self.n_envs, self.mask_dims))
        if len(log_prob.shape) == 0:
            log_prob = log_prob.reshape(-1, 1)
        obs = obs.reshape((self.n_envs, *self.obs_shape))
        self.observations[self.pos] = obs
        self.live[live_columns(obs)] = True
        self.actions[self.pos] = action.reshape((self.n_envs, self.action_dim))
        self.rewards[self.pos] = reward
        self.episode_starts[self.pos] = episode_start
        self.values[self.pos] = value.clone().cpu().numpy().flatten()
        self.log_probs[self.pos] = log_prob.clone().cpu().numpy()
        self.pos += 1
        if self.pos == self.buffer_size:
            self.full = True

    def live_observations(self) -> np.ndarray:
        """Narrow the filled rollout's observations to the columns not 0 in any of them
        (returned, ascending); the minibatches then hold those columns only, in that
        order. The next ``reset`` gives back the whole observation array."""
        if not self.full or self.generator_ready:
            raise RuntimeError("live_observations needs a full rollout not yet handed out")
        cols = np.flatnonzero(self.live)
        flat = torch.from_numpy(self.observations.reshape(-1, self.obs_shape[0]))
        self.observations = flat.index_select(1, torch.from_numpy(cols)).numpy().reshape(
            self.buffer_size, self.n_envs, cols.size)
        return cols

    @staticmethod
    def swap_and_flatten(arr: np.ndarray) -> np.ndarray:
        shape = arr.shape
        if len(shape) < 3:
            shape = (*shape, 1)
        return arr.reshape(shape[0] * shape[1], *shape[2:])

    def to_torch(self, array: np.ndarray, copy: bool = True) -> torch.Tensor:
        # the minibatch arrays come from fancy indexing: fresh, owned by nobody else
        return torch.as_tensor(array, device=self.device)
