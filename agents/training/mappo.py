"""The MAPPO learner of one side and its rollouts on the vector env.

``MappoLearner`` holds a side's masked actor, its critic (the global state for MAPPO, the
deciding agent's observation for IPPO), value normalisation and optimiser, and runs the
clipped PPO update (CleanRL-style). With ``shared_trunk`` the critic is a value head on the
actor's trunk (plus, for MAPPO, the state's sections past seat 0's observation: the hands).
``Rollout`` collects ``num_steps`` decisions of every game of its own ``VectorEnv``. For the
MLP actor it keeps only the observation columns that have been non-zero in some game since
training began (``Rollout.kept``; about a fifth of them at 4 heroes), and the first layer
multiplies only those (``Actor.features``): the full layer's result for less work, since
every other column is 0. The update trains that layer's weights of the kept columns only
(``agents.training.kept_columns``): the others have never had a gradient. On a CPU each
minibatch's gradient is the sum of its two halves' (``agents.training.row_halves``), run
side by side on the cores.

A rollout step is one decision per game, whoever makes it. The learner's side (the heroes,
or the villain agent of the Mastermind variant, ``agents.training.league``) acts with the
actor; the other side's rows are answered by a ``League`` of opponents. Those rows stay in
the sequence: for the learner they are transitions of its environment, so the critic
values them and GAE runs through them, but they carry no policy loss or entropy. Without
a villain agent every row is the heroes' and this is plain MAPPO. With ``seat`` (ad-hoc
teamwork, ``agents.adhoc``) the learner is one hero seat: the league (partners drawn from
each game's episode seed) answers the other hero seats' rows in the same way.

Rewards are the learner's column of the vector env's rewards (the team's for the heroes,
with the config's shaping; the villain's is minus the heroes' result). A truncated episode
is treated as ended (no bootstrap), as in CleanRL.
"""

from __future__ import annotations

import copy
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.checkpoints import CheckpointError, load_checkpoint, load_weights
from agents.networks import (
    Critic,
    TrunkCritic,
    ValueNorm,
    build_actor,
    live_columns,
    resolve_amp,
)
from agents.trained import MappoPolicy
from agents.training.config import config_dict
from agents.training.distributed import Ranks
from agents.training.kept_columns import KeptColumns
from agents.training.league import HEROES, League, reward_column, side_rows, side_won
from agents.training.row_halves import RowHalves
from hon_env.core.observe import OBS_DIM, STATE_DIM, STATE_TAIL
from hon_env.envs.vector import VectorEnv
from hon_env.spec import layout as L


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def kick_coef(cfg: Any, step: int) -> float:
    """Weight of the imitation term at ``step``: linear decay to 0 at kickstart_steps."""
    if cfg.kickstart_coef <= 0 or step >= cfg.kickstart_steps:
        return 0.0
    return cfg.kickstart_coef * (1.0 - step / cfg.kickstart_steps)


def teacher_for(side: str) -> Any:
    """The scripted policy a side imitates while kickstarting: the coordinated team for the
    heroes, the scripted villain for the villain."""
    if side == HEROES:
        from agents.scripted import CoordinatedPolicy

        return CoordinatedPolicy()
    from agents.villains import ScriptedVillain

    return ScriptedVillain()


class MappoLearner:
    """One side's networks, optimiser and PPO update. ``cfg`` is a MAPPO trainer config
    (``agents.cli.train_mappo.Config``): hidden, lr, clip_coef, ent_coef, ..."""

    def __init__(self, cfg: Any, device: torch.device, side: str = HEROES,
                 ranks: Ranks | None = None) -> None:
        self.cfg, self.device, self.side = cfg, device, side
        # data-parallel ranks (``agents.training.distributed``): one process by default
        self.ranks = ranks or Ranks()
        self.ippo = cfg.algo == "ippo"
        self.shared = bool(getattr(cfg, "shared_trunk", False))
        self.actor = build_actor(config_dict(cfg), OBS_DIM, L.N_ACTIONS).to(device)
        # the critic's own input besides the trunk (shared) or instead of it (separate): the
        # state's sections past seat 0's observation, the whole state, or (IPPO) nothing /
        # the observation; MAPPO's env encodes just the state it reads (``env_state``)
        self.state_width = STATE_TAIL if self.shared else STATE_DIM
        if self.shared:
            extra = 0 if self.ippo else STATE_TAIL
            self.critic = TrunkCritic(self.actor.feat_dim, extra,
                                      cfg.critic_hidden).to(device)
        else:
            self.critic = Critic(OBS_DIM if self.ippo else STATE_DIM, cfg.hidden).to(device)
        self.vnorm = ValueNorm().to(device)
        self.ranks.broadcast(self.actor)
        self.ranks.broadcast(self.critic)
        self.params = list(self.actor.parameters()) + list(self.critic.parameters())
        # the fused kernel does Adam's per-parameter arithmetic in one pass (CPU and CUDA)
        self.opt = torch.optim.Adam(self.params, lr=cfg.lr, eps=1e-5, fused=True)
        # bf16 autocast for the hidden layers (heads stay float32; see agents/networks.py)
        self.amp = resolve_amp(cfg.amp, device)
        self.autocast = self.amp_block()
        # a CPU minibatch's rows in two halves, side by side on the cores (``RowHalves``)
        self.halves = RowHalves()

    @property
    def env_state(self) -> bool | str:
        """The ``global_state`` its ``VectorEnv`` must encode: none for IPPO, only the
        state's own sections (``"tail"``) where the trunk reads the observation already."""
        if self.ippo:
            return False
        return "tail" if self.shared else True

    def critic_input(self, obs: dict[str, np.ndarray]) -> np.ndarray | None:
        """The critic's own input for a step's ``obs`` (None: the shared IPPO critic reads
        only the trunk) from an env that encodes ``env_state``."""
        if self.ippo:
            return None if self.shared else obs["observation"]
        return obs["state"]

    def forward(self, obs: torch.Tensor, critic_in: torch.Tensor | None,
                cols: torch.Tensor | None = None, train_actor: bool = True,
                first: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """The actor's features (``log_probs_on`` reads them) and normalised values [B]
        of a batch (the shared trunk runs once for both); ``cols``: ``obs`` holds only
        these observation columns, the others being 0 (``Actor.features``; ``first``:
        their first-layer weights as a tensor of their own: ``KeptColumns``' parameter,
        or the rollout's frozen copy, ``first_weights``).
        ``train_actor`` False: the features carry no gradient (the value head learns on
        a frozen trunk)."""
        with torch.set_grad_enabled(train_actor and torch.is_grad_enabled()):
            h = self.actor.features(obs, cols, first)
        if self.shared:
            return h, self.critic(self.actor.value_features(h), critic_in)
        return h, self.critic(critic_in)

    def set_lr(self, step: int, total: int) -> float:
        """Anneal the learning rate linearly to 5% of lr over ``total`` steps (when on)."""
        if self.cfg.anneal_lr:
            frac = 1.0 - min(1.0, step / max(1, total))
            self.opt.param_groups[0]["lr"] = max(frac, 0.05) * self.cfg.lr
        return self.opt.param_groups[0]["lr"]

    def policy(self, greedy: bool, device: str = "cpu", seed: int = 0) -> MappoPolicy:
        """A frozen copy of the actor as a ``Policy`` (evaluations and league snapshots)."""
        return MappoPolicy(copy.deepcopy(self.actor).to(device), device, greedy=greedy,
                           seed=seed)

    def save(self, path: Path, global_step: int) -> None:
        """A checkpoint ``agents.load_policy`` (or ``load_villain``) loads and ``--resume``
        continues."""
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save({
            "algo": "mappo", "side": self.side, "config": config_dict(self.cfg),
            "global_step": global_step, "obs_dim": OBS_DIM, "state_dim": STATE_DIM,
            "n_actions": L.N_ACTIONS, "actor": self.actor.state_dict(),
            "critic": self.critic.state_dict(), "value_norm": self.vnorm.state_dict(),
            "optimizer": self.opt.state_dict(),
        }, path)

    def resume(self, path: str) -> int:
        """Load the checkpoint at ``path`` to continue training; returns its step count."""
        ckpt = load_checkpoint(path, self.device)  # tensors and plain data only
        for key in ("critic", "value_norm", "optimizer", "global_step"):
            if key not in ckpt:
                raise CheckpointError(f"{path}: cannot resume: missing key {key!r}")
        saved = ckpt["config"].get("algo", "mappo")
        if saved != self.cfg.algo:
            raise CheckpointError(f"{path}: trained with algo {saved}; resume it with "
                                  f"--algo {saved}, not {self.cfg.algo}")
        side = ckpt.get("side", HEROES)
        if side != self.side:
            raise CheckpointError(f"{path}: trained the {side}; resume it with --side {side}, "
                                  f"not {self.side}")
        saved_shared = bool(ckpt["config"].get("shared_trunk", False))
        if saved_shared != self.shared:
            flag = str(saved_shared).lower()
            raise CheckpointError(f"{path}: trained with shared_trunk {flag}; resume it with "
                                  f"--shared-trunk {flag}")
        saved_net = ckpt["config"].get("network", "mlp")
        if saved_net != getattr(self.cfg, "network", "mlp"):
            raise CheckpointError(f"{path}: trained with network {saved_net}; resume it with "
                                  f"--network {saved_net}")
        load_weights(path, self.actor, ckpt["actor"], "actor")
        load_weights(path, self.critic, ckpt["critic"], "critic")
        load_weights(path, self.vnorm, ckpt["value_norm"], "value_norm")
        load_weights(path, self.opt, ckpt["optimizer"], "optimizer")
        return int(ckpt["global_step"])

    def first_weights(self, cols: torch.Tensor | None) -> torch.Tensor | None:
        """A frozen copy of the actor's first-layer weights of the observation columns
        ``cols``, in the dtype its forward reads them in (bf16 under ``amp``), for
        ``forward``'s ``first`` while the weights do not change (None: no ``cols``)."""
        if cols is None:
            return None
        w = self.actor.first_weights(cols).detach()
        return w.to(torch.bfloat16) if self.amp else w

    def kept_columns(self, cols: torch.Tensor | None, train_actor: bool
                     ) -> KeptColumns | nullcontext:
        """A block in which the optimiser trains only the first layer's weights of the
        buffer's columns ``cols`` (``KeptColumns``: the same update, for less work), where
        that holds: the MLP actor reading kept columns, and the actor training; and in one
        process only, since each rank keeps its own columns. Else a block that changes
        nothing (and gives None)."""
        if cols is None or not train_actor or self.ranks.active or not self.actor.sparse_input:
            return nullcontext()
        return KeptColumns(self.opt, self.actor.net.trunk[0].weight, cols)

    def amp_block(self) -> torch.autocast:
        """A new bf16 autocast block as ``amp`` says (autocast's state is per thread, and a
        block object must not be entered by two threads at once)."""
        return torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.amp)

    def actor_terms(self, h: torch.Tensor, mask: torch.Tensor, act: torch.Tensor,
                    old_logp: torch.Tensor, adv: torch.Tensor, teacher: torch.Tensor | None,
                    norm: tuple[torch.Tensor, torch.Tensor]) -> list[torch.Tensor]:
        """The PPO terms of learner rows from their trunk features ``h``, as sums over the
        rows: the clipped policy loss (advantages normalised by the minibatch's ``norm``,
        mean and standard deviation), the entropy, the imitation loss of the ``teacher``'s
        actions (0 without a teacher), and, without gradients, the clipped rows and
        CleanRL's estimate of KL(old || new)."""
        cfg = self.cfg
        with self.amp_block():
            dist = self.actor.log_probs_on(h, mask)
        logp = dist.at(act)
        ratio = (logp - old_logp).exp()
        a = (adv - norm[0]) / (norm[1] + 1e-8)
        pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef))
        imitation = h.new_zeros((), dtype=logp.dtype) if teacher is None else \
            -dist.at(teacher).sum()
        with torch.no_grad():
            clipped = ((ratio - 1).abs() > cfg.clip_coef).float().sum()
            kl = ((ratio - 1) - (logp - old_logp)).sum()
        return [pg.sum(), dist.entropy().sum(), imitation, clipped, kl]

    def part_grads(self, rows: UpdateRows, idx: torch.Tensor, step: MinibatchStep
                   ) -> tuple[list[torch.Tensor | None], torch.Tensor]:
        """The gradients of ``step.learning`` from the rows ``idx`` of a minibatch (a part
        of it, ``RowHalves``): its share of the minibatch's loss, whose terms are means
        over the whole minibatch, so the parts' gradients add up to the minibatch's. Also
        the part's sums [value loss, policy loss, entropy, imitation, clipped rows, KL]."""
        cfg = self.cfg
        sel = None if rows.every_row else rows.mine[idx]
        mine = idx if sel is None else idx[sel]  # the learner's rows
        # index_select gathers rows faster than advanced indexing on CPUs
        with self.amp_block():
            h, v = self.forward(rows.obs.index_select(0, idx),
                                None if rows.state is None else rows.state.index_select(0, idx),
                                step.cols, step.train_actor, step.first)
        v_sum = 0.5 * ((v - rows.target[idx]) ** 2).sum()
        loss = cfg.vf_coef * v_sum / step.rows
        sums = [v_sum.detach()] + [v_sum.new_zeros(())] * 5
        if step.norm is not None and mine.numel():
            terms = self.actor_terms(h if sel is None else h[sel], rows.mask[mine],
                                     rows.act[mine], rows.logp[mine], rows.adv[mine],
                                     None if rows.teacher is None else rows.teacher[mine],
                                     step.norm)
            pg, ent, imitation = terms[:3]
            loss = loss + (pg - cfg.ent_coef * ent + step.kick * imitation) / step.mine
            sums[1:] = [t.detach() for t in terms]
        grads = torch.autograd.grad(loss, step.learning, allow_unused=True)
        return list(grads), torch.stack(sums)

    def minibatch(self, rows: UpdateRows, idx: torch.Tensor, step: MinibatchStep,
                  share: int | None) -> torch.Tensor:
        """One optimiser step on the minibatch ``idx`` of ``rows``, its gradient summed
        over its parts (``RowHalves``); returns the minibatch's means [value loss, policy
        loss, entropy, imitation, clip fraction, KL]."""
        parts = self.halves.map(lambda part: self.part_grads(rows, part, step), idx, share)
        for j, p in enumerate(step.learning):
            grads = [g[j] for g, _ in parts if g[j] is not None]
            p.grad = None if not grads else grads[0] if len(grads) == 1 else grads[0] + grads[1]
        self.ranks.average_gradients(step.learning)
        nn.utils.clip_grad_norm_(step.learning, self.cfg.max_grad_norm)
        self.opt.step()
        sums = parts[0][1] if len(parts) == 1 else parts[0][1] + parts[1][1]
        return sums / sums.new_tensor([step.rows] + [max(step.mine, 1)] * 5)

    def update(self, roll: Rollout, kick: float, train_actor: bool = True
               ) -> dict[str, float]:
        """Clipped PPO epochs over ``roll``'s batch; returns the losses and statistics.
        The value loss covers every row, the policy loss and entropy the learner's rows;
        ``train_actor`` False (the critic's warm-up): the value loss alone, the actor's
        weights untouched."""
        cfg = self.cfg
        adv, returns = roll.advantages(self)
        batch = roll.S * roll.B
        mb = batch // cfg.num_minibatches
        f_ret = returns.reshape(-1)
        if cfg.value_norm:
            self.vnorm.update(f_ret, self.ranks.average if self.ranks.active else None)
        rows = UpdateRows.of(roll, adv.reshape(-1),
                             self.vnorm.normalize(f_ret) if cfg.value_norm else f_ret, kick)
        means = []  # tensors, read once per update (no device sync per batch)
        acting = []  # whether each minibatch had actor terms
        with self.kept_columns(roll.cols, train_actor) as first, \
                self.halves.threads(self.device) as share:
            # the critic's warm-up leaves the actor's gradients None, so Adam skips its
            # weights; the optimiser's list holds the first layer's kept columns in a block
            # of ``kept_columns``
            learning = (list(self.opt.param_groups[0]["params"]) if train_actor
                        else list(self.critic.parameters()))
            for _ in range(cfg.update_epochs):
                perm = torch.randperm(batch, device=self.device)
                for i in range(0, batch, mb):
                    idx = perm[i:i + mb]
                    mine = idx if rows.every_row else idx[rows.mine[idx]]
                    acts = train_actor and mine.numel() > 1
                    a = rows.adv[mine] if acts else None
                    step = MinibatchStep(learning, roll.cols, first, train_actor, kick,
                                         (a.mean(), a.std()) if acts else None,
                                         idx.numel(), mine.numel())
                    means.append(self.minibatch(rows, idx, step, share))
                    acting.append(acts)
        return update_stats(torch.stack(means).tolist(), acting, kick)


@dataclass
class UpdateRows:
    """A rollout's rows, flat, as the update reads them (``obs`` a view of the buffer's
    kept columns; ``teacher`` None without an imitation term)."""

    obs: torch.Tensor
    state: torch.Tensor | None
    mask: torch.Tensor
    mine: torch.Tensor
    every_row: bool
    act: torch.Tensor
    logp: torch.Tensor
    adv: torch.Tensor
    target: torch.Tensor
    teacher: torch.Tensor | None

    @classmethod
    def of(cls, roll: Rollout, adv: torch.Tensor, target: torch.Tensor, kick: float
           ) -> UpdateRows:
        batch = roll.S * roll.B
        mine = roll.mine_b.reshape(-1)
        return cls(roll.obs_view.reshape(batch, -1),
                   None if roll.state_b is None else roll.state_b.reshape(batch, -1),
                   roll.mask_b.reshape(batch, -1), mine, bool(mine.all()),
                   roll.act_b.reshape(-1), roll.logp_b.reshape(-1), adv, target,
                   roll.teacher_b.reshape(-1) if kick > 0 else None)


@dataclass
class MinibatchStep:
    """What one optimiser step trains and weighs: the parameters, the buffer's columns and
    the first layer's kept-column weights (``first``, None outside ``KeptColumns``),
    whether the actor trains, the imitation weight, the advantage normalisation of the
    learner's rows (None: no actor terms), and the minibatch's row and learner-row
    counts, by which its sums become means."""

    learning: list[torch.Tensor]
    cols: torch.Tensor | None
    first: torch.Tensor | None
    train_actor: bool
    kick: float
    norm: tuple[torch.Tensor, torch.Tensor] | None
    rows: int
    mine: int


def update_stats(means: list[list[float]], acting: list[bool], kick: float
                 ) -> dict[str, float]:
    """An update's ``train.csv`` losses from its minibatches' means (``minibatch``): the
    last minibatch's value loss, and the last one with actor terms' policy loss, entropy
    and imitation loss (0 before any); clip fraction and KL averaged over those."""
    acted = [m for m, a in zip(means, acting, strict=True) if a]
    last = acted[-1] if acted else [0.0] * 6
    return {"policy_loss": last[1], "value_loss": means[-1][0], "entropy": last[2],
            "approx_kl": float(np.mean([m[5] for m in acted])) if acted else float("nan"),
            "clip_fraction": (float(np.mean([m[4] for m in acted])) if acted
                              else float("nan")),
            "kickstart_loss": last[3] if kick > 0 else 0.0}


def train_step(learner: MappoLearner, roll: Rollout, step: int, total: int
               ) -> tuple[int, dict[str, float]]:
    """One rollout and one update of ``learner`` at ``step`` of ``total`` learner decisions
    (learning rate and kickstart weight follow ``step``); returns the decisions it took and
    its ``train.csv`` row (without steps/s)."""
    lr = learner.set_lr(step, total)
    kick = kick_coef(learner.cfg, step)
    train_actor = step >= learner.cfg.critic_warmup_steps
    t_roll = time.perf_counter()
    stats = roll.collect(learner, kick)
    t_learn = time.perf_counter()
    losses = learner.update(roll, kick, train_actor)
    done = time.perf_counter()
    return stats.decisions, {**stats.row(), **losses, "lr": lr, "kickstart_coef": kick,
                             "rollout_s": t_learn - t_roll, "learn_s": done - t_learn}


@dataclass
class RolloutStats:
    """What one rollout saw: the learner's decisions and the episodes that ended (won and
    lost from the learner's side, and their returns)."""

    decisions: int
    ended: int
    wins: int
    losses: int
    returns: list[float]

    def row(self) -> dict[str, float]:
        n = self.ended
        return {"episode_return": float(np.mean(self.returns)) if n else float("nan"),
                "episode_win_rate": self.wins / n if n else float("nan"),
                "episode_loss_rate": self.losses / n if n else float("nan"),
                "episodes": n}


class Rollout:
    """``num_steps`` decisions of each of ``env``'s games for a learner of ``side``; the
    other side's rows are played by ``opponents`` (None: the scenario has no villain agent
    and every row is the heroes'). With ``seat`` the learner is that hero seat only and
    ``opponents`` also play the other hero seats (their partners)."""

    def __init__(self, env: VectorEnv, cfg: Any, side: str, opponents: League | None,
                 device: torch.device, learner: MappoLearner, seat: int | None = None
                 ) -> None:
        if env.villain_agent and opponents is None:
            raise ValueError(f"scenario {env.scenario.id!r} has a villain agent: the other "
                             "side's rows need opponents")
        if seat is not None and (side != HEROES or opponents is None):
            raise ValueError("a learner of one hero seat needs side heroes and partners "
                             "(opponents) for the other seats")
        self.env, self.cfg, self.side, self.opponents = env, cfg, side, opponents
        self.seat = seat
        self.device = device
        S, B = self.S, self.B = cfg.num_steps, env.num_envs
        self.col = reward_column(env.scenario, side)
        # the MLP actor's first layer can read a subset of the observation columns; the
        # IPPO critic without a shared trunk reads the whole observation
        self.compact = learner.actor.sparse_input and not (learner.ippo and not learner.shared)
        # with ``compact``: the columns the buffer keeps, those non-zero in some observation
        # since training began (bool [OBS_DIM]), and their indices in the order the
        # buffer's first columns hold them (``cols``, on the host and on ``device``)
        self.kept = np.zeros(OBS_DIM, bool)
        self.host_cols = torch.zeros(0, dtype=torch.long)  # the env's arrays are on the host
        self.cols: torch.Tensor | None = self.host_cols.to(device) if self.compact else None
        # under autocast the first layer reads bf16 anyway: storing observations in bf16
        # halves the buffer and saves a cast per minibatch without changing a result. With
        # ``compact`` only the first ``len(cols)`` columns are written (``obs_view``)
        self.obs_b = torch.zeros((S, B, env.observation_dim), device=device,
                                 dtype=torch.bfloat16 if learner.amp else torch.float32)
        # the critic's own input (``MappoLearner.critic_input``): state columns (MAPPO),
        # the observation (IPPO, separate critic) or nothing (IPPO, shared trunk)
        self.state_b: torch.Tensor | None = None
        if not learner.ippo:
            if env.state_dim != learner.state_width or not env.global_state:
                raise ValueError(f"the learner's critic reads a state of "
                                 f"{learner.state_width} floats: make its VectorEnv with "
                                 f"global_state={learner.env_state!r}")
            self.state_b = torch.zeros((S, B, learner.state_width), device=device)
        elif not learner.shared:
            self.state_b = self.obs_b
        self.mask_b = torch.zeros((S, B, env.n_actions), dtype=torch.bool, device=device)
        self.mine_b = torch.ones((S, B), dtype=torch.bool, device=device)
        self.act_b = torch.zeros((S, B), dtype=torch.long, device=device)
        self.logp_b = torch.zeros((S, B), device=device)
        self.rew_b = torch.zeros((S, B), device=device)
        self.done_b = torch.zeros((S, B), device=device)
        self.val_b = torch.zeros((S, B), device=device)
        self.teacher_b = torch.zeros((S, B), dtype=torch.long, device=device)
        self.teacher = None
        # within a rollout, the first layer's frozen copy of the kept columns
        # (``MappoLearner.first_weights``; None: to be made, after an update or new columns)
        self.first: torch.Tensor | None = None
        self.returns_now = np.zeros(B, np.float64)  # the learner's return in each episode
        self.obs, _ = env.reset()
        if opponents is not None and opponents.draw is not None:
            opponents.new_episodes(np.arange(B), [env.episode_seed(i) for i in range(B)])
        self.next_done = torch.zeros(B, device=device)

    @property
    def obs_view(self) -> torch.Tensor:
        """The stored observations [S, B, columns]: the kept columns in ``cols``'s order
        with ``compact``, else every column."""
        return self.obs_b[:, :, :self.host_cols.numel()] if self.compact else self.obs_b

    def keep(self, x: np.ndarray) -> torch.Tensor:
        """``x`` (observations [B, OBS_DIM]) as the buffer keeps them: every observation
        column with ``compact`` off, else the kept columns, to which those non-zero in
        ``x`` are added first (at the end). The buffer's column for a new one has only ever
        held 0, as that column did in every observation stored so far: every row the
        buffer holds stays exact."""
        t = torch.from_numpy(x)
        if not self.compact:
            return t
        live = live_columns(x)
        new = live[~self.kept[live]]
        if new.size:
            self.kept[new] = True
            self.host_cols = torch.cat([self.host_cols, torch.from_numpy(new)])
            self.cols = self.host_cols.to(self.device)
            self.first = None  # the frozen copy lacks the new columns
        return t.index_select(1, self.host_cols)

    def learner_rows(self, seats: np.ndarray) -> np.ndarray:
        """Which rows of a batch (by deciding seat) the learner decides."""
        mine = side_rows(seats, self.side)
        return mine if self.seat is None else mine & (seats == self.seat)

    def collect(self, learner: MappoLearner, kick: float) -> RolloutStats:
        """Play ``num_steps`` steps of every game, filling the buffers."""
        stats = RolloutStats(0, 0, 0, 0, [])
        # the weights hold still through a rollout: the first layer's kept columns are
        # gathered (and cast) once per column set, not at every step
        self.first = None
        with learner.halves.threads(self.device) as share:
            for step in range(self.S):
                self.play_step(learner, kick, step, stats, share)
        return stats

    def play_step(self, learner: MappoLearner, kick: float, step: int, stats: RolloutStats,
                  share: int | None) -> None:
        """Step ``step`` of ``collect``: the learner's rows act (the games' halves side by
        side where ``share``, ``RowHalves``), the opponents the other rows, and every game
        steps."""
        env, dev = self.env, self.device
        obs = self.obs
        kept = self.keep(obs["observation"])  # first: it may widen ``obs_view``
        self.obs_view[step].copy_(kept)
        if self.state_b is not None and not learner.ippo:
            self.state_b[step].copy_(torch.from_numpy(learner.critic_input(obs)))
        self.mask_b[step].copy_(torch.from_numpy(obs["action_mask"]).bool())
        self.done_b[step] = self.next_done
        mine_np = self.learner_rows(obs["agent"])
        every_row = bool(mine_np.all())
        mine = torch.from_numpy(mine_np).to(dev)
        self.mine_b[step] = mine
        rows = np.flatnonzero(mine_np)
        stats.decisions += rows.size
        if kick > 0 and rows.size:
            if self.teacher is None:
                self.teacher = teacher_for(self.side)
            state, tabs = env.engine
            # every row the learner's: views, not copies of the batch's arrays
            sub = slice(None) if every_row else rows
            labels = torch.from_numpy(self.teacher.act(
                obs["observation"][sub], obs["action_mask"][sub], obs["agent"][sub],
                engine=(state[sub], tabs))).to(dev)
            if every_row:
                self.teacher_b[step] = labels
            else:
                self.teacher_b[step, mine] = labels
        if self.first is None:
            self.first = learner.first_weights(self.cols)
        # each half of the games samples with its own generator, seeded from torch's in a
        # fixed order: the same draws whichever half runs first
        seeds = torch.randint(2**62, (2,)).tolist()
        parts = learner.halves.map(
            lambda games: self.policy_step(learner, step, games, mine_np,
                                           seeds[0] if games.start == 0 else seeds[1]),
            range(self.B), share)
        action, self.logp_b[step], self.val_b[step] = (
            torch.cat([p[k] for p in parts]) for k in range(3))
        self.act_b[step] = action
        actions = action.cpu().numpy()
        if not every_row:
            others = np.flatnonzero(~mine_np)
            actions[others] = self.opponents.act(
                others, obs["observation"][others], obs["action_mask"][others],
                obs["agent"][others], engine=env.engine)
        self.obs, rewards, term, trunc, info = env.step(actions)
        r = rewards[:, self.col]
        self.rew_b[step].copy_(torch.from_numpy(r))
        self.returns_now += r
        done = term | trunc
        self.next_done = torch.from_numpy(done.astype(np.float32)).to(dev)
        if done.any():
            self.episodes_ended(np.flatnonzero(done), info["final_outcome"], stats)

    def policy_step(self, learner: MappoLearner, step: int, games: range,
                    mine_np: np.ndarray, seed: int
                    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The learner's actions (0 in other rows), their log-probabilities and every
        row's value at ``step`` in the games ``games``, its actions drawn with a generator
        seeded ``seed``; ``mine_np``: the batch's learner rows."""
        part = slice(games.start, games.stop)
        mine_part = mine_np[part]
        n = len(mine_part)
        action = torch.zeros(n, dtype=torch.long, device=self.device)
        logp = torch.zeros(n, device=self.device)
        gen = torch.Generator(self.device).manual_seed(seed)
        with torch.no_grad(), learner.amp_block():
            h, value = learner.forward(
                self.obs_view[step, part],
                None if self.state_b is None else self.state_b[step, part], self.cols,
                first=self.first)
            mask = self.mask_b[step, part]
            if mine_part.all():  # no opponent rows: the plain MAPPO step
                dist = learner.actor.log_probs_on(h, mask)
                action = dist.sample(gen)
                logp = dist.at(action)
            elif mine_part.any():
                mine = torch.from_numpy(mine_part).to(self.device)
                dist = learner.actor.log_probs_on(h[mine], mask[mine])
                a = dist.sample(gen)
                logp[mine] = dist.at(a)
                action[mine] = a
            return action, logp, learner.vnorm.denormalize(value)

    def episodes_ended(self, ended: np.ndarray, outcomes: np.ndarray, stats: RolloutStats
                       ) -> None:
        """Count the episodes of games ``ended`` (their ``final_outcome``s among
        ``outcomes``) into ``stats``, and start their next ones' returns and opponents."""
        stats.returns.extend(self.returns_now[ended].tolist())
        self.returns_now[ended] = 0.0
        out = outcomes[ended]
        won = int(side_won(out, self.side).sum())
        stats.ended += len(out)
        stats.wins += won
        stats.losses += int(((out == L.OUT_WIN) | (out == L.OUT_LOSS)).sum()) - won
        if self.opponents is not None:
            self.opponents.new_episodes(ended, [self.env.episode_seed(i) for i in ended])

    @torch.no_grad()
    def advantages(self, learner: MappoLearner) -> tuple[torch.Tensor, torch.Tensor]:
        """GAE advantages and returns of the collected steps (every row, both sides)."""
        cfg = self.cfg
        with learner.autocast:
            ob = self.keep(self.obs["observation"]).to(self.device)
            ci = learner.critic_input(self.obs)
            _, v = learner.forward(ob, None if ci is None else torch.from_numpy(ci).to(
                self.device), self.cols)
            next_value = learner.vnorm.denormalize(v)
        adv = torch.zeros_like(self.rew_b)
        last = torch.zeros(self.B, device=self.device)
        for t in reversed(range(self.S)):
            if t == self.S - 1:
                nonterminal, nv = 1.0 - self.next_done, next_value
            else:
                nonterminal, nv = 1.0 - self.done_b[t + 1], self.val_b[t + 1]
            delta = self.rew_b[t] + cfg.gamma * nv * nonterminal - self.val_b[t]
            last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
            adv[t] = last
        return adv, adv + self.val_b
