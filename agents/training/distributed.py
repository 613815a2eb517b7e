"""Data-parallel MAPPO/IPPO under ``torchrun``: one process (rank) per share of the cores or
per GPU, each stepping its own batch of games on the batched engine.

    torchrun --nproc_per_node 2 -m agents.cli.train --task duo --num-envs 512

``torchrun`` sets ``WORLD_SIZE``, ``RANK`` and ``LOCAL_RANK``; ``Ranks.from_env`` joins the
process group (gloo on CPU, NCCL on CUDA with a GPU per rank), or, without them, is the
single process of a plain run, for which every method here does nothing. More ranks on a
machine than it has GPUs share them round-robin (``gpu_share``): the rollout is the
engine's, on the CPU cores, so ranks that split the cores keep one GPU busier than one
process does. The scheme is CleanRL's multi-GPU PPO:

- every rank builds the same networks from the same seed (and takes rank 0's weights once
  more at the start), plays its own games (rank ``r``'s game seeds start ``r`` seed spans
  above rank 0's: no two ranks play one game) and computes its own advantages;
- each minibatch's gradients are averaged over the ranks before the optimizer step
  (``average_gradients``), so the weights stay equal on every rank; the value
  normaliser's statistics are averaged alike (``average``);
- the step count is the sum over the ranks (``total``), so learning-rate and kickstart
  schedules and the stopping point agree;
- rank 0 alone logs, evaluates and writes checkpoints; at the end ``check_in_sync`` makes
  sure the ranks still hold the same weights.

``num_envs`` is per rank: two ranks of ``num_envs`` games train like one process of twice
as many games per update, with twice the minibatch size.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn


def under_torchrun() -> bool:
    """Is this process one rank of several (``torchrun`` set ``WORLD_SIZE`` above 1)?"""
    return int(os.environ.get("WORLD_SIZE", "1")) > 1


def gpu_share(local_rank: int, local_world: int, gpus: int) -> tuple[int, str]:
    """This rank's GPU and the process group's backend for ``local_world`` ranks on a
    machine with ``gpus`` GPUs: a GPU per rank over NCCL while there are enough, else the
    GPUs shared round-robin over gloo (NCCL refuses two ranks on one GPU), the reductions
    then staged through the CPU."""
    if gpus < 1:
        raise ValueError(f"gpu_share needs a GPU, got {gpus}")
    if local_world <= gpus:
        return local_rank, "nccl"
    return local_rank % gpus, "gloo"


def is_main_process() -> bool:
    """Rank 0, or a plain run: the process that reports."""
    return int(os.environ.get("RANK", "0")) == 0


@dataclass(frozen=True)
class Ranks:
    """This process's place among the training processes (1 rank: a plain run)."""

    rank: int = 0
    world: int = 1
    local_rank: int = 0
    local_world: int = 1
    gpu: int = 0  # this rank's GPU, on a run that trains on CUDA
    host_reduce: bool = False  # gloo over CUDA tensors: reduce copies on the CPU

    @property
    def active(self) -> bool:
        return self.world > 1

    @property
    def main(self) -> bool:
        """Does this rank log, evaluate and save?"""
        return self.rank == 0

    @classmethod
    def from_env(cls, device: str) -> Ranks:
        """The ranks ``torchrun`` describes in the environment (one rank when it does not),
        the process group joined. ``device``: the trainer's device choice (``auto``,
        ``cpu``, ``cuda``...), which picks the backend."""
        if not under_torchrun():
            return cls()
        world = int(os.environ["WORLD_SIZE"])
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        local_world = int(os.environ.get("LOCAL_WORLD_SIZE", str(world)))
        cuda = device != "cpu" and torch.cuda.is_available()
        gpu, backend = 0, "gloo"
        if cuda:
            gpu, backend = gpu_share(local_rank, local_world, torch.cuda.device_count())
            torch.cuda.set_device(gpu)
        ranks = cls(int(os.environ["RANK"]), world, local_rank, local_world, gpu,
                    host_reduce=cuda and backend == "gloo")
        if not dist.is_initialized():
            dist.init_process_group(backend)
        return ranks

    def device(self, device: torch.device) -> torch.device:
        """This rank's device: its GPU (``gpu_share``) when the run trains on CUDA."""
        if self.active and device.type == "cuda":
            return torch.device("cuda", self.gpu)
        return device

    def cpu_threads(self) -> int:
        """This rank's share of the machine's cores (at least 1)."""
        return max(1, (os.cpu_count() or 1) // self.local_world)

    def total(self, count: int, device: torch.device) -> int:
        """The sum of ``count`` over the ranks."""
        if not self.active:
            return count
        t = torch.tensor([count], dtype=torch.int64, device=device)
        return int(self._all_reduce(t).item())

    def average(self, x: torch.Tensor) -> torch.Tensor:
        """The mean of ``x`` over the ranks (a new tensor; ``x`` itself when alone)."""
        if not self.active:
            return x
        return self._all_reduce(x.detach().clone()) / self.world

    def broadcast(self, module: nn.Module) -> None:
        """Give every rank rank 0's parameters and buffers."""
        if self.active:
            for t in [*module.parameters(), *module.buffers()]:
                self._collective(t.data, lambda x: dist.broadcast(x, src=0))

    def average_gradients(self, params: list[nn.Parameter]) -> None:
        """Replace each gradient by its mean over the ranks, in one flat all-reduce; a
        parameter a rank left without a gradient (a loss term it skipped) counts as 0."""
        if not self.active:
            return
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in params]
        flat = self._all_reduce(torch.cat([g.reshape(-1) for g in grads]))
        flat /= self.world
        offset = 0
        for p in params:  # views into the reduced buffer, a fresh tensor: nothing to copy
            n = p.numel()
            p.grad = flat[offset:offset + n].view_as(p)
            offset += n

    def check_in_sync(self, module: nn.Module) -> None:
        """Raise when the ranks' weights differ (a gradient that skipped the average)."""
        if not self.active:
            return
        flat = torch.cat([p.detach().reshape(-1).double() for p in module.parameters()])
        mine = torch.stack([flat.sum(), (flat * flat).sum()])
        low = self._all_reduce(mine.clone(), dist.ReduceOp.MIN)
        high = self._all_reduce(mine.clone(), dist.ReduceOp.MAX)
        if not torch.equal(low, high):
            raise RuntimeError(f"rank {self.rank}: the ranks' weights differ "
                               f"(checksums {low.tolist()} to {high.tolist()})")

    def _all_reduce(self, t: torch.Tensor, op: dist.ReduceOp.RedOpType = dist.ReduceOp.SUM
                    ) -> torch.Tensor:
        """``t`` reduced over the ranks, in place; returns ``t``."""
        return self._collective(t, lambda x: dist.all_reduce(x, op=op))

    def _collective(self, t: torch.Tensor, run: Callable[[torch.Tensor], object]
                    ) -> torch.Tensor:
        """``run`` (an in-place collective) on ``t``, through a CPU copy when the backend
        cannot take ``t``'s device (``host_reduce``); returns ``t``."""
        if self.host_reduce:
            host = t.cpu()
            run(host)
            return t.copy_(host)
        run(t)
        return t

    def close(self) -> None:
        """Leave the process group together: a rank that tore its group down while
        another still used it (rank 0 saving the final checkpoint) could abort."""
        if self.active and dist.is_initialized():
            dist.barrier()
            dist.destroy_process_group()
