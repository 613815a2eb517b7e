"""The MLP actor's first layer trained on the kept observation columns only.

MAPPO's rollout keeps the observation columns that have been non-zero in some game since
training began (``Rollout.kept``, about 800 of 4,450 at 4 heroes). Every other column has
been 0 in every observation the learner has seen, so the first layer's weights for it have
had a zero gradient at every step; Adam's moments for them started at 0 and stayed there,
and Adam never moved those weights. Leaving them out of an update is therefore the same
update: ``KeptColumns`` takes the kept columns of the weight and of the optimiser's
per-weight state out as a parameter of their own for one update and puts them back after
it, so the full weight's gradient is never zero-filled, scattered into, clipped or stepped
(about a sixth of a 4-hero update on 2 cores, docs/benchmarks.md).
"""

from __future__ import annotations

from types import TracebackType

import torch
from torch import nn


class KeptColumns:
    """Within the block, ``opt`` trains ``part`` (``weight[:, cols]``, what ``__enter__``
    returns) in place of ``weight``; on leaving it, the trained columns and their optimiser
    state go back into ``weight`` and its state, the other columns untouched.

    ``cols`` must hold every column whose gradient can be non-zero in the block (the
    rollout's kept columns, which only grow). Steps taken in the block count for the
    whole weight: the step count is the state's own, shared."""

    def __init__(self, opt: torch.optim.Optimizer, weight: nn.Parameter,
                 cols: torch.Tensor) -> None:
        self.opt, self.weight, self.cols = opt, weight, cols
        self.part: nn.Parameter | None = None
        self.full: dict | None = None  # the weight's optimiser state while in the block

    def _swap(self, old: nn.Parameter, new: nn.Parameter) -> None:
        for group in self.opt.param_groups:
            group["params"] = [new if p is old else p for p in group["params"]]

    def __enter__(self) -> nn.Parameter:
        w, cols = self.weight, self.cols
        self.part = part = nn.Parameter(w.detach().index_select(1, cols))
        self._swap(w, part)
        state = self.opt.state.pop(w, None)
        if state:  # the per-weight tensors by column; the step count shared
            self.opt.state[part] = {k: v.index_select(1, cols) if _shaped(v, w) else v
                                    for k, v in state.items()}
        self.full = state
        return part

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        w, part, cols = self.weight, self.part, self.cols
        with torch.no_grad():
            w.index_copy_(1, cols, part)
        self._swap(part, w)
        state = self.opt.state.pop(part, None)
        if state:
            full = self.full or {}
            for k, v in state.items():
                if _shaped(v, part):
                    if k not in full:  # the weight's first step: its state starts at 0
                        full[k] = torch.zeros_like(w)
                    full[k].index_copy_(1, cols, v)
                else:
                    full[k] = v
            self.opt.state[w] = full
        self.part = None


def _shaped(v: object, like: torch.Tensor) -> bool:
    """Is the optimiser state entry ``v`` per weight of ``like`` (a moment, not a count)?"""
    return isinstance(v, torch.Tensor) and v.shape == like.shape
