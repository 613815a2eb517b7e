"""MaskablePPO's rollout buffer without the copies that cost more than the network.

SB3 flattens each rollout array env-major (``swapaxes(0, 1)`` then ``reshape``), which
copies the whole observation buffer once per update (1024 games x 32 steps x 4,450
floats: 583 MB), allocates that buffer afresh for every rollout (its pages then fault in
one by one as the rollout writes them), and copies every minibatch twice (a fancy index,
then ``torch.tensor``).

Which sample sits where in the flat arrays does not matter to PPO: the minibatches are a
random permutation of all of them, and every array is flattened the same way. So this
buffer keeps one observation array for the whole run, flattens step-major (a free view of
the contiguous arrays), and hands the indexed (already fresh) minibatch arrays to torch
without another copy. The samples and their distribution are SB3's; only the
permutation's order over them differs."""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer


class FlatMaskableRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` flattened step-major (a view) with copy-free minibatches
    and one observation array reused by every rollout."""

    _obs_store: np.ndarray | None = None

    def reset(self) -> None:
        super().reset()  # its fresh zeros are never touched, so never paged in
        if self._obs_store is None:
            self._obs_store = self.observations
        # every row is written before it is read; the last update's minibatches were copies
        self.observations = self._obs_store

    @staticmethod
    def swap_and_flatten(arr: np.ndarray) -> np.ndarray:
        shape = arr.shape
        if len(shape) < 3:
            shape = (*shape, 1)
        return arr.reshape(shape[0] * shape[1], *shape[2:])

    def to_torch(self, array: np.ndarray, copy: bool = True) -> torch.Tensor:
        # the minibatch arrays come from fancy indexing: fresh, owned by nobody else
        return torch.as_tensor(array, device=self.device)
