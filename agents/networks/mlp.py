"""Torch building blocks of the MAPPO baseline: the flat masked actor (an MLP over the
whole observation vector), centralized critics, value normalisation. Shared by
``scripts/train_mappo.py`` and the checkpoint loader; ``agents.networks.entity`` is the
actor that reads entities instead."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn

MASKED_LOGIT = -1e8  # finite, so masked softmax and entropy stay NaN-free


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights and constant bias (the CleanRL/MAPPO initialisation)."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class MLP(nn.Module):
    """Tanh trunk + linear head. Under bf16 autocast (``amp``) only the trunk runs in bf16:
    the head's output stays float32 so log-probabilities and PPO ratios keep full
    precision (the actor's head on the CPU takes its gradients in bf16: ``HeadLinear``)."""

    def __init__(self, in_dim: int, hidden: list[int], out_dim: int, out_std: float) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        d = in_dim
        for h in hidden:
            layers += [layer_init(nn.Linear(d, h)), nn.Tanh()]
            d = h
        self.trunk = nn.Sequential(*layers)
        self.head = layer_init(nn.Linear(d, out_dim), std=out_std)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.trunk(x))

    def out(self, h: torch.Tensor) -> torch.Tensor:
        """The head on trunk features ``h``, in float32 even under autocast."""
        with torch.autocast(device_type=h.device.type, enabled=False):
            return self.head(h.float())


class Actor(nn.Module):
    """Shared policy of every hero: the deciding hero's observation -> masked logits."""

    sparse_input = True  # ``features`` may read a subset of the columns (``live_columns``)

    def __init__(self, obs_dim: int, n_actions: int, hidden: list[int]) -> None:
        super().__init__()
        self.net = MLP(obs_dim, hidden, n_actions, out_std=0.01)
        self.feat_dim = hidden[-1]

    def log_probs(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Log-probabilities [B, n_actions] over the legal actions only (``mask`` bool);
        illegal actions get a log-probability near -1e8, i.e. probability 0."""
        return self.log_probs_of(self.features(obs), mask)

    def features(self, obs: torch.Tensor, cols: torch.Tensor | None = None,
                 first: torch.Tensor | None = None) -> torch.Tensor:
        """The trunk's last hidden layer [B, hidden[-1]] (``TrunkCritic`` reads it too).

        With ``cols`` (``live_columns``), ``obs`` holds only those columns of the
        observation and the first layer multiplies only their weights: the same result
        when every other column is 0 (most are: empty board spaces, absent cards and
        seats), for a fraction of the work, and the other weights get a zero gradient as
        they would anyway. ``first``: those weights as a tensor of their own
        (``agents.training.kept_columns``), read instead of the whole weight's columns."""
        if cols is None:
            return self.net.trunk(obs)
        w = self.first_weights(cols) if first is None else first
        h = nn.functional.linear(obs, w, self.net.trunk[0].bias)
        return self.net.trunk[1:](h)

    def first_weights(self, cols: torch.Tensor) -> torch.Tensor:
        """The first layer's weights of the observation columns ``cols`` [hidden, len]."""
        return self.net.trunk[0].weight.index_select(1, cols)

    def value_features(self, h: torch.Tensor) -> torch.Tensor:
        """The part of ``features`` a value head reads: all of it."""
        return h

    def log_probs_of(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """``log_probs`` from trunk features ``h`` (``features``), the trunk run once."""
        return self.log_probs_on(h, mask).full(mask.shape[1])

    def log_probs_on(self, h: torch.Tensor, mask: torch.Tensor) -> LegalLogProbs:
        """``log_probs_of`` over the actions legal in some row of the batch only.

        On the CPU the head scores only those actions (about half of them at 2-6 heroes):
        an illegal action's logit is replaced by ``MASKED_LOGIT`` whatever it was, so the
        others need not be computed, and the head's weights of actions legal nowhere get
        the zero gradient they would get anyway. The float32 head is the costliest layer
        of an update (docs/benchmarks.md), and every later op on the log-probabilities
        (softmax, entropy, their gradients) runs on half the columns. On a GPU the whole
        head costs little and the set's size would sync the device."""
        if h.device.type != "cpu":
            return LegalLogProbs(masked_log_softmax(self.net.out(h), mask), None)
        head = self.net.head
        # a byte-wise max reads the bool mask several times faster than ``any`` on CPUs
        acts = mask.view(torch.uint8).amax(0).nonzero().squeeze(1)
        with torch.autocast(device_type="cpu", enabled=False):
            logits = HeadLinear.apply(h, head.weight.index_select(0, acts),
                                      head.bias.index_select(0, acts))
        return LegalLogProbs(masked_log_softmax(logits, mask.index_select(1, acts)), acts)


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of ``logits`` over the entries ``mask`` (bool) holds; the others
    get a log-probability near ``MASKED_LOGIT``, i.e. probability 0."""
    return logits.masked_fill(~mask, MASKED_LOGIT).log_softmax(-1)


class LegalLogProbs:
    """A batch's log-probabilities over ``acts``, the actions legal in some row (sorted
    action indices; None: every action), ``logp`` [B, len(acts)]. An action legal
    nowhere in the batch has probability 0 in every row, so its column can be left out:
    sampling, the log-probability of an action a row may take and the entropy are those
    of the whole distribution."""

    def __init__(self, logp: torch.Tensor, acts: torch.Tensor | None) -> None:
        self.logp, self.acts = logp, acts

    def at(self, actions: torch.Tensor) -> torch.Tensor:
        """Each row's log-probability of its action in ``actions`` [B] (action indices,
        each legal in its row)."""
        cols = actions if self.acts is None else torch.searchsorted(self.acts, actions)
        return self.logp.gather(1, cols[:, None]).squeeze(1)

    def sample(self, generator: torch.Generator | None = None) -> torch.Tensor:
        """One action index per row, drawn from the distribution."""
        cols = sample(self.logp, generator)
        return cols if self.acts is None else self.acts[cols]

    def entropy(self) -> torch.Tensor:
        """Each row's entropy."""
        return entropy(self.logp)

    def full(self, n_actions: int) -> torch.Tensor:
        """The log-probabilities over every action [B, n_actions] (``MASKED_LOGIT`` for
        the actions left out)."""
        if self.acts is None:
            return self.logp
        out = self.logp.new_full((self.logp.shape[0], n_actions), MASKED_LOGIT)
        return out.index_copy(1, self.acts, self.logp)


class HeadLinear(torch.autograd.Function):
    """The policy head's ``linear(h, w, b)`` with float32 logits, its backward in ``h``'s
    dtype. Under bf16 autocast the trunk's features ``h`` are bf16: the logits are still
    computed in float32 (log-probabilities and PPO ratios keep full precision), while the
    gradients take the bf16 matrix products every trunk layer's backward takes, at a
    quarter of the float32 cost on CPUs with bf16 dot products."""

    @staticmethod
    def forward(ctx, h: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(h, w)
        return nn.functional.linear(h.float(), w, b)

    @staticmethod
    def backward(ctx, g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h, w = ctx.saved_tensors
        gl = g.to(h.dtype)
        return gl @ w.to(h.dtype), (gl.t() @ h).to(w.dtype), g.sum(0)


def live_columns(x: np.ndarray) -> np.ndarray:
    """Indices of the columns of ``x`` [B, D] (float32) that are not 0 in some row. On the
    host, in numpy: one pass over the floats' bits, OR-ed down the rows; shifting out the
    sign bit leaves a column non-zero exactly where some row holds neither 0.0 nor -0.0."""
    bits = np.bitwise_or.reduce(np.ascontiguousarray(x, np.float32).view(np.uint32), axis=0)
    return np.flatnonzero(bits << np.uint32(1))


def sample(logp: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row drawn from ``logp`` (Gumbel-max: cheaper than ``Categorical``)."""
    u = torch.rand(logp.shape, device=logp.device, generator=generator).clamp_(1e-12, 1.0)
    return (logp - (-u.log()).log()).argmax(-1)


def entropy(logp: torch.Tensor) -> torch.Tensor:
    """Entropy of each row's distribution (masked actions contribute 0)."""
    # masked entries sit near -1e8, whose exp underflows: the slow path of exp on CPUs.
    # Clamped to -50 their exp is a normal float (2e-22) and their terms stay negligible
    lp = logp.clamp(min=-50.0)
    return -(lp.exp() * lp).sum(-1)


class Critic(nn.Module):
    """Centralized value of the global state (``VectorEnv`` ``obs["state"]``)."""

    def __init__(self, state_dim: int, hidden: list[int]) -> None:
        super().__init__()
        self.net = MLP(state_dim, hidden, 1, out_std=1.0)

    def forward(self, state: torch.Tensor) -> torch.Tensor:
        return self.net(state).squeeze(-1)


class TrunkCritic(nn.Module):
    """Value head on the actor's trunk (one shared trunk, MAPPO with ``shared_trunk``).

    Reads the deciding hero's trunk features (``Actor.features``) and, for MAPPO, the
    global state's sections beyond seat 0's observation (every seat's hand and the villain
    agent's hand: what the deciding hero cannot see); IPPO passes no extra features. The
    value loss trains the shared trunk together with the policy loss.
    """

    def __init__(self, feat_dim: int, extra_dim: int, hidden: list[int]) -> None:
        super().__init__()
        self.extra_dim = extra_dim
        self.net = MLP(feat_dim + extra_dim, hidden, 1, out_std=1.0)

    def forward(self, h: torch.Tensor, extra: torch.Tensor | None = None) -> torch.Tensor:
        if self.extra_dim:
            h = torch.cat([h, extra.to(h.dtype)], -1)
        return self.net(h).squeeze(-1)


class ValueNorm(nn.Module):
    """Running mean/std of value targets (MAPPO's value normalisation).

    The critic learns normalised targets; ``denormalize`` maps its outputs back for GAE.
    Statistics are debiased exponential averages so early updates are not skewed to 0.
    """

    def __init__(self, beta: float = 0.999, eps: float = 1e-5) -> None:
        super().__init__()
        self.beta = beta
        self.eps = eps
        self.register_buffer("mean", torch.zeros(()))
        self.register_buffer("mean_sq", torch.zeros(()))
        self.register_buffer("debias", torch.zeros(()))

    def _stats(self) -> tuple[torch.Tensor, torch.Tensor]:
        d = self.debias.clamp(min=self.eps)
        mean = self.mean / d
        var = (self.mean_sq / d - mean**2).clamp(min=1e-2)
        return mean, var.sqrt()

    @torch.no_grad()
    def update(self, x: torch.Tensor, average: Callable[[torch.Tensor], torch.Tensor] | None
               = None) -> None:
        """Fold the targets ``x`` in; ``average`` (data-parallel training) turns this
        batch's [mean, mean of squares] into their mean over every process's batch."""
        stats = torch.stack([x.mean(), (x**2).mean()])
        if average is not None:
            stats = average(stats)
        self.mean.mul_(self.beta).add_(stats[0] * (1 - self.beta))
        self.mean_sq.mul_(self.beta).add_(stats[1] * (1 - self.beta))
        self.debias.mul_(self.beta).add_(1 - self.beta)

    def normalize(self, x: torch.Tensor) -> torch.Tensor:
        mean, std = self._stats()
        return (x - mean) / std

    def denormalize(self, x: torch.Tensor) -> torch.Tensor:
        mean, std = self._stats()
        return x * std + mean


def bf16_is_fast(device: torch.device) -> bool:
    """Does bf16 autocast speed up training here? CUDA GPUs with bf16, and the CPUs
    ``cpu_bf16_is_fast`` names (docs/benchmarks.md, "bf16 on CPUs without AMX")."""
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    if device.type != "cpu":
        return False
    try:
        with open("/proc/cpuinfo") as f:
            return cpu_bf16_is_fast(f.read())
    except OSError:
        return False


def cpu_bf16_is_fast(cpuinfo: str) -> bool:
    """Is bf16 autocast the faster choice on the CPU ``cpuinfo`` (the text of
    ``/proc/cpuinfo``) describes? With AMX tiles (``amx_bf16``), and on AMD CPUs with
    AVX-512 BF16 (an EPYC of family 26 ran the MLP's learning step 2.0x and MAPPO at 4
    heroes 1.6x as fast in bf16). Not on Intel CPUs with AVX-512 BF16 but no AMX: there
    the casts around each layer cost more than the dot products save (MAPPO at 4 heroes
    1.39-1.46x faster in float32 on such a Xeon). Elsewhere bf16 is emulated."""
    fields: dict[str, list[str]] = {}  # the first processor's fields
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.split())
    flags = fields.get("flags", [])
    amd = fields.get("vendor_id") == ["AuthenticAMD"]
    return "amx_bf16" in flags or (amd and "avx512_bf16" in flags)


AMP_SETTINGS = ("auto", "true", "false")


def check_amp(amp: str) -> None:
    """A config's ``amp`` setting must be one of ``AMP_SETTINGS``."""
    if amp not in AMP_SETTINGS:
        raise ValueError(f"amp must be auto, true or false, got {amp!r}")


def resolve_amp(amp: str, device: str | torch.device) -> bool:
    """Whether a model on ``device`` runs under bf16 autocast for the setting ``amp``:
    ``auto`` where it is fast (``bf16_is_fast``), ``true``, ``false``."""
    check_amp(amp)
    if amp == "auto":
        return bf16_is_fast(torch.device(device))
    return amp == "true"
